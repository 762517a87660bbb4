/* plotdata.h: the arithmetic behind pfsbench's pictures (src/pictures/plotdata.c),
 * apart from any drawing: lanes, timeline bars and barrier waits, rates per
 * node and worker, rate over time from the progress ticks, latency CDF
 * points, and the shapes the comparison and the matrix heatmap are drawn
 * from. Definitions (docs/plot.md):
 *   lane: one (node, worker) that has rows, in node then worker order;
 *   timeline bar: one per (test, iteration, step, rank) that has rows, from
 *     the earliest start to the latest end of the rank's rows in the step,
 *     on the run's common clock (start_us);
 *   barrier wait of a bar: from its end to the step's end, the latest end
 *     of every row of the step: the time the rank sat at the barrier that
 *     closes the step while slower ranks worked;
 *   rate of a worker in a (test, op) = its amount (items, or bytes for a
 *     bytes row) over all iterations / the sum of its rows' elapsed_us;
 *   rate over time of a node in a bin [t, t + w) = the sum over its ranks
 *     of (C(t + w) - C(t)) / w, C a rank's amount done in its op: 0 at the
 *     op's start, each progress tick's count at the tick's time, the row's
 *     amount at its end, linear in between;
 *   latency CDF of a (test, op): its histogram merged over all iterations
 *     and ranks; at each nonzero bucket's bottom (clamped to the exact
 *     min) the fraction of items below it, at its top (clamped to the exact
 *     max) the fraction at or below it; joined by straight lines, the curve
 *     rises only inside buckets that hold items and is flat across empty
 *     ones.
 * Pure: no MPI, no HDF5, no I/O. */
#ifndef PFSBENCH_PLOTDATA_H
#define PFSBENCH_PLOTDATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pfsbench/core/results.h"

/* ---- thinning: bounded pictures for any file ------------------------------- */

/* A picture shows at most a few thousand bars; a results file may hold a
 * million rows (PFS_ARCHIVE_ROWS_MAX). So the rows are thinned before
 * anything is drawn (docs/plot.md, "Big runs"):
 *   1. only the first PFS_PLOT_TESTS_MAX tests and the first
 *      PFS_PLOT_GROUPS_MAX (test, op)s, in order of first row, are drawn;
 *   2. when more than PFS_PLOT_ROWS_MAX rows are left, they are aggregated
 *      per (test, op, iteration, step, node): one row whose lane is the
 *      node (worker 0, "all"), its amount the sum of its rows', from their
 *      earliest start to their latest end (elapsed: that span);
 *   3. when more than PFS_PLOT_ROWS_MAX of those are left, the first
 *      PFS_PLOT_ROWS_MAX in report order are drawn.
 * A run under every bound is drawn as it is. */
#define PFS_PLOT_ROWS_MAX 20000
#define PFS_PLOT_TESTS_MAX 16
#define PFS_PLOT_GROUPS_MAX 64
#define PFS_PLOT_NODES_MAX 64 /* rate over time: the first nodes, a line each */

struct pfs_plot_thin {
	size_t rows_in, rows_out;
	size_t tests, groups;    /* the rows' tests and (test, op)s */
	bool per_node;           /* step 2 was taken */
	size_t rows_cut;         /* rows (of step 2) left out by step 3 */
};

/* The rows to draw, into a new array (free() it), in report order; what
 * was done in *t. Time O(n log n), memory about 3 words a row besides
 * the output. Returns 0 or -ENOMEM. */
int pfs_plot_thin(const struct pfs_row *rows, size_t nrows, struct pfs_row **out, size_t *nout,
		  struct pfs_plot_thin *t);

/* ---- lanes ------------------------------------------------------------------ */

struct pfs_plot_lane {
	uint32_t node_index;
	uint32_t worker;
	char node[PFS_NODE_NAME_MAX];
};

/* The lanes of rows, sorted by node_index then worker, into a new array
 * (free() it). Returns 0 or -ENOMEM. */
int pfs_plot_lanes(const struct pfs_row *rows, size_t nrows, struct pfs_plot_lane **out,
		   size_t *nout);

/* The lane of (node_index, worker), or nlanes when there is none. */
size_t pfs_plot_lane_of(const struct pfs_plot_lane *lanes, size_t nlanes, uint32_t node_index,
			uint32_t worker);

/* ---- timeline --------------------------------------------------------------- */

#define PFS_PLOT_OPS_MAX (2 * PFS_OP_NAME_MAX) /* "Create+Unlink" */

struct pfs_plot_bar {
	char test[PFS_TEST_NAME_MAX];
	uint32_t iteration, step, rank;
	size_t lane;
	char op[PFS_PLOT_OPS_MAX];   /* its rows' ops, joined by '+' (uc) */
	uint64_t start_us, end_us;   /* its rows' earliest start and latest end */
	uint64_t step_end_us;        /* the step's latest end: the wait ends there */
};

/* The bars of all rows, ordered by (test in order of first row, iteration,
 * step, lane). Returns 0 or -ENOMEM. */
int pfs_plot_timeline(const struct pfs_row *rows, size_t nrows, const struct pfs_plot_lane *lanes,
		      size_t nlanes, struct pfs_plot_bar **out, size_t *nout);

/* The barrier wait of a bar, in microseconds. */
uint64_t pfs_plot_wait_us(const struct pfs_plot_bar *b);

/* ---- rates per node and worker -------------------------------------------- */

/* Why the slow-node analysis withheld its judgement of a (test, op):
 * the picture says so there, so that bars of a slow node left uncoloured
 * are not read as a node found even. */
enum pfs_plot_withheld {
	PFS_PLOT_JUDGED = 0,
	PFS_PLOT_TOO_SHORT, /* its steps last under PFS_SHORT_STEP_US (median) */
	PFS_PLOT_NOT_ALIKE, /* no steps of one kind (the same ops on as many
			     * nodes) of 3 nodes or more to set side by side */
	PFS_PLOT_FEW_NODES, /* the run has under PFS_SLOW_MIN_NODES nodes: none judged */
};

/* Every node of a (test, op): a flag with this node_index and withheld set. */
#define PFS_PLOT_ALL_NODES UINT32_MAX

/* A slow (test, op) of a node, as the slow-node analysis names it
 * (include/pfsbench/analysis/slownode.h when it is there), for the bars to
 * flag; or, for node PFS_PLOT_ALL_NODES, a (test, op) it did not judge. */
struct pfs_plot_flag {
	uint32_t node_index;
	char test[PFS_TEST_NAME_MAX];
	char op[PFS_OP_NAME_MAX];
	double factor; /* the median node's rate / this node's, > 1 */
	enum pfs_plot_withheld withheld;
};

struct pfs_plot_rate {
	char test[PFS_TEST_NAME_MAX];
	char op[PFS_OP_NAME_MAX];
	enum pfs_unit unit;
	size_t group;   /* 0-based (test, op) in order of first row */
	size_t lane;
	double rate;    /* per second, in the unit's display scale (MiB/s for bytes) */
	double slow;    /* the flag's factor; 0 when not flagged */
	enum pfs_plot_withheld withheld; /* of its (test, op), for every lane */
};

/* One entry per (test, op, lane) that has rows, by group then lane; flags
 * may be NULL. Returns 0 or -ENOMEM. */
int pfs_plot_rates(const struct pfs_row *rows, size_t nrows, const struct pfs_plot_lane *lanes,
		   size_t nlanes, const struct pfs_plot_flag *flags, size_t nflags,
		   struct pfs_plot_rate **out, size_t *nout);

/* ---- rate over time ----------------------------------------------------------- */

#define PFS_PLOT_BINS 400         /* bins over the run at most */
#define PFS_PLOT_BIN_MIN_US 1000u /* never narrower than 1 ms */

struct pfs_plot_progress {
	enum pfs_unit unit;
	unsigned nnodes;
	uint64_t t0_us, bin_us; /* bin b is [t0 + b x bin, t0 + (b + 1) x bin) */
	size_t nbins;
	/* [node x nbins + bin]: per second in the unit's display scale; NAN
	 * where none of the node's ranks ran an op of the unit in the bin. */
	double *rate;
};

/* The bin width for rows spanning span_us: span / PFS_PLOT_BINS rounded up,
 * at least PFS_PLOT_BIN_MIN_US. */
uint64_t pfs_plot_bin_us(uint64_t span_us);

/* Rate over time of the rows of one unit, bins over the whole run (the
 * earliest start to the latest end of all rows), nodes 0..nnodes-1. A tick
 * whose (test, iteration, step, rank) has no row is ignored; a tick's
 * count is clamped to the row's amount and made non-decreasing, so a
 * damaged file cannot give negative rates. Returns 0, -ENOMEM, or -ENOENT
 * when no row has the unit. */
int pfs_plot_progress(const struct pfs_row *rows, size_t nrows, const struct pfs_tick *ticks,
		      size_t nticks, unsigned nnodes, enum pfs_unit unit,
		      struct pfs_plot_progress *out);
void pfs_plot_progress_free(struct pfs_plot_progress *p);

/* ---- latency CDF ------------------------------------------------------------- */

struct pfs_hist;

struct pfs_plot_cdf {
	size_t n;      /* points */
	double *x_us;  /* latency, microseconds, increasing */
	double *y;     /* fraction of items at or below x, 0..1 */
};

/* The points of one histogram (at most two per nonzero bucket). An empty
 * histogram gives none. Returns 0 or -ENOMEM. */
int pfs_plot_cdf(const struct pfs_hist *h, struct pfs_plot_cdf *out);
void pfs_plot_cdf_free(struct pfs_plot_cdf *c);

/* ---- several runs: each op's rate with its interval ---------------------------- */

/* A (test, op) of run r against the base run (the first), as compare
 * judges it (pfs_compare_table, include/pfsbench/analysis/compare.h): the run's
 * rate, the ratio of the rates, its interval, its verdict. The picture
 * draws each run's rate side by side on a log axis, and the interval on
 * the rate's scale: the base's rate x the ratio's bounds. */
struct pfs_plot_cmp_cell {
	bool present;      /* the run has the op */
	double rate;       /* per second, as compare prints it (pfs_rate_display: MiB/s for bytes) */
	double ratio;      /* rate / the base's rate; 0 when a rate is 0 */
	bool interval;     /* low and high are known */
	double low, high;  /* the interval of ratio */
	bool called_out;   /* compare calls the change out */
};

struct pfs_plot_cmp {
	size_t nlines, nruns;
	struct pfs_plot_cmp_line {
		char test[PFS_TEST_NAME_MAX];
		char op[PFS_OP_NAME_MAX];
		enum pfs_unit unit;
	} *lines;
	struct pfs_plot_cmp_cell *cells; /* [line x nruns + run] */
};

/* Whether the cell has a rate a log axis can show: present, above 0. */
bool pfs_plot_cmp_drawn(const struct pfs_plot_cmp_cell *cell);

/* An empty comparison of nlines x nruns (cells not present). 0 or -ENOMEM. */
int pfs_plot_cmp_init(struct pfs_plot_cmp *c, size_t nlines, size_t nruns);
void pfs_plot_cmp_free(struct pfs_plot_cmp *c);

#endif
