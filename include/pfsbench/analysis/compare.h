/* compare.h: the statistics behind `pfsbench compare`, and its reports
 * (src/analysis/compare.c). The model (docs/compare.md):
 *   rate of a (test, op) in one iteration = the amount (files, dirs, ops or
 *     bytes) of all its rows / the sum, over the plan's steps, of that
 *     step's wall time (latest end - earliest start of the op's rows in the
 *     step); the rate of a run = the median of its iterations' rates;
 *   a side = the runs of one configuration (`compare A1 A2 -- B1 B2`), or
 *     one run (`compare A B`); each run is one sample of its side: the
 *     side's figure is the mean of its runs' log rates, shown as their
 *     geometric mean;
 *   variance of a side's mean log rate: with 2 or more runs, their sample
 *     variance / runs (df = runs - 1), which holds what moves between runs
 *     and what moves within them; with one run, its own iterations' (or
 *     nodes') variance as a median's, plus PFS_CMP_RUN_FLOOR^2 for what
 *     moves between runs, which one run cannot show (df by Satterthwaite,
 *     the floor's being infinite);
 *   change of side b against side a: r = rate_b / rate_a, judged on log r
 *     with a Student t interval, SE^2 = var_a + var_b, df by Welch;
 *   a line's p: the chance, were the change exactly at the margin, of an
 *     estimate this far beyond it (two-sided, as the interval is);
 *     Holm's correction over a comparison's lines with an interval gives
 *     each line its error, and its interval is printed at that level;
 *   called out when the whole interval lies beyond the margin (r > m or
 *     r < 1 / m, m = 1 + margin, 10 % by default), and the change moved
 *     some node's time in the op (its own time per iteration, median over
 *     iterations and runs), or the op's whole time per iteration, by 10 ms
 *     or more, and by 10 ms or more beyond how much longer that node's
 *     ranks (or the op's) waited for a CPU held by others (rows' wait_us
 *     less throttled_us: a cgroup's quota makes a node slow, not busy).
 *     Else such a change is 'short' or 'busy'. A node whose move is over
 *     half of all the nodes' moves together is named on the line;
 *   with 2 runs a side or more, each node's own rate in the op (1 / its
 *     time in it, per run) is judged as a line is, its variance drawn
 *     toward the side's other nodes' and lines'; the line's p is the
 *     smaller of the op's / PFS_CMP_OP_SHARE and the surest node's x the
 *     nodes judged / (1 - PFS_CMP_OP_SHARE), and the line is called out
 *     when the op's interval, or that node's at its share of the level,
 *     lies beyond the margin (with the 10 ms rules on the node's own
 *     move).
 * No MPI, no HDF5. */
#ifndef PFSBENCH_COMPARE_H
#define PFSBENCH_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pfsbench/core/results.h"

struct pfs_archive;
struct pfs_node;

/* The default margin: a change under 10 % is never called out. In per
 * cent as compare's --margin takes it (its option table's default), and as
 * a fraction. */
#define PFS_CMP_MARGIN_PCT 10
#define PFS_CMP_MARGIN (PFS_CMP_MARGIN_PCT / 100.0)
#define PFS_CMP_ALPHA 0.05  /* the family-wise error of one comparison's lines */
/* The standard deviation of a run's log rate between runs of one
 * configuration, beyond what its own iterations show: what one run a side
 * adds for the runs it cannot show. Measured by bench/run-bench-compare.sh
 * (docs/compare.md, "The floor"). */
#define PFS_CMP_RUN_FLOOR 0.15
/* A change that moved no node's time in the op by this much is never
 * called out, however steady the runs were: it is no more measurable than
 * a step that short (PFS_SHORT_STEP_US). */
#define PFS_CMP_RESOLVE_US PFS_SHORT_STEP_US
/* Where a line's nodes are judged too (2 runs a side or more), the share of
 * its error given to the op's change; the rest is shared equally by its
 * nodes (a weighted Bonferroni within the line, before Holm's across
 * lines), so the op's interval widens a little and the line's error stays
 * its level. */
#define PFS_CMP_OP_SHARE 0.8

/* One (test, op) of one run. */
struct pfs_cmp_line {
	char test[PFS_TEST_NAME_MAX];
	char op[PFS_OP_NAME_MAX];
	enum pfs_unit unit;  /* of the op's rows: what rate counts */
	double rate;         /* per second: items, or bytes for a unit of bytes */
	unsigned iterations;
	unsigned replicates; /* behind noise: the iterations with a rate */
	double noise;        /* SD of the iterations' log rates; < 0 when fewer than 2 */
	uint64_t step_us;    /* median wall time of the op's steps */
	uint64_t wait_us;    /* median over the op's steps of the longest wait of one of
			      * its ranks for a CPU held by others; 0 where unrecorded */
	uint64_t p99_ns;     /* 99th percentile latency over all iterations and ranks; 0: none */
	double cpu_per_item; /* us of CPU per item (per MiB for bytes), median over
			      * iterations; 0 where unrecorded */
	double cpu_noise;    /* SD of the iterations' logs of it; < 0 when fewer than 2 */
	/* Per node of the run (struct pfs_cmp_run's names), medians over the
	 * iterations: the node's time in the op (the sum over the op's steps of
	 * its ranks' span), and the part of it off its ranks' work (the sum
	 * over steps of the span less the longest work of one of its ranks, a
	 * rank's work its time in the op less its wait for a CPU held by
	 * others): that rank's waits, and the time its ranks' starts and ends
	 * lie apart; and its ranks' waits (the sum over steps of the longest
	 * wait of one of them). */
	double *node_us, *node_off_us, *node_wait_us;
	/* The same for the whole op, its steps' spans over every rank. */
	double op_us, op_off_us, op_wait_us;
};

struct pfs_cmp_run {
	struct pfs_cmp_line *lines; /* in order of first appearance */
	size_t n;
	unsigned nnodes;
	const struct pfs_node *nodes; /* the archive's (their names), while it lives */
};

/* Returns 0, -ENOMEM, or -EINVAL for damaged latency histograms. */
int pfs_compare_stats(const struct pfs_archive *a, struct pfs_cmp_run *out);
void pfs_compare_run_free(struct pfs_cmp_run *run);

/* The line of (test, op) in run, or NULL. */
const struct pfs_cmp_line *pfs_compare_find(const struct pfs_cmp_run *run, const char *test,
					    const char *op);

/* ---- sides and their verdicts ----------------------------------------------------- */

/* A side's (test, op): its runs' lines reduced to one sample. */
struct pfs_cmp_cell {
	double rate;       /* the geometric mean of its runs' rates */
	double mlog;       /* the mean of their logs */
	/* The variance of mlog: c2 x s2 / nrep + floor2, with s2 the variance of
	 * one replicate (runs, or the one run's iterations or nodes), drawn
	 * toward the side's other lines' (pfs_compare_moderate), df its degrees
	 * of freedom, c2 pi / 2 for the median of 3 iterations or more, else 1,
	 * floor2 PFS_CMP_RUN_FLOOR^2 for one run, else 0. s2 < 0: unknown. */
	double s2, c2, floor2, df;
	unsigned nrep;
	double noise;      /* SD of the runs' logs (2+ runs), else the run's own noise */
	unsigned runs, iterations; /* iterations: the fewest of one run */
	uint64_t step_us, p99_ns; /* medians over the runs */
	double cpu_mlog, cpu_var, cpu_df; /* the mean log CPU per item, and its variance
					   * (no floor, not moderated); cpu_var < 0: unknown */
	bool has_cpu;
};

/* The prior weight, in degrees of freedom, of a side's typical noise in
 * each of its lines' (pfs_compare_moderate). */
#define PFS_CMP_PRIOR_DF 4

/* Draws each cell's s2 toward the pooled s2 of the others of n cells (one
 * side's lines): s2' = (d0 x pooled + df x s2) / (d0 + df), df' = df + d0,
 * d0 = PFS_CMP_PRIOR_DF or the others' df if fewer (a moderated t, as
 * limma's). */
void pfs_compare_moderate(struct pfs_cmp_cell *const *cells, size_t n);

/* The verdict on side b against side a, for one line. */
struct pfs_cmp_verdict {
	double ratio;        /* rate_b / rate_a; 0 when a rate is 0 */
	double low, high;    /* the interval of the ratio at level; equal to ratio without one */
	bool interval;       /* false: too few runs and iterations to judge, or a rate is 0 */
	double se, df;       /* of log ratio */
	double p;            /* of a change beyond the margin; 1 without an interval */
	double level;        /* the line's error after Holm (its interval is at 1 - level) */
	double detectable;   /* the change (>= 1) this line calls out 80 % of the time */
	bool beyond;         /* the interval lies beyond the margin */
	double moved_us;     /* the most a node's time in the op moved, in the change's way */
	double waited_us;    /* how much of that move was off its ranks' work (their waits
			      * for a CPU held by others, their starts and ends apart) */
	double waits_us;     /* the most a node's (or the op's) waits for a CPU moved,
			      * in the change's way */
	double longest_us;   /* the longest of the whole op's and each node's time in it, on
			      * either side (NAN: none known); under PFS_CMP_RESOLVE_US no
			      * time can move by that much: the line cannot be called out
			      * and is not in Holm's family */
	const char *node;    /* the node whose move is over half of all the nodes' moves
			      * together (the run's name, while it lives); NULL: none */
	bool unresolved;     /* beyond the margin, but no node's time moved by 10 ms, or
			      * its work neither did nor its waits (short) */
	bool busy;           /* its time moved 10 ms, its waits too, its work under 10 ms */
	bool called_out;
	double cpu_ratio;    /* CPU per item, b / a; 0 where unrecorded */
	bool cpu_changed;    /* beyond the margin too (its interval at level), the way of
			      * the change and 3/4 of it or more on a log scale */
	/* One node's own change, where each side has 2 runs or more: its rate
	 * in the op (1 / its time in the op, per run) b / a, for the node whose
	 * change is the surest (the smallest p); its interval at node_level. A
	 * slow node in se, where the op's rate moves by a quarter of the node's
	 * move among 4 nodes, is called out by its own. */
	double node_ratio, node_low, node_high, node_p, node_level;
	unsigned nodes_judged; /* the nodes with an interval: node_p is Bonferroni's over them;
				* 0: fewer than 2 runs a side, or no node in every run */
	bool by_node;        /* called out by the node's change alone (node names it) */
};

/* Has v a node's interval (node_ratio, node_low, node_high)? */
static inline bool pfs_cmp_node_judged(const struct pfs_cmp_verdict *v)
{
	return v->nodes_judged > 0;
}

/* The lines every side has, and the verdicts on each side after the first
 * against the first. */
struct pfs_cmp_table {
	size_t nsides, nlines;
	size_t unshared;      /* (test, op)s of some run that not every run has */
	double margin;        /* as a fraction: 0.10 */
	const struct pfs_cmp_line **base; /* per line: the first run's */
	struct pfs_cmp_cell *cells;       /* nlines x nsides */
	struct pfs_cmp_verdict *v;        /* nlines x nsides; side 0's unused */
};

/* runs[0..nruns) in sides: the first side_runs[0] runs are side 1, the
 * next side_runs[1] side 2, and so on. Returns 0 or -ENOMEM. */
int pfs_compare_table(const struct pfs_cmp_run *runs, const size_t *side_runs, size_t nsides,
		      double margin, struct pfs_cmp_table *t);
void pfs_compare_table_free(struct pfs_cmp_table *t);

/* The pieces, for tests: a side's cell from its runs' lines of one (test,
 * op) (nodes and waits left out), ... */
void pfs_compare_cell(const struct pfs_cmp_line *const *lines, size_t n, struct pfs_cmp_cell *c);
/* ... the verdict's estimate of b against a (ratio, se, df, p, detectable
 * at level alpha), ... */
void pfs_compare_estimate(const struct pfs_cmp_cell *a, const struct pfs_cmp_cell *b,
			  double margin, struct pfs_cmp_verdict *v);
/* ... and the interval and call-out at level alpha, once moved_us and
 * waited_us are set (the op's alone: pfs_compare_table adds the node's). */
void pfs_compare_decide(struct pfs_cmp_verdict *v, double alpha, double margin);
/* Holm's levels for n p-values: level[i] is the error p[i] is judged at. */
void pfs_compare_holm(const double *p, size_t n, double alpha, double *level);

/* ---- words -------------------------------------------------------------------------- */

/* A factor in plain figures, 2-3 significant: 1.25, 12.8, 230, 4100,
 * 27000; past a million, "1000000+". Returns buf. */
const char *pfs_compare_factor_text(char *buf, size_t len, double f);

/* "318x slower", "1.25x faster", "no change" (under 0.5 %); "-" for a
 * ratio of 0. Returns buf. */
const char *pfs_compare_ratio_text(char *buf, size_t len, double ratio);

/* The interval in the change's own terms: "13x to 4100x" (slower, as the
 * change is), "1.10x faster to 1.21x slower" where it spans no change;
 * "-" without an interval. Returns buf. */
const char *pfs_compare_interval_text(char *buf, size_t len, const struct pfs_cmp_verdict *v);

/* The verdict's one word: SLOWER, FASTER, short, busy, few (too few runs
 * and iterations to judge), or "". */
const char *pfs_compare_word(const struct pfs_cmp_verdict *v);

/* Room for what a line says, its longest: two changes, two intervals, a
 * node's name (PFS_NODE_NAME_MAX) and a note. */
#define PFS_CMP_TEXT_MAX 400

/* What the line says, as a sentence: "230x slower (13x to 4100x)", "no
 * change (could detect >= 1.4x)", "5.17x slower, within the noise (could
 * detect >= 25x)", "12.8x slower, too few runs to judge". Returns buf. */
const char *pfs_compare_text(char *buf, size_t len, const struct pfs_cmp_verdict *v,
			     double margin);

enum pfs_cmp_format { PFS_CMP_TEXT, PFS_CMP_CSV, PFS_CMP_JSON };

struct pfs_cmp_opts {
	enum pfs_cmp_format format;
	bool colour;
	double margin;  /* a fraction */
	size_t nbase;   /* 0: each run a side of its own; else runs[0..nbase) are
			 * side 1 and the rest side 2 */
	bool fsstats;   /* the text report ends with the counters (analysis/counters.h) */
};

/* The whole report of n runs. Returns 0, -ENOMEM, or -EINVAL for a
 * damaged file (after a message). */
int pfs_compare_print(FILE *out, const struct pfs_archive *runs, const char *const *paths,
		      size_t n, const struct pfs_cmp_opts *o);

#endif
