/* compare_report.c: `pfsbench compare A.h5 B.h5 [...] [--csv|--json]`.
 * Runs of one workload side by side: one line per (test, op) they share,
 * each run's rate with its p99 latency and its change against the first
 * run, judged by src/analysis/compare.c; then each run's slow nodes
 * (src/analysis/slownode.c). Two runs are columns of one line; more runs are rows,
 * so that no line passes 100 columns. CSV and JSON carry the same figures
 * for programs. */
#include "pfsbench/analysis/compare.h"
#include "pfsbench/analysis/counters.h"
#include "pfsbench/analysis/matrixdiff.h"
#include "pfsbench/analysis/slownode.h"
#include "pfsbench/archive/archive.h"
#include "pfsbench/commands/commands.h"
#include "pfsbench/commands/export.h"
#include "pfsbench/core/options.h"
#include "pfsbench/core/util.h"
#include "pfsbench/engine/workload.h"
#include "pfsbench/target/fsprobe.h"

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
	const struct pfs_cmp_opts *o;
	struct pfs_cmp_run *st;       /* per run */
	struct pfs_analysis *slow;    /* per run */
	size_t nsides;
	size_t *side_runs, *side_first; /* per side */
	bool groups;                  /* sides of runs (`--`), not a run a side */
	struct pfs_cmp_table t;
};

/* A run's name: its --label, else its filesystem and directory. */
static void heading(char *buf, size_t len, const struct pfs_archive *a)
{
	char raw[sizeof(a->ri.label) + sizeof(a->ri.fstype) + sizeof(a->ri.dir) + 4];

	if (a->ri.label[0])
		snprintf(raw, sizeof(raw), "%s", a->ri.label);
	else
		snprintf(raw, sizeof(raw), "%s %s", a->ri.fstype, a->ri.dir);
	pfs_printable(buf, len, raw);
}

static const struct pfs_cmp_cell *cell(const struct report *rp, size_t l, size_t s)
{
	return &rp->t.cells[l * rp->nsides + s];
}

static const struct pfs_cmp_verdict *verdict(const struct report *rp, size_t l, size_t s)
{
	return &rp->t.v[l * rp->nsides + s];
}

static bool is_short(const struct pfs_cmp_cell *c)
{
	return c->step_us < PFS_SHORT_STEP_US;
}

static void rate_text(char *buf, size_t len, enum pfs_unit unit, const struct pfs_cmp_cell *c)
{
	snprintf(buf, len, "%.*f%s", pfs_unit_is_bytes(unit) ? 1 : 0, pfs_rate_display(unit, c->rate),
		 is_short(c) ? "!" : "");
}

/* ---- text ------------------------------------------------------------------------- */

/* The verdict's column: as wide as its header, which is wider than any
 * verdict's word (SLOWER, FASTER, short), so the change after it stays
 * under "change (interval)". */
#define VERDICT_WIDTH ((int)sizeof("verdict") - 1)

static void print_word(const struct report *rp, const struct pfs_cmp_verdict *v)
{
	const char *word = pfs_compare_word(v);
	bool paint = rp->o->colour && v->called_out;

	if (paint)
		fputs(v->ratio < 1 ? "\033[1;31m" : "\033[1;32m", rp->out);
	fprintf(rp->out, "%-*s", VERDICT_WIDTH, word);
	if (paint)
		fputs("\033[0m", rp->out);
}

/* "verdict  sentence": the end of a line. */
static void print_change(const struct report *rp, size_t l, size_t s)
{
	const struct pfs_cmp_verdict *v = verdict(rp, l, s);
	char text[PFS_CMP_TEXT_MAX];
	char safe[PFS_PRINTABLE_SIZE(sizeof(text))];

	fputs("  ", rp->out);
	print_word(rp, v);
	/* It may name a node, whose name comes from the file. */
	pfs_printable(safe, sizeof(safe), pfs_compare_text(text, sizeof(text), v, rp->t.margin));
	fprintf(rp->out, "  %s", safe);
}

/* The widths of the columns before the verdict: each at least its
 * usual width (that of "Test", "TestType" and "files/s" in the run's
 * report), wider for a longer name (bonnie's "seq_create") or rate, so
 * that no line drifts from the header. */
struct widths {
	int test, op, unit, rate;
};

static int widen(int w, const char *s)
{
	return (int)strlen(s) > w ? (int)strlen(s) : w;
}

static struct widths text_widths(const struct report *rp)
{
	struct widths w = { 4, 8, 7, 9 };

	for (size_t l = 0; l < rp->t.nlines; l++) {
		const struct pfs_cmp_line *a = rp->t.base[l];
		char test[PFS_PRINTABLE_SIZE(sizeof(a->test))], op[PFS_PRINTABLE_SIZE(sizeof(a->op))];
		char rate[48];

		w.test = widen(w.test, pfs_printable(test, sizeof(test), a->test));
		w.op = widen(w.op, pfs_printable(op, sizeof(op), a->op));
		w.unit = widen(w.unit, pfs_unit_rate_label(a->unit));
		for (size_t s = 0; s < rp->nsides; s++) {
			rate_text(rate, sizeof(rate), a->unit, cell(rp, l, s));
			w.rate = widen(w.rate, rate);
		}
	}
	return w;
}

/* Two sides: one line per (test, op). */
static void text_columns(const struct report *rp)
{
	FILE *out = rp->out;
	struct widths w = text_widths(rp);

	fprintf(out, "%-*s %-*s %-*s %*s %*s  %-*s  %s\n", w.test, "Test", w.op, "Op", w.unit,
		"Unit", w.rate, "[1] rate", w.rate, "[2] rate", VERDICT_WIDTH, "verdict",
		"change (interval)");
	for (size_t l = 0; l < rp->t.nlines; l++) {
		const struct pfs_cmp_line *a = rp->t.base[l];
		char ra[48], rb[48];

		char test[PFS_PRINTABLE_SIZE(sizeof(a->test))], op[PFS_PRINTABLE_SIZE(sizeof(a->op))];

		rate_text(ra, sizeof(ra), a->unit, cell(rp, l, 0));
		rate_text(rb, sizeof(rb), a->unit, cell(rp, l, 1));
		fprintf(out, "%-*s %-*s %-*s %*s %*s", w.test,
			pfs_printable(test, sizeof(test), a->test), w.op,
			pfs_printable(op, sizeof(op), a->op), w.unit, pfs_unit_rate_label(a->unit),
			w.rate, ra, w.rate, rb);
		print_change(rp, l, 1);
		fputc('\n', out);
	}
}

/* More sides: a line per side under each (test, op). */
static void text_rows(const struct report *rp)
{
	FILE *out = rp->out;
	struct widths w = text_widths(rp);

	fprintf(out, "%-*s %-*s %-*s %-4s %*s %6s  %-*s  %s\n", w.test, "Test", w.op, "Op", w.unit,
		"Unit", "Run", w.rate, "rate", "noise", VERDICT_WIDTH, "verdict", "change (interval)");
	for (size_t l = 0; l < rp->t.nlines; l++) {
		const struct pfs_cmp_line *a = rp->t.base[l];
		char test[PFS_PRINTABLE_SIZE(sizeof(a->test))], op[PFS_PRINTABLE_SIZE(sizeof(a->op))];

		pfs_printable(test, sizeof(test), a->test);
		pfs_printable(op, sizeof(op), a->op);
		for (size_t s = 0; s < rp->nsides; s++) {
			const struct pfs_cmp_cell *c = cell(rp, l, s);
			char run[32], rate[48], noise[16] = "-";

			snprintf(run, sizeof(run), "[%zu]", s + 1);
			rate_text(rate, sizeof(rate), a->unit, c);
			if (c->noise >= 0)
				snprintf(noise, sizeof(noise), "%.1f%%", c->noise * 100);
			fprintf(out, "%-*s %-*s %-*s %-4s %*s %6s", w.test, s ? "" : test, w.op,
				s ? "" : op, w.unit, s ? "" : pfs_unit_rate_label(a->unit), run,
				w.rate, rate, noise);
			if (s)
				print_change(rp, l, s);
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
	pfs_printable(text, sizeof(text), key);
	len = (size_t)snprintf(line, sizeof(line), "  %-16s", text);
	for (size_t q = 0; q < n && len < sizeof(line); q++) {
		pfs_printable(text, sizeof(text),
			  is_param ? param_value(&runs[q], key) : pfs_archive_get(&runs[q], key));
		len += (size_t)snprintf(line + len, sizeof(line) - len, "%s%zu: %s", q ? "  " : "",
					q + 1, text);
	}
	if (len <= PFS_CMP_WIDTH) {
		fprintf(out, "%s\n", line);
		return;
	}
	/* Too long for one line: one line a run. */
	pfs_printable(text, sizeof(text), key);
	fprintf(out, "  %s\n", text);
	for (size_t q = 0; q < n; q++) {
		pfs_printable(text, sizeof(text),
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

/* A run's number: [k] for a run a side, [s.k] for run k of side s. */
static void run_tag(char *buf, size_t len, const struct report *rp, size_t r)
{
	size_t s = rp->nsides;

	while (s > 0 && rp->side_first[s - 1] > r)
		s--;
	if (rp->groups)
		snprintf(buf, len, "[%zu.%zu]", s, r - rp->side_first[s - 1] + 1);
	else
		snprintf(buf, len, "[%zu]", r + 1);
}

static void print_slow_nodes(const struct report *rp)
{
	char line[1024], tag[48];

	fputs("\nSlow nodes (docs/methodology.md):\n", rp->out);
	for (size_t r = 0; r < rp->n; r++) {
		const struct pfs_analysis *a = &rp->slow[r];
		bool any = false;

		run_tag(tag, sizeof(tag), rp, r);
		if (!a->compared) {
			fprintf(rp->out, " %s not judged: %u node%s\n", tag, a->nnodes,
				a->nnodes == 1 ? "" : "s");
			continue;
		}
		for (unsigned nd = 0; nd < a->nnodes; nd++)
			if (pfs_node_is_slow(&a->nodes[nd])) {
				char name[PFS_PRINTABLE_SIZE(sizeof(line))];

				pfs_slow_describe(line, sizeof(line), &a->nodes[nd]);
				pfs_printable(name, sizeof(name), line);
				fprintf(rp->out, " %s %s\n", tag, name);
				any = true;
			}
		if (!any)
			fprintf(rp->out, " %s none\n", tag);
	}
}

/* The runs of each side, with their files and shapes. */
static void print_runs(const struct report *rp)
{
	FILE *out = rp->out;
	char head[1024], path[PFS_PRINTABLE_SIZE(PATH_MAX)], where[PFS_PRINTABLE_SIZE(PATH_MAX)];
	char start[PFS_PRINTABLE_SIZE(sizeof(rp->runs->ri.start_time))];

	for (size_t s = 0; s < rp->nsides; s++) {
		if (rp->groups)
			fprintf(out, "[%zu] %zu run%s:\n", s + 1, rp->side_runs[s],
				rp->side_runs[s] == 1 ? "" : "s");
		for (size_t k = 0; k < rp->side_runs[s]; k++) {
			size_t r = rp->side_first[s] + k;
			const struct pfs_archive *a = &rp->runs[r];

			heading(head, sizeof(head), a);
			pfs_printable(path, sizeof(path), rp->paths[r]);
			if (rp->groups)
				fprintf(out, "    [%zu.%zu] ", s + 1, k + 1);
			else
				fprintf(out, "[%zu] ", s + 1);
			fputs(head, out);
			if (a->ri.label[0]) {
				pfs_printable(where, sizeof(where), a->ri.fstype);
				fprintf(out, ": %s ", where);
				pfs_printable(where, sizeof(where), a->ri.dir);
				fputs(where, out);
			}
			/* The file and the run's shape on a line of their own: paths are long. */
			fprintf(out, "\n    %s%s: %s, %" PRIu64 " rank%s on %" PRIu64 " node%s, %s\n",
				rp->groups ? "  " : "", path,
				a->status == PFS_RUN_COMPLETE ? "complete" : "aborted", a->ri.nranks,
				a->ri.nranks == 1 ? "" : "s", a->ri.nnodes, a->ri.nnodes == 1 ? "" : "s",
				pfs_printable(start, sizeof(start), a->ri.start_time));
		}
	}
	fputc('\n', out);
}

/* The notes under the table on lines with these verdicts, in count's
 * order. */
_Static_assert(PFS_CMP_RESOLVE_US == 10000, "the notes say 10 ms");
static const struct {
	const char *word, *what;
} notes[] = {
	{ "short", "that moved no node's time in the op by 10 ms, or whose\nranks' work (that "
		   "time less their waits for a CPU) and waits both moved under\n10 ms: no more "
		   "measurable than a step that short; not called out." },
	{ "busy", "whose ranks' waits for a CPU held by others moved 10 ms\nor more, and their "
		  "work (their time in the op less those waits) under 10 ms:\nthe machine was "
		  "busier, not the filesystem slower; not called out." },
	{ "few", "where no variance could be formed for either side: nothing to\njudge the "
		 "change by; give each side 3 runs." },
	{ "CPU per item too", "where the ranks' CPU time per item moved\nwith the rate "
			      "(3/4 of the change or more): a slower or busier machine, or\n"
			      "more work per item, rather than a slower filesystem." },
};

/* What the words under the table say: each only where a line needs it. */
static void text_notes(const struct report *rp)
{
	FILE *out = rp->out;
	size_t count[4] = { 0 }, by_node = 0; /* short, busy, few, cpu */
	bool any_short = false, one_run = false;
	double m = 100 * rp->t.margin;

	for (size_t l = 0; l < rp->t.nlines; l++)
		for (size_t s = 0; s < rp->nsides; s++) {
			const struct pfs_cmp_verdict *v = verdict(rp, l, s);

			any_short |= is_short(cell(rp, l, s));
			one_run |= rp->side_runs[s] == 1;
			if (s) {
				count[0] += v->unresolved;
				count[1] += v->busy;
				count[2] += v->ratio > 0 && !v->interval;
				count[3] += v->cpu_changed;
				by_node += v->by_node;
			}
		}
	if (rp->t.unshared)
		fprintf(out, "\n%zu (test, op) pairs are not in every run and are left out.\n",
			rp->t.unshared);
	if (any_short)
		fprintf(out, "\nWarning: '!' marks a rate whose steps last under %u ms (median): "
			     "barrier wake-ups,\nclock offsets and time slices are a large part "
			     "of them; give the op more items.\n",
			PFS_SHORT_STEP_US / 1000);
	fprintf(out, "\nrate: amount of all nodes / wall time of the op's steps, median over "
		     "iterations%s.\nchange: against [1]; interval: where the factor lies, at "
		     "the line's confidence\n(%.0f %% for the table, Holm). Called out "
		     "(SLOWER, FASTER) when the whole interval\nis beyond %.0f %% and the change "
		     "moved some node's time in the op by %u ms or more,\nand its ranks' work "
		     "(that time less their waits for a CPU) by as much. could\ndetect: the "
		     "change called out 4 times in 5.\n"
		     "See docs/compare.md.\n",
		rp->groups ? "; a side's: the geometric mean of its runs'" : "",
		100 * (1 - PFS_CMP_ALPHA), m, PFS_CMP_RESOLVE_US / 1000);
	if (one_run)
		fprintf(out, "One run a side: what moves between runs is taken to be %.0f %% "
			     "(the floor); for more,\ngive each side 3 runs or more "
			     "(compare A1 A2 A3 -- B1 B2 B3, or pfsbench ab).\n",
			100 * PFS_CMP_RUN_FLOOR);
	if (by_node)
		fprintf(out, "on NODE: %zu line%s called out by one node's own rate in the op "
			     "(1 / its time in it,\na sample a run), beyond %.0f %% where the "
			     "op's whole rate was not surely so; its\ninterval at the node's share "
			     "of the line's confidence.\n",
			by_node, by_node == 1 ? "" : "s", m);
	for (size_t k = 0; k < sizeof(notes) / sizeof(notes[0]); k++)
		if (count[k])
			fprintf(out, "%s: %zu line%s beyond %.0f %% %s\n", notes[k].word, count[k],
				count[k] == 1 ? "" : "s", m, notes[k].what);
}

/* A counter's figure: whole where it is whole (a median of an even count
 * or a mean over runs may not be), "-" where the side recorded none. */
static void counter_text(char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (v == floor(v) && v < 1e15)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.1f", v);
}

/* --fs-stats: each (test, step, counter) with each side's figure, and each
 * later side's against the first (analysis/counters.h). */
static int print_counters(const struct report *rp)
{
	struct pfs_ctr_table t;
	char name[PFS_PRINTABLE_SIZE(sizeof(t.lines->name))], test[PFS_PRINTABLE_SIZE(PFS_TEST_NAME_MAX)];
	char ops[PFS_PRINTABLE_SIZE(sizeof(t.lines->ops))];
	char v[32], tag[32];
	int rc = pfs_ctr_table(rp->runs, rp->side_runs, rp->nsides, &t);

	if (rc)
		return rc;
	fprintf(rp->out, "\nCounters per step (summed over nodes, median over iterations%s; "
			 "docs/filesystems.md):\n",
		rp->groups ? ", mean over the side's runs" : "");
	if (!t.n) {
		fprintf(rp->out, " (no run recorded any)\n");
		return 0;
	}
	fprintf(rp->out, "%-4s %4s %-10s %-22s", "Test", "Step", "Op", "Counter");
	for (size_t s = 0; s < rp->nsides; s++) {
		snprintf(tag, sizeof(tag), "[%zu]", s + 1);
		fprintf(rp->out, " %12s", tag);
	}
	fprintf(rp->out, "%s\n", rp->nsides > 1 ? "  change against [1]" : "");
	for (size_t l = 0; l < t.n; l++) {
		const struct pfs_ctr_line *c = &t.lines[l];

		fprintf(rp->out, "%-4s %4" PRIu32 " %-10s %-22s",
			pfs_printable(test, sizeof(test), c->test), c->step,
			pfs_printable(ops, sizeof(ops), c->ops), pfs_printable(name, sizeof(name), c->name));
		for (size_t s = 0; s < rp->nsides; s++) {
			counter_text(v, sizeof(v), c->side[s]);
			fprintf(rp->out, " %12s", v);
		}
		for (size_t s = 1; s < rp->nsides; s++) {
			double a = c->side[0], b = c->side[s];

			if (isnan(a) || isnan(b))
				continue;
			if (a > 0 && b == 0)
				fprintf(rp->out, "%s%s", s == 1 ? "  " : " ", "none");
			else if (a > 0)
				fprintf(rp->out, "%s%sx", s == 1 ? "  " : " ",
					pfs_compare_factor_text(v, sizeof(v), b / a));
			else
				fprintf(rp->out, "%s%s", s == 1 ? "  " : " ", b > 0 ? "new" : "=");
		}
		fprintf(rp->out, "%s\n", pfs_fscounter_is_gauge(c->name) ? "  (gauge)" : "");
	}
	pfs_ctr_table_free(&t);
	return 0;
}

static int text_report(const struct report *rp)
{
	print_runs(rp);
	print_differences(rp->out, rp->runs, rp->n);
	if (rp->nsides == 2)
		text_columns(rp);
	else
		text_rows(rp);
	text_notes(rp);
	print_slow_nodes(rp);
	return rp->o->fsstats ? print_counters(rp) : 0;
}

/* ---- CSV ---------------------------------------------------------------------------------- */

static void csv_num(FILE *out, double v, bool valid)
{
	fputc(',', out);
	if (valid && isfinite(v))
		fprintf(out, "%.6g", v);
}

/* A side's replicates: its runs, or its one run's iterations or nodes. */
static void replicates(const struct report *rp, size_t l, size_t s, unsigned *n, const char **of)
{
	const struct pfs_cmp_cell *c = cell(rp, l, s);
	const struct pfs_cmp_line *first =
		pfs_compare_find(&rp->st[rp->side_first[s]], rp->t.base[l]->test, rp->t.base[l]->op);

	if (c->runs >= 2) {
		*n = c->runs;
		*of = "runs";
	} else {
		*n = first->replicates;
		*of = first->replicates < 2 ? "" : "iterations";
	}
}

static void csv_report(const struct report *rp)
{
	FILE *out = rp->out;

	fputs("test,op,unit,run,label,rate,iterations,replicates,replicates_of,noise,step_us,"
	      "short,p99_ns,ratio,ratio_low,ratio_high,change,called_out,verdict,runs,confidence,"
	      "detectable,cpu_ratio,cpu_changed,text,noise_drawn,noise_df,se,df,node,node_ratio,"
	      "node_low,node_high,by_node\r\n",
	      out);
	for (size_t l = 0; l < rp->t.nlines; l++) {
		const struct pfs_cmp_line *a = rp->t.base[l];

		for (size_t s = 0; s < rp->nsides; s++) {
			const struct pfs_cmp_cell *c = cell(rp, l, s);
			const struct pfs_cmp_verdict *v = verdict(rp, l, s);
			char change[48] = "", text[PFS_CMP_TEXT_MAX] = "";
			const char *of;
			unsigned reps;

			if (s) {
				pfs_compare_ratio_text(change, sizeof(change), v->ratio);
				pfs_compare_text(text, sizeof(text), v, rp->t.margin);
			}
			replicates(rp, l, s, &reps, &of);
			pfs_csv_field(out, a->test);
			fputc(',', out);
			pfs_csv_field(out, a->op);
			fprintf(out, ",%s,%zu,", pfs_unit_rate_label(a->unit), s + 1);
			pfs_csv_field(out, rp->runs[rp->side_first[s]].ri.label);
			csv_num(out, pfs_rate_display(a->unit, c->rate), true);
			fprintf(out, ",%u,%u,%s", c->iterations, reps, of);
			csv_num(out, c->noise, c->noise >= 0);
			fprintf(out, ",%" PRIu64 ",%s,%" PRIu64, c->step_us, is_short(c) ? "true" : "false",
				c->p99_ns);
			csv_num(out, v->ratio, s && v->ratio > 0);
			csv_num(out, v->low, s && v->interval);
			csv_num(out, v->high, s && v->interval);
			fputc(',', out);
			pfs_csv_field(out, change);
			fprintf(out, ",%s,%s,%u", v->called_out ? "true" : "false",
				s ? pfs_compare_word(v) : "", c->runs);
			csv_num(out, 1 - v->level, s && v->interval);
			csv_num(out, v->detectable, s && v->interval);
			csv_num(out, v->cpu_ratio, s && v->cpu_ratio > 0);
			fprintf(out, ",%s,", v->cpu_changed ? "true" : "false");
			pfs_csv_field(out, text);
			csv_num(out, sqrt(c->s2), c->s2 >= 0);
			csv_num(out, c->df, c->s2 >= 0);
			csv_num(out, v->se, s && v->interval);
			csv_num(out, v->df, s && v->interval);
			fputc(',', out);
			pfs_csv_field(out, s && v->node ? v->node : "");
			csv_num(out, v->node_ratio, s && pfs_cmp_node_judged(v));
			csv_num(out, v->node_low, s && pfs_cmp_node_judged(v));
			csv_num(out, v->node_high, s && pfs_cmp_node_judged(v));
			fprintf(out, ",%s\r\n", v->by_node ? "true" : "false");
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
		fputs(first ? "\n          {\"node\": " : ",\n          {\"node\": ", out);
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
	fputs(first ? "]}" : "\n        ]}", out);
}

static void json_run(const struct report *rp, size_t r)
{
	FILE *out = rp->out;
	const struct pfs_archive *a = &rp->runs[r];
	char head[512];

	heading(head, sizeof(head), a);
	fprintf(out, "\n      {\"run\": %zu, \"path\": ", r + 1);
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
		     ",\n        \"slow_nodes\": ",
		a->status == PFS_RUN_COMPLETE ? "true" : "false", a->ri.nranks, a->ri.nnodes);
	json_slow(out, &rp->slow[r]);
	fputc('}', out);
}

static void json_side_line(const struct report *rp, size_t l, size_t s)
{
	FILE *out = rp->out;
	const struct pfs_cmp_line *a = rp->t.base[l];
	const struct pfs_cmp_cell *c = cell(rp, l, s);
	const struct pfs_cmp_verdict *v = verdict(rp, l, s);
	char text[PFS_CMP_TEXT_MAX];
	const char *of;
	unsigned reps;

	replicates(rp, l, s, &reps, &of);
	fprintf(out, "%s\n      {\"side\": %zu, \"rate\": ", s ? "," : "", s + 1);
	json_num(out, pfs_rate_display(a->unit, c->rate));
	fprintf(out, ", \"runs\": %u, \"iterations\": %u, \"replicates\": %u, "
		     "\"replicates_of\": \"%s\", \"noise\": ",
		c->runs, c->iterations, reps, of);
	json_num(out, c->noise >= 0 ? c->noise : NAN);
	fprintf(out, ", \"step_us\": %" PRIu64 ", \"short\": %s, \"p99_ns\": %" PRIu64, c->step_us,
		is_short(c) ? "true" : "false", c->p99_ns);
	fputs(", \"noise_drawn\": ", out);
	json_num(out, c->s2 >= 0 ? sqrt(c->s2) : NAN);
	fputs(", \"noise_df\": ", out);
	json_num(out, c->s2 >= 0 ? c->df : NAN);
	if (s) {
		fputs(", \"se\": ", out);
		json_num(out, v->interval ? v->se : NAN);
		fputs(", \"df\": ", out);
		json_num(out, v->interval ? v->df : NAN);
		fputs(", \"ratio\": ", out);
		json_num(out, v->ratio > 0 ? v->ratio : NAN);
		fputs(", \"low\": ", out);
		json_num(out, v->interval ? v->low : NAN);
		fputs(", \"high\": ", out);
		json_num(out, v->interval ? v->high : NAN);
		fputs(", \"confidence\": ", out);
		json_num(out, v->interval ? 1 - v->level : NAN);
		fputs(", \"detectable\": ", out);
		json_num(out, v->interval ? v->detectable : NAN);
		fputs(", \"cpu_ratio\": ", out);
		json_num(out, v->cpu_ratio > 0 ? v->cpu_ratio : NAN);
		fprintf(out, ", \"cpu_changed\": %s, \"moved_us\": ",
			v->cpu_changed ? "true" : "false");
		json_num(out, v->moved_us);
		fputs(", \"waited_us\": ", out);
		json_num(out, v->waited_us);
		fputs(", \"waits_us\": ", out);
		json_num(out, v->waits_us);
		fputs(", \"node\": ", out);
		if (v->node)
			pfs_json_string(out, v->node);
		else
			fputs("null", out);
		fputs(", \"node_ratio\": ", out);
		json_num(out, pfs_cmp_node_judged(v) ? v->node_ratio : NAN);
		fputs(", \"node_low\": ", out);
		json_num(out, pfs_cmp_node_judged(v) ? v->node_low : NAN);
		fputs(", \"node_high\": ", out);
		json_num(out, pfs_cmp_node_judged(v) ? v->node_high : NAN);
		fprintf(out, ", \"by_node\": %s", v->by_node ? "true" : "false");
		fputs(", \"change\": ", out);
		pfs_json_string(out, pfs_compare_ratio_text(text, sizeof(text), v->ratio));
		fprintf(out, ", \"called_out\": %s, \"verdict\": \"%s\", \"text\": ",
			v->called_out ? "true" : "false", pfs_compare_word(v));
		pfs_json_string(out, pfs_compare_text(text, sizeof(text), v, rp->t.margin));
	}
	fputc('}', out);
}

static void json_report(const struct report *rp)
{
	FILE *out = rp->out;

	fprintf(out, "{\n  \"margin\": %.6g,\n  \"family_error\": %.4g,\n  \"correction\": "
		     "\"holm\",\n  \"run_floor\": %.4g,\n  \"short_step_us\": %u,\n  "
		     "\"unshared\": %zu,\n  \"sides\": [",
		1 + rp->t.margin, PFS_CMP_ALPHA, PFS_CMP_RUN_FLOOR, PFS_SHORT_STEP_US, rp->t.unshared);
	for (size_t s = 0; s < rp->nsides; s++) {
		fprintf(out, "%s\n    {\"side\": %zu, \"runs\": [", s ? "," : "", s + 1);
		for (size_t k = 0; k < rp->side_runs[s]; k++) {
			fputs(k ? "," : "", out);
			json_run(rp, rp->side_first[s] + k);
		}
		fputs("]}", out);
	}
	fputs("\n  ],\n  \"lines\": [", out);
	for (size_t l = 0; l < rp->t.nlines; l++) {
		const struct pfs_cmp_line *a = rp->t.base[l];

		fputs(l ? ",\n    {\"test\": " : "\n    {\"test\": ", out);
		pfs_json_string(out, a->test);
		fputs(", \"op\": ", out);
		pfs_json_string(out, a->op);
		fprintf(out, ", \"unit\": \"%s\", \"sides\": [", pfs_unit_rate_label(a->unit));
		for (size_t s = 0; s < rp->nsides; s++)
			json_side_line(rp, l, s);
		fputs("]}", out);
	}
	fputs(rp->t.nlines ? "\n  ]" : "]", out);
}

/* --fs-stats: "counters": each line's test, step, name, whether a gauge,
 * and each side's figure (null where the side recorded none). */
static int json_counters(const struct report *rp)
{
	struct pfs_ctr_table t;
	int rc = pfs_ctr_table(rp->runs, rp->side_runs, rp->nsides, &t);

	if (rc)
		return rc;
	fputs(",\n  \"counters\": [", rp->out);
	for (size_t l = 0; l < t.n; l++) {
		const struct pfs_ctr_line *c = &t.lines[l];

		fputs(l ? ",\n    {\"test\": " : "\n    {\"test\": ", rp->out);
		pfs_json_string(rp->out, c->test);
		fprintf(rp->out, ", \"step\": %" PRIu32 ", \"ops\": ", c->step);
		pfs_json_string(rp->out, c->ops);
		fputs(", \"name\": ", rp->out);
		pfs_json_string(rp->out, c->name);
		fprintf(rp->out, ", \"gauge\": %s, \"sides\": [",
			pfs_fscounter_is_gauge(c->name) ? "true" : "false");
		for (size_t s = 0; s < rp->nsides; s++) {
			fputs(s ? ", " : "", rp->out);
			if (isnan(c->side[s]))
				fputs("null", rp->out);
			else
				fprintf(rp->out, "%.17g", c->side[s]);
		}
		fputs("]}", rp->out);
	}
	fputs(t.n ? "\n  ]" : "]", rp->out);
	pfs_ctr_table_free(&t);
	return 0;
}

/* ---- the report -------------------------------------------------------------------------- */

/* The sides: a run each, or the runs before and after nbase. */
static int make_sides(struct report *rp)
{
	size_t nb = rp->o->nbase;

	rp->groups = nb > 0;
	rp->nsides = rp->groups ? 2 : rp->n;
	rp->side_runs = calloc(rp->nsides, sizeof(*rp->side_runs));
	rp->side_first = calloc(rp->nsides, sizeof(*rp->side_first));
	if (!rp->side_runs || !rp->side_first)
		return -ENOMEM;
	for (size_t s = 0; s < rp->nsides; s++) {
		rp->side_runs[s] = !rp->groups ? 1 : s ? rp->n - nb : nb;
		rp->side_first[s] = !rp->groups ? s : s ? nb : 0;
	}
	return 0;
}

int pfs_compare_print(FILE *out, const struct pfs_archive *runs, const char *const *paths,
		      size_t n, const struct pfs_cmp_opts *o)
{
	struct report rp = { .out = out, .runs = runs, .paths = paths, .n = n, .o = o };
	size_t analysed = 0;
	int rc = -ENOMEM;

	rp.st = calloc(n, sizeof(*rp.st));
	rp.slow = calloc(n, sizeof(*rp.slow));
	if (!rp.st || !rp.slow || make_sides(&rp))
		goto out;
	for (size_t r = 0; r < n; r++) {
		rc = pfs_compare_stats(&runs[r], &rp.st[r]);
		if (!rc)
			rc = pfs_analyze(runs[r].rows, runs[r].nrows, runs[r].nodes, runs[r].nnodes,
					 &rp.slow[r]);
		if (rc) {
			if (rc == -EINVAL)
				pfs_error("'%s': the latency histograms of the file are damaged", paths[r]);
			pfs_compare_run_free(&rp.st[r]);
			goto out;
		}
		analysed++;
	}
	rc = pfs_compare_table(rp.st, rp.side_runs, rp.nsides, o->margin, &rp.t);
	if (rc)
		goto out;
	if (o->format == PFS_CMP_CSV)
		csv_report(&rp);
	else if (o->format == PFS_CMP_JSON) {
		json_report(&rp);
		rc = o->fsstats ? json_counters(&rp) : 0;
		fputs("\n}\n", out);
	}
	else
		rc = text_report(&rp);
	pfs_compare_table_free(&rp.t);
out:
	for (size_t r = 0; rp.st && r < analysed; r++)
		pfs_compare_run_free(&rp.st[r]);
	for (size_t r = 0; rp.slow && r < analysed; r++)
		pfs_analysis_free(&rp.slow[r]);
	free(rp.st);
	free(rp.slow);
	free(rp.side_runs);
	free(rp.side_first);
	return rc;
}

/* ---- the command ------------------------------------------------------------------------ */

enum { FORMAT_TEXT, FORMAT_CSV, FORMAT_JSON };

struct compare_opts {
	struct pfs_opt_args runs;
	double margin_pct;
	unsigned format;
	bool fsstats;
};

#define C struct compare_opts
static const struct pfs_option compare_options[] = {
	PFS_OPT_POS_ALL(C, runs, "FILE.h5", 2, 0,
			"the runs' results files; with --, the first side's before it and the "
			"other's after it",
			PFS_OPTF_SIDES),
	PFS_OPT_REAL_DEF(C, margin_pct, "margin", 0, 1000, "PCT",
			 "the smallest change called out, in per cent",
			 PFS_STRINGIFY(PFS_CMP_MARGIN_PCT)),
	PFS_OPT_SETVAL(C, format, "csv", 0, FORMAT_CSV, "one CSV line per (test, op) and side", 0),
	PFS_OPT_SETVAL(C, format, "json", 0, FORMAT_JSON, "one JSON document", 0),
	PFS_OPT_FLAG(C, fsstats, "fs-stats", 0,
		     "then the filesystem's and block device's counters of each step, side by "
		     "side (text, or --json's \"counters\"; not with --csv)"),
	PFS_OPT_HELP_ENTRY,
	PFS_OPT_END,
};
#undef C

/* Runs of different workloads have different tests and ops: refused. */
static bool one_workload(const struct pfs_archive *runs, char *const *paths, int n)
{
	for (int r = 1; r < n; r++)
		if (strcmp(runs[r].ri.workload_name, runs[0].ri.workload_name)) {
			char w0[PFS_PRINTABLE_SIZE(32)], wr[PFS_PRINTABLE_SIZE(32)];

			pfs_printable(w0, sizeof(w0), runs[0].ri.workload_name);
			pfs_printable(wr, sizeof(wr), runs[r].ri.workload_name);
			fprintf(stderr, "pfsbench compare: '%s' is a %s run and '%s' a %s run: "
					"compare puts runs of one workload side by side\n",
				paths[0], w0, paths[r], wr);
			return false;
		}
	return true;
}

static int compare_main(int argc, char **argv)
{
	static const enum pfs_cmp_format formats[] = {
		[FORMAT_TEXT] = PFS_CMP_TEXT, [FORMAT_CSV] = PFS_CMP_CSV, [FORMAT_JSON] = PFS_CMP_JSON,
	};
	struct pfs_archive *runs = NULL;
	const char *no_color = getenv("NO_COLOR");
	struct pfs_cmp_opts o = { PFS_CMP_TEXT, false, PFS_CMP_MARGIN, 0, false };
	struct compare_opts co = { 0 };
	char **paths;
	int npaths, loaded = 0, rc = pfs_matrixdiff_compare(argc, argv, pfs_workload_find);

	/* Two perf_matrix matrices: its diff (src/analysis/matrixdiff.c). */
	if (rc >= 0)
		return rc;
	rc = pfs_command_parse(&pfs_command_compare, &co, argc, argv);
	if (rc >= 0)
		return rc;
	rc = PFS_EXIT_FAILED;
	paths = co.runs.v;
	npaths = (int)co.runs.n;
	o.format = formats[co.format];
	o.margin = co.margin_pct / 100;
	o.nbase = co.runs.split < co.runs.n ? co.runs.split : 0;
	o.fsstats = co.fsstats;
	if (o.fsstats && o.format == PFS_CMP_CSV) {
		fprintf(stderr, "pfsbench compare: --fs-stats goes with the text report or --json, "
				"not --csv\nTry 'pfsbench compare --help'.\n");
		pfs_opts_free(compare_options, &co);
		return PFS_EXIT_USAGE;
	}
	runs = calloc((size_t)npaths, sizeof(*runs));
	if (!runs) {
		pfs_error("out of memory");
		pfs_opts_free(compare_options, &co);
		return PFS_EXIT_FAILED;
	}
	for (loaded = 0; loaded < npaths; loaded++)
		if (pfs_archive_load(paths[loaded], &runs[loaded]))
			break;
	if (loaded == npaths && !one_workload(runs, paths, npaths)) {
		rc = PFS_EXIT_USAGE;
	} else if (loaded == npaths) {
		int prc;

		o.colour = o.format == PFS_CMP_TEXT && isatty(STDOUT_FILENO) &&
			   !(no_color && *no_color);
		prc = pfs_compare_print(stdout, runs, (const char *const *)paths, (size_t)npaths, &o);
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
	pfs_opts_free(compare_options, &co);
	return rc;
}

const struct pfs_command pfs_command_compare = {
	.name = "compare",
	.summary = "put the results of runs side by side",
	.synopsis = "A.h5 B.h5 [C.h5 ...] [options]\n"
		    "       pfsbench compare A1.h5 A2.h5 ... -- B1.h5 B2.h5 ... [options]",
	.about = "Put runs of one workload side by side: each (test, op)'s rate and its change\n"
		 "against A, with its interval, called out when the whole interval is beyond\n"
		 "the margin (docs/compare.md); then each run's slow nodes. With --, the runs\n"
		 "before it and after it are two sides, each run one sample of its side.\n"
		 "Colour on a terminal unless NO_COLOR is set.\n",
	.after = "Two matrix runs, or perf_matrix outputs: perf_matrix's diff (docs/matrix.md).\n",
	.options = compare_options,
	.opts_size = sizeof(struct compare_opts),
	.main = compare_main,
};
