/* progress.c: what a rank makes of its progress. At each tick (about every
 * 100 ms of an op, worker.c) a working rank's counts go to its timeline
 * (the results file's /progress) and, without waiting, to rank 0, which
 * draws one updating line on stderr for steps longer than
 * PROGRESS_AFTER_US: the rate, the time so far, the expected end and the
 * slowest node. */
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

/* DONE_SEQ ends a rank's progress messages (internal.h: MSG_*). */
#define DONE_SEQ UINT64_MAX
enum { OP_WORKING, OP_DONE };

struct rank_view {
	uint64_t seq, time_us, items, bytes, target, state;
	uint64_t heard_us; /* rank 0's clock when the message came */
};

struct pfs_progress_view {
	struct rank_view *ranks;
	uint64_t *node_items, *node_target; /* scratch, per node */
	unsigned done;                      /* ranks that sent DONE_SEQ */
	uint64_t next_draw_us;
	enum pfs_unit unit;
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

/* What rank 0 does while it waits (agree.c): take messages, draw. */
static void while_waiting(struct pfs_engine *e)
{
	pfs_progress_service(e, pfs_now_us());
}

int pfs_progress_init(struct pfs_engine *e)
{
	e->prog_req = MPI_REQUEST_NULL;
	if (e->rank != 0)
		return 0;
	e->while_waiting = while_waiting;
	/* Rank 0 takes every rank's messages, also when it draws nothing. */
	e->view = calloc(1, sizeof(*e->view));
	if (!e->view)
		return -ENOMEM;
	e->view->ranks = calloc((size_t)e->nranks, sizeof(*e->view->ranks));
	return e->view->ranks ? 0 : -ENOMEM;
}

int pfs_progress_configure(struct pfs_engine *e)
{
	struct pfs_progress_view *v = e->view;

	if (e->rank != 0)
		return 0;
	e->prog_tty = stderr_is_terminal(e->err);
	if (e->common->progress == PFS_PROGRESS_NEVER ||
	    (e->common->progress == PFS_PROGRESS_AUTO && !e->prog_tty))
		return 0;
	v->node_items = calloc(e->topo.nnodes, sizeof(uint64_t));
	v->node_target = calloc(e->topo.nnodes, sizeof(uint64_t));
	return v->node_items && v->node_target ? 0 : -ENOMEM;
}

void pfs_progress_free(struct pfs_engine *e)
{
	if (e->view) {
		free(e->view->ranks);
		free(e->view->node_items);
		free(e->view->node_target);
		free(e->view);
		e->view = NULL;
	}
	free(e->ticks);
	e->ticks = NULL;
}

static bool drawing(const struct pfs_engine *e)
{
	return e->view && e->view->node_items;
}

void pfs_progress_begin_step(struct pfs_engine *e)
{
	e->step_seq++;
	e->next_tick_us = e->step_start_us + PFS_TICK_US;
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

static void record_tick(struct pfs_engine *e, uint64_t now_us)
{
	struct pfs_tick *t;

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
	t->time_us = pfs_run_time(e, now_us);
	t->items = e->w.items;
	t->bytes = e->w.bytes;
}

/* To rank 0, without waiting: the last message is skipped while one is
 * still in flight, since only the newest matters. */
static void send_progress(struct pfs_engine *e, uint64_t now_us, uint64_t state, bool must)
{
	int done = 1;

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
	PFS_MPI(e, MPI_Isend,
		(e->prog_msg, MSG_LEN, MPI_UINT64_T, 0, TAG_PROGRESS, e->comm, &e->prog_req));
}

/* Rank 0's own entry in its view, as another rank's message would make it. */
static void note_self(struct pfs_engine *e, uint64_t now_us, uint64_t state)
{
	e->view->ranks[0] = (struct rank_view){ e->step_seq,  now_us - e->step_start_us,
						e->w.items,   e->w.bytes,
						e->w.target,  state,
						now_us };
}

/* Around a rank's op of a step: rank 0 learns who works and who is done,
 * for the watchdog's list of the workers not done. Outside the op's time. */
void pfs_progress_op_begin(struct pfs_engine *e)
{
	uint64_t now = pfs_now_us();

	e->w.items = e->w.bytes = e->w.target = 0;
	if (e->rank != 0)
		send_progress(e, now, OP_WORKING, false);
	else
		note_self(e, now, OP_WORKING);
}

void pfs_progress_op_end(struct pfs_engine *e)
{
	uint64_t now = pfs_now_us();

	if (e->rank != 0)
		send_progress(e, now, OP_DONE, true);
	else
		note_self(e, now, OP_DONE);
}

/* A tick, from the op's look at the clock (worker.c): the timeline, and
 * the counts to rank 0 (or, on rank 0, the messages in and the line). */
void pfs_progress_tick(struct pfs_engine *e, uint64_t now_us)
{
	record_tick(e, now_us);
	if (e->rank != 0) {
		send_progress(e, now_us, OP_WORKING, false);
	} else {
		note_self(e, now_us, OP_WORKING);
		pfs_progress_service(e, now_us);
	}
	if (e->watch)
		e->watch(e, now_us);
}

/* ---- rank 0's line ------------------------------------------------------- */

static void take_messages(struct pfs_engine *e)
{
	struct pfs_progress_view *v = e->view;
	uint64_t msg[MSG_LEN];
	MPI_Status st;
	int flag = 1;

	while (flag) {
		PFS_MPI(e, MPI_Iprobe, (MPI_ANY_SOURCE, TAG_PROGRESS, e->comm, &flag, &st));
		if (!flag)
			break;
		PFS_MPI(e, MPI_Recv, (msg, MSG_LEN, MPI_UINT64_T, st.MPI_SOURCE, TAG_PROGRESS,
				      e->comm, MPI_STATUS_IGNORE));
		if (msg[MSG_SEQ] == DONE_SEQ) {
			v->done++;
			continue;
		}
		v->ranks[st.MPI_SOURCE] = (struct rank_view){
			msg[MSG_SEQ],	 msg[MSG_TIME],	 msg[MSG_ITEMS], msg[MSG_BYTES],
			msg[MSG_TARGET], msg[MSG_STATE], pfs_now_us()
		};
		if (msg[MSG_UNIT] < PFS_UNIT_COUNT)
			v->unit = (enum pfs_unit)msg[MSG_UNIT];
	}
}

/* The name of the op the step in progress runs: rank 0's own, or, when
 * rank 0 is idle in this step, that of the first working rank heard of.
 * NULL outside a step or before any working rank has said it began. */
static const char *step_op_name(const struct pfs_engine *e)
{
	const struct pfs_progress_view *v = e->view;

	if (!e->cur_step || !e->test)
		return NULL;
	if (e->op_name)
		return e->op_name;
	for (int r = 0; e->wl->op_names && r < e->nranks; r++) {
		int op = pfs_step_op_of_node(e->cur_step, e->topo.node_of_rank[r]);

		if (op >= 0 && v->ranks[r].seq == e->step_seq)
			return e->wl->op_names[op];
	}
	return NULL;
}

/* "pfsbench: pa 1/2 Create: 48210 files/s, 12.4 s, about 6 s to go,
 * slowest node2 (61%)": the step's ranks' counts as rank 0 last heard
 * them; rate = all items (bytes) / the time since the step began. An op
 * with no count to reach (target UINT64_MAX: a stream to the end of its
 * file or space) has neither a time to go nor a fraction done. Nothing is
 * drawn outside a step (in the setup's agreements, say, where the clock
 * the time counts from has not started) nor before the step's op has a
 * name and a count to reach: a line of placeholders tells nothing. */
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
		note_self(e, now_us, v->ranks[0].state);
		v->unit = e->op_unit;
	}
	for (int r = 0; r < e->nranks; r++) {
		const struct rank_view *rv = &v->ranks[r];
		unsigned n = e->topo.node_of_rank[r];

		if (rv->seq != e->step_seq)
			continue;
		any = true;
		counted |= rv->target != 0;
		open_ended |= rv->target == UINT64_MAX;
		items += rv->items;
		target += rv->target;
		amount += pfs_unit_amount(v->unit, rv->items, rv->bytes);
		v->node_items[n] += rv->items;
		v->node_target[n] += rv->target;
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
 * rank 0 last heard of them, into out (up to cap). Returns how many. */
size_t pfs_progress_laggards(struct pfs_engine *e, struct pfs_laggard *out, size_t cap)
{
	struct pfs_progress_view *v = e->view;
	size_t n = 0;

	for (int r = 0; v && e->cur_step && r < e->nranks; r++) {
		const struct rank_view *rv = &v->ranks[r];
		int op = pfs_step_op_of_node(e->cur_step, e->topo.node_of_rank[r]);

		if (op < 0 || (rv->seq == e->step_seq && rv->state == OP_DONE))
			continue;
		if (n < cap)
			out[n] = (struct pfs_laggard){ .rank = r,
						       .op = op,
						       .begun = rv->seq == e->step_seq,
						       .items = rv->items,
						       .target = rv->target,
						       .heard_us = rv->heard_us,
						       .unit = v->unit };
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

/* At the run's end: every rank's last message reaches rank 0 before the
 * communicator goes. A rank's messages arrive in the order sent, so its
 * DONE_SEQ comes last. */
void pfs_progress_finish(struct pfs_engine *e)
{
	if (e->rank != 0) {
		if (e->prog_req != MPI_REQUEST_NULL)
			pfs_engine_wait(e, &e->prog_req);
		e->prog_msg[MSG_SEQ] = DONE_SEQ;
		PFS_MPI(e, MPI_Isend,
			(e->prog_msg, MSG_LEN, MPI_UINT64_T, 0, TAG_PROGRESS, e->comm, &e->prog_req));
		pfs_engine_wait(e, &e->prog_req);
		return;
	}
	while (e->view->done < (unsigned)e->nranks - 1) {
		take_messages(e);
		if (e->view->done < (unsigned)e->nranks - 1)
			usleep(200);
	}
	pfs_progress_end_step(e);
}
