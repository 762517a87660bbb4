/* latmerge.c: a node's latency cells merged by their rows' key
 * (include/pfsbench/core/latmerge.h). */
#include "pfsbench/core/latmerge.h"
#include "pfsbench/core/util.h"

#include <stdlib.h>
#include <string.h>

void pfs_keyed_cell_set(struct pfs_keyed_cell *k, const struct pfs_row *row, uint32_t rank,
			uint32_t bucket, uint64_t count)
{
	memset(k, 0, sizeof(*k));
	pfs_row_set_text(k->test, sizeof(k->test), row->test);
	pfs_row_set_text(k->op, sizeof(k->op), row->op);
	k->iteration = row->iteration;
	k->step = row->step;
	k->rank = rank;
	k->bucket = bucket;
	k->count = count;
}

static int key_cmp(const struct pfs_keyed_cell *a, const struct pfs_keyed_cell *b)
{
	int c = strncmp(a->test, b->test, sizeof(a->test));

	if (!c)
		c = strncmp(a->op, b->op, sizeof(a->op));
	if (!c)
		c = a->iteration < b->iteration ? -1 : a->iteration > b->iteration;
	if (!c)
		c = a->step < b->step ? -1 : a->step > b->step;
	return c;
}

int pfs_keyed_cell_is_of(const struct pfs_keyed_cell *k, const struct pfs_row *row)
{
	struct pfs_keyed_cell r;

	pfs_keyed_cell_set(&r, row, 0, 0, 0);
	return key_cmp(k, &r) == 0;
}

static int by_key_bucket(const void *pa, const void *pb)
{
	const struct pfs_keyed_cell *a = pa, *b = pb;
	int c = key_cmp(a, b);

	return c ? c : a->bucket < b->bucket ? -1 : a->bucket > b->bucket;
}

static int by_rank_key_bucket(const void *pa, const void *pb)
{
	const struct pfs_keyed_cell *a = pa, *b = pb;

	return a->rank != b->rank ? (a->rank < b->rank ? -1 : 1) : by_key_bucket(pa, pb);
}

size_t pfs_keyed_cells_merge(struct pfs_keyed_cell *c, size_t n)
{
	size_t out = 0;

	if (!n)
		return 0;
	qsort(c, n, sizeof(*c), by_key_bucket);
	for (size_t i = 0; i < n;) {
		size_t end = i + 1;
		uint32_t carrier = c[i].rank;

		/* one key's cells: [i, end) */
		while (end < n && !key_cmp(&c[i], &c[end]))
			end++;
		for (size_t j = i; j < end; j++)
			carrier = c[j].rank < carrier ? c[j].rank : carrier;
		for (size_t j = i; j < end; j++) {
			if (j > i && c[j].bucket == c[out - 1].bucket) {
				c[out - 1].count = pfs_add_sat_u64(c[out - 1].count, c[j].count);
				continue;
			}
			c[out] = c[j];
			c[out++].rank = carrier;
		}
		i = end;
	}
	qsort(c, out, sizeof(*c), by_rank_key_bucket);
	return out;
}
