/* step.c: one iteration of one test, a plan of steps. Each step: unless the
 * plan says to keep the cache, the node leaders sync and drop it; every
 * rank meets at a barrier; the assigned ranks run their op, timed and
 * ticking; all ranks agree on whether anyone failed. Then the iteration's
 * rows go to rank 0 and its outputs. */
#include "internal.h"

#include "pfsbench/core/interrupt.h"
#include "pfsbench/core/util.h"
#include "pfsbench/target/fsinfo.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The node leaders sync and drop the page cache, so every phase starts cold
 * on every node, as create_unlink_perf does. A failure is reported once and
 * recorded; later phases then run without dropping. */
static void drop_caches(struct pfs_engine *e)
{
	int rc = 0, worst = 0;
	MPI_Request req;

	if (!e->common->drop_caches || e->drop_failed)
		return;
	if (e->topo.nodes[e->w.node].leader_rank == e->rank)
		rc = pfs_drop_caches();
	/* A signal during the drop is no failure of it: the step ends. */
	if (rc == -ECANCELED && pfs_interrupted())
		rc = 0;
	PFS_MPI(e, MPI_Iallreduce, (&rc, &worst, 1, MPI_INT, MPI_MIN, e->comm, &req));
	pfs_engine_wait(e, &req);
	if (worst) {
		e->drop_failed = true;
		if (e->rank == 0) {
			pfs_warn("cannot drop the page cache (%s); results may include cached data",
				 strerror(-worst));
			e->ri.caches_dropped = false;
			snprintf(e->ri.caches_note, sizeof(e->ri.caches_note),
				 "caches were not dropped: %s", strerror(-worst));
		}
	}
}

/* The filesystem's own counters (include/pfsbench/target/fsprobe.h), on the
 * probing ranks: begun after the cache drop, so that they count the step,
 * not the drop's writeback, and ended after the step's agreement, when
 * every rank of the node is done. A probe that fails gives nothing for the
 * step, which the first time is said on stderr; the run goes on. */
static void probe_failed(struct pfs_engine *e)
{
	if (!e->probe_failed)
		pfs_warn("node %s: the filesystem's counters of a step could not be read (%s); "
			 "steps without them have none in the results file",
			 e->w.node_name, e->probe.desc);
	e->probe_failed = true;
}

static void probe_begin(struct pfs_engine *e)
{
	e->probe_begun = e->probing && !pfs_fsprobe_begin(&e->probe);
	if (e->probing && !e->probe_begun)
		probe_failed(e);
}

static void probe_end(struct pfs_engine *e)
{
	struct pfs_fscounter c[PFS_FSPROBE_MAX];
	size_t n = 0;

	if (!e->probe_begun)
		return;
	e->probe_begun = false;
	if (pfs_fsprobe_end(&e->probe, c, PFS_FSPROBE_MAX, &n))
		probe_failed(e);
	else if (pfs_engine_add_fsstats(e, c, n))
		pfs_warn("node %s: out of memory for the filesystem's counters", e->w.node_name);
}

/* A step that keeps the cache (bonnie's tests: bonnie++ drops none) makes
 * "every phase began with dropped caches" untrue: the results file says so. */
static void note_cache_kept(struct pfs_engine *e)
{
	if (e->rank != 0 || !e->ri.caches_dropped)
		return;
	e->ri.caches_dropped = false;
	snprintf(e->ri.caches_note, sizeof(e->ri.caches_note),
		 "caches were not dropped: test %s keeps the page cache between its steps", e->test);
}

/* One step. Returns whether any rank failed or was interrupted. */
static int run_step(struct pfs_engine *e, const struct pfs_step *step)
{
	int op = pfs_step_op_of_node(step, e->w.node), rc = 0;

	e->cur_step = step;
	e->phase_begin_us = pfs_now_us();
	pfs_progress_enter_step(e);
	/* What the previous steps did to a peer's items, before this one. */
	pfs_peer_exchange(e);
	if (step->flags & PFS_STEP_KEEP_CACHE)
		note_cache_kept(e);
	else if (!(step->flags & PFS_STEP_UNTIMED))
		drop_caches(e);
	probe_begin(e);
	pfs_engine_barrier(e);
	e->step_start_us = pfs_now_us();
	pfs_progress_begin_step(e);
	pfs_worker_begin_step(e, step->flags & PFS_STEP_STONEWALL, op >= 0);
	if (op >= 0) {
		pfs_progress_op_begin(e);
		/* After a signal (in the cache drop, say) no op starts. A
		 * stop notice from another rank is left to the op's first
		 * tick, as before. */
		rc = pfs_interrupted() && pfs_engine_poll(e) ? -ECANCELED
							      : e->wl->run_op(&e->w, (unsigned)op);
		rc = pfs_worker_end_op(e, (unsigned)op, rc);
		pfs_progress_op_end(e);
	}
	pfs_worker_end_step(e);
	rc = pfs_agree(e, rc != 0);
	e->phase_begin_us = 0;
	e->cur_step = NULL;
	probe_end(e);
	pfs_progress_end_step(e);
	e->op_name = NULL;
	return rc;
}

/* On each node's lowest rank: the filesystem counters it can read, and
 * what they are (or why there are none) into desc, and the block device's
 * into blk, for the results file. A cluster-wide source is probed from
 * node 0 only; the block device under the target (a named file or
 * device's own, else the target directory's) on every node. */
void pfs_probe_open(struct pfs_engine *e, char desc[PFS_FSPROBE_DESC_MAX],
		    char blk[PFS_FSPROBE_DESC_MAX])
{
	struct pfs_fsinfo fs;
	bool leader = e->topo.nodes[e->w.node].leader_rank == e->rank;
	const char *target = e->persist == PFS_PERSIST_NAMED && e->wl->named_target
				     ? e->wl->named_target(e->opts)
				     : e->common->dir;

	desc[0] = blk[0] = 0;
	e->probing = false;
	if (!leader)
		return;
	if (pfs_fsinfo_get(e->common->dir, &fs)) {
		snprintf(desc, PFS_FSPROBE_DESC_MAX, "none: cannot statvfs the target");
		memset(&e->probe, 0, sizeof(e->probe));
	} else {
		pfs_fsprobe_open(&e->probe, &fs, e->w.node == 0);
		snprintf(desc, PFS_FSPROBE_DESC_MAX, "%s", e->probe.desc);
	}
	pfs_fsprobe_open_blk(&e->probe, target);
	snprintf(blk, PFS_FSPROBE_DESC_MAX, "%s", e->probe.blk_desc);
	e->probing = e->probe.kind != PFS_FSPROBE_NONE || e->probe.blk;
}

int pfs_run_test(struct pfs_engine *e, const struct pfs_test *t, unsigned it)
{
	unsigned nnodes = e->topo.nnodes;
	size_t nsteps = t->plan(e->opts, nnodes, NULL, 0);
	struct pfs_step *steps = calloc(nsteps ? nsteps : 1, sizeof(*steps));
	int failed = 0;

	if (pfs_agree(e, !steps && pfs_fail(&e->w, "allocate", "the test's steps", ENOMEM))) {
		free(steps);
		return -1;
	}
	t->plan(e->opts, nnodes, steps, nsteps);
	e->test = t->name;
	e->iteration = it;
	for (size_t s = 0; s < nsteps && !failed; s++) {
		e->step = e->w.step = (unsigned)s;
		failed = run_step(e, &steps[s]);
	}
	free(steps);
	/* Rows the results file could not take (its filesystem full, say)
	 * stop the run: measuring on would give numbers that go nowhere,
	 * and a file that said "complete" would lie. */
	if (pfs_agree(e, pfs_gather_block(e, t->order) != 0))
		failed = true;
	return failed ? -1 : 0;
}
