/* watchdog.c: --phase-timeout. A step that runs longer than the user
 * allows (a rank stopped, or stuck in a call to a dead NFS or GFS2 mount)
 * ends the job rather than hang it: rank 0 names every worker not done and
 * what it was doing, marks the results file aborted with that, and aborts.
 * Rank 0 may be the stuck one, so every other rank gives it WATCHDOG_GRACE_US
 * more and then ends the job itself. The check runs where ranks wait
 * (agree.c) and at the working ranks' ticks: it costs a clock reading. */
#include "internal.h"

#include "pfsbench/core/util.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WATCHDOG_GRACE_US 2000000u
#define LAGGARDS_MAX 4096 /* bytes of the list in the results file */

/* "pa 1/2 step 3": the step in progress, for both messages. */
static void step_name(const struct pfs_engine *e, char *buf, size_t len)
{
	snprintf(buf, len, "%s %u/%llu step %u", e->test ? e->test : "?", e->iteration,
		 (unsigned long long)e->common->iterations, e->step + 1);
}

/* One line per worker not done into buf ("node n2 worker 1 (rank 3):
 * Create in '/m/pfsbench.../n2.1', 1200 of 50000 files, last heard 4.8 s
 * ago"), as far as they fit: rank 0 and, of each node, the one heard from
 * longest ago, followed by how many more of its node are not done (rank 0
 * hears each node as one, progress.c). Returns how many workers are not
 * done. */
static size_t describe_laggards(struct pfs_engine *e, uint64_t now_us, char *buf, size_t len)
{
	size_t cap = (size_t)e->topo.nnodes + 1;
	struct pfs_laggard *lag = calloc(cap, sizeof(*lag));
	size_t n = lag ? pfs_progress_laggards(e, lag, cap) : 0, used = 0, workers = 0;

	buf[0] = 0;
	n = n < cap ? n : cap;
	for (size_t i = 0; i < n; i++) {
		const struct pfs_laggard *l = &lag[i];
		unsigned node = l->node, worker = l->worker;
		const char *name = e->wl->op_names ? e->wl->op_names[l->op] : NULL;
		char dir[PATH_MAX], what[PATH_MAX + 256], heard[64];

		if (!worker ||
		    pfs_rundir_worker_path(e, e->topo.nodes[node].name, worker, dir, sizeof(dir)))
			snprintf(dir, sizeof(dir), "?");
		/* 0: no message of it yet; now minus 0 would be the time since boot. */
		if (l->heard_us)
			snprintf(heard, sizeof(heard), "last heard %.1f s ago",
				 (double)(now_us - l->heard_us) / 1e6);
		else
			snprintf(heard, sizeof(heard), "not heard from yet");
		if (!l->begun)
			(void)pfs_format(what, sizeof(what),
					 "node %s worker %u (rank %d): has not begun %s (still in the "
					 "cache drop or the barrier before it)",
					 e->topo.nodes[node].name, worker, l->rank,
					 name ? name : "its op");
		else
			(void)pfs_format(what, sizeof(what),
					 "node %s worker %u (rank %d): %s in '%s', %" PRIu64 " of %" PRIu64
					 " %s, %s",
					 e->topo.nodes[node].name, worker, l->rank, name ? name : "its op",
					 dir, l->items, l->target,
					 pfs_unit_is_bytes(l->unit) ? "requests" : pfs_unit_name(l->unit),
					 heard);
		workers += 1 + l->more;
		if (l->more) {
			size_t w = strlen(what);

			(void)pfs_format(what + w, sizeof(what) - w, "; %u more of node %s not done",
					 l->more, e->topo.nodes[node].name);
		}
		if (used + strlen(what) + 2 < len)
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? "\n" : "", what);
	}
	free(lag);
	return workers;
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
	n = describe_laggards(e, now_us, list, LAGGARDS_MAX);
	snprintf(reason, LAGGARDS_MAX + 256,
		 "phase timeout: %s ran %.1f s, past --phase-timeout %llu; %zu worker%s not done:\n%s",
		 step, (double)(now_us - e->phase_begin_us) / 1e6,
		 (unsigned long long)e->common->phase_timeout_s, n, n == 1 ? "" : "s", list);
	e->abort_run(e, reason);
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
