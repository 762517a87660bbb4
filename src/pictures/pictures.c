/* pictures.c: from loaded runs to a gnuplot script of their pictures; see
 * include/pfsbench/pictures/pictures.h. The arithmetic is plotdata.c's and the
 * drawing plotscript.c's; this file chooses what to draw and brings in
 * other modules' answers, never recomputed (the end of the file). */
#include "pfsbench/pictures/pictures.h"
#include "pfsbench/analysis/compare.h"
#include "pfsbench/analysis/latency.h"
#include "pfsbench/analysis/matrixdiff.h"
#include "pfsbench/analysis/slownode.h"
#include "pfsbench/archive/archive.h"
#include "pfsbench/core/histogram.h"
#include "pfsbench/core/topology.h"
#include "pfsbench/core/util.h"
#include "pfsbench/formats/matrixfmt.h"
#include "pfsbench/plans/matrix_plan.h"

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

/* Which run a picture is of, as its subtitle says it: "LABEL: FSTYPE on
 * MOUNT, N nodes x W workers, START" (names made safe for gnuplot by
 * pfs_plot_script_about). */
static void run_about(struct pfs_plot_script *s, const struct pfs_archive *a, const char *label)
{
	const char *fs = pfs_archive_get(a, "fstype"), *mnt = pfs_archive_get(a, "mount_point");
	const char *wmin = pfs_archive_get(a, "workers_min"), *wmax = pfs_archive_get(a, "workers_max");
	const char *start = pfs_archive_get(a, "start_time");
	char workers[64], about[PFS_PLOT_CAPTION_MAX];

	if (wmin[0] && strcmp(wmin, wmax))
		snprintf(workers, sizeof(workers), " x %s-%s workers", wmin, wmax);
	else if (wmin[0])
		snprintf(workers, sizeof(workers), " x %s worker%s", wmin, strcmp(wmin, "1") ? "s" : "");
	else
		workers[0] = 0;
	snprintf(about, sizeof(about), "%s: %s%s%s, %u node%s%s%s%s", label, fs[0] ? fs : "?",
		 mnt[0] ? " on " : "", mnt, a->nnodes, a->nnodes == 1 ? "" : "s", workers,
		 start[0] ? ", " : "", start);
	pfs_plot_script_about(s, pfs_archive_get(a, "workload"), about);
}

/* What of the run a picture leaves out or aggregates (pfs_plot_thin), in
 * words after run_words'; nothing for a run drawn as it is. */
static void thin_words(char *buf, size_t len, const char *run, const struct pfs_plot_thin *t)
{
	char tests[64] = "", groups[64] = "", cut[64] = "", node[160] = "";

	if (t->tests > PFS_PLOT_TESTS_MAX)
		snprintf(tests, sizeof(tests), "; the first %d of %zu tests", PFS_PLOT_TESTS_MAX,
			 t->tests);
	if (t->groups > PFS_PLOT_GROUPS_MAX)
		snprintf(groups, sizeof(groups), "; the first %d of %zu ops", PFS_PLOT_GROUPS_MAX,
			 t->groups);
	if (t->per_node)
		snprintf(node, sizeof(node),
			 "; %zu rows thinned to a lane per node (all its workers: their earliest "
			 "start to latest end, their amounts summed)",
			 t->rows_in);
	if (t->rows_cut)
		snprintf(cut, sizeof(cut), "; the first %zu of those", t->rows_out);
	snprintf(buf, len, "%s%s%s%s%s", run, tests, groups, node, cut);
}

static int heatmap(struct pfs_plot_script *s, const struct pfs_matrix *m, const char *prefix,
		   const char *label);

/* a: the run as read (the analysis reads it all); d: its rows to draw. */
static int timeline_and_rates(struct pfs_plot_script *s, const struct pfs_archive *a,
			      const struct pfs_archive *d, const char *prefix, const char *words)
{
	struct pfs_plot_lane *lanes = NULL;
	struct pfs_plot_bar *bars = NULL;
	struct pfs_plot_rate *rates = NULL;
	struct pfs_plot_flag *flags = NULL;
	size_t nlanes, nbars, nrates, nflags = 0, slow_ops = 0;
	char name[PFS_PLOT_NAME_MAX], caption[PFS_PLOT_CAPTION_MAX];
	bool late = false, withheld = false;
	int rc = -ENOMEM;

	if (pfs_plot_lanes(d->rows, d->nrows, &lanes, &nlanes) ||
	    pfs_pictures_flags(a, &flags, &nflags) ||
	    pfs_plot_timeline(d->rows, d->nrows, lanes, nlanes, &bars, &nbars) ||
	    pfs_plot_rates(d->rows, d->nrows, lanes, nlanes, flags, nflags, &rates, &nrates))
		goto out;
	for (size_t i = 0; i < nflags; i++) {
		withheld |= flags[i].node_index == PFS_PLOT_ALL_NODES;
		if (flags[i].node_index == PFS_PLOT_ALL_NODES)
			continue;
		late |= !flags[i].op[0];
		slow_ops += flags[i].op[0] != 0;
	}
	pic_name(name, sizeof(name), prefix, "rates");
	snprintf(caption, sizeof(caption),
		 "%s. Each op's rate per node and worker: its amount over all iterations / "
		 "the sum of its times%s%s.",
		 words, slow_ops ? "; red: a slow node, by how much slower than the median node"
				 : "",
		 withheld ? "; hatched: not judged (steps under 10 ms, unlike, or of < 3 nodes)"
			  : "");
	rc = pfs_plot_rates_script(s, name, caption, lanes, nlanes, rates, nrates);
	if (rc)
		goto out;
	pic_name(name, sizeof(name), prefix, "timeline");
	snprintf(caption, sizeof(caption),
		 "%s. Timeline: a lane per node and worker, a bar per step from its start to its "
		 "end, on one clock for all nodes; shaded: the wait at the barrier until the "
		 "step's last rank was done%s.",
		 words, late ? "; (late): a node that leaves the barriers late" : "");
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
	unsigned nnodes;
	int rc = -ENOMEM;

	if (!names || rows_by_test(a, &rows, &first, &ntests))
		goto out;
	p = calloc(ntests ? ntests : 1, sizeof(*p));
	panels = calloc(ntests ? ntests : 1, sizeof(*panels));
	if (!p || !panels)
		goto out;
	for (unsigned n = 0; n < a->nnodes; n++)
		names[n] = a->nodes[n].name;
	/* a line per node: the first PFS_PLOT_NODES_MAX (pfs_plot_thin) */
	nnodes = a->nnodes < PFS_PLOT_NODES_MAX ? a->nnodes : PFS_PLOT_NODES_MAX;
	rc = 0;
	for (int u = 0; u < PFS_UNIT_COUNT && !rc; u++) {
		size_t np = 0;

		for (size_t t = 0; t < ntests && !rc; t++) {
			rc = pfs_plot_progress(rows + first[t], first[t + 1] - first[t], a->ticks,
					       a->nticks, nnodes, (enum pfs_unit)u, &p[np]);
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
				 "%s. %s over time, a line per node%s, from the progress ticks (about "
				 "every 100 ms of each rank) and the ops' starts and ends%s.",
				 words, pfs_unit_rate_label((enum pfs_unit)u),
				 a->nnodes > nnodes ? " (the first nodes)" : "",
				 a->nticks ? "" : " (no ticks drawn: each op at its mean rate)");
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
	char name[PFS_PLOT_NAME_MAX], caption[PFS_PLOT_CAPTION_MAX], lwords[PFS_PLOT_CAPTION_MAX / 2];
	struct pfs_lat_cap cap = { .tests_max = PFS_PLOT_TESTS_MAX, .groups_max = PFS_PLOT_GROUPS_MAX };
	size_t n = 0;
	int rc = pfs_lat_hists(a->rows, a->nrows, a->lat, a->nlat, PFS_LAT_BY_OP, &cap, &h, &n);

	if (rc == -EINVAL)
		return pfs_error("the latency histograms of the file are damaged"), -EINVAL;
	if (rc || !n) {
		pfs_lat_hists_free(h, n); /* with no group, still an array of one */
		return rc;
	}
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
	/* the tests and ops that recorded latency, capped as the rows are */
	thin_words(lwords, sizeof(lwords), words,
		   &(struct pfs_plot_thin){ .tests = cap.tests, .groups = cap.groups });
	snprintf(caption, sizeof(caption),
		 "%s. Latency of each op, all iterations and ranks: the fraction of items done "
		 "within a time, on a log axis.",
		 lwords);
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
	char words[PFS_PLOT_CAPTION_MAX / 2], dwords[PFS_PLOT_CAPTION_MAX / 2];
	struct pfs_archive d = *a;
	struct pfs_plot_thin thin;
	struct pfs_matrix m;
	char err[PFS_REFUSAL_MAX];
	int rc;

	run_words(words, sizeof(words), a, label);
	if (!a->nrows)
		return 0; /* a run that measured nothing has nothing to draw */
	run_about(s, a, label);
	rc = pfs_pictures_matrix(a, &m, err, sizeof(err));
	if (!rc) {
		char what[PFS_PLOT_LABEL_MAX];

		/* the op heads the title: a write matrix is no read matrix */
		snprintf(what, sizeof(what), "%.20s %.20s", pfs_archive_get(a, "workload"),
			 a->rows[0].op);
		pfs_plot_script_about(s, what, s->about);
		return heatmap(s, &m, prefix, words);
	}
	if (rc == -EINVAL)
		pfs_error("%s: its rows are no matrix of its parameters: %s", label, err);
	if (rc != -ENOENT)
		return rc;
	rc = pfs_plot_thin(a->rows, a->nrows, &d.rows, &d.nrows, &thin);
	if (rc)
		return rc;
	/* an aggregate's ticks are its ranks': none of them is its own */
	if (thin.per_node)
		d.nticks = 0;
	thin_words(dwords, sizeof(dwords), words, &thin);
	rc = timeline_and_rates(s, a, &d, prefix, dwords);
	if (!rc)
		rc = progress(s, &d, prefix, dwords);
	free(d.rows);
	if (!rc)
		rc = latency(s, a, prefix, words);
	return rc;
}

int pfs_pictures_heatmap(struct pfs_plot_script *s, const struct pfs_matrix *m, const char *prefix,
			 const char *label)
{
	char about[PFS_PLOT_CAPTION_MAX];

	snprintf(about, sizeof(about), "perf_matrix output %s", label);
	pfs_plot_script_about(s, "", about);
	return heatmap(s, m, prefix, label);
}

/* The heatmap of pfs_pictures_heatmap, under the subtitle already set. */
static int heatmap(struct pfs_plot_script *s, const struct pfs_matrix *m, const char *prefix,
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
	bool any = false;

	if (rc == -ENOENT)
		return 0;
	if (rc)
		return rc;
	/* Rates of 0 have no place on a log axis: runs that moved nothing
	 * get no picture, as runs that share no op. */
	for (size_t k = 0; k < c.nlines * c.nruns; k++)
		any |= pfs_plot_cmp_drawn(&c.cells[k]);
	if (!any) {
		pfs_plot_cmp_free(&c);
		return 0;
	}
	/* The runs are named in the key; the subtitle says the base. */
	run_about(s, &runs[0], labels[0]);
	snprintf(caption, sizeof(caption),
		 "Each op's rate in every run, side by side on a log axis, as compare judges it "
		 "against %s: whiskers, compare's interval of the ratio (%.0f %% for the table) "
		 "times %s's rate, where the runs measured their noise, a triangle where it "
		 "goes on beyond the axis; *: a change compare calls out.",
		 labels[0], 100 * (1 - PFS_CMP_ALPHA), labels[0]);
	rc = pfs_plot_compare_script(s, "compare", caption, &c, labels);
	pfs_plot_cmp_free(&c);
	return rc;
}

/* ---- other modules' answers ----------------------------------------------------- */

/* The nodes show --analyze names (pfs_node_is_slow): a flag for each
 * (test, op) it is slow in, and one with an empty op when it leaves the
 * barriers late. */
int pfs_pictures_flags(const struct pfs_archive *a, struct pfs_plot_flag **flags, size_t *n)
{
	struct pfs_analysis an;
	struct pfs_plot_flag *f = NULL;
	size_t k = 0, cap = 0;
	int rc;

	*flags = NULL;
	*n = 0;
	rc = pfs_analyze(a->rows, a->nrows, a->nodes, a->nnodes, &an);
	if (rc)
		return rc;
	for (unsigned i = 0; an.compared && i < an.nnodes; i++)
		if (pfs_node_is_slow(&an.nodes[i]))
			cap += an.nodes[i].nops + 1;
	/* and each (test, op) it did not judge */
	for (size_t o = 0; o < an.nops; o++)
		cap += !an.ops[o].judged;
	if (cap && !(f = calloc(cap, sizeof(*f)))) {
		pfs_analysis_free(&an);
		return -ENOMEM;
	}
	for (unsigned i = 0; cap && i < an.nnodes; i++) {
		const struct pfs_node_verdict *v = &an.nodes[i];

		if (!pfs_node_is_slow(v))
			continue;
		for (size_t o = 0; o < v->nops; o++) {
			f[k].node_index = i;
			pfs_row_set_text(f[k].test, sizeof(f[k].test), v->ops[o].test);
			pfs_row_set_text(f[k].op, sizeof(f[k].op), v->ops[o].op);
			f[k++].factor = v->ops[o].factor;
		}
		if (v->late)
			f[k++].node_index = i; /* empty test and op: late */
	}
	for (size_t o = 0; cap && o < an.nops; o++) {
		const struct pfs_balance *b = &an.ops[o];

		if (b->judged)
			continue;
		f[k].node_index = PFS_PLOT_ALL_NODES;
		pfs_row_set_text(f[k].test, sizeof(f[k].test), b->test);
		pfs_row_set_text(f[k].op, sizeof(f[k].op), b->op);
		f[k++].withheld = !an.compared			 ? PFS_PLOT_FEW_NODES
				  : b->step_us < PFS_SHORT_STEP_US ? PFS_PLOT_TOO_SHORT
								   : PFS_PLOT_NOT_ALIKE;
	}
	pfs_analysis_free(&an);
	*flags = f;
	*n = k;
	return 0;
}

/* compare's table of the runs: the (test, op)s every run has, in the
 * first run's order, each run's verdict against the first at the error
 * compare gives each line of that table, so the picture shows what
 * `pfsbench compare` prints. */
int pfs_pictures_cmp(const struct pfs_archive *runs, size_t n, struct pfs_plot_cmp *out)
{
	struct pfs_cmp_run *st = calloc(n, sizeof(*st));
	size_t *one = calloc(n ? n : 1, sizeof(*one)), made = 0;
	struct pfs_cmp_table t = { 0 };
	int rc = -ENOMEM;

	memset(out, 0, sizeof(*out));
	if (!st || !one)
		goto out;
	for (size_t r = 0; r < n; r++, made++) {
		one[r] = 1; /* a run a side, as compare without -- */
		rc = pfs_compare_stats(&runs[r], &st[r]);
		if (rc) {
			if (rc == -EINVAL)
				pfs_error("the latency histograms of a file are damaged");
			goto out;
		}
	}
	rc = pfs_compare_table(st, one, n, PFS_CMP_MARGIN, &t);
	if (rc)
		goto out;
	rc = -ENOENT;
	if (!t.nlines)
		goto out;
	rc = pfs_plot_cmp_init(out, t.nlines, n);
	if (rc)
		goto out;
	for (size_t l = 0; l < t.nlines; l++) {
		const struct pfs_cmp_line *base = t.base[l];

		pfs_row_set_text(out->lines[l].test, sizeof(out->lines[l].test), base->test);
		pfs_row_set_text(out->lines[l].op, sizeof(out->lines[l].op), base->op);
		out->lines[l].unit = base->unit;
		out->cells[l * n] = (struct pfs_plot_cmp_cell){
			.present = true, .rate = pfs_rate_display(base->unit, t.cells[l * n].rate),
			.ratio = 1 };
		for (size_t r = 1; r < n; r++) {
			const struct pfs_cmp_verdict *v = &t.v[l * n + r];

			out->cells[l * n + r] = (struct pfs_plot_cmp_cell){
				.present = true, .rate = pfs_rate_display(base->unit, t.cells[l * n + r].rate),
				.ratio = v->ratio, .interval = v->interval,
				.low = v->low, .high = v->high, .called_out = v->called_out };
		}
	}
out:
	pfs_compare_table_free(&t);
	for (size_t r = 0; r < made; r++)
		pfs_compare_run_free(&st[r]);
	free(st);
	free(one);
	if (rc)
		pfs_plot_cmp_free(out);
	return rc;
}

/* A `pfsbench matrix` run's cells, as its report and compare's diff
 * reduce them. */
int pfs_pictures_matrix(const struct pfs_archive *a, struct pfs_matrix *m, char *err,
			size_t errlen)
{
	struct pfs_matrix_result *res = malloc(sizeof(*res));
	int rc = res ? pfs_matrixdiff_reduce(a, res, err, errlen) : -ENOMEM;

	if (!rc)
		*m = res->m;
	if (rc == -EINVAL && errlen && !err[0])
		snprintf(err, errlen, "bad values");
	free(res);
	return rc;
}
