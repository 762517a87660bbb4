/* agree.c: the engine's MPI discipline. Every call's result is checked
 * (PFS_MPI): a failed call names itself and the rank, and ends the job,
 * since ranks that disagree about a collective cannot go on. Waits sleep
 * instead of spinning, so that a rank with nothing to do leaves the cores
 * to the ones that work (and to a FUSE daemon or a simulated node on the
 * same host). A failing rank tells the others at once (a stop notice,
 * by node: its own node's ranks and the other nodes' leaders, who pass it
 * on); at each step's end all ranks agree on whether anyone failed. */
#include "internal.h"

#include "pfsbench/core/interrupt.h"
#include "pfsbench/core/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* A waiting rank sleeps between looks, from WAIT_MIN_NS doubling up to
 * WAIT_MAX_NS: it leaves a barrier at most that late, and costs about a
 * seventh of a core instead of all of it. A wait past WAIT_LONG_NS (another
 * node's turn in se, a stopped or stuck rank) sleeps up to WAIT_LONG_MAX_NS
 * between looks: a few percent of a core, and at most that late. */
#define WAIT_MIN_NS 10000L
#define WAIT_MAX_NS 200000L
#define WAIT_LONG_NS 1000000000ull
#define WAIT_LONG_MAX_NS 2000000L

static bool stop_heard(struct pfs_engine *e);

/* Sleeps *ts, then doubles it up to max_ns: the next look comes later. */
static void sleep_longer(struct timespec *ts, long max_ns)
{
	nanosleep(ts, NULL);
	if (ts->tv_nsec < max_ns)
		ts->tv_nsec = ts->tv_nsec * 2 > max_ns ? max_ns : ts->tv_nsec * 2;
}

void pfs_mpi_check(struct pfs_engine *e, int rc, const char *call)
{
	char why[MPI_MAX_ERROR_STRING] = "";
	int len = 0;

	if (rc == MPI_SUCCESS)
		return;
	if (MPI_Error_string(rc, why, &len) != MPI_SUCCESS)
		snprintf(why, sizeof(why), "MPI error %d", rc);
	pfs_error("rank %d (node %s): %s failed: %s; stopping the job", e->rank, e->w.node_name,
		  call, why);
	MPI_Abort(e->comm, PFS_EXIT_FAILED);
}

void pfs_engine_wait(struct pfs_engine *e, MPI_Request *req)
{
	struct timespec ts = { 0, WAIT_MIN_NS };
	uint64_t since_us = pfs_now_us(), now_us;
	long max_ns = WAIT_MAX_NS;
	int done = 0;

	for (;;) {
		PFS_MPI(e, MPI_Test, (req, &done, MPI_STATUS_IGNORE));
		if (done)
			return;
		if (e->while_waiting)
			e->while_waiting(e);
		if (e->stop_relays)
			(void)stop_heard(e);
		now_us = pfs_now_us();
		if (e->watch)
			e->watch(e, now_us);
		if ((now_us - since_us) * 1000u > WAIT_LONG_NS)
			max_ns = WAIT_LONG_MAX_NS;
		sleep_longer(&ts, max_ns);
	}
}

void pfs_engine_barrier(struct pfs_engine *e)
{
	MPI_Request req;

	PFS_MPI(e, MPI_Ibarrier, (e->comm, &req));
	pfs_engine_wait(e, &req);
}

/* Rank 0's verdict on work only it does (the checks before a run, the run
 * directory, the end), to every rank: the others wait asleep, as at a
 * barrier, instead of spinning in MPI_Bcast for as long as rank 0 works
 * (on a busy machine, the CPU rank 0 itself needs). */
void pfs_engine_bcast_int(struct pfs_engine *e, int *value)
{
	PFS_MPI_ASLEEP(e, MPI_Ibcast, value, 1, MPI_INT, 0, e->comm);
}

/* ---- stop notices --------------------------------------------------------- */

/* A failing rank tells the other ranks of its own node and one rank of each
 * other node, its leader, which passes the notice on to its node's other
 * ranks when it first hears of it: each rank that fails sends k - 1 + M - 1
 * notices (k ranks a node, M nodes) instead of N - 1, and a leader at most
 * k - 1 more, once. A rank that has heard of a failure sends none of its
 * own. The notices are synchronous sends, so a rank knows when each has
 * been received; pfs_agree takes them all in before the next step. */

void pfs_stop_recv_post(struct pfs_engine *e)
{
	e->stop_recv_done = false;
	PFS_MPI(e, MPI_Irecv,
		(&e->stop_buf, 1, MPI_INT, MPI_ANY_SOURCE, TAG_STOP, e->comm, &e->stop_recv));
}

/* Notices to this node's other ranks and, with to_leaders, to every other
 * node's leader (before the nodes are known, to every rank). False when
 * there was no memory for them. */
static bool stop_isend(struct pfs_engine *e, bool to_leaders)
{
	bool known = e->topo.nodes != NULL;
	unsigned me = known ? e->topo.node : 0, here = known ? e->topo.nodes[me].nworkers : 0;
	size_t most = known ? here - 1 + (to_leaders ? e->topo.nnodes - 1 : 0)
			    : (size_t)e->nranks - 1;
	MPI_Request *req = calloc(most ? most : 1, sizeof(*req));
	int k = 0;

	if (!req)
		return false;
	for (unsigned i = 0; known && i < here; i++)
		if (e->topo.node_ranks[i] != e->rank)
			PFS_MPI(e, MPI_Issend, (&e->rank, 1, MPI_INT, e->topo.node_ranks[i], TAG_STOP,
						e->comm, &req[k++]));
	for (int r = 0; !known && r < e->nranks; r++)
		if (r != e->rank)
			PFS_MPI(e, MPI_Issend,
				(&e->rank, 1, MPI_INT, r, TAG_STOP, e->comm, &req[k++]));
	for (unsigned n = 0; known && to_leaders && n < e->topo.nnodes; n++)
		if (n != me)
			PFS_MPI(e, MPI_Issend, (&e->rank, 1, MPI_INT, e->topo.nodes[n].leader_rank,
						TAG_STOP, e->comm, &req[k++]));
	e->stop_sends = req;
	e->nstop_sends = k;
	return true;
}

void pfs_stop_send(struct pfs_engine *e)
{
	if (e->sent_stop || e->relayed_stop || e->nranks == 1)
		return;
	/* Without memory for them the others still learn of it at the
	 * step's end. */
	e->sent_stop = stop_isend(e, true);
}

/* Whether a stop notice has come. A node leader that hears first of another
 * node's failure passes it on to its node: while relays are armed, from the
 * run's start to the moment every rank has reached an agreement. */
static bool stop_heard(struct pfs_engine *e)
{
	int done = 0;

	if (e->stop_recv_done)
		return true;
	PFS_MPI(e, MPI_Test, (&e->stop_recv, &done, MPI_STATUS_IGNORE));
	if (!done)
		return false;
	e->stop_recv_done = true;
	if (e->stop_relays && e->topo.nodes && !e->sent_stop && !e->relayed_stop) {
		unsigned me = e->topo.node;
		bool leader = e->topo.nodes[me].leader_rank == e->rank;

		if (leader && e->topo.nodes[me].nworkers > 1 && e->stop_buf >= 0 &&
		    e->stop_buf < e->nranks && !pfs_topology_worker_here(&e->topo, e->stop_buf))
			e->relayed_stop = stop_isend(e, false);
	}
	return true;
}

/* True when another rank has failed or a signal came: the op must stop. */
bool pfs_engine_poll(struct pfs_engine *e)
{
	if (e->w.stopped)
		return true;
	if (pfs_interrupted()) {
		/* The others hear of it at once (a rank given the signal
		 * alone, as kill(1) or a batch system may do), not at the
		 * step's end. */
		e->w.stopped = true;
		pfs_stop_send(e);
		return true;
	}
	e->w.stopped = stop_heard(e);
	return e->w.stopped;
}

/* Every rank, once each knows that some rank sent notices: take in every
 * notice sent to this rank. Each was a synchronous send, complete only once
 * received, so a rank whose own notices are all received enters a barrier,
 * and when the barrier ends every notice of every rank has been received
 * (the nonblocking consensus of Hoefler, Siebert and Lumsdaine, 2010). The
 * receive posted last may have taken the last notice: it is cancelled, and
 * one posted afresh for the next step. */
static void stop_drain(struct pfs_engine *e)
{
	struct timespec ts = { 0, WAIT_MIN_NS };
	MPI_Request barrier;
	MPI_Status st;
	bool entered = false;
	int done = 0, cancelled = 0, got = 0;

	for (;;) {
		if (stop_heard(e)) {
			got++;
			pfs_stop_recv_post(e);
			ts.tv_nsec = WAIT_MIN_NS;
			continue;
		}
		if (!entered) {
			PFS_MPI(e, MPI_Testall,
				(e->nstop_sends, e->stop_sends, &done, MPI_STATUSES_IGNORE));
			if (done) {
				PFS_MPI(e, MPI_Ibarrier, (e->comm, &barrier));
				entered = true;
			}
		} else {
			PFS_MPI(e, MPI_Test, (&barrier, &done, MPI_STATUS_IGNORE));
			if (done)
				break;
		}
		sleep_longer(&ts, WAIT_MAX_NS);
	}
	PFS_MPI(e, MPI_Cancel, (&e->stop_recv));
	PFS_MPI(e, MPI_Wait, (&e->stop_recv, &st));
	PFS_MPI(e, MPI_Test_cancelled, (&st, &cancelled));
	got += !cancelled;
	pfs_stop_recv_post(e);
	if (getenv("PFSBENCH_DEBUG_STOP"))
		fprintf(e->err, "pfsbench: debug: stop notices: rank %d sent %d, relayed %d, received %d\n",
			e->rank, e->sent_stop ? e->nstop_sends : 0,
			e->relayed_stop ? e->nstop_sends : 0, got);
	free(e->stop_sends);
	e->stop_sends = NULL;
	e->nstop_sends = 0;
}

/* Whether every rank got the memory it asked for (ok), at a point every
 * rank reaches; a rank that did not says so. Before the run's stop notices
 * are set up (pfs_agree needs them), so a plain reduction: 0, or -ENOMEM
 * on every rank, which the caller returns like any failure. */
int pfs_all_allocated(struct pfs_engine *e, bool ok, const char *what)
{
	int mine = ok ? 1 : 0, all = 0;

	if (!ok)
		pfs_error("rank %d: out of memory %s", e->rank, what);
	PFS_MPI(e, MPI_Allreduce, (&mine, &all, 1, MPI_INT, MPI_MIN, e->comm));
	return all ? 0 : -ENOMEM;
}

/* Every rank calls this at the same point. Returns how many ranks failed
 * or were interrupted by a signal (0 when all is well) and leaves no stop
 * notice in flight. */
int pfs_agree(struct pfs_engine *e, bool failed)
{
	int in[3] = { failed ? 1 : 0, e->sent_stop ? 1 : 0, pfs_interrupted() ? 1 : 0 };
	int out[3] = { 0, 0, 0 };
	MPI_Request req;

	/* While it waits, a leader still passes on a notice to its node's
	 * ranks that are still at work. */
	PFS_MPI(e, MPI_Iallreduce, (in, out, 3, MPI_INT, MPI_SUM, e->comm, &req));
	pfs_engine_wait(e, &req);
	e->stop_relays = false;
	if (out[1] > 0)
		stop_drain(e);
	e->stop_relays = true;
	e->sent_stop = false;
	e->relayed_stop = false;
	e->w.stopped = false;
	e->w.failed = false;
	e->interrupted_ranks = out[2];
	return out[0] + out[2];
}

/* After a failed run: rank 0 gets the message of the lowest rank that
 * failed, so the results file says what went wrong, not only that it did. */
void pfs_first_failure(struct pfs_engine *e)
{
	char *all = e->rank == 0 ? calloc((size_t)e->nranks, sizeof(e->failure)) : NULL;

	/* A signal is this rank's reason when nothing failed before it. */
	if (!e->failure[0] && pfs_interrupted()) {
		char sig[128];

		pfs_interrupt_describe(sig, sizeof(sig));
		(void)pfs_format(e->failure, sizeof(e->failure), "node %s worker %u: interrupted by %s",
				 e->w.node_name, e->w.worker, sig);
	}

	/* Without room for every rank's message rank 0 keeps its own (or
	 * none): the run has failed already and says so; every rank learns
	 * whether the gather happens. */
	int room = e->rank != 0 || all;

	PFS_MPI(e, MPI_Bcast, (&room, 1, MPI_INT, 0, e->comm));
	if (!room) {
		if (e->rank == 0)
			pfs_error("out of memory gathering the ranks' failures");
		return;
	}
	PFS_MPI(e, MPI_Gather, (e->failure, sizeof(e->failure), MPI_CHAR, all, sizeof(e->failure),
				MPI_CHAR, 0, e->comm));
	for (int r = 0; all && r < e->nranks; r++)
		if (all[(size_t)r * sizeof(e->failure)]) {
			memcpy(e->failure, all + (size_t)r * sizeof(e->failure), sizeof(e->failure));
			e->failure[sizeof(e->failure) - 1] = 0;
			break;
		}
	free(all);
}
