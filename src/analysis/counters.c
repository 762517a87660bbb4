/* counters.c: the counters of runs side by side (include/pfsbench/analysis/
 * counters.h). A run's counters are sorted by (test, step, name,
 * iteration), so each line's iterations come together once. */
#include "pfsbench/analysis/counters.h"
#include "pfsbench/archive/archive.h"
#include "pfsbench/core/util.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static int by_line(const struct pfs_fsstat *a, const struct pfs_fsstat *b)
{
	int c = strncmp(a->test, b->test, sizeof(a->test));

	if (!c)
		c = (a->step > b->step) - (a->step < b->step);
	if (!c)
		c = strncmp(a->name, b->name, sizeof(a->name));
	return c;
}

static int by_line_iteration(const void *pa, const void *pb)
{
	const struct pfs_fsstat *a = *(const struct pfs_fsstat *const *)pa;
	const struct pfs_fsstat *b = *(const struct pfs_fsstat *const *)pb;
	int c = by_line(a, b);

	return c ? c : (a->iteration > b->iteration) - (a->iteration < b->iteration);
}

/* The line of f, or n when there is none yet. */
static size_t find_line(const struct pfs_ctr_table *t, const struct pfs_fsstat *f)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->lines[i].step == f->step &&
		    !strncmp(t->lines[i].test, f->test, sizeof(f->test)) &&
		    !strncmp(t->lines[i].name, f->name, sizeof(f->name)))
			return i;
	return t->n;
}

/* The ops of (test, step) in the first run whose rows have it, distinct,
 * joined by '+'; cut short, or "", when they do not fit. */
static void step_ops(const struct pfs_archive *runs, size_t nruns, struct pfs_ctr_line *l)
{
	size_t used = 0;

	for (size_t r = 0; r < nruns && !l->ops[0]; r++)
		for (size_t i = 0; i < runs[r].nrows; i++) {
			const struct pfs_row *row = &runs[r].rows[i];
			char op[sizeof(row->op)];
			bool there = false;
			size_t n;

			if (row->step != l->step || strncmp(row->test, l->test, sizeof(row->test)))
				continue;
			memcpy(op, row->op, sizeof(op));
			op[sizeof(op) - 1] = 0;
			n = strlen(op);
			/* Already there: as a whole word between '+'s. */
			for (const char *p = strstr(l->ops, op); n && p && !there; p = strstr(p + 1, op))
				there = (p == l->ops || p[-1] == '+') && (!p[n] || p[n] == '+');
			if (!n || there)
				continue;
			if (used + n + 2 > sizeof(l->ops)) {
				l->ops[0] = 0;
				return;
			}
			used += (size_t)snprintf(l->ops + used, sizeof(l->ops) - used, "%s%s",
						 used ? "+" : "", op);
		}
}

/* Every (test, step, name) of every run, in the order first seen. */
static int collect_lines(const struct pfs_archive *runs, size_t nruns, struct pfs_ctr_table *t)
{
	size_t cap = 0;

	for (size_t r = 0; r < nruns; r++)
		for (size_t i = 0; i < runs[r].nfsstats; i++) {
			const struct pfs_fsstat *f = &runs[r].fsstats[i];
			struct pfs_ctr_line *l;

			if (find_line(t, f) < t->n)
				continue;
			if (t->n == cap) {
				void *p = realloc(t->lines, (cap = cap * 2 + 64) * sizeof(*t->lines));

				if (!p)
					return -ENOMEM;
				t->lines = p;
			}
			l = &t->lines[t->n++];
			memset(l, 0, sizeof(*l));
			memcpy(l->test, f->test, sizeof(l->test));
			l->test[sizeof(l->test) - 1] = 0;
			l->step = f->step;
			memcpy(l->name, f->name, sizeof(l->name));
			l->name[sizeof(l->name) - 1] = 0;
			step_ops(runs, nruns, l);
		}
	return 0;
}

/* How many iterations of test a ran: the distinct iterations of its rows,
 * at least those its counters name (counted by the caller). */
static size_t iterations_of(const struct pfs_archive *a, const char *test)
{
	uint32_t *seen = malloc((a->nrows ? a->nrows : 1) * sizeof(*seen));
	size_t n = 0;

	if (!seen)
		return 0;
	for (size_t i = 0; i < a->nrows; i++) {
		size_t k;

		if (strncmp(a->rows[i].test, test, sizeof(a->rows[i].test)))
			continue;
		for (k = 0; k < n && seen[k] != a->rows[i].iteration; k++)
			;
		if (k == n)
			seen[n++] = a->rows[i].iteration;
	}
	free(seen);
	return n;
}

/* One run's figure of every line into fig[line] (NAN for a run without
 * counters). */
static int run_figures(const struct pfs_archive *a, const struct pfs_ctr_table *t, double *fig)
{
	const struct pfs_fsstat **by = malloc((a->nfsstats ? a->nfsstats : 1) * sizeof(*by));
	/* A line's iterations: at most its counters', or its test's rows'. */
	double *sums = malloc(((a->nfsstats > a->nrows ? a->nfsstats : a->nrows) + 1) *
			      sizeof(*sums));
	const char *test = NULL;
	size_t iters = 0;
	int rc = -ENOMEM;

	if (!by || !sums)
		goto out;
	for (size_t l = 0; l < t->n; l++)
		fig[l] = a->nfsstats ? 0 : NAN;
	for (size_t i = 0; i < a->nfsstats; i++)
		by[i] = &a->fsstats[i];
	qsort(by, a->nfsstats, sizeof(*by), by_line_iteration);
	for (size_t i = 0, j; i < a->nfsstats; i = j) {
		size_t nsums = 0;

		/* The line's iterations, each summed over its nodes. */
		for (j = i; j < a->nfsstats && !by_line(by[i], by[j]); j++) {
			if (j == i || by[j]->iteration != by[j - 1]->iteration)
				sums[nsums++] = 0;
			sums[nsums - 1] += (double)by[j]->value;
		}
		/* The lines of a test are together: its iterations counted once. */
		if (!test || strncmp(test, by[i]->test, sizeof(by[i]->test)))
			iters = iterations_of(a, test = by[i]->test);
		while (nsums < iters)
			sums[nsums++] = 0;
		fig[find_line(t, by[i])] = pfs_median(sums, nsums);
	}
	rc = 0;
out:
	free(by);
	free(sums);
	return rc;
}

int pfs_ctr_table(const struct pfs_archive *runs, const size_t *side_runs, size_t nsides,
		  struct pfs_ctr_table *t)
{
	size_t nruns = 0, r0 = 0;
	double *fig = NULL;
	int rc;

	memset(t, 0, sizeof(*t));
	t->nsides = nsides;
	for (size_t s = 0; s < nsides; s++)
		nruns += side_runs[s];
	rc = collect_lines(runs, nruns, t);
	if (rc || !t->n)
		goto out;
	rc = -ENOMEM;
	t->figures = calloc(t->n * nsides, sizeof(*t->figures));
	fig = malloc(t->n * sizeof(*fig));
	if (!t->figures || !fig)
		goto out;
	for (size_t l = 0; l < t->n; l++)
		t->lines[l].side = &t->figures[l * nsides];
	for (size_t s = 0; s < nsides; r0 += side_runs[s], s++) {
		size_t counted = 0;

		for (size_t r = r0; r < r0 + side_runs[s]; r++) {
			if ((rc = run_figures(&runs[r], t, fig)))
				goto out;
			counted += runs[r].nfsstats > 0;
			for (size_t l = 0; l < t->n; l++)
				if (!isnan(fig[l]))
					t->lines[l].side[s] += fig[l];
		}
		for (size_t l = 0; l < t->n; l++)
			t->lines[l].side[s] = counted ? t->lines[l].side[s] / (double)counted : NAN;
	}
	rc = 0;
out:
	free(fig);
	if (rc)
		pfs_ctr_table_free(t);
	return rc;
}

void pfs_ctr_table_free(struct pfs_ctr_table *t)
{
	free(t->lines);
	free(t->figures);
	memset(t, 0, sizeof(*t));
}
