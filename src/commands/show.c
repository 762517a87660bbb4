/* show.c: `pfsbench show FILE.h5 [--all] [--latency] [--fs-stats]
 * [--analyze]` prints a run's text report from its results file. It feeds
 * the stored rows, in the stored (report) order, to the same output that
 * printed the report during the run, with the run's options rebuilt from
 * the file (pfs_archive_opts), so the report is byte for byte what the run
 * printed, but for the row lines of a big run: the first
 * PFS_SHOW_ROWS_MAX, then a line saying how many are left out (every
 * summary in full; --all prints every row).
 * --latency adds, after it, each op's latency percentiles over all its
 * workers; --fs-stats the filesystem's own counters; --analyze, last and
 * after a blank line, the slow nodes, the imbalance and the waiting
 * (src/analysis/slownode.c). Every name and text from the file is printed through
 * pfs_printable: the file may come from anywhere. */
#include "pfsbench/analysis/latency.h"
#include "pfsbench/analysis/slownode.h"
#include "pfsbench/archive/archive.h"
#include "pfsbench/commands/commands.h"
#include "pfsbench/core/options.h"
#include "pfsbench/core/rowindex.h"
#include "pfsbench/core/topology.h"
#include "pfsbench/core/util.h"
#include "pfsbench/engine/workload.h"
#include "pfsbench/outputs/output.h"
#include "pfsbench/target/fsprobe.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct show_opts {
	const char *path;
	bool all, latency, fsstats, analyze;
};

static const struct pfs_option show_options[] = {
	PFS_OPT_POS(struct show_opts, path, "FILE.h5", "the results file"),
	PFS_OPT_FLAG(struct show_opts, all, "all", 0,
		     "every row's line (else the first " PFS_STRINGIFY(PFS_SHOW_ROWS_MAX)
		     ", then how many are left out)"),
	PFS_OPT_FLAG(struct show_opts, latency, "latency", 0,
		     "then each op's latency: min, p50, p90, p99, p99.9, max (us)"),
	PFS_OPT_FLAG(struct show_opts, fsstats, "fs-stats", 0,
		     "then the filesystem's own counters, per step and node"),
	PFS_OPT_FLAG(struct show_opts, analyze, "analyze", 0,
		     "then the slow nodes and by how much, the imbalance between ranks and the "
		     "time they spent waiting (docs/methodology.md)"),
	PFS_OPT_HELP_ENTRY,
	PFS_OPT_END,
};

/* The columns of the latency table: the test (under "Test", a name of up
 * to 3 letters one space in), the iteration, the op, the items timed, then
 * each percentile in microseconds with one decimal. */
enum { LAT_TEST, LAT_IT, LAT_OP, LAT_ITEMS, LAT_MIN, LAT_NCOLS = LAT_MIN + 6 };
static const char *const lat_heads[LAT_NCOLS] = { "Test", "It",	 "TestType", "Items", "min",
						  "p50",  "p90", "p99",	     "p99.9", "max" };

/* One group's cells as text, into cell[LAT_NCOLS][32]. */
static void lat_cells(char cell[LAT_NCOLS][32], const struct pfs_lat_summary *s)
{
	const uint64_t ns[6] = { s->min_ns, s->p50_ns, s->p90_ns, s->p99_ns, s->p999_ns, s->max_ns };
	char test[PFS_PRINTABLE_SIZE(sizeof(s->test))], op[PFS_PRINTABLE_SIZE(sizeof(s->op))];

	pfs_printable(test, sizeof(test), s->test);
	pfs_printable(op, sizeof(op), s->op);
	snprintf(cell[LAT_TEST], 32, "%s%.30s", strlen(test) > 3 ? "" : " ", test);
	snprintf(cell[LAT_IT], 32, "%" PRIu32, s->iteration);
	snprintf(cell[LAT_OP], 32, "%.31s", op);
	snprintf(cell[LAT_ITEMS], 32, "%" PRIu64, s->n);
	for (int i = 0; i < 6; i++)
		snprintf(cell[LAT_MIN + i], 32, "%" PRIu64 ".%01" PRIu64, ns[i] / 1000u,
			 ns[i] % 1000u / 100u);
}

/* One line of the table: the names to the left of their columns, the
 * numbers to the right. */
static void lat_line(FILE *out, const char *const cell[LAT_NCOLS], const int width[LAT_NCOLS])
{
	for (int c = 0; c < LAT_NCOLS; c++) {
		bool left = c == LAT_TEST || c == LAT_OP;

		fprintf(out, "%s%*s", c ? " " : "", left ? -width[c] : width[c], cell[c]);
	}
	fputc('\n', out);
}

/* One line per (test, iteration, op) that recorded latency, in report
 * order: the histograms of all its workers merged. Each column as wide as
 * its header or its widest cell, so that none drifts from its header. */
static int print_latency(FILE *out, const struct pfs_archive *a)
{
	struct pfs_lat_summary *s;
	int width[LAT_NCOLS];
	size_t n;

	if (pfs_lat_groups(a->rows, a->nrows, a->lat, a->nlat, PFS_LAT_BY_ITERATION, &s, &n))
		return pfs_error("the latency histograms of the file are damaged");
	if (!n) {
		fprintf(out, "\nLatency: none recorded (Create and Unlink record it with --latency).\n");
		free(s);
		return 0;
	}
	for (int c = 0; c < LAT_NCOLS; c++)
		width[c] = (int)strlen(lat_heads[c]);
	for (size_t i = 0; i < n; i++) {
		char cell[LAT_NCOLS][32];

		lat_cells(cell, &s[i]);
		for (int c = 0; c < LAT_NCOLS; c++)
			if ((int)strlen(cell[c]) > width[c])
				width[c] = (int)strlen(cell[c]);
	}
	fprintf(out, "\nLatency (us), all workers of each op:\n");
	lat_line(out, lat_heads, width);
	for (size_t i = 0; i < n; i++) {
		char cell[LAT_NCOLS][32];
		const char *p[LAT_NCOLS];

		lat_cells(cell, &s[i]);
		for (int c = 0; c < LAT_NCOLS; c++)
			p[c] = cell[c];
		lat_line(out, p, width);
	}
	free(s);
	return 0;
}

/* The rows of a results file sorted by (test, iteration, step, op, node), so
 * that each step's rows are found by binary search, each op's together. */
static const enum pfs_row_field by_step_key[] = { PFS_ROW_TEST, PFS_ROW_ITERATION, PFS_ROW_STEP,
						  PFS_ROW_END },
				by_step_row[] = { PFS_ROW_TEST, PFS_ROW_ITERATION, PFS_ROW_STEP,
						  PFS_ROW_OP,	PFS_ROW_NODE,	   PFS_ROW_END };

/* Appends before and s to buf; false once they no longer fit. */
static bool append(char *buf, size_t len, size_t *used, const char *before, const char *s)
{
	int w = snprintf(buf + *used, len - *used, "%s%s", before, s);

	if (w < 0 || (size_t)w >= len - *used)
		return false;
	*used += (size_t)w;
	return true;
}

/* What ran in a step, for the reader of its counters: "Create on n1",
 * "Unlink on n1 n2", "Create on 16 nodes". Empty where no row has the step
 * (a failed run) or the label does not fit. by_step indexes rows sorted by
 * by_step_row, so each op's rows are together, in node order. */
#define LABEL_NODES_MAX 4
static void step_label(char *buf, size_t len, const struct pfs_row *rows, const size_t *by_step,
		       size_t n, const struct pfs_fsstat *f)
{
	struct pfs_row key = { .iteration = f->iteration, .step = f->step };
	size_t lo, hi, used = 0;
	bool ok = true;

	buf[0] = 0;
	snprintf(key.test, sizeof(key.test), "%s", f->test);
	pfs_row_range(rows, by_step, n, by_step_key, &key, &lo, &hi);
	for (size_t i = lo, j; ok && i < hi; i = j) {
		const struct pfs_row *r = &rows[by_step[i]];
		size_t nodes = 0;
		char count[32];

		for (j = i; j < hi && !strcmp(rows[by_step[j]].op, r->op); j++)
			nodes += j == i || rows[by_step[j]].node_index != rows[by_step[j - 1]].node_index;
		ok = append(buf, len, &used, i == lo ? "" : "; ", r->op) &&
		     append(buf, len, &used, " on", "");
		if (nodes > LABEL_NODES_MAX) {
			snprintf(count, sizeof(count), "%zu nodes", nodes);
			ok = ok && append(buf, len, &used, " ", count);
		} else {
			for (size_t m = i; ok && m < j; m++)
				if (m == i ||
				    rows[by_step[m]].node_index != rows[by_step[m - 1]].node_index)
					ok = append(buf, len, &used, " ", rows[by_step[m]].node);
		}
	}
	if (!ok)
		buf[0] = 0;
}

/* What the filesystem counted, step by step: for each (test, iteration,
 * step), each node's counters, as its probe reported them, headed by what
 * ran in the step. */
static int print_fsstats(FILE *out, const struct pfs_archive *a)
{
	size_t *by_step = malloc((a->nrows ? a->nrows : 1) * sizeof(*by_step));
	char label[256], text[PFS_PRINTABLE_SIZE(sizeof(label))];
	char name[PFS_PRINTABLE_SIZE(PFS_NODE_NAME_MAX)], test[PFS_PRINTABLE_SIZE(PFS_TEST_NAME_MAX)];

	if (!by_step)
		return -1;
	for (size_t i = 0; i < a->nrows; i++)
		by_step[i] = i;
	pfs_row_sort(a->rows, by_step, a->nrows, by_step_row);
	fprintf(out, "\nFilesystem and block-device counters, per step and node:\n");
	for (unsigned n = 0; n < a->nnodes; n++) {
		fprintf(out, " %s: ", pfs_printable(name, sizeof(name), a->nodes[n].name));
		fprintf(out, "%s\n", a->nodes[n].fsstats[0]
					     ? pfs_printable(text, sizeof(text), a->nodes[n].fsstats)
					     : "none: not recorded");
		fprintf(out, " %s: block device: %s\n", name,
			a->nodes[n].blockdev[0]
				? pfs_printable(text, sizeof(text), a->nodes[n].blockdev)
				: "none: not recorded");
	}
	for (size_t i = 0; i < a->nfsstats; i++) {
		const struct pfs_fsstat *f = &a->fsstats[i];
		bool head = !i || strcmp(f->test, f[-1].test) || f->iteration != f[-1].iteration ||
			    f->step != f[-1].step || f->node_index != f[-1].node_index;

		if (head) {
			step_label(label, sizeof(label), a->rows, by_step, a->nrows, f);
			pfs_printable(test, sizeof(test), f->test);
			fprintf(out, "%*s%-3s %2" PRIu32 " step %2" PRIu32 "%s%s%s, %s's counters:\n",
				strlen(test) > 3 ? 0 : 1, "", test, f->iteration, f->step,
				label[0] ? " (" : "", pfs_printable(text, sizeof(text), label),
				label[0] ? ")" : "",
				pfs_printable(name, sizeof(name), a->nodes[f->node_index].name));
		}
		fprintf(out, "    %-32s %12" PRIu64 "%s\n", pfs_printable(text, sizeof(text), f->name),
			f->value, pfs_fscounter_is_gauge(f->name) ? "  (gauge: at the step's end)" : "");
	}
	if (!a->nfsstats)
		fprintf(out, " (no counters recorded)\n");
	free(by_step);
	return 0;
}

int pfs_show_analysis(FILE *out, const struct pfs_archive *a)
{
	struct pfs_analysis an;
	int rc;

	if (pfs_analyze(a->rows, a->nrows, a->nodes, a->nnodes, &an)) {
		pfs_error("out of memory");
		return -ENOMEM;
	}
	rc = pfs_analysis_print(out, &an);
	pfs_analysis_free(&an);
	return rc ? -EIO : 0;
}

/* After a blank line: slow nodes, imbalance, waiting. */
static int print_analysis(FILE *out, const struct pfs_archive *a)
{
	int rc;

	fputc('\n', out);
	rc = pfs_show_analysis(out, a);
	return rc == -EIO ? pfs_error("cannot write the analysis to standard output") : rc;
}

int pfs_show_report(FILE *out, struct pfs_archive *a, bool latency, bool fsstats,
		    struct pfs_row_budget *rows)
{
	const struct pfs_workload *wl = pfs_workload_find(pfs_archive_get(a, "workload"));
	struct pfs_output o = { .ops = &pfs_output_table, .fp = out, .budget = rows };
	void *opts = NULL;
	char why[PFS_PRINTABLE_SIZE(sizeof(a->ri.status_reason))];
	int rc;

	if (wl && wl->report) {
		opts = pfs_archive_opts(a, wl);
		if (!opts)
			return pfs_error("out of memory");
		o.ops = wl->report;
		a->ri.workload = wl;
		a->ri.opts = opts;
		a->ri.options = wl->options;
	}
	struct pfs_block b = { a->rows, a->nrows, a->lat, a->nlat, a->ticks, a->nticks,
			       a->fsstats, a->nfsstats };

	rc = o.ops->begin(&o, &a->ri);
	if (!rc && a->nrows)
		rc = o.ops->block(&o, &a->ri, &b);
	if (!rc)
		rc = o.ops->end(&o, &a->ri, a->status, a->reason);
	if (!rc && a->status != PFS_RUN_COMPLETE)
		rc = fprintf(out, "Status: aborted: %s\n", pfs_printable(why, sizeof(why), a->reason)) < 0
			     ? -1
			     : 0;
	if (fflush(out) || rc)
		rc = pfs_error("cannot write the report to standard output");
	else if (latency && print_latency(out, a))
		rc = -1;
	else if (fsstats && print_fsstats(out, a))
		rc = pfs_error("out of memory");
	else if (fflush(out) || ferror(out))
		rc = pfs_error("cannot write the report to standard output");
	a->ri.workload = NULL;
	a->ri.opts = NULL;
	a->ri.options = NULL;
	free(opts);
	return rc;
}

static int show_main(int argc, char **argv)
{
	struct show_opts o = { 0 };
	struct pfs_archive a;
	const char *path;
	int rc = pfs_command_parse(&pfs_command_show, &o, argc, argv);

	if (rc >= 0)
		return rc;
	path = o.path;
	if (pfs_archive_load(path, &a))
		return PFS_EXIT_FAILED;
	/* A run that ended before its first rows were stored (its results
	 * filesystem full, its nodes lost) measured nothing: a report of a
	 * header and no rows, exit 0, would read as a run that did. */
	if (a.nrows == 0) {
		pfs_error("cannot show '%s': it holds no measured rows (the run %s%s)", path,
			  a.status == PFS_RUN_COMPLETE ? "says it is complete" : "was aborted: ",
			  a.status == PFS_RUN_COMPLETE ? "" : a.reason);
		pfs_archive_free(&a);
		return PFS_EXIT_FAILED;
	}
	struct pfs_row_budget rows = { .lines_max = PFS_SHOW_ROWS_MAX, .path = path };

	rc = pfs_show_report(stdout, &a, o.latency, o.fsstats, o.all ? NULL : &rows);
	if (!rc && o.analyze && print_analysis(stdout, &a))
		rc = -1;
	else if (!rc && (fflush(stdout) || ferror(stdout)))
		rc = pfs_error("cannot write the report to standard output");
	pfs_archive_free(&a);
	return rc ? PFS_EXIT_FAILED : PFS_EXIT_OK;
}

const struct pfs_command pfs_command_show = {
	.name = "show",
	.summary = "print the text report of a results file",
	.synopsis = "FILE.h5 [--all] [--latency] [--fs-stats] [--analyze]",
	.about = "Print the text report of the run stored in a results file.\n",
	.options = show_options,
	.opts_size = sizeof(struct show_opts),
	.main = show_main,
};
