/* pictures.c: from loaded runs to a gnuplot script of their pictures; see
 * include/pfsbench/pictures.h. The arithmetic is plotdata.c's and the
 * drawing plotscript.c's; this file chooses what to draw and brings in
 * other modules' answers at its extension points (the end of the file). */
#include "pfsbench/pictures.h"
#include "pfsbench/archive.h"
#include "pfsbench/compare.h"
#include "pfsbench/histogram.h"
#include "pfsbench/latency.h"
#include "pfsbench/matrixfmt.h"
#include "pfsbench/topology.h"
#include "pfsbench/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* prefix + kind, as a picture's name. */
static void pic_name(char *buf, size_t len, const char *prefix, const char *kind)
{
	snprintf(buf, len, "%s%s", prefix, kind);
}

/* What a caption says of a run: its label, the workload and where. The
 * caption is text for HTML and Markdown, which escape it. */
static void run_words(char *buf, size_t len, const struct pfs_archive *a, const char *label)
{
	snprintf(buf, len, "%s: %s on %s, %u node%s", label, pfs_archive_get(a, "workload"),
		 pfs_archive_get(a, "fstype")[0] ? pfs_archive_get(a, "fstype") : "?", a->nnodes,
		 a->nnodes == 1 ? "" : "s");
}

static int timeline_and_rates(struct pfs_plot_script *s, const struct pfs_archive *a,
			      const char *prefix, const char *words)
{
	struct pfs_plot_lane *lanes = NULL;
	struct pfs_plot_bar *bars = NULL;
	struct pfs_plot_rate *rates = NULL;
	struct pfs_plot_flag *flags = NULL;
	size_t nlanes, nbars, nrates, nflags = 0;
	char name[PFS_PLOT_NAME_MAX], caption[PFS_PLOT_CAPTION_MAX];
	int rc = -ENOMEM;

	if (pfs_plot_lanes(a->rows, a->nrows, &lanes, &nlanes) ||
	    pfs_pictures_flags(a, &flags, &nflags) ||
	    pfs_plot_timeline(a->rows, a->nrows, lanes, nlanes, &bars, &nbars) ||
	    pfs_plot_rates(a->rows, a->nrows, lanes, nlanes, flags, nflags, &rates, &nrates))
		goto out;
	pic_name(name, sizeof(name), prefix, "rates");
	snprintf(caption, sizeof(caption),
		 "%s. Each op's rate per node and worker: its amount over all iterations / "
		 "the sum of its times%s.",
		 words, nflags ? "; red: a slow node, by how much slower than the median node" : "");
	rc = pfs_plot_rates_script(s, name, caption, lanes, nlanes, rates, nrates);
	if (rc)
		goto out;
	pic_name(name, sizeof(name), prefix, "timeline");
	snprintf(caption, sizeof(caption),
		 "%s. Timeline: a lane per node and worker, a bar per step from its start to its "
		 "end, on one clock for all nodes; shaded: the wait at the barrier until the "
		 "step's last rank was done.",
		 words);
	rc = pfs_plot_timeline_script(s, name, caption, lanes, nlanes, bars, nbars, flags, nflags);
out:
	free(lanes);
	free(bars);
	free(rates);
	free(flags);
	return rc;
}

/* The rows of each test, in order of first row: test t's rows are
 * rows[first[t]..first[t + 1]). */
static int rows_by_test(const struct pfs_archive *a, struct pfs_row **out, size_t **first,
			size_t *ntests)
{
	struct pfs_row *r = malloc((a->nrows ? a->nrows : 1) * sizeof(*r));
	size_t *f = malloc((a->nrows + 1) * sizeof(*f)), n = 0, k = 0;
	bool *done = calloc(a->nrows ? a->nrows : 1, sizeof(*done));

	*out = r;
	*first = f;
	*ntests = 0;
	if (!r || !f || !done) {
		free(done);
		return -ENOMEM;
	}
	for (size_t i = 0; i < a->nrows; i++) {
		if (done[i])
			continue;
		f[n++] = k;
		for (size_t j = i; j < a->nrows; j++)
			if (!done[j] && !strcmp(a->rows[j].test, a->rows[i].test)) {
				r[k++] = a->rows[j];
				done[j] = true;
			}
	}
	f[n] = k;
	*ntests = n;
	free(done);
	return 0;
}

/* One rate-over-time picture per unit the rows have, a panel per test. */
static int progress(struct pfs_plot_script *s, const struct pfs_archive *a, const char *prefix,
		    const char *words)
{
	const char **names = calloc(a->nnodes ? a->nnodes : 1, sizeof(*names));
	char name[PFS_PLOT_NAME_MAX], kind[32], caption[PFS_PLOT_CAPTION_MAX];
	struct pfs_plot_progress *p = NULL;
	struct pfs_plot_progress_panel *panels = NULL;
	struct pfs_row *rows = NULL;
	size_t *first = NULL, ntests = 0;
	int rc = -ENOMEM;

	if (!names || rows_by_test(a, &rows, &first, &ntests))
		goto out;
	p = calloc(ntests ? ntests : 1, sizeof(*p));
	panels = calloc(ntests ? ntests : 1, sizeof(*panels));
	if (!p || !panels)
		goto out;
	for (unsigned n = 0; n < a->nnodes; n++)
		names[n] = a->nodes[n].name;
	rc = 0;
	for (int u = 0; u < PFS_UNIT_COUNT && !rc; u++) {
		size_t np = 0;

		for (size_t t = 0; t < ntests && !rc; t++) {
			rc = pfs_plot_progress(rows + first[t], first[t + 1] - first[t], a->ticks,
					       a->nticks, a->nnodes, (enum pfs_unit)u, &p[np]);
			if (rc == -ENOENT) {
				rc = 0;
				continue;
			}
			if (!rc)
				panels[np] = (struct pfs_plot_progress_panel){ rows[first[t]].test,
									       &p[np] };
			np += !rc;
		}
		if (!rc && np) {
			snprintf(kind, sizeof(kind), "progress-%s", pfs_unit_name((enum pfs_unit)u));
			pic_name(name, sizeof(name), prefix, kind);
			snprintf(caption, sizeof(caption),
				 "%s. %s over time, a line per node, from the progress ticks (about "
				 "every 100 ms of each rank) and the ops' starts and ends%s.",
				 words, pfs_unit_rate_label((enum pfs_unit)u),
				 a->nticks ? "" : " (this file has no ticks: each op at its mean rate)");
			rc = pfs_plot_progress_script(s, name, caption, panels, np, names);
		}
		for (size_t k = 0; k < np; k++)
			pfs_plot_progress_free(&p[k]);
	}
out:
	free(names);
	free(p);
	free(panels);
	free(rows);
	free(first);
	return rc;
}

static int latency(struct pfs_plot_script *s, const struct pfs_archive *a, const char *prefix,
		   const char *words)
{
	struct pfs_lat_hist *h = NULL;
	struct pfs_plot_cdf *cdf = NULL;
	struct pfs_plot_cdf_curve *curves = NULL;
	char name[PFS_PLOT_NAME_MAX], caption[PFS_PLOT_CAPTION_MAX];
	size_t n = 0;
	int rc = pfs_lat_hists(a->rows, a->nrows, a->lat, a->nlat, PFS_LAT_BY_OP, &h, &n);

	if (rc == -EINVAL)
		return pfs_error("the latency histograms of the file are damaged"), -EINVAL;
	if (rc || !n)
		return rc;
	rc = -ENOMEM;
	cdf = calloc(n, sizeof(*cdf));
	curves = calloc(n, sizeof(*curves));
	if (!cdf || !curves)
		goto out;
	for (size_t g = 0; g < n; g++) {
		if (pfs_plot_cdf(h[g].hist, &cdf[g]))
			goto out;
		curves[g] = (struct pfs_plot_cdf_curve){ a->rows[h[g].first].test,
							 a->rows[h[g].first].op, &cdf[g] };
	}
	pic_name(name, sizeof(name), prefix, "latency");
	snprintf(caption, sizeof(caption),
		 "%s. Latency of each op, all iterations and ranks: the fraction of items done "
		 "within a time, on a log axis.",
		 words);
	rc = pfs_plot_latency_script(s, name, caption, curves, n);
out:
	for (size_t g = 0; cdf && g < n; g++)
		pfs_plot_cdf_free(&cdf[g]);
	free(cdf);
	free(curves);
	pfs_lat_hists_free(h, n);
	return rc;
}

int pfs_pictures_run(struct pfs_plot_script *s, const struct pfs_archive *a, const char *prefix,
		     const char *label)
{
	char words[PFS_PLOT_CAPTION_MAX / 2];
	struct pfs_matrix m;
	int rc;

	run_words(words, sizeof(words), a, label);
	if (!a->nrows)
		return 0; /* a run that measured nothing has nothing to draw */
	if (!pfs_pictures_matrix(a, &m))
		return pfs_pictures_heatmap(s, &m, prefix, words);
	rc = timeline_and_rates(s, a, prefix, words);
	if (!rc)
		rc = progress(s, a, prefix, words);
	if (!rc)
		rc = latency(s, a, prefix, words);
	return rc;
}

int pfs_pictures_heatmap(struct pfs_plot_script *s, const struct pfs_matrix *m, const char *prefix,
			 const char *label)
{
	char name[PFS_PLOT_NAME_MAX], caption[PFS_PLOT_CAPTION_MAX];

	pic_name(name, sizeof(name), prefix, "matrix");
	snprintf(caption, sizeof(caption),
		 "%s. MiB/s of each transfer size (up) moved in requests of each size (across); "
		 "blank: a request larger than its transfer, not run.",
		 label);
	return pfs_plot_heatmap_script(s, name, caption, m);
}

int pfs_pictures_compare(struct pfs_plot_script *s, const struct pfs_archive *runs, size_t n,
			 const char *const *labels)
{
	struct pfs_plot_cmp c;
	char caption[PFS_PLOT_CAPTION_MAX];
	int rc = pfs_pictures_cmp(runs, n, &c);

	if (rc == -ENOENT)
		return 0;
	if (rc)
		return rc;
	snprintf(caption, sizeof(caption),
		 "Each op's rate in every run against %s's (the line at 1x), on a log axis; "
		 "whiskers: the interval compare gives the rate, where it gives one; *: a change "
		 "compare calls out.",
		 labels[0]);
	rc = pfs_plot_compare_script(s, "compare", caption, &c, labels);
	pfs_plot_cmp_free(&c);
	return rc;
}

/* ---- extension points --------------------------------------------------------- */

/* The slow-node analysis (issue 11's `show --analyze`) is not on this
 * branch's main yet: no node is flagged. Its wiring: pfs_analyze(a->rows,
 * a->nrows, a->nodes, a->nnodes, &an), then for each node verdict v[i], one
 * flag per v[i].ops[k] (node i, its test, op and factor), and one with an
 * empty op when v[i].late. */
int pfs_pictures_flags(const struct pfs_archive *a, struct pfs_plot_flag **flags, size_t *n)
{
	(void)a;
	*flags = NULL;
	*n = 0;
	return 0;
}

/* compare's statistics: each run's rate of each (test, op) of the first
 * run, and whether compare calls its change out. The interval of a rate
 * comes with issue 11's compare (pfs_compare_judge: the interval of the
 * ratio [low, high] times the base rate); until then there is none. */
int pfs_pictures_cmp(const struct pfs_archive *runs, size_t n, struct pfs_plot_cmp *out)
{
	struct pfs_cmp_run *st = calloc(n, sizeof(*st));
	size_t shared = 0;
	int rc = -ENOMEM;

	memset(out, 0, sizeof(*out));
	if (!st)
		return -ENOMEM;
	for (size_t r = 0; r < n; r++)
		if (pfs_compare_stats(&runs[r], &st[r]))
			goto out;
	if (pfs_plot_cmp_init(out, st[0].n, n))
		goto out;
	for (size_t l = 0; l < st[0].n; l++) {
		const struct pfs_cmp_line *base = &st[0].lines[l];
		bool elsewhere = false;

		pfs_row_set_text(out->lines[l].test, sizeof(out->lines[l].test), base->test);
		pfs_row_set_text(out->lines[l].op, sizeof(out->lines[l].op), base->op);
		out->lines[l].unit = base->unit;
		for (size_t r = 0; r < n; r++)
			for (size_t k = 0; k < st[r].n; k++) {
				const struct pfs_cmp_line *x = &st[r].lines[k];
				struct pfs_plot_cmp_cell *cell = &out->cells[l * n + r];
				double change;

				if (strcmp(x->test, base->test) || strcmp(x->op, base->op) ||
				    x->unit != base->unit)
					continue;
				cell->present = true;
				cell->rate = pfs_rate_display(x->unit, x->rate);
				cell->called_out = r && pfs_compare_called_out(base, x, &change);
				elsewhere |= r > 0;
			}
		shared += elsewhere;
	}
	rc = shared ? 0 : -ENOENT;
out:
	for (size_t r = 0; r < n; r++)
		pfs_compare_run_free(&st[r]);
	free(st);
	if (rc)
		pfs_plot_cmp_free(out);
	return rc;
}

/* A matrix run's cells come with issue 13's matrix workload (its rows per
 * cell, kept and discarded repetitions); until then no results file is
 * one. perf_matrix's own text outputs are drawn through
 * pfs_pictures_heatmap. */
int pfs_pictures_matrix(const struct pfs_archive *a, struct pfs_matrix *m)
{
	(void)a;
	(void)m;
	return -ENOENT;
}
