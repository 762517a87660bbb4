/* watchdog.c: --phase-timeout. A step that runs longer than the user
 * allows (a rank stopped, or stuck in a call to a dead NFS or GFS2 mount)
 * ends the job rather than hang it: rank 0 names every worker not done and
 * what it was doing, marks the results file aborted with that, and aborts.
 * Rank 0 may be the stuck one, so every other rank gives it WATCHDOG_GRACE_US
 * more and then ends the job itself. The check runs where ranks wait
 * (agree.c) and at the working ranks' ticks: it costs a clock reading. */
#include "internal.h"

#include "pfsbench/util.h"

#include <stdio.h>
#include <stdlib.h>

#define WATCHDOG_GRACE_US 2000000u
#define LAGGARDS_MAX 4096 /* bytes of the list in the results file */

/* "pa 1/2 step 3": the step in progress, for both messages. */
static void step_name(const struct pfs_engine *e, char *buf, size_t len)
{
	snprintf(buf, len, "%s %u/%llu step %u", e->test ? e->test : "?", e->iteration,
		 (unsigned long long)e->common->iterations, e->step + 1);
}

static void fire(struct pfs_engine *e, uint64_t now_us)
{
	char step[96], *list = malloc(LAGGARDS_MAX), *reason = malloc(LAGGARDS_MAX + 256);
	size_t n;

	if (!list || !reason) {
		pfs_error("phase timeout, and out of memory to say more; ending the job");
		MPI_Abort(e->comm, PFS_EXIT_FAILED);
	}
	step_name(e, step, sizeof(step));
	n = pfs_progress_laggards(e, now_us, list, LAGGARDS_MAX);
	snprintf(reason, LAGGARDS_MAX + 256,
		 "phase timeout: %s ran %.1f s, past --phase-timeout %llu; %zu worker%s not done:\n%s",
		 step, (double)(now_us - e->phase_begin_us) / 1e6,
		 (unsigned long long)e->common->phase_timeout_s, n, n == 1 ? "" : "s", list);
	pfs_run_abort(e, reason);
}

/* Another rank: rank 0 should have ended the job WATCHDOG_GRACE_US ago. */
static void orphan(struct pfs_engine *e, uint64_t now_us)
{
	char step[96];

	step_name(e, step, sizeof(step));
	pfs_error("node %s worker %u: phase timeout: %s ran %.1f s, past --phase-timeout %llu, "
		  "and rank 0 has not ended the job (it may be stopped or stuck itself); ending it",
		  e->w.node_name, e->w.worker, step, (double)(now_us - e->phase_begin_us) / 1e6,
		  (unsigned long long)e->common->phase_timeout_s);
	MPI_Abort(e->comm, PFS_EXIT_FAILED);
}

void pfs_watchdog_check(struct pfs_engine *e, uint64_t now_us)
{
	uint64_t limit_us = e->common->phase_timeout_s * 1000000u;

	if (!limit_us || !e->phase_begin_us || now_us - e->phase_begin_us < limit_us)
		return;
	if (e->rank == 0)
		fire(e, now_us);
	else if (now_us - e->phase_begin_us >= limit_us + WATCHDOG_GRACE_US)
		orphan(e, now_us);
}
