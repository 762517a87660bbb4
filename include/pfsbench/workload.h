/* workload.h: what a workload tells the engine. A workload is one table of
 * callbacks (like fio's ioengine_ops): its options, its tests as plans of
 * steps, and the per-item work of each op. Barriers, clocks, cache dropping,
 * error agreement, rows and reports are the engine's; a workload never sees
 * MPI. */
#ifndef PFSBENCH_WORKLOAD_H
#define PFSBENCH_WORKLOAD_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pfsbench/options.h"
#include "pfsbench/results.h"

struct pfs_engine;
struct pfs_output_ops;

#define PFS_ALL_NODES (-1)
#define PFS_STEP_MAX_ASSIGN 4
#define PFS_MAX_SAMPLES 4

/* In one step, each assigned node's workers run one op; nodes not assigned
 * wait at the barrier that ends the step. */
struct pfs_assign {
	int node;    /* node index, or PFS_ALL_NODES */
	unsigned op; /* index into the workload's ops */
};

struct pfs_step {
	unsigned nassign;
	struct pfs_assign assign[PFS_STEP_MAX_ASSIGN];
};

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
 * two nodes run an op each. */
#define PFS_STEP1(node, op) ((struct pfs_step){ 1, { { (node), (op) } } })
#define PFS_STEP2(node_a, op_a, node_b, op_b) \
	((struct pfs_step){ 2, { { (node_a), (op_a) }, { (node_b), (op_b) } } })

struct pfs_test {
	const char *name;
	enum pfs_order order;
	/* Writes the plan for nnodes nodes and the workload's options into steps
	 * (at most cap of them) and returns how many steps the plan has, also
	 * when that exceeds cap. */
	size_t (*plan)(const void *opts, unsigned nnodes, struct pfs_step *steps, size_t cap);
};

/* One row's worth of an op's result. An op that times itself (several kinds
 * of op in one loop) sets timed and elapsed_us; otherwise the engine's clock
 * around the whole op is used. */
struct pfs_sample {
	const char *op;
	uint64_t files;
	uint64_t bytes;
	uint64_t elapsed_us;
	bool timed;
};

/* What one rank works with. The engine owns it; a workload reads it and keeps
 * its own state in `state`. */
struct pfs_worker {
	int rank;
	unsigned node;        /* 0-based node index */
	unsigned worker;      /* 1-based worker within the node */
	const char *node_name;
	const void *opts;     /* the workload's parsed options */
	int dirfd;            /* this worker's own directory in the run directory */
	char dir[PATH_MAX];   /* its path, for messages */
	void *state;          /* workload_size bytes, zeroed before setup */
	struct pfs_engine *engine;
	unsigned poll_countdown;
	bool keep;            /* the run leaves its items for a later run: cleanup
			       * frees memory but removes nothing (see pfs_persist) */
	bool failed;          /* this rank recorded a failure */
	bool stopped;         /* another rank failed: leave the loop */
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
};

struct pfs_workload {
	const char *name;      /* subcommand */
	const char *summary;
	const char *synopsis;  /* for --help */
	const struct pfs_option *options;
	size_t opts_size;      /* starts with struct pfs_common_opts */
	size_t state_size;     /* per-worker state */
	const struct pfs_test *tests; /* NULL-terminated by name */
	const struct pfs_output_ops *report; /* the text report on stdout */
	void (*defaults)(void *opts);
	/* After parsing, on rank 0: checks the values against each other.
	 * Returns 0 or -EINVAL with a message. */
	int (*validate)(void *opts, char *err, size_t errlen);
	/* Space and inodes the whole run needs at its peak. */
	void (*needs)(const void *opts, unsigned nranks, struct pfs_needs *needs);
	/* Per worker, once its directory exists; and at the end, also after a
	 * failure: cleanup removes whatever the workload created and nothing else. */
	int (*setup)(struct pfs_worker *w);
	int (*run_op)(struct pfs_worker *w, unsigned op, struct pfs_sample *out, unsigned *nout);
	int (*cleanup)(struct pfs_worker *w);
	/* Optional; NULL means PFS_PERSIST_NONE. Returns how this run's items
	 * outlive it (an enum pfs_persist), or -ENAMETOOLONG when key is too
	 * small. For LEAVE and RESUME it writes a key naming the plan, and the
	 * run directory is DIR/pfsbench.<name>.<key>: the later run finds what
	 * the earlier one left by the same options. */
	int (*persist)(const void *opts, char *key, size_t keylen);
	/* Optional: for --dry-run, on rank 0, prints what the plan would make;
	 * the engine then prints the space and inodes it needs. */
	void (*dry_run)(FILE *out, const void *opts, unsigned nranks, unsigned nnodes);
};

/* Called by an op on failure: records it, prints "node N worker W: cannot
 * OP 'DIR/NAME': strerror", tells every other rank to stop, returns -err. */
int pfs_fail(struct pfs_worker *w, const char *op, const char *name, int err);

/* True when another rank has failed and this op must stop. Asks MPI. */
#define PFS_POLL_EVERY 256
bool pfs_engine_poll(struct pfs_worker *w);

/* Called by op loops once an item: pfs_engine_poll every PFS_POLL_EVERY
 * items, a decrement otherwise. */
static inline bool pfs_stop_requested(struct pfs_worker *w)
{
	if (--w->poll_countdown != 0)
		return false;
	w->poll_countdown = PFS_POLL_EVERY;
	return pfs_engine_poll(w);
}

/* For tight loops over items first..n-1: they run in batches and ask
 * between batches, so no per-item work is added. Returns false when the
 * op must stop; else sets *end to the end of the next batch. */
static inline bool pfs_next_batch(struct pfs_worker *w, uint64_t i, uint64_t n, uint64_t *end)
{
	if (pfs_engine_poll(w))
		return false;
	*end = n - i > PFS_POLL_EVERY ? i + PFS_POLL_EVERY : n;
	return true;
}

/* Registry (src/workloads/registry.c). */
extern const struct pfs_workload pfs_workload_create_unlink;
extern const struct pfs_workload pfs_workload_tree;
extern const struct pfs_workload *const pfs_workloads[];
const struct pfs_workload *pfs_workload_find(const char *name);

#endif
