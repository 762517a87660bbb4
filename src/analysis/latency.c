/* latency.c: percentiles of groups of rows from their histogram cells.
 * Bounded for any file (docs/security.md, "Bounded work"): the groups are
 * found by sorting the rows (O(n log n)), the cells visited once, in
 * group order, and one histogram (36 KB) is held at a time; pictures,
 * which keep one per group they draw, cap the groups. */
#include "pfsbench/analysis/latency.h"
#include "pfsbench/core/histogram.h"
#include "pfsbench/core/rowindex.h"
#include "pfsbench/core/util.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define NO_LATENCY (-1) /* a row that recorded none */
#define LEFT_OUT (-2)   /* a row of a group past the cap */

/* The groups of a file's rows: each row's (NO_LATENCY, LEFT_OUT or its
 * group), each group's first row, the groups numbered in order of their
 * first rows; and their cells, in group order. */
struct walk {
	long *group;   /* nrows */
	size_t *first; /* ngroups */
	size_t ngroups;
	size_t *cell;  /* the cells' indexes, by group */
	size_t *start; /* group g's are cell[start[g]..start[g + 1]) */
	uint64_t *min, *max; /* ngroups: the extremes of the group's rows */
};

static void walk_free(struct walk *w)
{
	free(w->group);
	free(w->first);
	free(w->cell);
	free(w->start);
	free(w->min);
	free(w->max);
}

static bool has_latency(const struct pfs_row *r)
{
	return r->lat_count != 0;
}

/* Numbers the groups in w->group and w->first: by test, op and iteration
 * as far as by groups, each row its own group for PFS_LAT_BY_ROW, in order
 * of first row; those past the cap (the first groups_max, of the first
 * tests_max tests, a test's place being its first row's) are LEFT_OUT.
 * Scratch: four arrays of nrows. */
static int number_groups(const struct pfs_row *rows, size_t nrows, enum pfs_lat_by by,
			 struct pfs_lat_cap *cap, struct walk *w)
{
	static const enum pfs_row_field by_row[] = { PFS_ROW_ITSELF, PFS_ROW_END },
					by_test[] = { PFS_ROW_TEST, PFS_ROW_END },
					by_op[] = { PFS_ROW_TEST, PFS_ROW_OP, PFS_ROW_END },
					by_iteration[] = { PFS_ROW_TEST, PFS_ROW_OP,
							   PFS_ROW_ITERATION, PFS_ROW_END },
					by_node[] = { PFS_ROW_TEST, PFS_ROW_OP, PFS_ROW_ITERATION,
						      PFS_ROW_STEP, PFS_ROW_NODE, PFS_ROW_END };
	const enum pfs_row_field *key = by == PFS_LAT_BY_ROW	? by_row
				      : by == PFS_LAT_BY_NODE ? by_node
				      : by == PFS_LAT_BY_OP   ? by_op
							      : by_iteration;
	size_t len = (nrows ? nrows : 1) * sizeof(size_t);
	size_t *group = malloc(len), *test = malloc(len), *test_first = malloc(len);
	size_t *number = malloc(len), ng = 0, nt = 0, kept = 0;
	int rc = -ENOMEM;

	w->first = malloc(len);
	if (!group || !test || !test_first || !number || !w->first)
		goto out;
	if (pfs_row_number(rows, nrows, key, has_latency, group, w->first, &ng) ||
	    pfs_row_number(rows, nrows, by == PFS_LAT_BY_ROW ? by_row : by_test, has_latency, test,
			   test_first, &nt))
		goto out;
	for (size_t g = 0; g < ng; g++) {
		number[g] = SIZE_MAX; /* none: past the cap */
		if (cap && cap->groups_max && g >= cap->groups_max)
			continue;
		if (cap && cap->tests_max && test[w->first[g]] >= cap->tests_max)
			continue;
		w->first[kept] = w->first[g];
		number[g] = kept++;
	}
	for (size_t i = 0; i < nrows; i++)
		w->group[i] = group[i] == PFS_ROW_NONE ? NO_LATENCY
			      : number[group[i]] == SIZE_MAX ? LEFT_OUT
							     : (long)number[group[i]];
	w->ngroups = kept;
	if (cap) {
		cap->groups = ng;
		cap->tests = nt;
	}
	rc = 0;
out:
	free(group);
	free(test);
	free(test_first);
	free(number);
	return rc;
}

/* The groups of the rows, and their cells by group (a counting sort).
 * Returns 0, -ENOMEM, or -EINVAL for a cell of no row, or of a row that
 * recorded no latency. */
static int walk_open(const struct pfs_row *rows, size_t nrows, const struct pfs_lat_cell *cells,
		     size_t ncells, enum pfs_lat_by by, struct pfs_lat_cap *cap, struct walk *w)
{
	int rc;

	memset(w, 0, sizeof(*w));
	w->group = malloc((nrows ? nrows : 1) * sizeof(*w->group));
	if (!w->group)
		return -ENOMEM;
	rc = number_groups(rows, nrows, by, cap, w);
	if (rc)
		return rc;
	w->start = calloc(w->ngroups + 2, sizeof(*w->start));
	w->cell = malloc((ncells ? ncells : 1) * sizeof(*w->cell));
	w->min = malloc((w->ngroups + 1) * sizeof(*w->min));
	w->max = calloc(w->ngroups + 1, sizeof(*w->max));
	if (!w->start || !w->cell || !w->min || !w->max)
		return -ENOMEM;
	for (size_t g = 0; g < w->ngroups; g++)
		w->min[g] = UINT64_MAX;
	for (size_t i = 0; i < nrows; i++) {
		long g = w->group[i];

		if (g >= 0) {
			w->min[g] = rows[i].lat_min_ns < w->min[g] ? rows[i].lat_min_ns : w->min[g];
			w->max[g] = rows[i].lat_max_ns > w->max[g] ? rows[i].lat_max_ns : w->max[g];
		}
	}
	for (size_t c = 0; c < ncells; c++) {
		if (cells[c].row >= nrows || w->group[cells[c].row] == NO_LATENCY)
			return -EINVAL;
		if (w->group[cells[c].row] >= 0)
			w->start[w->group[cells[c].row] + 2]++;
	}
	for (size_t g = 0; g < w->ngroups; g++)
		w->start[g + 2] += w->start[g + 1];
	for (size_t c = 0; c < ncells; c++)
		if (w->group[cells[c].row] >= 0)
			w->cell[w->start[w->group[cells[c].row] + 1]++] = c;
	return 0;
}

/* Group g's histogram in h: its cells, its rows' extremes. */
static int walk_hist(const struct walk *w, const struct pfs_lat_cell *cells, size_t g,
		     struct pfs_hist *h)
{
	pfs_hist_init(h);
	for (size_t k = w->start[g]; k < w->start[g + 1]; k++)
		if (pfs_hist_add_cell(h, cells[w->cell[k]].bucket, cells[w->cell[k]].count))
			return -EINVAL;
	return !h->n || pfs_hist_set_extremes(h, w->min[g], w->max[g]) ? -EINVAL : 0;
}

static void summarize(const struct pfs_hist *h, const struct pfs_row *first, enum pfs_lat_by by,
		      struct pfs_lat_summary *s)
{
	memset(s, 0, sizeof(*s));
	pfs_row_set_text(s->test, sizeof(s->test), first->test);
	pfs_row_set_text(s->op, sizeof(s->op), first->op);
	s->iteration = by == PFS_LAT_BY_OP ? PFS_LAT_ALL : first->iteration;
	s->rank = by == PFS_LAT_BY_ROW ? first->rank : PFS_LAT_ALL;
	s->node = by == PFS_LAT_BY_ROW || by == PFS_LAT_BY_NODE ? first->node_index : PFS_LAT_ALL;
	s->step = by == PFS_LAT_BY_ROW || by == PFS_LAT_BY_NODE ? first->step : 0;
	s->n = h->n;
	s->min_ns = h->min_ns;
	s->p50_ns = pfs_hist_percentile(h, 50);
	s->p90_ns = pfs_hist_percentile(h, 90);
	s->p99_ns = pfs_hist_percentile(h, 99);
	s->p999_ns = pfs_hist_percentile(h, 99.9);
	s->max_ns = h->max_ns;
}

void pfs_lat_hists_free(struct pfs_lat_hist *h, size_t n)
{
	for (size_t g = 0; h && g < n; g++)
		free(h[g].hist);
	free(h);
}

int pfs_lat_hists(const struct pfs_row *rows, size_t nrows, const struct pfs_lat_cell *cells,
		  size_t ncells, enum pfs_lat_by by, struct pfs_lat_cap *cap,
		  struct pfs_lat_hist **out, size_t *nout)
{
	struct pfs_lat_hist *h = NULL;
	struct walk w;
	int rc = walk_open(rows, nrows, cells, ncells, by, cap, &w);

	*out = NULL;
	*nout = 0;
	if (rc)
		goto out;
	rc = -ENOMEM;
	h = calloc(w.ngroups ? w.ngroups : 1, sizeof(*h));
	if (!h)
		goto out;
	for (size_t g = 0; g < w.ngroups; g++) {
		h[g].first = w.first[g];
		h[g].hist = malloc(sizeof(*h[g].hist));
		if (!h[g].hist) {
			rc = -ENOMEM;
			goto out;
		}
		if ((rc = walk_hist(&w, cells, g, h[g].hist)))
			goto out;
	}
	*out = h;
	*nout = w.ngroups;
	h = NULL;
	rc = 0;
out:
	pfs_lat_hists_free(h, w.ngroups);
	walk_free(&w);
	return rc;
}

int pfs_lat_groups(const struct pfs_row *rows, size_t nrows, const struct pfs_lat_cell *cells,
		   size_t ncells, enum pfs_lat_by by, struct pfs_lat_summary **out, size_t *nout)
{
	struct pfs_hist *h = malloc(sizeof(*h));
	struct walk w;
	int rc = walk_open(rows, nrows, cells, ncells, by, NULL, &w);

	*out = NULL;
	*nout = 0;
	if (!rc && !h)
		rc = -ENOMEM;
	if (!rc && !(*out = calloc(w.ngroups ? w.ngroups : 1, sizeof(**out))))
		rc = -ENOMEM;
	for (size_t g = 0; !rc && g < w.ngroups; g++)
		if (!(rc = walk_hist(&w, cells, g, h)))
			summarize(h, &rows[w.first[g]], by, &(*out)[g]);
	if (rc) {
		free(*out);
		*out = NULL;
	} else {
		*nout = w.ngroups;
	}
	walk_free(&w);
	free(h);
	return rc;
}

enum pfs_lat_by pfs_lat_finest(const char *latency_detail)
{
	return latency_detail && !strcmp(latency_detail, "node") ? PFS_LAT_BY_NODE
								  : PFS_LAT_BY_ROW;
}

const struct pfs_lat_summary *pfs_lat_find(const struct pfs_lat_summary *s, size_t n,
					   const char *test, const char *op)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(s[i].test, test) && !strcmp(s[i].op, op))
			return &s[i];
	return NULL;
}
