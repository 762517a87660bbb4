/* slownode.h: which nodes of a run were slow, and how evenly the ranks
 * worked (src/analysis/slownode.c), from a results file's rows alone; for
 * `show --analyze` and `compare`. Definitions (docs/methodology.md, "Slow
 * nodes, imbalance and waiting"):
 *   the others: a node's value in a group is set against the other nodes'
 *     values there: its deviation = value - their median, and their spread
 *     = the median absolute deviation (MAD) of their values from that
 *     median. Leaving the node out keeps a slow node from hiding in the
 *     spread when there are only 3;
 *   rates: a group is a (test, op) in one iteration, a node's value the log
 *     of its rate there (its amount / the sum, over the steps it ran the op
 *     in, of its time: latest end - earliest start of its rows, each row's
 *     end less its wait for a CPU held by other work, pfs_row_cpu_wait_us:
 *     a host's load is not its node's speed); a
 *     (test, op) is judged when all its steps are of one kind (the same ops
 *     on as many nodes) and last PFS_SHORT_STEP_US or more (median); when
 *     they are shorter, only the nodes whose own steps there last that
 *     long on average are judged (one slow node, alone in se);
 *   a node's spread = the median of its spreads over all judged groups;
 *   slow in a (test, op): below the others by more than max(k x its
 *     spread, log 1.10) in every iteration, k = PFS_SLOW_K; by the factor
 *     exp(-median deviation); a node is named slow when it is slow in
 *     PFS_SLOW_MIN_OPS (test, op)s or more (PFS_SLOW_MIN_OPS_ONE_ITERATION
 *     in a run of one iteration), or late;
 *   lateness: in each step in which 3 nodes or more worked (they all left
 *     the same barrier), a node's value is its start (its earliest rank's
 *     start_us); it leaves barriers late by the median of its deviations
 *     over those steps, and is named for it when that exceeds max(k x its
 *     spread, PFS_LATE_MIN_US). Steps of one node (se) have no others to
 *     set a start against;
 *   imbalance of a (test, op) = the median, over steps in which 2 or more
 *     ranks ran it, of the fastest rank's rate / the slowest rank's;
 *   waiting of a rank in a step = the step's end - its own end; busy =
 *     the step's end - its start; both summed per test.
 * Groups of fewer than 3 nodes say nothing. Pure: no MPI, no HDF5. */
#ifndef PFSBENCH_SLOWNODE_H
#define PFSBENCH_SLOWNODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pfsbench/core/oddone.h"
#include "pfsbench/core/results.h"

struct pfs_node;

/* PFS_SLOW_K, PFS_SLOW_FLOOR, PFS_SLOW_MIN_NODES and the rule: core/oddone.h */
/* A node is named slow when it is slow in this many (test, op)s or more
 * (or late): a slow node is slow in most of its ops, while one op alone is
 * often where the plan puts a node (first after the results file was
 * written, last in a pipeline) or a moment of the host's other load. */
#define PFS_SLOW_MIN_OPS 2u
/* With one iteration, "in every iteration" is one step's moment: a rank
 * preempted for a few time slices in a 20-40 ms step is 1.1-1.5x slower in
 * it. 240 runs of one configuration on the 2-core machine named an
 * innocent node in 18 of the 120 runs of one iteration (each slow in 2
 * ops, by 1.1x to 1.5x) and in none of the 120 of 3 iterations
 * (bench/run-bench-compare.sh, issue 25). One iteration asks 3 ops. */
#define PFS_SLOW_MIN_OPS_ONE_ITERATION 3u
/* Leaving barriers later than the median node by less than this is never
 * named: a rank woken on a busy CPU waits until the tasks before it in the
 * run queue had their turns, up to one scheduling period (Linux CFS's
 * sched_latency: 6 ms x (1 + log2 CPUs), at most 24 ms). Such waiting is
 * the CPU's load, not a slow node. */
#define PFS_LATE_MIN_US 25000u
/* show --analyze says which nodes waited for a CPU held by other work for
 * this share of their time in ops or more (and this long): their rates
 * leave those waits out, and an admin should know the host was busy. */
#define PFS_BUSY_SHARE 0.25
#define PFS_BUSY_MIN_US 10000u

/* One (test, op) in which a node is slow. */
struct pfs_slow_op {
	char test[PFS_TEST_NAME_MAX];
	char op[PFS_OP_NAME_MAX];
	double factor; /* the median node's rate / this node's (1 / Q), > 1 */
};

struct pfs_node_verdict {
	char name[PFS_NODE_NAME_MAX];
	struct pfs_slow_op *ops; /* slow (test, op)s, slowest first */
	size_t nops;
	double late_us;          /* median deviation of its starts; 0 without any */
	size_t delays;           /* steps behind late_us */
	bool late;               /* named for leaving barriers late */
	size_t min_ops;          /* slow in this many ops names it: PFS_SLOW_MIN_OPS, or
				  * PFS_SLOW_MIN_OPS_ONE_ITERATION for a run of one */
	double cpu_wait_us;      /* its rows' waits for a CPU held by other work */
	double ops_us;           /* its rows' time */
};

struct pfs_balance {
	char test[PFS_TEST_NAME_MAX];
	char op[PFS_OP_NAME_MAX];
	double imbalance;  /* 0: no step had 2 ranks on it */
	uint64_t step_us;  /* median wall time of its nodes' steps */
	bool judged;       /* its nodes' rates were compared */
	/* Why not, for its row: "fewer than 3 nodes", "steps under 10 ms",
	 * "steps of different kinds", "fewer than 3 nodes a step"; NULL when
	 * judged. Static text. */
	const char *not_judged;
};

struct pfs_waiting {
	char test[PFS_TEST_NAME_MAX];
	double wait_us, busy_us;
};

struct pfs_analysis {
	unsigned nnodes;
	bool compared;                  /* nnodes >= PFS_SLOW_MIN_NODES */
	struct pfs_node_verdict *nodes; /* nnodes, in node order */
	struct pfs_balance *ops;        /* per (test, op), in order of first row */
	size_t nops;
	struct pfs_waiting *tests;      /* per test, in order of first row */
	size_t ntests;
	double wait_us, busy_us;        /* all tests */
};

/* Analyses rows whose node_index is below nnodes (a loaded results file's
 * are). Returns 0 or -ENOMEM. */
int pfs_analyze(const struct pfs_row *rows, size_t nrows, const struct pfs_node *nodes,
		unsigned nnodes, struct pfs_analysis *out);
void pfs_analysis_free(struct pfs_analysis *a);

/* Named as slow: slow in min_ops (test, op)s or more, or late. */
bool pfs_node_is_slow(const struct pfs_node_verdict *v);

/* One line, without newline: "pfsh2: se Create 3.9x slower than the median
 * node; leaves barriers 140 ms late". Returns 0 or -ENAMETOOLONG (cut). */
int pfs_slow_describe(char *buf, size_t len, const struct pfs_node_verdict *v);

/* The whole analysis for show --analyze: slow nodes, imbalance, waiting. */
int pfs_analysis_print(FILE *out, const struct pfs_analysis *a);

#endif
