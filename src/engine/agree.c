/* agree.c: the engine's MPI discipline. Every call's result is checked
 * (PFS_MPI): a failed call names itself and the rank, and ends the job,
 * since ranks that disagree about a collective cannot go on. Waits sleep
 * instead of spinning, so that a rank with nothing to do leaves the cores
 * to the ones that work (and to a FUSE daemon or a simulated node on the
 * same host). A failing rank tells every other rank at once (a stop
 * notice); at each step's end all ranks agree on whether anyone failed. */
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
		now_us = pfs_now_us();
		if (e->watch)
			e->watch(e, now_us);
		if ((now_us - since_us) * 1000u > WAIT_LONG_NS)
			max_ns = WAIT_LONG_MAX_NS;
		nanosleep(&ts, NULL);
		if (ts.tv_nsec < max_ns)
			ts.tv_nsec = ts.tv_nsec * 2 > max_ns ? max_ns : ts.tv_nsec * 2;
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

void pfs_stop_recv_post(struct pfs_engine *e)
{
	e->stop_recv_done = false;
	PFS_MPI(e, MPI_Irecv,
		(&e->stop_buf, 1, MPI_INT, MPI_ANY_SOURCE, TAG_STOP, e->comm, &e->stop_recv));
}

void pfs_stop_send(struct pfs_engine *e)
{
	if (e->sent_stop || e->nranks == 1)
		return;
	e->stop_sends = calloc((size_t)e->nranks, sizeof(MPI_Request));
	if (!e->stop_sends)
		return; /* the others still learn of it at the step's end */
	e->sent_stop = true;
	for (int r = 0; r < e->nranks; r++) {
		e->stop_sends[r] = MPI_REQUEST_NULL;
		if (r != e->rank)
			PFS_MPI(e, MPI_Isend,
				(&e->rank, 1, MPI_INT, r, TAG_STOP, e->comm, &e->stop_sends[r]));
	}
}

/* True when another rank has failed or a signal came: the op must stop. */
bool pfs_engine_poll(struct pfs_engine *e)
{
	int done = 0;

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
	if (!e->stop_recv_done) {
		PFS_MPI(e, MPI_Test, (&e->stop_recv, &done, MPI_STATUS_IGNORE));
		e->stop_recv_done = done != 0;
	}
	e->w.stopped = e->stop_recv_done;
	return e->w.stopped;
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
 * notice in flight: each rank receives exactly as many notices as were sent
 * to it. */
int pfs_agree(struct pfs_engine *e, bool failed)
{
	int in[3] = { failed ? 1 : 0, e->sent_stop ? 1 : 0, pfs_interrupted() ? 1 : 0 };
	int out[3] = { 0, 0, 0 };
	MPI_Request req;
	int expect;

	PFS_MPI(e, MPI_Iallreduce, (in, out, 3, MPI_INT, MPI_SUM, e->comm, &req));
	pfs_engine_wait(e, &req);
	expect = out[1] - (e->sent_stop ? 1 : 0);
	for (int i = 0; i < expect; i++) {
		if (!e->stop_recv_done)
			pfs_engine_wait(e, &e->stop_recv);
		pfs_stop_recv_post(e);
	}
	if (e->sent_stop) {
		PFS_MPI(e, MPI_Waitall, (e->nranks, e->stop_sends, MPI_STATUSES_IGNORE));
		free(e->stop_sends);
		e->stop_sends = NULL;
		e->sent_stop = false;
	}
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
