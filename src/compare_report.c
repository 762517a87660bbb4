/* compare_report.c: `pfsbench compare A.h5 B.h5 [...] [--csv|--json]`.
 * Runs of one workload side by side: one line per (test, op) they share,
 * each run's rate with its p99 latency and its change against the first
 * run, judged by src/compare.c; then each run's slow nodes
 * (src/slownode.c). Two runs are columns of one line; more runs are rows,
 * so that no line passes 100 columns. CSV and JSON carry the same figures
 * for programs. */
#include "pfsbench/archive.h"
#include "pfsbench/commands.h"
#include "pfsbench/compare.h"
#include "pfsbench/export.h"
#include "pfsbench/matrixdiff.h"
#include "pfsbench/slownode.h"
#include "pfsbench/util.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The text report's widest line (for ordinary names and values). */
#define PFS_CMP_WIDTH 100

/* Everything one report needs about its runs. */
struct report {
	FILE *out;
	const struct pfs_archive *runs;
	const char *const *paths;
	size_t n;
	bool colour;
	struct pfs_cmp_run *st;       /* per run */
	struct pfs_analysis *slow;    /* per run */
	const struct pfs_cmp_line **shared; /* the base's lines every run has */
	size_t nshared, unshared;
	double alpha;                 /* per line: PFS_CMP_ALPHA / nshared */
};

/* Text from a file, for a terminal: control characters become '?', and
 * what does not fit in buf is cut. */
static void printable(char *buf, size_t len, const char *s)
{
	size_t i = 0;

	for (; len && i < len - 1 && s[i]; i++)
		buf[i] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i];
	if (len)
		buf[i] = 0;
}

/* A run's name: its --label, else its filesystem and directory. */
static void heading(char *buf, size_t len, const struct pfs_archive *a)
{
	char raw[sizeof(a->ri.label) + sizeof(a->ri.fstype) + sizeof(a->ri.dir) + 4];

	if (a->ri.label[0])
		snprintf(raw, sizeof(raw), "%s", a->ri.label);
	else
		snprintf(raw, sizeof(raw), "%s %s", a->ri.fstype, a->ri.dir);
	printable(buf, len, raw);
}

static bool is_short(const struct pfs_cmp_line *l)
{
	return l->step_us < PFS_SHORT_STEP_US;
}

static void rate_text(char *buf, size_t len, const struct pfs_cmp_line *l)
{
	snprintf(buf, len, "%.*f%s", l->unit == PFS_UNIT_BYTES ? 1 : 0,
		 pfs_rate_display(l->unit, l->rate), is_short(l) ? "!" : "");
}

static void p99_text(char *buf, size_t len, const struct pfs_cmp_line *l)
{
	if (l->p99_ns)
		snprintf(buf, len, "%.1f", (double)l->p99_ns / 1000);
	else
		snprintf(buf, len, "-");
}

/* ---- text ------------------------------------------------------------------------- */

/* The verdict column's word: SLOWER or FASTER when called out, short or
 * busy for a change beyond the noise and the floor that is not, else "". */
static const char *verdict_word(const struct pfs_cmp_verdict *v)
{
	return v->unresolved    ? "short"
	       : v->busy        ? "busy"
	       : !v->called_out ? ""
	       : v->ratio < 1   ? "SLOWER"
				: "FASTER";
}

static void print_verdict(const struct report *rp, const struct pfs_cmp_verdict *v)
{
	const char *word = verdict_word(v);

	if (!*word)
		return;
	if (!v->called_out) { /* short or busy: said, in no colour */
		fputs(word, rp->out);
		return;
	}
	if (rp->colour)
		fputs(v->ratio < 1 ? "\033[1;31m" : "\033[1;32m", rp->out);
	fputs(word, rp->out);
	if (rp->colour)
		fputs("\033[0m", rp->out);
}

/* "change interval" and the verdict: the end of a line. */
static void print_change(const struct report *rp, const struct pfs_cmp_line *base,
			 const struct pfs_cmp_line *l)
{
	struct pfs_cmp_verdict v;
	char change[48], iv[48];

	pfs_compare_judge(base, l, rp->alpha, &v);
	pfs_compare_ratio_text(change, sizeof(change), v.ratio);
	pfs_compare_interval_text(iv, sizeof(iv), &v);
	/* Padded only where something follows: no line ends in blanks. */
	fprintf(rp->out, "  %-12s %-*s", change, *verdict_word(&v) ? 12 : 0, iv);
	if (*verdict_word(&v))
		fputc(' ', rp->out);
	print_verdict(rp, &v);
}

/* Two runs: one line per (test, op), 97 columns at most for ordinary names. */
static void text_columns(const struct report *rp)
{
	FILE *out = rp->out;

	fprintf(out, "%-4s %-8s %-7s  %10s %8s  %10s %8s  %-12s %-12s %s\n", "Test", "Op", "Unit",
		"[1] rate", "p99 us", "[2] rate", "p99 us", "change", "interval", "verdict");
	for (size_t i = 0; i < rp->nshared; i++) {
		const struct pfs_cmp_line *a = rp->shared[i];
		const struct pfs_cmp_line *b = pfs_compare_find(&rp->st[1], a->test, a->op);
		char ra[48], rb[48], pa[32], pb[32];

		rate_text(ra, sizeof(ra), a);
		rate_text(rb, sizeof(rb), b);
		p99_text(pa, sizeof(pa), a);
		p99_text(pb, sizeof(pb), b);
		fprintf(out, "%-4s %-8s %-7s  %10s %8s  %10s %8s", a->test, a->op,
			pfs_unit_rate_label(a->unit), ra, pa, rb, pb);
		print_change(rp, a, b);
		fputc('\n', out);
	}
}

/* More runs: a line per run under each (test, op), 88 columns at most. */
static void text_rows(const struct report *rp)
{
	FILE *out = rp->out;

	fprintf(out, "%-4s %-8s %-7s %-4s %10s %6s %8s  %-12s %-12s %s\n", "Test", "Op", "Unit",
		"Run", "rate", "noise", "p99 us", "change", "interval", "verdict");
	for (size_t i = 0; i < rp->nshared; i++) {
		const struct pfs_cmp_line *a = rp->shared[i];

		for (size_t r = 0; r < rp->n; r++) {
			const struct pfs_cmp_line *l =
				r ? pfs_compare_find(&rp->st[r], a->test, a->op) : a;
			char run[32], rate[48], noise[16] = "-", p99[32];

			snprintf(run, sizeof(run), "[%zu]", r + 1);
			rate_text(rate, sizeof(rate), l);
			p99_text(p99, sizeof(p99), l);
			if (l->noise >= 0)
				snprintf(noise, sizeof(noise), "%.1f%%", l->noise * 100);
			fprintf(out, "%-4s %-8s %-7s %-4s %10s %6s %8s", r ? "" : a->test,
				r ? "" : a->op, r ? "" : pfs_unit_rate_label(a->unit), run, rate, noise,
				p99);
			if (r)
				print_change(rp, a, l);
			fputc('\n', out);
		}
	}
}

/* A parameter a file does not hold (written before pfsbench had the option)
 * is not assumed to have had today's default: which value that run used is
 * not known. */
#define NOT_RECORDED "(not recorded)"

static const char *param_value(const struct pfs_archive *a, const char *key)
{
	const char *v = pfs_archive_param(a, key);

	return v ? v : NOT_RECORDED;
}

/* One line when key's value is not the same in every run. */
static void print_if_differs(FILE *out, const struct pfs_archive *runs, size_t n, const char *key,
			     bool is_param, bool *any)
{
	const char *v0 = is_param ? param_value(&runs[0], key) : pfs_archive_get(&runs[0], key);
	char text[256], line[2048];
	bool differs = false;
	size_t len;

	for (size_t q = 1; q < n && !differs; q++)
		differs = strcmp(v0, is_param ? param_value(&runs[q], key)
					      : pfs_archive_get(&runs[q], key)) != 0;
	if (!differs)
		return;
	if (!*any)
		fputs("Differing parameters:\n", out);
	*any = true;
	printable(text, sizeof(text), key);
	len = (size_t)snprintf(line, sizeof(line), "  %-16s", text);
	for (size_t q = 0; q < n && len < sizeof(line); q++) {
		printable(text, sizeof(text),
			  is_param ? param_value(&runs[q], key) : pfs_archive_get(&runs[q], key));
		len += (size_t)snprintf(line + len, sizeof(line) - len, "%s%zu: %s", q ? "  " : "",
					q + 1, text);
	}
	if (len <= PFS_CMP_WIDTH) {
		fprintf(out, "%s\n", line);
		return;
	}
	/* Too long for one line: one line a run. */
	printable(text, sizeof(text), key);
	fprintf(out, "  %s\n", text);
	for (size_t q = 0; q < n; q++) {
		printable(text, sizeof(text),
			  is_param ? param_value(&runs[q], key) : pfs_archive_get(&runs[q], key));
		fprintf(out, "    %zu: %s\n", q + 1, text);
	}
}

/* The parameters, and the shape of the run, that are not the same in every
 * run; each parameter once, in the order of the first run that has it. */
static void print_differences(FILE *out, const struct pfs_archive *runs, size_t n)
{
	static const char *const shape[] = { "ranks", "nodes", "workers_min", "workers_max",
					     "run_note" };
	bool any = false;

	for (size_t r = 0; r < n; r++)
		for (size_t p = 0; p < runs[r].nparams; p++) {
			const char *key = runs[r].params[p].key;
			bool seen = false;

			for (size_t q = 0; q < r && !seen; q++)
				seen = pfs_archive_param(&runs[q], key) != NULL;
			if (!seen)
				print_if_differs(out, runs, n, key, true, &any);
		}
	for (size_t i = 0; i < sizeof(shape) / sizeof(shape[0]); i++)
		print_if_differs(out, runs, n, shape[i], false, &any);
	if (any)
		fputc('\n', out);
}

static void print_slow_nodes(const struct report *rp)
{
	char line[1024];

	fputs("\nSlow nodes (docs/methodology.md):\n", rp->out);
	for (size_t r = 0; r < rp->n; r++) {
		const struct pfs_analysis *a = &rp->slow[r];
		bool any = false;

		if (!a->compared) {
			fprintf(rp->out, " [%zu] not judged: %u node%s\n", r + 1, a->nnodes,
				a->nnodes == 1 ? "" : "s");
			continue;
		}
		for (unsigned nd = 0; nd < a->nnodes; nd++)
			if (pfs_node_is_slow(&a->nodes[nd])) {
				char name[sizeof(line)];

				pfs_slow_describe(line, sizeof(line), &a->nodes[nd]);
				printable(name, sizeof(name), line);
				fprintf(rp->out, " [%zu] %s\n", r + 1, name);
				any = true;
			}
		if (!any)
			fprintf(rp->out, " [%zu] none\n", r + 1);
	}
}

static void text_report(const struct report *rp)
{
	FILE *out = rp->out;
	bool any_short = false, no_interval = false;
	size_t unresolved = 0, busy = 0;
	char head[512];

	for (size_t r = 0; r < rp->n; r++) {
		const struct pfs_archive *a = &rp->runs[r];
		char path[512];

		heading(head, sizeof(head), a);
		printable(path, sizeof(path), rp->paths[r]);
		if (a->ri.label[0]) {
			char where[sizeof(a->ri.fstype) + sizeof(a->ri.dir) + 2];

			printable(where, sizeof(where), a->ri.fstype);
			fprintf(out, "[%zu] %s: %s ", r + 1, head, where);
			printable(where, sizeof(where), a->ri.dir);
			fprintf(out, "%s\n", where);
		} else {
			fprintf(out, "[%zu] %s\n", r + 1, head);
		}
		/* The file and the run's shape on a line of their own: paths are long. */
		fprintf(out, "    %s: %s, %" PRIu64 " rank%s on %" PRIu64 " node%s, %s\n", path,
			a->status == PFS_RUN_COMPLETE ? "complete" : "aborted", a->ri.nranks,
			a->ri.nranks == 1 ? "" : "s", a->ri.nnodes, a->ri.nnodes == 1 ? "" : "s",
			a->ri.start_time);
	}
	fputc('\n', out);
	print_differences(out, rp->runs, rp->n);
	if (rp->n == 2)
		text_columns(rp);
	else
		text_rows(rp);
	for (size_t i = 0; i < rp->nshared; i++)
		for (size_t r = 0; r < rp->n; r++) {
			const struct pfs_cmp_line *l =
				pfs_compare_find(&rp->st[r], rp->shared[i]->test, rp->shared[i]->op);
			struct pfs_cmp_verdict v;

			any_short |= is_short(l);
			if (r) {
				pfs_compare_judge(rp->shared[i], l, rp->alpha, &v);
				no_interval |= !v.interval;
				unresolved += v.unresolved;
				busy += v.busy;
			}
		}
	if (rp->unshared)
		fprintf(out, "\n%zu (test, op) pairs are not in every run and are left out.\n",
			rp->unshared);
	if (any_short)
		fprintf(out, "\nWarning: '!' marks a rate whose steps last under %u ms (median): "
			     "barrier wake-ups,\nclock offsets and time slices are a large part "
			     "of them; give the op more items.\n",
			PFS_SHORT_STEP_US / 1000);
	fprintf(out, "\nrate: amount of all nodes / wall time of the op's steps, median over "
		     "iterations; p99: the\n99th percentile latency of the op's items. change: "
		     "the run's rate against [1]'s;\ninterval: where that factor lies with "
		     "%.0f %% confidence for the table (a bound below 1 is\nthe other way). "
		     "Called out (SLOWER, FASTER) when the interval excludes no change, "
		     "the\nchange exceeds %.0f %% and it moved the op's steps by %u ms or more "
		     "beyond the\nranks' longer waits for a CPU. "
		     "See docs/compare.md.\n",
		100 * (1 - PFS_CMP_ALPHA), 100 * (PFS_CMP_FLOOR - 1), PFS_CMP_RESOLVE_US / 1000);
	if (no_interval)
		fputs("interval '-': neither run measured its noise (one iteration on one node); "
		      "run with -i 3.\n", out);
	if (unresolved)
		fprintf(out, "short: %zu change%s beyond the noise and %.0f %% that moved the op's steps "
			     "by under %u ms,\nno more measurable than a step that short ('!'); not "
			     "called out.\n",
			unresolved, unresolved == 1 ? "" : "s", 100 * (PFS_CMP_FLOOR - 1),
			PFS_CMP_RESOLVE_US / 1000);
	if (busy)
		fprintf(out, "busy: %zu change%s beyond the noise and %.0f %% that the slower run's "
			     "longer waits for a CPU\naccount for (all but under %u ms of it): the "
			     "machine was busier, not the filesystem\nslower; not called out.\n",
			busy, busy == 1 ? "" : "s", 100 * (PFS_CMP_FLOOR - 1), PFS_CMP_RESOLVE_US / 1000);
	print_slow_nodes(rp);
}

/* ---- CSV ---------------------------------------------------------------------------------- */

static void csv_num(FILE *out, double v, bool valid)
{
	fputc(',', out);
	if (valid && isfinite(v))
		fprintf(out, "%.6g", v);
}

static void csv_report(const struct report *rp)
{
	FILE *out = rp->out;

	fputs("test,op,unit,run,label,rate,iterations,replicates,replicates_of,noise,step_us,"
	      "short,p99_ns,ratio,ratio_low,ratio_high,change,called_out,verdict\r\n",
	      out);
	for (size_t i = 0; i < rp->nshared; i++) {
		const struct pfs_cmp_line *a = rp->shared[i];

		for (size_t r = 0; r < rp->n; r++) {
			const struct pfs_cmp_line *l = pfs_compare_find(&rp->st[r], a->test, a->op);
			struct pfs_cmp_verdict v = { .ratio = 1, .low = 1, .high = 1 };
			char change[48] = "";

			if (r) {
				pfs_compare_judge(a, l, rp->alpha, &v);
				pfs_compare_ratio_text(change, sizeof(change), v.ratio);
			}
			pfs_csv_field(out, a->test);
			fputc(',', out);
			pfs_csv_field(out, a->op);
			fprintf(out, ",%s,%zu,", pfs_unit_rate_label(l->unit), r + 1);
			pfs_csv_field(out, rp->runs[r].ri.label);
			csv_num(out, pfs_rate_display(l->unit, l->rate), true);
			fprintf(out, ",%u,%u,%s", l->iterations, l->replicates,
				l->replicates < 2 ? "" : l->node_replicates ? "nodes" : "iterations");
			csv_num(out, l->noise, l->noise >= 0);
			fprintf(out, ",%" PRIu64 ",%s,%" PRIu64, l->step_us,
				is_short(l) ? "true" : "false", l->p99_ns);
			csv_num(out, v.ratio, r && v.ratio > 0);
			csv_num(out, v.low, r && v.interval);
			csv_num(out, v.high, r && v.interval);
			fputc(',', out);
			pfs_csv_field(out, change);
			fprintf(out, ",%s,%s\r\n", v.called_out ? "true" : "false", verdict_word(&v));
		}
	}
}

/* ---- JSON --------------------------------------------------------------------------------- */

static void json_num(FILE *out, double v)
{
	if (isfinite(v))
		fprintf(out, "%.6g", v);
	else
		fputs("null", out);
}

static void json_slow(FILE *out, const struct pfs_analysis *a)
{
	bool first = true;

	fprintf(out, "{\"judged\": %s, \"nodes\": [", a->compared ? "true" : "false");
	for (unsigned nd = 0; a->compared && nd < a->nnodes; nd++) {
		const struct pfs_node_verdict *v = &a->nodes[nd];

		if (!pfs_node_is_slow(v))
			continue;
		fputs(first ? "\n        {\"node\": " : ",\n        {\"node\": ", out);
		first = false;
		pfs_json_string(out, v->name);
		fputs(", \"late_ms\": ", out);
		json_num(out, v->late_us / 1000);
		fprintf(out, ", \"late\": %s", v->late ? "true" : "false");
		fputs(", \"ops\": [", out);
		for (size_t k = 0; k < v->nops; k++) {
			fputs(k ? ", {\"test\": " : "{\"test\": ", out);
			pfs_json_string(out, v->ops[k].test);
			fputs(", \"op\": ", out);
			pfs_json_string(out, v->ops[k].op);
			fputs(", \"times_slower\": ", out);
			json_num(out, v->ops[k].factor);
			fputc('}', out);
		}
		fputs("]}", out);
	}
	fputs(first ? "]}" : "\n      ]}", out);
}

static void json_report(const struct report *rp)
{
	FILE *out = rp->out;
	char head[512];

	fprintf(out, "{\n  \"confidence\": %.4g,\n  \"floor\": %.4g,\n  \"line_confidence\": %.6g,\n"
		     "  \"short_step_us\": %u,\n  \"unshared\": %zu,\n  \"runs\": [",
		1 - PFS_CMP_ALPHA, PFS_CMP_FLOOR, 1 - rp->alpha, PFS_SHORT_STEP_US, rp->unshared);
	for (size_t r = 0; r < rp->n; r++) {
		const struct pfs_archive *a = &rp->runs[r];

		heading(head, sizeof(head), a);
		fprintf(out, "%s\n    {\"run\": %zu, \"path\": ", r ? "," : "", r + 1);
		pfs_json_string(out, rp->paths[r]);
		fputs(", \"label\": ", out);
		pfs_json_string(out, a->ri.label);
		fputs(", \"heading\": ", out);
		pfs_json_string(out, head);
		fputs(", \"workload\": ", out);
		pfs_json_string(out, a->ri.workload_name);
		fputs(", \"fstype\": ", out);
		pfs_json_string(out, a->ri.fstype);
		fprintf(out, ", \"complete\": %s, \"ranks\": %" PRIu64 ", \"nodes\": %" PRIu64
			     ",\n      \"slow_nodes\": ",
			a->status == PFS_RUN_COMPLETE ? "true" : "false", a->ri.nranks, a->ri.nnodes);
		json_slow(out, &rp->slow[r]);
		fputc('}', out);
	}
	fputs("\n  ],\n  \"lines\": [", out);
	for (size_t i = 0; i < rp->nshared; i++) {
		const struct pfs_cmp_line *a = rp->shared[i];

		fputs(i ? ",\n    {\"test\": " : "\n    {\"test\": ", out);
		pfs_json_string(out, a->test);
		fputs(", \"op\": ", out);
		pfs_json_string(out, a->op);
		fprintf(out, ", \"unit\": \"%s\", \"runs\": [", pfs_unit_rate_label(a->unit));
		for (size_t r = 0; r < rp->n; r++) {
			const struct pfs_cmp_line *l = pfs_compare_find(&rp->st[r], a->test, a->op);
			struct pfs_cmp_verdict v;
			char change[48];

			fprintf(out, "%s\n      {\"run\": %zu, \"rate\": ", r ? "," : "", r + 1);
			json_num(out, pfs_rate_display(l->unit, l->rate));
			fprintf(out, ", \"iterations\": %u, \"replicates\": %u, \"noise\": ",
				l->iterations, l->replicates);
			json_num(out, l->noise >= 0 ? l->noise : NAN);
			fprintf(out, ", \"step_us\": %" PRIu64 ", \"short\": %s, \"p99_ns\": %" PRIu64,
				l->step_us, is_short(l) ? "true" : "false", l->p99_ns);
			if (r) {
				pfs_compare_judge(a, l, rp->alpha, &v);
				fputs(", \"ratio\": ", out);
				json_num(out, v.ratio > 0 ? v.ratio : NAN);
				fputs(", \"low\": ", out);
				json_num(out, v.interval ? v.low : NAN);
				fputs(", \"high\": ", out);
				json_num(out, v.interval ? v.high : NAN);
				fputs(", \"change\": ", out);
				pfs_json_string(out, pfs_compare_ratio_text(change, sizeof(change), v.ratio));
				fprintf(out, ", \"called_out\": %s, \"verdict\": \"%s\"",
					v.called_out ? "true" : "false", verdict_word(&v));
			}
			fputc('}', out);
		}
		fputs("]}", out);
	}
	fputs(rp->nshared ? "\n  ]\n}\n" : "]\n}\n", out);
}

/* ---- the report -------------------------------------------------------------------------- */

int pfs_compare_print(FILE *out, const struct pfs_archive *runs, const char *const *paths,
		      size_t n, enum pfs_cmp_format format, bool colour)
{
	struct report rp = { out, runs, paths, n, colour, NULL, NULL, NULL, 0, 0, 0 };
	size_t analysed = 0;
	int rc = -ENOMEM;

	rp.st = calloc(n, sizeof(*rp.st));
	rp.slow = calloc(n, sizeof(*rp.slow));
	if (!rp.st || !rp.slow)
		goto out;
	for (size_t r = 0; r < n; r++) {
		rc = pfs_compare_stats(&runs[r], &rp.st[r]);
		if (!rc)
			rc = pfs_analyze(runs[r].rows, runs[r].nrows, runs[r].nodes, runs[r].nnodes,
					 &rp.slow[r]);
		if (rc) {
			if (rc == -EINVAL)
				pfs_error("'%s': the latency histograms of the file are damaged", paths[r]);
			goto out;
		}
		analysed++;
	}
	rc = -ENOMEM;
	rp.shared = malloc((rp.st[0].n ? rp.st[0].n : 1) * sizeof(*rp.shared));
	if (!rp.shared)
		goto out;
	/* The ops every run has, in the first run's order. */
	rp.nshared = pfs_compare_shared(rp.st, n, rp.shared, &rp.unshared);
	rp.alpha = pfs_compare_alpha(rp.nshared);
	if (format == PFS_CMP_CSV)
		csv_report(&rp);
	else if (format == PFS_CMP_JSON)
		json_report(&rp);
	else
		text_report(&rp);
	rc = 0;
out:
	for (size_t r = 0; rp.st && r < n; r++)
		pfs_compare_run_free(&rp.st[r]);
	for (size_t r = 0; rp.slow && r < analysed; r++)
		pfs_analysis_free(&rp.slow[r]);
	free(rp.st);
	free(rp.slow);
	free(rp.shared);
	return rc;
}

/* ---- the command ------------------------------------------------------------------------ */

static void compare_usage(FILE *out)
{
	fprintf(out, "Usage: pfsbench compare A.h5 B.h5 [C.h5 ...] [--csv|--json]\n"
		     "Put runs of one workload side by side: each (test, op)'s rate, p99 latency\n"
		     "and change against A, called out beyond noise (docs/compare.md); then\n"
		     "each run's slow nodes. Colour on a terminal unless NO_COLOR is set.\n"
		     "  --csv   one CSV line per (test, op) and run\n"
		     "  --json  one JSON document\n"
		     "Two matrix runs, or perf_matrix outputs: perf_matrix's diff (docs/matrix.md).\n");
}

/* Runs of different workloads have different tests and ops: refused. */
static bool one_workload(const struct pfs_archive *runs, char *const *paths, int n)
{
	for (int r = 1; r < n; r++)
		if (strcmp(runs[r].ri.workload_name, runs[0].ri.workload_name)) {
			char w0[64], wr[64];

			printable(w0, sizeof(w0), runs[0].ri.workload_name);
			printable(wr, sizeof(wr), runs[r].ri.workload_name);
			fprintf(stderr, "pfsbench compare: '%s' is a %s run and '%s' a %s run: "
					"compare puts runs of one workload side by side\n",
				paths[0], w0, paths[r], wr);
			return false;
		}
	return true;
}

static int compare_main(int argc, char **argv)
{
	struct pfs_archive *runs = NULL;
	const char *no_color = getenv("NO_COLOR");
	enum pfs_cmp_format format = PFS_CMP_TEXT;
	char **paths = calloc((size_t)argc, sizeof(*paths));
	int npaths = 0, loaded = 0, rc = pfs_matrixdiff_compare(argc, argv);
	bool bad = false;

	/* Two perf_matrix matrices: its diff (src/matrixdiff.c). */
	if (rc >= 0) {
		free(paths);
		return rc;
	}
	rc = PFS_EXIT_FAILED;
	if (!paths) {
		pfs_error("out of memory");
		return PFS_EXIT_FAILED;
	}
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			compare_usage(stdout);
			free(paths);
			return PFS_EXIT_OK;
		}
		if (!strcmp(argv[i], "--csv") || !strcmp(argv[i], "--json")) {
			bad |= format != PFS_CMP_TEXT;
			format = argv[i][2] == 'c' ? PFS_CMP_CSV : PFS_CMP_JSON;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "pfsbench compare: unknown option '%s'\n", argv[i]);
			bad = true;
		} else {
			paths[npaths++] = argv[i];
		}
	}
	if (npaths < 2 || bad) {
		if (!bad)
			fprintf(stderr, "pfsbench compare: give two results files or more, and at "
					"most one of --csv and --json\n");
		compare_usage(stderr);
		free(paths);
		return PFS_EXIT_USAGE;
	}
	runs = calloc((size_t)npaths, sizeof(*runs));
	if (!runs) {
		pfs_error("out of memory");
		free(paths);
		return PFS_EXIT_FAILED;
	}
	for (loaded = 0; loaded < npaths; loaded++)
		if (pfs_archive_load(paths[loaded], &runs[loaded]))
			break;
	if (loaded == npaths && !one_workload(runs, paths, npaths)) {
		rc = PFS_EXIT_USAGE;
	} else if (loaded == npaths) {
		bool colour = format == PFS_CMP_TEXT && isatty(STDOUT_FILENO) &&
			      !(no_color && *no_color);
		int prc = pfs_compare_print(stdout, runs, (const char *const *)paths,
					    (size_t)npaths, format, colour);

		if (prc == -ENOMEM)
			pfs_error("out of memory");
		else if (!prc && (fflush(stdout) || ferror(stdout)))
			pfs_error("cannot write to standard output");
		else if (!prc)
			rc = PFS_EXIT_OK;
	}
	for (int i = 0; i < loaded; i++)
		pfs_archive_free(&runs[i]);
	free(runs);
	free(paths);
	return rc;
}

const struct pfs_command pfs_command_compare = {
	.name = "compare",
	.summary = "put the results of runs side by side",
	.main = compare_main,
};
