/* rowindex.c: sorting, finding and numbering a results file's rows by a
 * key of their fields (include/pfsbench/core/rowindex.h). The readers
 * (latency, compare, slow nodes, pictures, show, the matrix's judge) each
 * used to carry their own sort and group-by; here it is once, O(n log n)
 * for any number of names, with ties broken by row so that every sort is
 * total and gives the same order on every C library. */
#include "pfsbench/core/rowindex.h"
#include "pfsbench/core/results.h"
#include "pfsbench/core/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int u32_cmp(uint32_t a, uint32_t b)
{
	return (a > b) - (a < b);
}

int pfs_row_cmp(const struct pfs_row *a, const struct pfs_row *b, const enum pfs_row_field *key)
{
	int d = 0;

	for (; !d && *key != PFS_ROW_END; key++) {
		switch (*key) {
		case PFS_ROW_TEST:
			d = strncmp(a->test, b->test, sizeof(a->test));
			break;
		case PFS_ROW_OP:
			d = strncmp(a->op, b->op, sizeof(a->op));
			break;
		case PFS_ROW_ITERATION:
			d = u32_cmp(a->iteration, b->iteration);
			break;
		case PFS_ROW_STEP:
			d = u32_cmp(a->step, b->step);
			break;
		case PFS_ROW_NODE:
			d = u32_cmp(a->node_index, b->node_index);
			break;
		case PFS_ROW_RANK:
			d = u32_cmp(a->rank, b->rank);
			break;
		case PFS_ROW_ITSELF:
			d = (a > b) - (a < b);
			break;
		case PFS_ROW_END:
			break;
		}
	}
	return d;
}

struct sort_ctx {
	const struct pfs_row *rows;
	const enum pfs_row_field *key;
};

static int by_key(const void *pa, const void *pb, void *arg)
{
	const struct sort_ctx *c = arg;
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	int d = pfs_row_cmp(&c->rows[a], &c->rows[b], c->key);

	return d ? d : (a > b) - (a < b);
}

void pfs_row_sort(const struct pfs_row *rows, size_t *idx, size_t n,
		  const enum pfs_row_field *key)
{
	if (n)
		qsort_r(idx, n, sizeof(*idx), by_key, &(struct sort_ctx){ rows, key });
}

/* The first of idx[0..n) whose row is not before probe (upper: not equal
 * or before). */
static size_t bound(const struct pfs_row *rows, const size_t *idx, size_t n,
		    const enum pfs_row_field *key, const struct pfs_row *probe, bool upper)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int d = pfs_row_cmp(&rows[idx[mid]], probe, key);

		if (d < 0 || (upper && !d))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void pfs_row_range(const struct pfs_row *rows, const size_t *idx, size_t n,
		   const enum pfs_row_field *key, const struct pfs_row *probe, size_t *lo,
		   size_t *hi)
{
	*lo = bound(rows, idx, n, key, probe, false);
	*hi = *lo + bound(rows, idx + *lo, n - *lo, key, probe, true);
}

/* One sort puts each group's rows together, led by its first row; the
 * groups, numbered in that sort's order, are then renumbered by the rank
 * of their first rows. */
int pfs_row_number(const struct pfs_row *rows, size_t nrows, const enum pfs_row_field *key,
		   bool (*keep)(const struct pfs_row *), size_t *group, size_t *first,
		   size_t *ngroups)
{
	size_t *idx = malloc((nrows ? nrows : 1) * sizeof(*idx)), *sorted = NULL, n = 0, g = 0;

	*ngroups = 0;
	if (!idx)
		return -ENOMEM;
	for (size_t i = 0; i < nrows; i++) {
		group[i] = PFS_ROW_NONE;
		if (!keep || keep(&rows[i]))
			idx[n++] = i;
	}
	pfs_row_sort(rows, idx, n, key);
	for (size_t k = 0; k < n; k++) {
		if (!k || pfs_row_cmp(&rows[idx[k - 1]], &rows[idx[k]], key))
			first[g++] = idx[k];
		group[idx[k]] = g - 1;
	}
	sorted = malloc((g ? g : 1) * sizeof(*sorted));
	if (!sorted) {
		free(idx);
		return -ENOMEM;
	}
	memcpy(sorted, first, g * sizeof(*sorted));
	pfs_sort(sorted, g, sizeof(*sorted), pfs_size_cmp);
	/* idx, free again: each group's number in order of first row */
	for (size_t k = 0; k < g; k++)
		idx[k] = pfs_size_rank(sorted, g, first[k]);
	for (size_t i = 0; i < nrows; i++)
		if (group[i] != PFS_ROW_NONE)
			group[i] = idx[group[i]];
	memcpy(first, sorted, g * sizeof(*first));
	*ngroups = g;
	free(idx);
	free(sorted);
	return 0;
}
