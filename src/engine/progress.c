/* progress.c: what a rank makes of its progress. At each tick (about every
 * 100 ms of an op, worker.c) a working rank's counts go to its timeline
 * (the results file's /progress, at a bounded resolution: timeline.h) and,
 * without waiting, to its node's aggregator. The aggregator (the node's
 * lowest rank; on rank 0's node the lowest but rank 0, so that rank 0
 * takes no message of each rank of its own node either) sums its node's
 * ranks and sends rank 0 one message a tick at most: rank 0 hears O(nodes)
 * messages a tick, not O(ranks). Above PROGRESS_TREE_NODES nodes the
 * aggregators send their node's message to their group's relay instead
 * (groups of about the square root of the nodes; the relay is the
 * aggregator of its group's first node), which sends rank 0 the group's
 * news in one message a tick: rank 0 hears O(sqrt(nodes)) messages a tick,
 * and still each node's own figures. Rank 0 draws one updating line on stderr
 * for steps longer than PROGRESS_AFTER_US: the rate, the time so far, the
 * expected end and the slowest node. */
#include "internal.h"

#include "pfsbench/core/interrupt.h"
#include "pfsbench/core/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PROGRESS_AFTER_US 2000000u /* steps shorter than this draw nothing */
#define DRAW_EVERY_TTY_US 500000u
#define DRAW_EVERY_LOG_US 5000000u /* not a terminal: a line every 5 s */
/* Up to this many nodes every aggregator sends rank 0 its node's message;
 * beyond, through relays (group_nodes). */
#define PROGRESS_TREE_NODES 256u

/* DONE_SEQ ends a rank's progress messages (internal.h: MSG_*, NMSG_*). */
#define DONE_SEQ UINT64_MAX
enum { OP_WORKING, OP_DONE };

/* A rank's last message, as the rank that keeps it heard it. */
struct rank_view {
	uint64_t seq, time_us, items, bytes, target, state, unit;
	uint64_t heard_us; /* the keeper's clock when the message came; 0: never */
};

/* Rank 0's picture of a node: its aggregator's last message. */
struct node_view {
	uint64_t msg[NMSG_LEN];
	uint64_t heard_us;     /* rank 0's clock when it came */
	uint64_t lag_heard_us; /* when the node's laggard was last heard of, on it */
};

struct pfs_progress_view {
	struct rank_view self;                /* rank 0's own op */
	struct node_view *nodes;              /* per node, its aggregator's word */
	int agg0;                             /* rank 0's node's aggregator, or -1 */
	uint64_t *node_items, *node_target;   /* scratch, per node */
	uint64_t next_draw_us;
	enum pfs_unit unit;
	bool drawing;
	/* What rank 0 heard, said with PFSBENCH_DEBUG_PROGRESS set. */
	uint64_t msgs, since_us;
	unsigned senders;
	bool *heard;                          /* per node: a sender on it was heard */
	uint64_t *group_msg;                  /* a relay's message: group_len uint64_t */
	int group_len;
};

struct pfs_progress_agg {
	struct rank_view *m;   /* per worker of the node (worker - 1) */
	int *rank_of;          /* the rank of each */
	unsigned first, n;     /* the workers covered: [first, n); rank 0's not */
	unsigned self;         /* this rank's own */
	bool dirty;            /* heard of something since the last message */
	uint64_t next_send_us; /* no message up before this */
	int to;                /* whom the node's message goes to: rank 0 or its relay */
	uint64_t msg[NMSG_LEN];
	MPI_Request req;
};

/* A relay's picture of its group: each node's last message, as heard, and
 * the message in flight to rank 0: a count, then per node with news its
 * index and its message (GROUP_REC uint64_t each), or DONE_SEQ alone. */
#define GROUP_REC (1 + NMSG_LEN)
struct pfs_progress_relay {
	unsigned first, n;       /* the group's nodes: [first, first + n) */
	uint64_t *msg;           /* n x NMSG_LEN */
	uint64_t *heard_us;      /* per node: the relay's clock when its message came */
	bool *news;              /* per node: heard since the last message to rank 0 */
	bool any_news;
	uint64_t next_send_us;
	uint64_t *out;           /* 1 + n x GROUP_REC */
	MPI_Request req;
};

/* Whether the user sees rank 0's stderr on a terminal. Under mpirun it is a
 * pipe to mpirun, whose own stderr is the user's: ask the parent's. A
 * stream the caller handed over (pfs_engine_run's err) is a terminal only
 * when its own descriptor is one. */
static bool stderr_is_terminal(FILE *err)
{
	char path[64];
	bool tty;
	int fd;

	if (err != stderr)
		return (fd = fileno(err)) >= 0 && isatty(fd);
	if (isatty(STDERR_FILENO))
		return true;
	snprintf(path, sizeof(path), "/proc/%ld/fd/2", (long)getppid());
	fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return false;
	tty = isatty(fd);
	close(fd);
	return tty;
}

static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* How long ago then was, at now: 0 when then is later. A message taken
 * in a service is stamped with the clock read as it comes, after the now
 * its service was called with (a tick's reading); its age must be 0, not
 * the 2^64 - a few microseconds that rank 0 read as "not heard from yet"
 * (a CI of stop 42: the watchdog said so of a rank at 10 of 20 files). */
static uint64_t age_us(uint64_t now, uint64_t then)
{
	return now > then ? now - then : 0;
}

static void agg_service(struct pfs_engine *e, uint64_t now_us);

/* What rank 0 or an aggregator does while it waits (agree.c): take
 * messages; rank 0 draws, an aggregator passes its node's on. */
static void while_waiting(struct pfs_engine *e)
{
	if (e->rank == 0)
		pfs_progress_service(e, pfs_now_us());
	else
		agg_service(e, pfs_now_us());
}

int pfs_progress_init(struct pfs_engine *e)
{
	e->prog_req = MPI_REQUEST_NULL;
	e->prog_to = -1;
	/* The timeline's points per rank and run; PFSBENCH_DEBUG_TIMELINE: a
	 * test's way to reach the bound in a short run. */
	pfs_timeline_init(&e->timeline,
			  pfs_env_count("PFSBENCH_DEBUG_TIMELINE", PFS_TIMELINE_RUN_MAX),
			  PFS_TICK_US);
	if (e->rank != 0)
		return 0;
	e->while_waiting = while_waiting;
	e->view = calloc(1, sizeof(*e->view));
	return e->view ? 0 : -ENOMEM;
}

/* The aggregator of node n: its lowest rank, but not rank 0. -1: none
 * (rank 0 alone on its node). */
static int aggregator_of(const struct pfs_engine *e, unsigned n)
{
	return n != 0 ? e->topo.nodes[n].leader_rank : e->topo.nodes[0].second_rank;
}

/* The node whose aggregator src is, or -1. */
static int node_of_aggregator(const struct pfs_engine *e, int src)
{
	if (src != 0 && src == e->topo.nodes[0].second_rank)
		return 0;
	return src != 0 ? pfs_topology_node_led_by(&e->topo, src) : -1;
}

/* The nodes of a relay's group: 0 (no relays) up to PROGRESS_TREE_NODES
 * nodes; beyond, the square root of the nodes rounded up, so that rank 0
 * (which takes group 0's nodes itself, and one message from each other
 * group's relay) and each relay hear about as many senders, 2 sqrt(nodes)
 * at most: 200 a tick at 10,000 nodes. PFSBENCH_DEBUG_PROGRESS_GROUP, a
 * number from 1 up: groups of that many nodes whatever their number (a
 * test's way to have relays with a few simulated nodes). */
static unsigned group_nodes(const struct pfs_engine *e)
{
	const char *env = getenv("PFSBENCH_DEBUG_PROGRESS_GROUP");
	unsigned m = e->topo.nnodes, g = 1;
	uint64_t n;

	if (env && !pfs_parse_u64(env, &n) && n >= 1)
		return n >= m ? 0 : (unsigned)n;
	if (m <= PROGRESS_TREE_NODES)
		return 0;
	while ((uint64_t)g * g < m)
		g++;
	return g;
}

/* Whom node n's aggregator sends its node's message: rank 0, or the relay
 * of its group (the aggregator of the group's first node; itself for that
 * node). */
static int upward_of(const struct pfs_engine *e, unsigned n)
{
	unsigned g = group_nodes(e);

	if (!g || n < g)
		return 0;
	return aggregator_of(e, n / g * g);
}

/* Whether this rank relays its group's messages to rank 0. */
static bool is_relay(const struct pfs_engine *e)
{
	return e->rank != 0 && upward_of(e, e->w.node) == e->rank;
}

static int configure_relay(struct pfs_engine *e, unsigned g)
{
	unsigned first = e->w.node, n = e->topo.nnodes - first < g ? e->topo.nnodes - first : g;
	struct pfs_progress_relay *r;

	/* Each other node of the group ends with its aggregator's DONE_SEQ,
	 * sent here also when this rank has no memory for the group. */
	e->prog_expect += n - 1;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	e->relay = r;
	r->req = MPI_REQUEST_NULL;
	r->first = first;
	r->n = n;
	r->msg = calloc((size_t)n * NMSG_LEN, sizeof(*r->msg));
	r->heard_us = calloc(n, sizeof(*r->heard_us));
	r->news = calloc(n, sizeof(*r->news));
	r->out = calloc(1 + (size_t)n * GROUP_REC, sizeof(*r->out));
	if (!r->msg || !r->heard_us || !r->news || !r->out)
		return -ENOMEM;
	return 0;
}

static int configure_agg(struct pfs_engine *e)
{
	unsigned node = e->w.node, nw = e->topo.nodes[node].nworkers;
	struct pfs_progress_agg *a = calloc(1, sizeof(*a));

	if (!a)
		return -ENOMEM;
	e->agg = a;
	a->req = MPI_REQUEST_NULL;
	a->m = calloc(nw, sizeof(*a->m));
	a->rank_of = calloc(nw, sizeof(*a->rank_of));
	if (!a->m || !a->rank_of)
		return -ENOMEM;
	memcpy(a->rank_of, e->topo.node_ranks, nw * sizeof(*a->rank_of));
	a->first = node == 0 ? 1 : 0;
	a->n = nw;
	a->self = e->w.worker - 1;
	a->to = upward_of(e, node);
	return 0;
}

static int configure_view(struct pfs_engine *e)
{
	struct pfs_progress_view *v = e->view;
	unsigned nn = e->topo.nnodes;

	v->since_us = pfs_now_us();
	v->agg0 = aggregator_of(e, 0);
	v->nodes = calloc(nn, sizeof(*v->nodes));
	v->heard = calloc(nn, sizeof(*v->heard));
	v->node_items = calloc(nn, sizeof(uint64_t));
	v->node_target = calloc(nn, sizeof(uint64_t));
	v->group_len = 1 + (int)group_nodes(e) * GROUP_REC;
	v->group_msg = calloc((size_t)v->group_len, sizeof(uint64_t));
	if (!v->nodes || !v->heard || !v->node_items || !v->node_target || !v->group_msg)
		return -ENOMEM;
	e->prog_tty = stderr_is_terminal(e->err);
	v->drawing = !(e->common->progress == PFS_PROGRESS_NEVER ||
		       (e->common->progress == PFS_PROGRESS_AUTO && !e->prog_tty));
	return 0;
}

/* On every rank, once the nodes are known and before any step: who sends
 * whom its progress. The roles are set also when the memory for the views
 * is not there (the run then stops before its first step), so that
 * pfs_progress_finish knows whom to wait for. */
int pfs_progress_configure(struct pfs_engine *e)
{
	unsigned node = e->w.node;

	e->prog_roles = true;
	e->prog_done = 0;
	if (e->rank == 0) {
		/* A DONE_SEQ from each node's aggregator that sends rank 0 its
		 * message, and from each relay. */
		unsigned g = group_nodes(e), direct = g ? g : e->topo.nnodes; /* g < nodes */

		e->prog_expect = direct - (aggregator_of(e, 0) < 0 ? 1 : 0);
		if (g)
			e->prog_expect += (e->topo.nnodes + g - 1) / g - 1;
		return configure_view(e);
	}
	e->prog_to = aggregator_of(e, node);
	e->prog_agg = e->prog_to == e->rank;
	if (!e->prog_agg)
		return 0;
	/* The node's other ranks, each ending with DONE_SEQ. */
	e->prog_expect = e->topo.nodes[node].nworkers - 1 - (node == 0 ? 1 : 0);
	e->while_waiting = while_waiting;
	if (is_relay(e)) {
		int rc = configure_relay(e, group_nodes(e));

		if (rc)
			return rc;
	}
	return configure_agg(e);
}

void pfs_progress_free(struct pfs_engine *e)
{
	if (e->view) {
		free(e->view->nodes);
		free(e->view->heard);
		free(e->view->node_items);
		free(e->view->node_target);
		free(e->view->group_msg);
		free(e->view);
		e->view = NULL;
	}
	if (e->agg) {
		free(e->agg->m);
		free(e->agg->rank_of);
		free(e->agg);
		e->agg = NULL;
	}
	if (e->relay) {
		free(e->relay->msg);
		free(e->relay->heard_us);
		free(e->relay->news);
		free(e->relay->out);
		free(e->relay);
		e->relay = NULL;
	}
	free(e->ticks);
	e->ticks = NULL;
}

static bool drawing(const struct pfs_engine *e)
{
	return e->view && e->view->drawing && e->view->nodes;
}

/* At the step's start, before its cache drop and barrier (where
 * --phase-timeout starts counting): from here on every rank's last word is
 * of an older step until its op begins, so the watchdog says "has not
 * begun" of it, rather than take rank 0's word of the step before (done:
 * not listed at all; or, in the first step, seq 0 for begun, and the time
 * since boot for when it was heard). */
void pfs_progress_enter_step(struct pfs_engine *e)
{
	e->step_seq++;
}

/* After the barrier: the step's clock runs. */
void pfs_progress_begin_step(struct pfs_engine *e)
{
	e->next_tick_us = e->step_start_us + PFS_TICK_US;
	pfs_timeline_begin(&e->timeline, e->nticks);
	if (e->view)
		e->view->next_draw_us = e->step_start_us + PROGRESS_AFTER_US;
}

void pfs_progress_end_step(struct pfs_engine *e)
{
	if (e->prog_drawn) {
		fputs("\r\033[K", e->err);
		fflush(e->err);
		e->prog_drawn = false;
	}
}

/* ---- ticks ---------------------------------------------------------------- */

/* Into the timeline, at most PFS_TIMELINE_STEP_MAX points a step and
 * PFS_TIMELINE_RUN_MAX a run until each step is down to two: points merge
 * and thin as they go (timeline.h). */
static void record_tick(struct pfs_engine *e, uint64_t now_us)
{
	uint64_t time_us = pfs_run_time(e, now_us);
	struct pfs_tick *t;

	if (!pfs_timeline_admit(&e->timeline, e->ticks, &e->nticks, time_us))
		return;
	if (e->nticks == e->ticks_cap) {
		size_t cap = e->ticks_cap ? e->ticks_cap * 2 : 256;
		struct pfs_tick *nt = realloc(e->ticks, cap * sizeof(*nt));

		if (!nt)
			return; /* the timeline has a gap; the run goes on */
		e->ticks = nt;
		e->ticks_cap = cap;
	}
	t = &e->ticks[e->nticks++];
	memset(t, 0, sizeof(*t));
	pfs_row_set_text(t->test, sizeof(t->test), e->test);
	t->iteration = e->iteration;
	t->step = e->step;
	t->rank = (uint32_t)e->rank;
	t->time_us = time_us;
	t->items = e->w.items;
	t->bytes = e->w.bytes;
	pfs_timeline_kept(&e->timeline, time_us);
}

/* This rank's counts now, as its message says them. */
static struct rank_view self_view(const struct pfs_engine *e, uint64_t now_us, uint64_t state)
{
	return (struct rank_view){ .seq = e->step_seq,
				   .time_us = now_us - e->step_start_us,
				   .items = e->w.items,
				   .bytes = e->w.bytes,
				   .target = e->w.target,
				   .state = state,
				   .unit = e->op_unit,
				   .heard_us = now_us };
}

/* To the node's aggregator, without waiting: the last message is skipped
 * while one is still in flight, since only the newest matters. */
static void send_progress(struct pfs_engine *e, uint64_t now_us, uint64_t state, bool must)
{
	int done = 1;

	if (e->prog_to < 0)
		return;
	if (e->prog_req != MPI_REQUEST_NULL) {
		if (must)
			pfs_engine_wait(e, &e->prog_req);
		else
			PFS_MPI(e, MPI_Test, (&e->prog_req, &done, MPI_STATUS_IGNORE));
	}
	if (!done)
		return;
	e->prog_msg[MSG_SEQ] = e->step_seq;
	e->prog_msg[MSG_TIME] = now_us - e->step_start_us;
	e->prog_msg[MSG_ITEMS] = e->w.items;
	e->prog_msg[MSG_BYTES] = e->w.bytes;
	e->prog_msg[MSG_TARGET] = e->w.target;
	e->prog_msg[MSG_UNIT] = e->op_unit;
	e->prog_msg[MSG_STATE] = state;
	PFS_MPI(e, MPI_Isend, (e->prog_msg, MSG_LEN, MPI_UINT64_T, e->prog_to, TAG_PROGRESS,
			       e->comm, &e->prog_req));
}

/* This rank's own counts: rank 0 and an aggregator note them where a
 * message would have put them; any other rank sends them. */
static void report(struct pfs_engine *e, uint64_t now_us, uint64_t state, bool must)
{
	if (e->rank == 0) {
		e->view->self = self_view(e, now_us, state);
	} else if (e->prog_agg) {
		if (e->agg && e->agg->m) {
			e->agg->m[e->agg->self] = self_view(e, now_us, state);
			e->agg->dirty = true;
		}
		agg_service(e, now_us);
	} else {
		send_progress(e, now_us, state, must);
	}
}

/* Around a rank's op of a step: rank 0 learns who works and who is done,
 * for the watchdog's list of the workers not done. Outside the op's time. */
void pfs_progress_op_begin(struct pfs_engine *e)
{
	e->w.items = e->w.bytes = e->w.target = 0;
	report(e, pfs_now_us(), OP_WORKING, false);
}

void pfs_progress_op_end(struct pfs_engine *e)
{
	report(e, pfs_now_us(), OP_DONE, true);
}

/* A tick, from the op's look at the clock (worker.c): the timeline, and
 * the counts on their way (on rank 0, the messages in and the line). */
void pfs_progress_tick(struct pfs_engine *e, uint64_t now_us)
{
	record_tick(e, now_us);
	report(e, now_us, OP_WORKING, false);
	if (e->rank == 0)
		pfs_progress_service(e, now_us);
	if (e->watch)
		e->watch(e, now_us);
}

/* ---- a node's aggregator ---------------------------------------------------- */

/* The next message of tag waiting for this rank, from any rank, into msg
 * (len uint64_t): true and its sender in *src, or false when none waits. */
static bool next_message(struct pfs_engine *e, int tag, uint64_t *msg, int len, int *src)
{
	MPI_Status st;
	int flag = 0;

	PFS_MPI(e, MPI_Iprobe, (MPI_ANY_SOURCE, tag, e->comm, &flag, &st));
	if (!flag)
		return false;
	PFS_MPI(e, MPI_Recv, (msg, len, MPI_UINT64_T, st.MPI_SOURCE, tag, e->comm, MPI_STATUS_IGNORE));
	*src = st.MPI_SOURCE;
	return true;
}

/* The node's other ranks' messages, into their places. */
static void agg_take(struct pfs_engine *e)
{
	struct pfs_progress_agg *a = e->agg;
	uint64_t msg[MSG_LEN];
	int src;

	while (next_message(e, TAG_PROGRESS, msg, MSG_LEN, &src)) {
		if (msg[MSG_SEQ] == DONE_SEQ) {
			e->prog_done++;
			continue;
		}
		unsigned w = pfs_topology_worker_here(&e->topo, src);

		if (!a || !a->m || !w)
			continue;
		a->m[w - 1] = (struct rank_view){
			msg[MSG_SEQ],	 msg[MSG_TIME],	 msg[MSG_ITEMS], msg[MSG_BYTES],
			msg[MSG_TARGET], msg[MSG_STATE], msg[MSG_UNIT],	 pfs_now_us()
		};
		a->dirty = true;
	}
}

/* The node's message: the newest step any of its ranks began, the counts
 * of those in it summed (a target of UINT64_MAX, an op that runs to an end
 * it cannot foresee, stays so), and the rank not done in it that was heard
 * from longest ago. */
static void agg_summary(const struct pfs_engine *e, uint64_t now_us, uint64_t *msg)
{
	const struct pfs_progress_agg *a = e->agg;
	const struct rank_view *lag = NULL;
	uint64_t seq = 0;
	unsigned lag_w = 0;

	memset(msg, 0, NMSG_LEN * sizeof(*msg));
	for (unsigned w = a->first; w < a->n; w++)
		seq = a->m[w].seq > seq ? a->m[w].seq : seq;
	msg[NMSG_SEQ] = seq;
	msg[NMSG_RANKS] = a->n - a->first;
	msg[NMSG_UNIT] = PFS_UNIT_COUNT;
	for (unsigned w = a->first; w < a->n; w++) {
		const struct rank_view *v = &a->m[w];

		if (seq && v->seq == seq) {
			msg[NMSG_BEGUN]++;
			msg[NMSG_ITEMS] += v->items;
			msg[NMSG_BYTES] += v->bytes;
			msg[NMSG_TARGET] = add_sat(msg[NMSG_TARGET], v->target);
			msg[NMSG_TIME] = v->time_us > msg[NMSG_TIME] ? v->time_us : msg[NMSG_TIME];
			msg[NMSG_UNIT] = v->unit;
			if (v->state == OP_DONE) {
				msg[NMSG_DONE]++;
				continue;
			}
		}
		if (!lag || v->heard_us < lag->heard_us) {
			lag = v;
			lag_w = w;
		}
	}
	msg[NMSG_LAG_RANK] = UINT64_MAX;
	if (!lag)
		return;
	msg[NMSG_LAG_RANK] = (uint64_t)a->rank_of[lag_w];
	msg[NMSG_LAG_WORKER] = (uint64_t)lag_w + 1;
	msg[NMSG_LAG_BEGUN] = seq && lag->seq == seq;
	msg[NMSG_LAG_ITEMS] = msg[NMSG_LAG_BEGUN] ? lag->items : 0;
	msg[NMSG_LAG_TARGET] = msg[NMSG_LAG_BEGUN] ? lag->target : 0;
	msg[NMSG_LAG_AGE_US] = lag->heard_us ? age_us(now_us, lag->heard_us) : UINT64_MAX;
}

/* ---- a group's relay -------------------------------------------------------- */

/* Node n's message, as the relay heard it now. */
static void relay_note(struct pfs_progress_relay *r, unsigned n, const uint64_t *msg,
		       uint64_t now_us)
{
	memcpy(&r->msg[(size_t)(n - r->first) * NMSG_LEN], msg, NMSG_LEN * sizeof(*msg));
	r->heard_us[n - r->first] = now_us;
	r->news[n - r->first] = true;
	r->any_news = true;
}

/* The group's other aggregators' messages, into their places (only
 * counted when the relay has no memory for them: the run stops). */
static void relay_take(struct pfs_engine *e)
{
	struct pfs_progress_relay *r = e->relay;
	uint64_t msg[NMSG_LEN];
	int src;

	while (next_message(e, TAG_PROGRESS_NODE, msg, NMSG_LEN, &src)) {
		int n = node_of_aggregator(e, src);

		if (msg[NMSG_SEQ] == DONE_SEQ)
			e->prog_done++;
		else if (r && r->out && n >= 0 && (unsigned)n >= r->first &&
			 (unsigned)n - r->first < r->n)
			relay_note(r, (unsigned)n, msg, pfs_now_us());
	}
}

/* One message to rank 0 when there is news and a tick has passed since
 * the last: each node with news, its laggard's age grown by the time the
 * relay held its message. */
static void relay_send(struct pfs_engine *e, uint64_t now_us)
{
	struct pfs_progress_relay *r = e->relay;
	uint64_t k = 0;
	int done = 1;

	if (!r->any_news || now_us < r->next_send_us)
		return;
	if (r->req != MPI_REQUEST_NULL)
		PFS_MPI(e, MPI_Test, (&r->req, &done, MPI_STATUS_IGNORE));
	if (!done)
		return;
	for (unsigned i = 0; i < r->n; i++) {
		uint64_t *rec = &r->out[1 + k * GROUP_REC], *age = &rec[1 + NMSG_LAG_AGE_US];

		if (!r->news[i])
			continue;
		rec[0] = r->first + i;
		memcpy(&rec[1], &r->msg[(size_t)i * NMSG_LEN], NMSG_LEN * sizeof(*rec));
		if (*age != UINT64_MAX)
			*age = add_sat(*age, age_us(now_us, r->heard_us[i]));
		r->news[i] = false;
		k++;
	}
	r->out[0] = k;
	PFS_MPI(e, MPI_Isend, (r->out, (int)(1 + k * GROUP_REC), MPI_UINT64_T, 0,
			       TAG_PROGRESS_GROUP, e->comm, &r->req));
	r->any_news = false;
	r->next_send_us = now_us + PFS_TICK_US;
}

/* On an aggregator, at its ticks and while it waits: its node's messages
 * in, and one message up (to rank 0, or to its relay) when there is news
 * and a tick has passed since the last. A relay notes its own node's
 * message beside the others' of its group, and sends rank 0 the group's. */
static void agg_service(struct pfs_engine *e, uint64_t now_us)
{
	struct pfs_progress_agg *a = e->agg;
	int done = 1;

	agg_take(e);
	if (e->relay)
		relay_take(e);
	if (!a || !a->m)
		return;
	if (e->relay && e->relay->out) {
		if (a->dirty) {
			agg_summary(e, now_us, a->msg);
			relay_note(e->relay, e->w.node, a->msg, now_us);
			a->dirty = false;
		}
		relay_send(e, now_us);
		return;
	}
	if (!a->dirty || now_us < a->next_send_us)
		return;
	if (a->req != MPI_REQUEST_NULL)
		PFS_MPI(e, MPI_Test, (&a->req, &done, MPI_STATUS_IGNORE));
	if (!done)
		return;
	agg_summary(e, now_us, a->msg);
	PFS_MPI(e, MPI_Isend,
		(a->msg, NMSG_LEN, MPI_UINT64_T, a->to, TAG_PROGRESS_NODE, e->comm, &a->req));
	a->dirty = false;
	a->next_send_us = now_us + PFS_TICK_US;
}

/* ---- rank 0's line ------------------------------------------------------- */

/* Node n's message, as rank 0 heard it now (from its aggregator or its
 * group's relay). */
static void note_node(struct pfs_progress_view *v, unsigned n, const uint64_t *msg)
{
	memcpy(v->nodes[n].msg, msg, sizeof(v->nodes[n].msg));
	v->nodes[n].heard_us = pfs_now_us();
	v->nodes[n].lag_heard_us = msg[NMSG_LAG_AGE_US] <= v->nodes[n].heard_us
					   ? v->nodes[n].heard_us - msg[NMSG_LAG_AGE_US]
					   : 0;
	if (msg[NMSG_UNIT] < PFS_UNIT_COUNT)
		v->unit = (enum pfs_unit)msg[NMSG_UNIT];
}

/* The senders rank 0 heard, counted by their nodes. */
static void heard_from(struct pfs_engine *e, int src)
{
	struct pfs_progress_view *v = e->view;
	int n = node_of_aggregator(e, src);

	v->msgs++;
	if (v->heard && n >= 0 && !v->heard[n]) {
		v->heard[n] = true;
		v->senders++;
	}
}

/* A relay's message: DONE_SEQ alone, or a count and its records. One that
 * does not add up is dropped (it came from this job's own code). */
static void take_group(struct pfs_engine *e)
{
	struct pfs_progress_view *v = e->view;
	uint64_t one, *buf = v->group_msg ? v->group_msg : &one;
	int cap = v->group_msg ? v->group_len : 1, flag = 0, len = 0;
	MPI_Status st;

	for (;;) {
		PFS_MPI(e, MPI_Iprobe, (MPI_ANY_SOURCE, TAG_PROGRESS_GROUP, e->comm, &flag, &st));
		if (!flag)
			return;
		PFS_MPI(e, MPI_Get_count, (&st, MPI_UINT64_T, &len));
		/* Without the memory for a group's message (the run stops
		 * before its first step) only DONE_SEQ comes. */
		if (len < 1 || len > cap) {
			pfs_error("rank 0: a progress message of %d words from rank %d; "
				  "stopping the job", len, st.MPI_SOURCE);
			MPI_Abort(e->comm, PFS_EXIT_FAILED);
		}
		PFS_MPI(e, MPI_Recv, (buf, len, MPI_UINT64_T, st.MPI_SOURCE, TAG_PROGRESS_GROUP,
				      e->comm, MPI_STATUS_IGNORE));
		heard_from(e, st.MPI_SOURCE);
		if (buf[0] == DONE_SEQ && len == 1) {
			e->prog_done++;
			continue;
		}
		for (uint64_t k = 0; k < buf[0] && 1 + (k + 1) * GROUP_REC <= (uint64_t)len; k++) {
			const uint64_t *rec = &buf[1 + k * GROUP_REC];

			if (v->nodes && rec[0] < e->topo.nnodes)
				note_node(v, (unsigned)rec[0], &rec[1]);
		}
	}
}

static void take_messages(struct pfs_engine *e)
{
	struct pfs_progress_view *v = e->view;
	uint64_t msg[NMSG_LEN];
	int src;

	while (next_message(e, TAG_PROGRESS_NODE, msg, NMSG_LEN, &src)) {
		heard_from(e, src);
		if (msg[NMSG_SEQ] == DONE_SEQ) {
			e->prog_done++;
			continue;
		}
		int n = node_of_aggregator(e, src);

		if (v->nodes && n >= 0)
			note_node(v, (unsigned)n, msg);
	}
	take_group(e);
}

/* Whether rank 0 has heard of node n in the step in progress. */
static bool node_in_step(const struct pfs_engine *e, unsigned n)
{
	return e->view->nodes[n].msg[NMSG_SEQ] == e->step_seq && e->step_seq;
}

/* The name of the op the step in progress runs: rank 0's own, or, when
 * rank 0 is idle in this step, that of the first working node heard of.
 * NULL outside a step or before any working rank has said it began. */
static const char *step_op_name(const struct pfs_engine *e)
{
	if (!e->cur_step || !e->test)
		return NULL;
	if (e->op_name)
		return e->op_name;
	for (unsigned n = 0; e->wl->op_names && n < e->topo.nnodes; n++) {
		int op = pfs_step_op_of_node(e->cur_step, n);

		if (op >= 0 && node_in_step(e, n))
			return e->wl->op_names[op];
	}
	return NULL;
}

/* What draw sums of one source (rank 0's own op, or a node's message). */
struct counts {
	uint64_t items, bytes, target;
};

/* "pfsbench: pa 1/2 Create: 48210 files/s, 12.4 s, about 6 s to go,
 * slowest node2 (61%)": the step's ranks' counts as rank 0 last heard
 * them (its own, and each node's sum from its aggregator); rate = all
 * items (bytes) / the time since the step began. An op with no count to
 * reach (target UINT64_MAX: a stream to the end of its file or space) has
 * neither a time to go nor a fraction done. Nothing is drawn outside a
 * step (in the setup's agreements, say, where the clock the time counts
 * from has not started) nor before the step's op has a name and a count
 * to reach: a line of placeholders tells nothing. */
static void draw(struct pfs_engine *e, uint64_t now_us)
{
	struct pfs_progress_view *v = e->view;
	uint64_t items = 0, target = 0, amount = 0, elapsed = now_us - e->step_start_us;
	unsigned slowest = 0;
	double slowest_frac = 2, rate;
	bool any = false, counted = false; /* a rank heard of has a count to reach */
	bool open_ended = false; /* a rank's op runs to an end it cannot foresee */
	char line[256], togo[48] = "", slow[PFS_PRINTABLE_SIZE(PFS_NODE_NAME_MAX) + 32] = "";
	const char *op = step_op_name(e);

	if (!op || now_us < e->step_start_us)
		return;

	memset(v->node_items, 0, e->topo.nnodes * sizeof(uint64_t));
	memset(v->node_target, 0, e->topo.nnodes * sizeof(uint64_t));
	if (e->op_name && e->w.target) {
		v->self = self_view(e, now_us, v->self.state);
		v->unit = e->op_unit;
	}
	for (unsigned n = 0; n < e->topo.nnodes; n++) {
		struct counts c[2];
		size_t k = 0;

		if (n == 0 && v->self.seq == e->step_seq)
			c[k++] = (struct counts){ v->self.items, v->self.bytes, v->self.target };
		if (node_in_step(e, n))
			c[k++] = (struct counts){ v->nodes[n].msg[NMSG_ITEMS],
						  v->nodes[n].msg[NMSG_BYTES],
						  v->nodes[n].msg[NMSG_TARGET] };
		for (size_t i = 0; i < k; i++) {
			any = true;
			counted |= c[i].target != 0;
			open_ended |= c[i].target == UINT64_MAX;
			items += c[i].items;
			target = add_sat(target, c[i].target);
			amount += pfs_unit_amount(v->unit, c[i].items, c[i].bytes);
			v->node_items[n] += c[i].items;
			v->node_target[n] = add_sat(v->node_target[n], c[i].target);
		}
	}
	if (!any || !counted)
		return;
	for (unsigned n = 0; n < e->topo.nnodes && !open_ended; n++) {
		double f;

		if (!v->node_target[n])
			continue;
		f = (double)v->node_items[n] / (double)v->node_target[n];
		if (f < slowest_frac) {
			slowest_frac = f;
			slowest = n;
		}
	}
	rate = pfs_rate_per_s(amount, elapsed);
	if (items && target > items && !open_ended)
		snprintf(togo, sizeof(togo), ", about %.0f s to go",
			 (double)(target - items) * (double)elapsed / (double)items / 1e6);
	if (!open_ended) {
		char name[PFS_PRINTABLE_SIZE(PFS_NODE_NAME_MAX)];

		/* The name comes from PFSBENCH_NODENAME: printable, on one line. */
		snprintf(slow, sizeof(slow), ", slowest %s (%.0f%%)",
			 pfs_printable(name, sizeof(name), e->topo.nodes[slowest].name),
			 slowest_frac * 100);
	}
	snprintf(line, sizeof(line), "pfsbench: %s %u/%llu %s: %.0f %s, %.1f s%s%s",
		 e->test, e->iteration, (unsigned long long)e->common->iterations,
		 op, pfs_rate_display(v->unit, rate),
		 pfs_unit_rate_label(v->unit), (double)elapsed / 1e6, togo, slow);
	if (e->prog_tty)
		fprintf(e->err, "\r%s\033[K", line);
	else
		fprintf(e->err, "%s\n", line);
	fflush(e->err);
	e->prog_drawn = e->prog_tty;
}

/* Rank 0: the workers whose op of the step in progress has not ended, as
 * rank 0 last heard of them, into out (up to cap): rank 0 itself, and per
 * node the one its aggregator heard from longest ago, with how many more
 * of the node are not done. Returns how many entries there are (at most
 * nodes + 1). */
size_t pfs_progress_laggards(struct pfs_engine *e, struct pfs_laggard *out, size_t cap)
{
	struct pfs_progress_view *v = e->view;
	size_t n = 0;

	if (!v || !v->nodes || !e->cur_step)
		return 0;
	for (unsigned node = 0; node < e->topo.nnodes; node++) {
		int op = pfs_step_op_of_node(e->cur_step, node);
		const uint64_t *m = v->nodes[node].msg;
		unsigned covered = e->topo.nodes[node].nworkers - (node == 0 ? 1 : 0);
		struct pfs_laggard l = { .op = op, .unit = v->unit, .node = node };

		if (op < 0)
			continue;
		if (node == 0 && !(v->self.seq == e->step_seq && v->self.state == OP_DONE)) {
			if (n < cap)
				out[n] = (struct pfs_laggard){ .rank = 0,
							       .node = 0,
							       .worker = 1,
							       .op = op,
							       .begun = v->self.seq == e->step_seq,
							       .items = v->self.items,
							       .target = v->self.target,
							       .heard_us = v->self.heard_us,
							       .unit = v->unit };
			n++;
		}
		if (!covered)
			continue;
		if (!node_in_step(e, node)) {
			/* Nothing of this step yet: none of its ranks has begun,
			 * as rank 0 knows. */
			l.rank = node == 0 ? v->agg0 : e->topo.nodes[node].leader_rank;
			l.worker = node == 0 ? 2 : 1;
			l.more = covered - 1;
		} else if (m[NMSG_DONE] < m[NMSG_RANKS] && m[NMSG_LAG_RANK] < (uint64_t)e->nranks) {
			l.rank = (int)m[NMSG_LAG_RANK];
			l.worker = m[NMSG_LAG_WORKER] <= e->topo.nodes[node].nworkers
					   ? (unsigned)m[NMSG_LAG_WORKER]
					   : 0;
			l.begun = m[NMSG_LAG_BEGUN] != 0;
			l.items = m[NMSG_LAG_ITEMS];
			l.target = m[NMSG_LAG_TARGET];
			l.heard_us = v->nodes[node].lag_heard_us;
			l.more = (unsigned)(m[NMSG_RANKS] - m[NMSG_DONE] - 1);
		} else {
			continue;
		}
		if (n < cap)
			out[n] = l;
		n++;
	}
	return n;
}

void pfs_progress_service(struct pfs_engine *e, uint64_t now_us)
{
	struct pfs_progress_view *v = e->view;

	take_messages(e);
	if (!drawing(e) || now_us < v->next_draw_us)
		return;
	v->next_draw_us = now_us + (e->prog_tty ? DRAW_EVERY_TTY_US : DRAW_EVERY_LOG_US);
	draw(e, now_us);
}

/* PFSBENCH_DEBUG_PROGRESS set: what rank 0 heard over the run, for tests
 * and docs/scale.md. A tick here is PFS_TICK_US of rank 0's time from the
 * roles' setting to the last message: each sender sends at most one
 * message a tick, and one DONE_SEQ at the end. */
static void say_heard(const struct pfs_engine *e)
{
	const struct pfs_progress_view *v = e->view;
	const char *env = getenv("PFSBENCH_DEBUG_PROGRESS");

	if (!env || !*env)
		return;
	fprintf(e->err,
		"pfsbench: progress: rank 0 received %llu messages from %u senders of %u nodes "
		"(%d ranks) over %llu ticks; %llu ticks stored\n",
		(unsigned long long)v->msgs, v->senders, e->topo.nnodes, e->nranks,
		(unsigned long long)((pfs_now_us() - v->since_us) / PFS_TICK_US),
		(unsigned long long)e->gathered.ticks);
	fflush(e->err);
}

/* At the run's end: every message sent reaches its receiver before the
 * communicator goes. A rank's messages arrive in the order sent, so its
 * DONE_SEQ comes last: each rank but rank 0 and the aggregators sends
 * its aggregator one; an aggregator waits for its node's, then sends rank
 * 0 its own, and rank 0 waits for every aggregator's. No message flowed
 * when the roles were never set (a run that ended before its start). */
void pfs_progress_finish(struct pfs_engine *e)
{
	if (!e->prog_roles)
		return;
	if (e->rank == 0) {
		while (e->prog_done < e->prog_expect) {
			take_messages(e);
			if (e->prog_done < e->prog_expect)
				usleep(200);
		}
		say_heard(e);
		pfs_progress_end_step(e);
		return;
	}
	if (e->prog_agg) {
		uint64_t done_msg[NMSG_LEN] = { DONE_SEQ };

		/* Nothing more after DONE_SEQ: no summary from a wait below. */
		e->while_waiting = NULL;
		while (e->prog_done < e->prog_expect) {
			agg_take(e);
			if (is_relay(e))
				relay_take(e);
			if (e->prog_done < e->prog_expect)
				usleep(200);
		}
		if (e->agg && e->agg->req != MPI_REQUEST_NULL)
			pfs_engine_wait(e, &e->agg->req);
		if (is_relay(e)) {
			/* After the group's last message, on its tag: in order. */
			if (e->relay && e->relay->req != MPI_REQUEST_NULL)
				pfs_engine_wait(e, &e->relay->req);
			PFS_MPI(e, MPI_Isend, (done_msg, 1, MPI_UINT64_T, 0, TAG_PROGRESS_GROUP,
					       e->comm, &e->prog_req));
		} else {
			PFS_MPI(e, MPI_Isend, (done_msg, NMSG_LEN, MPI_UINT64_T,
					       e->agg ? e->agg->to : upward_of(e, e->w.node),
					       TAG_PROGRESS_NODE, e->comm, &e->prog_req));
		}
		pfs_engine_wait(e, &e->prog_req);
		return;
	}
	if (e->prog_req != MPI_REQUEST_NULL)
		pfs_engine_wait(e, &e->prog_req);
	e->prog_msg[MSG_SEQ] = DONE_SEQ;
	PFS_MPI(e, MPI_Isend, (e->prog_msg, MSG_LEN, MPI_UINT64_T, e->prog_to, TAG_PROGRESS,
			       e->comm, &e->prog_req));
	pfs_engine_wait(e, &e->prog_req);
}
