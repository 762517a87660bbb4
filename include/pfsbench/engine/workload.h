/* workload.h: what a workload tells the engine. A workload is one table of
 * callbacks (like fio's ioengine_ops): its options, its tests as plans of
 * steps, and the per-item work of each op (which calls include/pfsbench/
 * worker.h). Barriers, clocks, cache dropping, error agreement, progress,
 * latency, rows and reports are the engine's; a workload never sees MPI. */
#ifndef PFSBENCH_WORKLOAD_H
#define PFSBENCH_WORKLOAD_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pfsbench/core/itemname.h"
#include "pfsbench/core/options.h"
#include "pfsbench/core/results.h"
#include "pfsbench/engine/worker.h"

struct pfs_matrix_result;
struct pfs_output_ops;
struct pfs_topology;

#define PFS_ALL_NODES (-1)
#define PFS_STEP_MAX_ASSIGN 4

/* In one step, each assigned node's workers run one op; nodes not assigned
 * wait at the barrier that ends the step. */
struct pfs_assign {
	int node;    /* node index, or PFS_ALL_NODES */
	unsigned op; /* index into the workload's ops */
};

/* Properties of a step. */
#define PFS_STEP_KEEP_CACHE 1u /* no cache drop before it (bonnie's tests) */
#define PFS_STEP_STONEWALL 2u  /* with --stonewall, its ops stop at the deadline
				* and wear out to the busiest rank's count */
#define PFS_STEP_UNTIMED 4u    /* it prepares and measures nothing (matrix's open
				* and warm-up): no cache drop before it, and
				* caches_dropped still holds for the timed steps */

struct pfs_step {
	unsigned nassign;
	struct pfs_assign assign[PFS_STEP_MAX_ASSIGN];
	unsigned flags; /* PFS_STEP_* */
};

/* The op the step gives a node's workers, or -1: they wait. */
static inline int pfs_step_op_of_node(const struct pfs_step *s, unsigned node)
{
	for (unsigned i = 0; i < s->nassign; i++)
		if (s->assign[i].node == PFS_ALL_NODES || (unsigned)s->assign[i].node == node)
			return (int)s->assign[i].op;
	return -1;
}

/* For plan functions: stores step at steps[i] when it fits in cap, and
 * returns i + 1, so a plan counts its steps also when only sizing. */
static inline size_t pfs_plan_put(struct pfs_step *steps, size_t cap, size_t i,
				  struct pfs_step step)
{
	if (i < cap)
		steps[i] = step;
	return i + 1;
}

/* A step in which one node (or PFS_ALL_NODES) runs op, and one in which
 * two nodes run an op each; pfs_step_with adds properties. */
#define PFS_STEP1(node, op) ((struct pfs_step){ 1, { { (node), (op) } }, 0 })
#define PFS_STEP2(node_a, op_a, node_b, op_b) \
	((struct pfs_step){ 2, { { (node_a), (op_a) }, { (node_b), (op_b) } }, 0 })
static inline struct pfs_step pfs_step_with(struct pfs_step step, unsigned flags)
{
	step.flags |= flags;
	return step;
}

struct pfs_test {
	const char *name;
	enum pfs_order order;
	/* Writes the plan for nnodes nodes and the workload's options into steps
	 * (at most cap of them) and returns how many steps the plan has, also
	 * when that exceeds cap. */
	size_t (*plan)(const void *opts, unsigned nnodes, struct pfs_step *steps, size_t cap);
};

/* Needs of a plan, checked against statvfs before anything is created. */
struct pfs_needs {
	uint64_t bytes;
	uint64_t inodes;
};

/* How a run's items outlive it, for workloads that create in one run and
 * remove in another (tree -C, then tree -R). */
enum pfs_persist {
	PFS_PERSIST_NONE,   /* a fresh run directory, emptied and removed at the end */
	PFS_PERSIST_LEAVE,  /* a run directory named by the plan; when the run
			     * completes, it is left with the workload's items */
	PFS_PERSIST_RESUME, /* works in the directories a LEAVE run left, and
			     * removes them at the end; refused when they are missing */
	PFS_PERSIST_NAMED,  /* works on a file or device the user named (under
			     * the target directory or anywhere): no run or
			     * worker directory is made, w->dirfd stays -1 and
			     * w->dir empty, and the named items stay */
};

struct pfs_workload {
	const char *name;      /* subcommand */
	const char *summary;
	const char *synopsis;  /* for --help */
	const struct pfs_option *options;
	size_t opts_size;      /* starts with struct pfs_common_opts */
	size_t state_size;     /* per-worker state */
	/* The longest name, with its '/', that the workload puts in its
	 * worker's (or the run's) directory and opens by path rather than by
	 * the directory's descriptor (stream's file); 0 for none. The engine
	 * refuses a directory too long for it before anything is created. */
	size_t path_tail;
	const struct pfs_test *tests; /* NULL-terminated by name */
	/* Optional: whether test (an index into tests) goes with the parsed
	 * options. Without -t only the tests that do run; a -t that names one
	 * that does not is refused. NULL: every test goes with any options.
	 * (stream: the test is named for its access pattern, seq or rand.) */
	bool (*test_applies)(const void *opts, unsigned test);
	const char *const *op_names;  /* by op index, for messages about an op */
	const struct pfs_output_ops *report; /* the text report on stdout */
	/* Its report reads each row's own latency histogram (stream: a
	 * table line and a fio line per rank), so --latency-detail auto
	 * keeps each rank's, and node is refused. */
	bool latency_by_rank;
	/* The defaults its option table cannot hold, worked out at run time
	 * (bonnie's RAM); NULL for none. Every other default is the option
	 * table's (struct pfs_option's def): pfs_workload_defaults sets both. */
	void (*defaults)(void *opts);
	/* After parsing, on rank 0: checks the values against each other.
	 * Returns 0 or -EINVAL with a message. */
	int (*validate)(void *opts, char *err, size_t errlen);
	/* Space and inodes the whole run needs at its peak. */
	void (*needs)(const void *opts, unsigned nranks, struct pfs_needs *needs);
	/* Per worker, once its directory exists; and at the end, also after a
	 * failure: cleanup removes whatever the workload created and nothing else. */
	int (*setup)(struct pfs_worker *w);
	/* One op of a step: pfs_op_start ... pfs_op_done (or pfs_emit).
	 * Returns 0, -ECANCELED when told to stop (pfs_tick), or a negative
	 * errno after pfs_fail; an error without pfs_fail is reported by the
	 * engine, naming the op. */
	int (*run_op)(struct pfs_worker *w, unsigned op);
	int (*cleanup)(struct pfs_worker *w);
	/* Optional: on rank 0, after every worker's cleanup (a barrier
	 * between), whenever cleanup was called: removes what the workers
	 * shared in the run directory (tree --shared-dir's skeleton) once
	 * each has removed its own items from it, and frees what cleanup left
	 * for it. */
	int (*cleanup_run)(struct pfs_worker *w);
	/* What this workload creates in a worker's directory, and (optional)
	 * in the run directory beside the workers' directories: every name it
	 * makes, its type, and for a directory what it holds (include/
	 * pfsbench/itemname.h). `pfsbench clean` removes from a killed run's
	 * directory what these tables name and nothing else, so they must
	 * come from the same constants as the names the workload builds. */
	const struct pfs_item *items;
	const struct pfs_item *run_items;
	/* Optional; NULL means PFS_PERSIST_NONE. Returns how this run's items
	 * outlive it (an enum pfs_persist), or -ENAMETOOLONG when key is too
	 * small. For LEAVE and RESUME it writes a key naming the plan, and the
	 * run directory is DIR/pfsbench.<name>.<key>: the later run finds what
	 * the earlier one left by the same options. */
	int (*persist)(const void *opts, char *key, size_t keylen);
	/* Optional, for a PFS_PERSIST_NAMED run: the file or device it works
	 * on, whose block device's counters the engine records each step
	 * (include/pfsbench/target/fsprobe.h); else the target directory's. */
	const char *(*named_target)(const void *opts);
	/* Optional: for --dry-run, on rank 0, prints what the plan would make;
	 * the engine then prints the space and inodes it needs. */
	void (*dry_run)(FILE *out, const void *opts, unsigned nranks, unsigned nnodes);
	/* Optional: a note on how this run works, for the report's header and
	 * the results file (run_note); left empty when there is nothing to say. */
	void (*note)(const void *opts, unsigned nnodes, char *note, size_t len);
	/* Optional, for ops that work on another worker's items (create-unlink's
	 * --shift). Once the nodes are known, on every rank: sets peer[k] for
	 * every node k to the node whose worker of the same number node k's
	 * workers work on (the engine opens its directory, w->peer_dirfd, and
	 * passes ledgers between them, include/pfsbench/engine/worker.h), or -1 for
	 * none; no node may be the peer of two. Returns 0, or -EINVAL with a
	 * message: the run is refused (exit 2) before anything is created. */
	int (*peers)(const void *opts, const struct pfs_topology *topo, int *peer, char *err,
		     size_t errlen);
	/* Optional: on rank 0, before anything is created, checks the plan
	 * against the number of ranks it will run on (a named device must
	 * hold every rank's part). 0, or -EINVAL with a message: the run is
	 * refused (exit 2). */
	int (*check_ranks)(const void *opts, unsigned nranks, char *err, size_t errlen);
	/* For a workload with --direct (PFS_DIRECT_OPTION): on rank 0, once
	 * the engine's probe found that the target takes O_DIRECT with offsets
	 * and lengths in multiples of align, checks the sizes of the plan
	 * against it. 0, or -EINVAL with a message: refused (exit 2) before
	 * anything is created. */
	int (*check_direct)(const void *opts, uint64_t align, char *err, size_t errlen);
	/* Optional: on rank 0, once a test iteration's rows are gathered (in
	 * report order) and before any output sees them: marks rows that the
	 * workload's outlier rule leaves out of its results (row.discarded),
	 * so that the results file keeps every row, each marked. */
	void (*review)(const void *opts, unsigned nranks, struct pfs_row *rows, size_t n);
	/* Optional, for the commands that read its results files: reduces a
	 * run's rows, by the run's options, to perf_matrix's matrix, each
	 * cell's noise and slowest node, as its report does
	 * (include/pfsbench/plans/matrix_plan.h). A workload that has it is
	 * compared cell by cell (compare's diff) and drawn as a heatmap
	 * (plot), never by compare's table. 0; -EINVAL with the reason in err
	 * for rows that are no matrix of its options; -ENOMEM. */
	int (*reduce_matrix)(const void *opts, const struct pfs_row *rows, size_t nrows,
			     unsigned nranks, unsigned nnodes, struct pfs_matrix_result *res,
			     char *err, size_t errlen);
};

/* Registry (src/workloads/registry.c): every workload, NULL-ended. Each
 * is declared there only, so a new one touches no header. */
extern const struct pfs_workload *const pfs_workloads[];
/* Sets opts to the workload's defaults: its option table's, then its
 * defaults hook. 0, or -EINVAL when a table's default is no value. Inline,
 * so that the readers of results files use it without the engine. */
static inline int pfs_workload_defaults(const struct pfs_workload *wl, void *opts)
{
	if (pfs_opts_defaults(wl->options, opts))
		return -EINVAL;
	if (wl->defaults)
		wl->defaults(opts);
	return 0;
}

const struct pfs_workload *pfs_workload_find(const char *name);
#endif
