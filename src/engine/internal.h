/* internal.h: the engine's own state, shared by the files of src/engine/
 * and by no one else. Each file owns one concern:
 *   run.c       the whole run: options, identity, preflight, tests, outputs
 *   step.c      a test's steps: cache drops, barriers, ops, the filesystem's
 *               counters around each
 *   worker.c    what ops call (include/pfsbench/engine/worker.h): rows, failures,
 *               the clock inside ops, the stonewall
 *   progress.c  what a tick records: the timeline, rank 0's live line
 *   agree.c     MPI calls checked, waits that sleep, stop notices, agreement
 *   clock.c     one clock for all nodes
 *   gather.c    rows, latency and ticks to rank 0, and to the outputs
 *   rundir.c    the run directory and the workers' directories
 *   peer.c      workers that work on another's items: peers, ledgers
 *   watchdog.c  --phase-timeout: a step that runs too long ends the job */
#ifndef PFSBENCH_ENGINE_INTERNAL_H
#define PFSBENCH_ENGINE_INTERNAL_H

#include <mpi.h>

#include "pfsbench/core/cgroup.h"
#include "pfsbench/core/histogram.h"
#include "pfsbench/core/options.h"
#include "pfsbench/core/resultpath.h"
#include "pfsbench/core/timeline.h"
#include "pfsbench/core/topology.h"
#include "pfsbench/engine/workload.h"
#include "pfsbench/outputs/output.h"
#include "pfsbench/target/fsprobe.h"

#define PFS_MAX_SAMPLES 4 /* rows one op may emit */
#define PFS_TICK_US 100000u /* a progress tick: about every 100 ms */
#define GATHER_KINDS 4 /* what a block gathers: rows, cells, ticks, fsstats (gather.c) */
/* The most ticks rank 0 takes of a block at once (12 MiB of them; one
 * rank's all if it has more): more come in rounds of whole ranks, each
 * written before the next is gathered (gather.c, docs/scale.md). */
#define GATHER_TICKS_ROUND ((size_t)1 << 18)

/* Every point-to-point message of the engine on its communicator, one tag
 * per kind, all here: rank 0 probes for progress from any source, so two
 * kinds sharing a tag would hand it a peer's ledger as a progress message
 * (MPI_ERR_TRUNCATE, and a run aborted mid-way). */
enum pfs_mpi_tag {
	TAG_STOP = 4711,   /* a rank failed or caught a signal (agree.c) */
	TAG_CLOCK,         /* clock offsets, rank 0 and each other rank (clock.c) */
	TAG_PROGRESS,      /* a rank's progress, to its node's aggregator (progress.c) */
	TAG_TO_READER,     /* a ledger for the rank whose peer the sender is (peer.c) */
	TAG_TO_PEER,       /* a ledger for the sender's peer (peer.c) */
	TAG_PROGRESS_NODE, /* a node's progress, from its aggregator to rank 0 or its relay (progress.c) */
	TAG_PROGRESS_GROUP, /* a group of nodes' progress, from its relay to rank 0 (progress.c) */
	TAG_PEER_RANKS,    /* a node's ranks, from its leader to a paired node's (peer.c) */
	TAG_PEER_PLACE,    /* a rank's peer and reader, from its node's leader (peer.c) */
	TAG_NODE_RECORD,   /* a node's record, from its leader to rank 0 (run.c identify) */
	TAG_LAT_MERGE,     /* latency cells, to and from the node's leader (gather.c) */
};

/* The message a rank sends its node's aggregator (TAG_PROGRESS) at a tick,
 * and when its op of a step begins and ends (MSG_STATE): MSG_LEN uint64_t. */
enum { MSG_SEQ, MSG_TIME, MSG_ITEMS, MSG_BYTES, MSG_TARGET, MSG_UNIT, MSG_STATE, MSG_LEN };
/* The message an aggregator sends rank 0 (TAG_PROGRESS_NODE), at most one
 * a tick: its node's ranks summed (the ranks it covers, those that began
 * the step NMSG_SEQ and those done with it), and the one not done it heard
 * from longest ago, for the watchdog (NMSG_LAG_*: its rank and worker,
 * which rank 0 could not look up, holding no entry per rank; its age in us
 * at the aggregator, UINT64_MAX when never heard from). NMSG_LEN uint64_t. */
enum {
	NMSG_SEQ, NMSG_TIME, NMSG_ITEMS, NMSG_BYTES, NMSG_TARGET, NMSG_UNIT,
	NMSG_RANKS, NMSG_BEGUN, NMSG_DONE,
	NMSG_LAG_RANK, NMSG_LAG_WORKER, NMSG_LAG_ITEMS, NMSG_LAG_TARGET, NMSG_LAG_BEGUN,
	NMSG_LAG_AGE_US, NMSG_LEN
};

struct pfs_progress_view; /* rank 0's picture of every node's progress (progress.c) */
struct pfs_progress_agg;  /* an aggregator's picture of its node's ranks (progress.c) */
struct pfs_progress_relay; /* a relay's picture of its group of nodes (progress.c) */
struct pfs_direct_answer;     /* a node's answer to --direct's probe (run.c) */

struct pfs_engine {
	MPI_Comm comm; /* a duplicate with MPI_ERRORS_RETURN: every call is checked */
	int rank, nranks;
	const struct pfs_workload *wl;
	void *opts;
	struct pfs_common_opts *common;
	/* --output-format json|csv: writes the rows at the end (the caller's,
	 * struct pfs_engine_io); NULL: text only */
	int (*summary)(FILE *out, const char *results_path, unsigned format);
	struct pfs_output *kept_outputs; /* the caller's outputs less the report */
	struct pfs_topology topo;
	struct pfs_worker w;
	MPI_Datatype row_type, cell_type, tick_type, fsstat_type;

	/* clock.c */
	int64_t clock_offset_us; /* this node's clock to node 0's */
	uint64_t epoch_us;        /* the run's start, on node 0's clock */

	/* peer.c: the ranks this rank sends its ledger to and receives from;
	 * -1 for none */
	int peer_rank, reader_rank;

	/* rundir.c */
	char run_dir[PATH_MAX];
	bool run_dir_made, worker_dir_made, setup_done;
	int marker_fd; /* rank 0: the run directory's marker, locked; -1 for none */
	int target_dirfd; /* the directory under test, opened once; -1 for none */
	int run_dirfd;    /* the run directory, opened from target_dirfd; -1 for none */
	uint64_t run_dir_dev, run_dir_ino; /* what rank 0 made, sent to every rank */
	int persist; /* enum pfs_persist */
	char persist_key[128];

	/* agree.c: stop notices. A failing rank tells its node's ranks and
	 * every other node's leader at once, and each leader its node, so
	 * loops elsewhere end at their next tick, not at the phase's end.
	 * Each rank keeps one receive posted for them. */
	MPI_Request stop_recv;
	int stop_buf; /* the failing rank */
	bool stop_recv_done;
	MPI_Request *stop_sends; /* nstop_sends, this rank's notices in flight */
	int nstop_sends;
	bool sent_stop;    /* this rank failed and told the others */
	bool relayed_stop; /* this leader passed another node's notice on */
	bool stop_relays;  /* a leader passes notices on: not while agreeing */
	int interrupted_ranks; /* ranks that caught SIGINT/SIGTERM, at the last agreement */
	char failure[512];     /* this rank's first failure; on rank 0 after a failed
				* run, the lowest failing rank's (first_failure) */

	/* step.c: where the run is */
	const struct pfs_step *cur_step; /* the step in progress, NULL between steps */
	uint64_t phase_begin_us; /* local clock, when this rank began it (watchdog.c) */
	const char *test;
	unsigned iteration, step;
	unsigned step_seq;      /* steps entered so far (from each one's start, before its
	                         * cache drop), for progress messages */
	uint64_t step_start_us; /* local clock, when this rank left the step's barrier */

	/* worker.c: the op in progress */
	const char *op_name;
	enum pfs_unit op_unit;
	uint64_t op_start_us, op_cpu_us;
	uint64_t op_wait_ns;   /* the thread's run_delay when the op began */
	int schedstat_fd;      /* /proc/thread-self/schedstat; -1 without one */
	struct pfs_cgroup_meter throttle; /* the cgroup's throttled time, cpu.stat */
	/* The op's CPU, wait and throttled time, read by pfs_op_done when the
	 * op called it (metered), so that untimed work after the clock stops
	 * (closing a stream, emptying a matrix cell's file) is not in them. */
	bool op_metered;
	uint64_t op_meter_cpu_us, op_meter_wait_us, op_meter_throttled_us;
	unsigned nsamples;     /* rows this rank emitted in the step */
	struct pfs_sample pending[PFS_MAX_SAMPLES]; /* noted by the op, rows after it */
	uint64_t pending_start_us[PFS_MAX_SAMPLES];
	size_t npending;
	struct pfs_hist *hist[2];
	bool lat_on;           /* this op records latency */
	/* --latency-detail node: each block's cells are merged on the node
	 * before they travel (gather.c); the same on every rank */
	bool lat_by_node;

	/* worker.c: the stonewall of the step, when it has one */
	uint64_t deadline_us;  /* local clock; 0: none */
	bool sw_posted;        /* this rank gave its count to the agreement */
	bool sw_hit;           /* the deadline stopped this rank's op */
	uint64_t sw_items, sw_us;
	uint64_t sw_mine, sw_max;
	MPI_Request sw_req;

	/* progress.c. Each node's aggregator (its lowest rank; on rank 0's
	 * node, the lowest but rank 0) sums its node's ranks' progress and
	 * sends rank 0 one message a tick at most: rank 0 hears O(nodes). */
	uint64_t last_clock_us, next_tick_us;
	uint64_t prog_msg[MSG_LEN]; /* the message in flight to the aggregator */
	MPI_Request prog_req;
	bool prog_roles;       /* the roles below are set: messages may flow */
	int prog_to;           /* this rank's aggregator (itself when it is one); -1 on rank 0 */
	bool prog_agg;         /* this rank is its node's aggregator */
	unsigned prog_expect;  /* DONE_SEQ messages this rank takes at the end */
	unsigned prog_done;    /* ... and has taken */
	struct pfs_progress_agg *agg; /* an aggregator's view of its node */
	struct pfs_progress_relay *relay; /* a relay's view of its group of nodes */
	struct pfs_timeline timeline; /* this rank's ticks of the step in progress */
	uint64_t rows_planned;        /* run.c: the rows the plan makes */
	bool prog_tty;         /* rank 0: draw the line as a terminal line */
	bool prog_drawn;       /* rank 0: a line is on the terminal */
	struct pfs_progress_view *view;
	/* What a waiting rank does between looks (rank 0: take progress
	 * messages and draw), so that the waits of agree.c need not know. */
	void (*while_waiting)(struct pfs_engine *e);
	/* What a waiting or ticking rank checks (watchdog.c), and how a run
	 * ends at once with a reason (run.c): hooks, so that agree.c and
	 * progress.c, below both, need not know them. */
	void (*watch)(struct pfs_engine *e, uint64_t now_us);
	void (*abort_run)(struct pfs_engine *e, const char *reason);

	/* step.c: the filesystem's own counters around each step, on the node
	 * leaders (on one of them for a cluster-wide source) */
	struct pfs_fsprobe probe;
	bool probing;
	bool probe_begun;
	bool probe_failed; /* a step's counters went missing; said once */

	/* gather.c: rank 0's room for every rank's counts of each kind
	 * (rows, cells, ticks, fsstats: GATHER_KINDS), each kind's counts
	 * and offsets, and each rank's round of ticks and a round's counts
	 * (GATHER_INTS ints a rank); the ticks rank 0 takes in one round at
	 * most (GATHER_TICKS_ROUND, or PFSBENCH_DEBUG_GATHER_TICKS) */
	int *gather_counts;
	size_t ticks_round;
	/* gather.c: this rank's results of the test iteration in progress */
	struct pfs_row *rows;
	size_t nrows, rows_cap;
	struct pfs_lat_cell *cells; /* row: index into rows */
	size_t ncells, cells_cap;
	struct pfs_tick *ticks;
	size_t nticks, ticks_cap;
	struct pfs_fsstat *fsstats;
	size_t nfsstats, fsstats_cap;

	/* run.c: the caller's streams (struct pfs_engine_io) */
	FILE *out, *err;

	/* run.c, rank 0 only */
	char results_path[PATH_MAX];
	struct pfs_run_info ri;
	struct pfs_output *outputs; /* the caller's */
	size_t noutputs;
	bool wants_results;   /* an output writes the results file (PFS_OUTPUT_RESULTS_FILE) */
	struct pfs_results_file results; /* preflight created it, empty; open to the end */
	bool results_made;    /* the results output began writing it */
	/* What rank 0 gathered over the run (gather.c), said with
	 * PFSBENCH_DEBUG_PROGRESS (ticks) and PFSBENCH_DEBUG_SCALE (all;
	 * docs/scale.md): records of each kind, the largest block's records
	 * in bytes, the latest row's end on the run's clock, and when the
	 * results file was closed on it. */
	struct {
		uint64_t rows, cells, ticks, fsstats, block_max_bytes, last_end_us, closed_us;
		unsigned tick_rounds; /* the most rounds of ticks in one block */
	} gathered;
	bool drop_failed;
	struct pfs_direct_answer *direct; /* --direct: each node's probe, rank 0's (run.c); NULL for none */
};

/* agree.c */
void pfs_mpi_check(struct pfs_engine *e, int rc, const char *call);
#define PFS_MPI(e, fn, args) pfs_mpi_check((e), fn args, #fn)
void pfs_engine_wait(struct pfs_engine *e, MPI_Request *req);
/* A collective in its nonblocking form (fn, its arguments without the
 * request), waited for asleep as pfs_engine_wait does: the blocking form
 * spins for as long as the slowest rank takes, on a busy machine taking
 * the CPU that rank needs. Only once the options are known (the wait
 * looks at the watchdog's). */
#define PFS_MPI_ASLEEP(e, fn, ...)                                  \
	do {                                                        \
		MPI_Request pfs_req_;                               \
		pfs_mpi_check((e), fn(__VA_ARGS__, &pfs_req_), #fn); \
		pfs_engine_wait((e), &pfs_req_);                    \
	} while (0)
void pfs_engine_barrier(struct pfs_engine *e);
void pfs_engine_bcast_int(struct pfs_engine *e, int *value);
void pfs_stop_recv_post(struct pfs_engine *e);
void pfs_stop_send(struct pfs_engine *e);
bool pfs_engine_poll(struct pfs_engine *e);
int pfs_agree(struct pfs_engine *e, bool failed);
int pfs_all_allocated(struct pfs_engine *e, bool ok, const char *what);
void pfs_first_failure(struct pfs_engine *e);

/* clock.c */
void pfs_clock_sync(struct pfs_engine *e);
uint64_t pfs_run_time(const struct pfs_engine *e, uint64_t local_us);

/* rundir.c */
int pfs_rundir_check(struct pfs_engine *e);
int pfs_rundir_make(struct pfs_engine *e);
int pfs_rundir_make_worker(struct pfs_engine *e);
int pfs_rundir_worker_path(const struct pfs_engine *e, const char *node_name, unsigned worker,
			   char *path, size_t len);
void pfs_rundir_remove(struct pfs_engine *e);

/* peer.c */
int pfs_peer_plan(struct pfs_engine *e, char *err, size_t errlen);
int pfs_peer_open(struct pfs_engine *e);
void pfs_peer_exchange(struct pfs_engine *e);

/* worker.c */
void pfs_worker_begin_step(struct pfs_engine *e, bool stonewall, bool working);
int pfs_worker_end_op(struct pfs_engine *e, unsigned op, int rc);
/* This thread's /proc/thread-self/schedstat, opened; -1 without one. */
int pfs_schedstat_open(void);
void pfs_worker_end_step(struct pfs_engine *e);
bool pfs_engine_tick(struct pfs_worker *w); /* the worker's tick */

/* progress.c */
int pfs_progress_init(struct pfs_engine *e);
int pfs_progress_configure(struct pfs_engine *e);
void pfs_progress_enter_step(struct pfs_engine *e);
void pfs_progress_begin_step(struct pfs_engine *e);
void pfs_progress_end_step(struct pfs_engine *e);
void pfs_progress_tick(struct pfs_engine *e, uint64_t now_us);
void pfs_progress_service(struct pfs_engine *e, uint64_t now_us);
void pfs_progress_finish(struct pfs_engine *e);
void pfs_progress_op_begin(struct pfs_engine *e);
void pfs_progress_op_end(struct pfs_engine *e);
/* A worker whose op of the step has not ended, as rank 0 last heard: per
 * node, the one its aggregator heard from longest ago (rank 0's own op
 * apart), and how many more of the node are not done. */
struct pfs_laggard {
	int rank, op;
	unsigned node, worker; /* its node and worker (0: not known) */
	bool begun; /* it said its op began */
	uint64_t items, target, heard_us;
	enum pfs_unit unit;
	unsigned more; /* others of its node not done */
};
size_t pfs_progress_laggards(struct pfs_engine *e, struct pfs_laggard *out, size_t cap);

/* watchdog.c */
void pfs_watchdog_check(struct pfs_engine *e, uint64_t now_us);


void pfs_progress_free(struct pfs_engine *e);

/* gather.c */
int pfs_gather_init(struct pfs_engine *e);
void pfs_gather_free(struct pfs_engine *e);
int pfs_gather_block(struct pfs_engine *e, enum pfs_order order);
/* Rank 0's side of a block, apart from MPI, so that a synthetic feed
 * (tests/engine/synth_feed.c) drives the same code at any N in one
 * process. A block's records on rank 0: each kind's (rows, cells, ticks,
 * fsstats) in rank order, counts[k][r] and firsts[k][r] (in
 * e->gather_counts) saying where rank r's are. */
struct pfs_gathered {
	struct pfs_row *rows;
	struct pfs_lat_cell *cells; /* row: index among its rank's rows */
	struct pfs_tick *ticks;     /* one round's */
	struct pfs_fsstat *fsstats;
	int *counts[GATHER_KINDS], *firsts[GATHER_KINDS];
	size_t totals[GATHER_KINDS];
	/* The ticks come in rounds of whole ranks in rank order, each at
	 * most e->ticks_round of them or one rank's all: round_of[r] is rank
	 * r's, firsts[2][r] its place in its round, round_counts a round's
	 * counts (the others' 0), tick_room the largest round. */
	int rounds, *round_of, *round_counts;
	size_t tick_room, round_ticks; /* round_ticks: the round's in ticks */
};
/* The ints of e->gather_counts a rank: its counts (GATHER_KINDS), each
 * kind's count and offset (2 GATHER_KINDS), its round of ticks and its
 * count in the round being gathered. */
#define GATHER_INTS (3 * GATHER_KINDS + 2)
/* Room in g for what every rank said it sends: e->gather_counts' first
 * nranks x GATHER_KINDS ints, rank by rank; the ticks' for their first
 * round. Returns 0, -EOVERFLOW (a kind has more than an int counts) or
 * -ENOMEM, said, with nothing held. */
int pfs_gather_room(struct pfs_engine *e, struct pfs_gathered *g);
/* Round w of the ticks is next: round_counts and round_ticks filled for
 * it (the gather's receive side; the feed's, which stands in for it). */
void pfs_gather_round(const struct pfs_engine *e, struct pfs_gathered *g, int w);
/* The records in g (received into pfs_gather_room's room, the ticks'
 * first round, pfs_gather_round's) into the order's report order, each cell pointed at its
 * row's new place, handed to every output; frees all but the ticks'
 * room. Returns 0 or -EIO (the results file could not take them;
 * e->failure says so) or -ENOMEM. */
int pfs_gather_deliver(struct pfs_engine *e, enum pfs_order order, struct pfs_gathered *g);
/* A later round of the ticks (pfs_gather_round's), received into
 * g->ticks, handed to every output that takes more ticks (its ops'
 * ticks). Returns 0 or -EIO. */
int pfs_gather_deliver_ticks(struct pfs_engine *e, struct pfs_gathered *g);
void pfs_gathered_free(struct pfs_gathered *g);
int pfs_engine_add_row(struct pfs_engine *e, const struct pfs_row *r, const struct pfs_hist *lat);
int pfs_engine_add_fsstats(struct pfs_engine *e, const struct pfs_fscounter *c, size_t n);

/* step.c */
int pfs_run_test(struct pfs_engine *e, const struct pfs_test *t, unsigned it);
void pfs_probe_open(struct pfs_engine *e, char desc[PFS_FSPROBE_DESC_MAX],
		    char blk[PFS_FSPROBE_DESC_MAX]);

#endif
