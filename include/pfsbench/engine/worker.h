/* worker.h: what a workload's op calls while it runs (src/engine/worker.c).
 * An op says what it is doing (pfs_op_start), counts what it did in
 * w->items and w->bytes, lets the engine look at the clock every so often
 * (pfs_tick, pfs_batch), times items when asked (pfs_lat_start/stop), and
 * ends with pfs_op_done, which hands the engine one row. Stop notices,
 * progress, stonewall deadlines and latency histograms are the engine's; a
 * workload never sees MPI. */
#ifndef PFSBENCH_WORKER_H
#define PFSBENCH_WORKER_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "pfsbench/core/histogram.h"
#include "pfsbench/core/results.h"
#include "pfsbench/core/util.h"

struct pfs_engine;

/* Values a worker and its peer (pfs_workload.peers) pass each other. */
#define PFS_LEDGER_MAX 6

/* What one rank works with. The engine owns it; a workload reads it, counts
 * in items and bytes, and keeps its own state in `state`. */
struct pfs_worker {
	int rank;
	unsigned node;        /* 0-based node index */
	unsigned worker;      /* 1-based worker within the node */
	const char *node_name;
	const void *opts;     /* the workload's parsed options */
	int dirfd;            /* this worker's own directory in the run directory */
	char dir[PATH_MAX];   /* its path, for messages */
	int run_dirfd;        /* the run directory, for items all workers share; -1 for none */
	void *state;          /* the workload's state_size bytes, zeroed before setup */
	unsigned step;        /* the step of the test's plan being run, from 0: for
			       * workloads whose steps differ by more than their
			       * op (matrix's cells) */

	/* The op in progress, from pfs_op_start. */
	uint64_t items;       /* done so far, in the op's unit */
	uint64_t bytes;       /* written or read so far */
	uint64_t target;      /* items to do: a stonewall may lower it, and raise
			       * it again to the busiest rank's count */
	unsigned countdown;   /* items until pfs_tick looks at the clock */
	unsigned batch;       /* items between clock readings, adapted */
	struct pfs_hist *lat; /* latency of this op's items; NULL when not recorded */
	/* An op whose items threads of its own do (bonnie's tests) puts here
	 * how long the thread that did them waited for a CPU over its items
	 * (pfs_wait_meter; of several, the longest) and sets thread_waited:
	 * the row's wait_us is then these alone. The main thread only
	 * watches meanwhile; its waits to wake up every 20 ms are not on the
	 * work's path, and added to the thread's they made wait_us exceed
	 * elapsed_us. Both zeroed by pfs_op_start. */
	uint64_t thread_wait_ns;
	bool thread_waited;
	/* The engine's look at the clock (pfs_engine_tick): stop notices and
	 * signals, progress ticks, the stonewall deadline. Returns true when
	 * the op must stop: told to (stopped), or done (items has reached
	 * target). Called through the worker, so this interface needs no
	 * engine. */
	bool (*tick)(struct pfs_worker *w);

	/* Ops that work on another worker's items (pfs_workload.peers): that
	 * worker's directory, opened once every directory exists. Before every
	 * step and before cleanup, the engine sends `ledger` to both the peer
	 * and the reader (the worker whose peer this one is), and receives the
	 * peer's into peer_ledger and the reader's into reader_ledger: so each
	 * knows, without MPI, which of the other's items exist and which of
	 * its own the other has removed. */
	int peer_dirfd;       /* -1: no peer */
	unsigned peer_node;   /* the peer's node index (its worker is this one's
			       * number), for items named by their worker */
	char peer_dir[PATH_MAX];
	bool has_peer, has_reader;
	uint64_t ledger[PFS_LEDGER_MAX];
	uint64_t peer_ledger[PFS_LEDGER_MAX];
	uint64_t reader_ledger[PFS_LEDGER_MAX];

	/* The run's text streams, as its caller chose (struct pfs_engine_io):
	 * a workload that prints as its tool did (stream's marks) prints here. */
	FILE *out, *err;

	struct pfs_engine *engine;
	bool keep;            /* the run leaves its items for a later run: cleanup
			       * frees memory but removes nothing (see pfs_persist) */
	bool failed;          /* this rank recorded a failure */
	bool stopped;         /* a failure elsewhere or a signal: leave the loop */
};

/* pfs_op_start flags. */
#define PFS_OP_HOT 1u /* a loop of a few hundred instructions an item: its
		       * latency is recorded only with --latency (README) */

/* The op begins: name (as rows say it), what it counts, how many items it
 * is to do, flags. Zeroes items and bytes, sets target, starts the clock,
 * the CPU meters (CPU time, waits for a CPU, the cgroup's throttling) and,
 * unless PFS_OP_HOT without --latency, w->lat. */
void pfs_op_start(struct pfs_worker *w, const char *op, enum pfs_unit unit, uint64_t items,
		  unsigned flags);

/* The op ends: one row of w->items and w->bytes over the time since
 * pfs_op_start (the engine builds it once the op has returned); its clock
 * and its CPU, wait and throttle meters stop here, so what the op does
 * after (closing, truncating) is in none of them. Returns 0 or -ENOSPC
 * when the op emitted more than 4 rows. */
int pfs_op_done(struct pfs_worker *w);

/* For an op that interleaves kinds of item and times each kind itself
 * (create-unlink's uc): one row per kind, with its own time and latency. */
struct pfs_sample {
	const char *op;
	enum pfs_unit unit;
	uint64_t items;
	uint64_t bytes;
	uint64_t elapsed_us;
	const struct pfs_hist *lat; /* NULL: none recorded */
};
int pfs_emit(struct pfs_worker *w, const struct pfs_sample *s);

/* A second histogram for an op that emits two kinds of item, reset at
 * pfs_op_start; NULL when latency is not recorded. */
struct pfs_hist *pfs_op_lat2(struct pfs_worker *w);

/* A thread's meter of its waits for a CPU (Linux's run_delay, from
 * /proc/thread-self/schedstat): opened in the thread that does an op's
 * items, before the op's clock starts, read (ns so far; 0 where the kernel
 * keeps none) when it starts and ends its items, and closed. */
int pfs_wait_meter_open(void);
uint64_t pfs_wait_meter_ns(int fd);
/* The waits since a reading of pfs_wait_meter_ns; 0 if the meter went back
 * (a read that failed reads 0). */
uint64_t pfs_wait_meter_since(int fd, uint64_t start_ns);
void pfs_wait_meter_close(int fd);

/* Called by an op on failure: records it, prints "node N worker W: cannot
 * OP 'DIR/NAME': strerror", tells every other rank to stop, returns -err. */
int pfs_fail(struct pfs_worker *w, const char *op, const char *name, int err);
/* The same for an item in another directory (the peer's). */
int pfs_fail_in(struct pfs_worker *w, const char *op, const char *dir, const char *name, int err);

/* The same for a failure that needs more words than "cannot OP 'PATH'" (an
 * offset, a byte that differs): records and prints "node N worker W: "
 * followed by the formatted message, tells every other rank to stop, and
 * returns -err. */
int pfs_failf(struct pfs_worker *w, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The same for a call on a whole path that failed with err: "cannot OP
 * 'PATH': strerror (ENAME)". */
int pfs_fail_path(struct pfs_worker *w, const char *op, const char *path, int err);

/* For an op whose items threads of its own do (bonnie's tests), in a step
 * with a stonewall deadline (PFS_STEP_STONEWALL): true once the deadline
 * has passed and this rank has not yet given its count. The op then holds
 * its threads between two items, sets w->items to the exact count and
 * calls w->tick, which agrees with every rank and sets w->target to the
 * busiest rank's count, to wear out to (src/engine/worker.c). Without
 * the hold, the threads would go on counting while the rank agrees. */
bool pfs_deadline_due(const struct pfs_worker *w);

/* Before each item, in loops whose items take a while (a file written, a
 * directory walked): a decrement, and now and then the engine's tick. True
 * when the op must stop (w->stopped) or has done its target: the loop
 * needs no compare of its own. */
static inline bool pfs_tick(struct pfs_worker *w)
{
	if (--w->countdown)
		return false;
	return w->tick(w);
}

/* The same for loops that judge their own end (a stream's requests, which
 * may run past the target to the end of a file): true only when the op
 * must stop because it was told to (w->stopped). */
static inline bool pfs_tick_stopped(struct pfs_worker *w)
{
	if (--w->countdown)
		return false;
	w->tick(w);
	return w->stopped;
}

/* The same for a loop that counts its items in a local, done: w->items is
 * brought up to date only when the engine looks, and by the loop at its
 * end. */
static inline bool pfs_tick_at(struct pfs_worker *w, uint64_t done)
{
	if (--w->countdown)
		return false;
	w->items = done;
	return w->tick(w);
}

/* For the tightest loops (create, unlink), which count in a local and store
 * it back at each batch's end, while w->items < w->target: between
 * batches, the engine looks at the clock. Returns false when the op must
 * stop; else sets *end to the end of the next batch (at most w->target). */
static inline bool pfs_batch(struct pfs_worker *w, uint64_t *end)
{
	if (w->tick(w) && w->stopped)
		return false;
	*end = w->target - w->items < w->countdown ? w->target : w->items + w->countdown;
	return true;
}

/* An item's latency: t = pfs_lat_start(w); ...; pfs_lat_stop(w, t). Costs
 * one branch when latency is not recorded. */
static inline uint64_t pfs_lat_start(const struct pfs_worker *w)
{
	return w->lat ? pfs_now_ns() : 0;
}

static inline void pfs_lat_stop(struct pfs_worker *w, uint64_t t0)
{
	if (w->lat)
		pfs_hist_add(w->lat, pfs_now_ns() - t0);
}

#endif
