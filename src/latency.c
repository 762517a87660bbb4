/* latency.c: percentiles of groups of rows from their histogram cells. The
 * cells are visited once: each row has a group, and each group that
 * recorded latency one histogram. */
#include "pfsbench/latency.h"
#include "pfsbench/histogram.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static bool same_group(const struct pfs_row *a, const struct pfs_row *b, enum pfs_lat_by by)
{
	return !strcmp(a->test, b->test) && !strcmp(a->op, b->op) &&
	       (by == PFS_LAT_BY_OP || a->iteration == b->iteration);
}

/* Each row's group, and each group's first row: groups of rows that recorded
 * latency, numbered in order of appearance. Rows that did not are -1. */
static size_t number_groups(const struct pfs_row *rows, size_t nrows, enum pfs_lat_by by,
			    long *group, size_t *first)
{
	size_t ngroups = 0;

	for (size_t i = 0; i < nrows; i++) {
		group[i] = -1;
		if (!rows[i].lat_count)
			continue;
		if (by == PFS_LAT_BY_ROW) {
			first[ngroups] = i;
			group[i] = (long)ngroups++;
			continue;
		}
		for (size_t g = 0; g < ngroups && group[i] < 0; g++)
			if (same_group(&rows[first[g]], &rows[i], by))
				group[i] = (long)g;
		if (group[i] < 0) {
			first[ngroups] = i;
			group[i] = (long)ngroups++;
		}
	}
	return ngroups;
}

static void summarize(const struct pfs_hist *h, const struct pfs_row *first, enum pfs_lat_by by,
		      struct pfs_lat_summary *s)
{
	memset(s, 0, sizeof(*s));
	pfs_row_set_text(s->test, sizeof(s->test), first->test);
	pfs_row_set_text(s->op, sizeof(s->op), first->op);
	s->iteration = by == PFS_LAT_BY_OP ? PFS_LAT_ALL : first->iteration;
	s->rank = by == PFS_LAT_BY_ROW ? first->rank : PFS_LAT_ALL;
	s->step = by == PFS_LAT_BY_ROW ? first->step : 0;
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
		  size_t ncells, enum pfs_lat_by by, struct pfs_lat_hist **out, size_t *nout)
{
	long *group = malloc((nrows ? nrows : 1) * sizeof(*group));
	size_t *first = malloc((nrows ? nrows : 1) * sizeof(*first)), ngroups = 0;
	struct pfs_lat_hist *h = NULL;
	uint64_t *min = NULL, *max = NULL;
	int rc = -ENOMEM;

	*out = NULL;
	*nout = 0;
	if (!group || !first)
		goto out;
	ngroups = number_groups(rows, nrows, by, group, first);
	h = calloc(ngroups ? ngroups : 1, sizeof(*h));
	min = malloc((ngroups ? ngroups : 1) * sizeof(*min));
	max = calloc(ngroups ? ngroups : 1, sizeof(*max));
	if (!h || !min || !max)
		goto out;
	for (size_t g = 0; g < ngroups; g++) {
		h[g].first = first[g];
		h[g].hist = malloc(sizeof(*h[g].hist));
		if (!h[g].hist)
			goto out;
		pfs_hist_init(h[g].hist);
		min[g] = UINT64_MAX;
	}
	rc = -EINVAL;
	for (size_t i = 0; i < nrows; i++)
		if (group[i] >= 0) {
			size_t g = (size_t)group[i];

			min[g] = rows[i].lat_min_ns < min[g] ? rows[i].lat_min_ns : min[g];
			max[g] = rows[i].lat_max_ns > max[g] ? rows[i].lat_max_ns : max[g];
		}
	for (size_t c = 0; c < ncells; c++) {
		if (cells[c].row >= nrows || group[cells[c].row] < 0)
			goto out;
		if (pfs_hist_add_cell(h[group[cells[c].row]].hist, cells[c].bucket, cells[c].count))
			goto out;
	}
	for (size_t g = 0; g < ngroups; g++)
		if (!h[g].hist->n || pfs_hist_set_extremes(h[g].hist, min[g], max[g]))
			goto out;
	*out = h;
	*nout = ngroups;
	h = NULL;
	rc = 0;
out:
	pfs_lat_hists_free(h, ngroups);
	free(min);
	free(max);
	free(group);
	free(first);
	return rc;
}

int pfs_lat_groups(const struct pfs_row *rows, size_t nrows, const struct pfs_lat_cell *cells,
		   size_t ncells, enum pfs_lat_by by, struct pfs_lat_summary **out, size_t *nout)
{
	struct pfs_lat_hist *h;
	size_t n;
	int rc = pfs_lat_hists(rows, nrows, cells, ncells, by, &h, &n);

	*out = NULL;
	*nout = 0;
	if (rc)
		return rc;
	*out = calloc(n ? n : 1, sizeof(**out));
	if (!*out) {
		pfs_lat_hists_free(h, n);
		return -ENOMEM;
	}
	for (size_t g = 0; g < n; g++)
		summarize(h[g].hist, &rows[h[g].first], by, &(*out)[g]);
	*nout = n;
	pfs_lat_hists_free(h, n);
	return 0;
}

const struct pfs_lat_summary *pfs_lat_find(const struct pfs_lat_summary *s, size_t n,
					   const char *test, const char *op)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(s[i].test, test) && !strcmp(s[i].op, op))
			return &s[i];
	return NULL;
}
