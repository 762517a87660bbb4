/* peer.c: workers whose ops work on another worker's items, as
 * create-unlink's --shift reads and removes the files of the same worker
 * on node (k + N) mod nodes. The workload names the peer node of every
 * node (pfs_workload.peers); here each rank finds its peer's rank and its
 * reader's (the rank whose peer it is), opens the peer's directory once
 * every directory exists, and before every step and before cleanup sends
 * its ledger to both and receives theirs. A workload thus learns, without
 * MPI, which of its peer's items exist and which of its own the reader
 * removed, so that cleanup removes every item exactly once. */
#include "internal.h"

#include "pfsbench/core/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The rank of a node's worker (1-based), or -1. */
static int rank_of(const struct pfs_engine *e, unsigned node, unsigned worker)
{
	for (int r = 0; r < e->nranks; r++)
		if (e->topo.node_of_rank[r] == node && e->topo.worker_of_rank[r] == worker)
			return r;
	return -1;
}

/* Every rank, after the nodes are known; the workload's answer is the same
 * on every rank. Returns 0, -EINVAL with a message in err, or -ENOMEM on
 * every rank when one had no memory (after its message). */
int pfs_peer_plan(struct pfs_engine *e, char *err, size_t errlen)
{
	unsigned nn = e->topo.nnodes, me = e->w.node;
	int *peer, rc = 0;
	unsigned *readers;

	e->peer_rank = e->reader_rank = -1;
	e->w.has_peer = e->w.has_reader = false;
	if (!e->wl->peers)
		return 0;
	peer = malloc(nn * sizeof(*peer));
	readers = calloc(nn, sizeof(*readers));
	if (pfs_all_allocated(e, peer && readers, "pairing the nodes")) {
		free(peer);
		free(readers);
		return -ENOMEM;
	}
	rc = e->wl->peers(e->opts, &e->topo, peer, err, errlen);
	for (unsigned k = 0; !rc && k < nn; k++) {
		if (peer[k] < 0)
			continue;
		/* Checked here too: a workload's mistake must not pair ranks wrongly. */
		if ((unsigned)peer[k] >= nn || readers[peer[k]]++ ||
		    e->topo.nodes[peer[k]].nworkers != e->topo.nodes[k].nworkers) {
			pfs_format(err, errlen, "the workload pairs node %u with node %d, which it "
				   "cannot: no such node, a node paired twice, or other worker counts",
				   k, peer[k]);
			rc = -EINVAL;
		}
	}
	for (unsigned k = 0; !rc && k < nn; k++) {
		if (k == me && peer[k] >= 0)
			e->peer_rank = rank_of(e, (unsigned)peer[k], e->w.worker);
		if (peer[k] >= 0 && (unsigned)peer[k] == me)
			e->reader_rank = rank_of(e, k, e->w.worker);
	}
	e->w.has_peer = e->peer_rank >= 0;
	e->w.has_reader = e->reader_rank >= 0;
	free(peer);
	free(readers);
	return rc;
}

/* Once every worker's directory exists. Returns 0 or a negative errno
 * after pfs_fail. */
int pfs_peer_open(struct pfs_engine *e)
{
	struct pfs_worker *w = &e->w;
	int r = e->peer_rank;

	if (r < 0)
		return 0;
	if (pfs_rundir_worker_path(e, e->topo.nodes[e->topo.node_of_rank[r]].name,
				   e->topo.worker_of_rank[r], w->peer_dir, sizeof(w->peer_dir)))
		return pfs_fail(w, "name", "the peer's directory", ENAMETOOLONG);
	/* Relative to the run directory this rank opened and checked (rundir.c),
	 * never through a link. */
	w->peer_dirfd = openat(e->run_dirfd, w->peer_dir + strlen(e->run_dir) + 1,
			       O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (w->peer_dirfd < 0)
		return pfs_fail_in(w, "open", w->peer_dir, NULL, errno);
	return 0;
}

/* Every rank calls this at the same points; ranks without a peer or a
 * reader pass at once. */
void pfs_peer_exchange(struct pfs_engine *e)
{
	struct pfs_worker *w = &e->w;
	MPI_Request req[4] = { MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL,
			       MPI_REQUEST_NULL };

	if (e->peer_rank >= 0) {
		PFS_MPI(e, MPI_Irecv, (w->peer_ledger, PFS_LEDGER_MAX, MPI_UINT64_T, e->peer_rank,
				       TAG_TO_READER, e->comm, &req[0]));
		PFS_MPI(e, MPI_Isend, (w->ledger, PFS_LEDGER_MAX, MPI_UINT64_T, e->peer_rank,
				       TAG_TO_PEER, e->comm, &req[1]));
	}
	if (e->reader_rank >= 0) {
		PFS_MPI(e, MPI_Irecv, (w->reader_ledger, PFS_LEDGER_MAX, MPI_UINT64_T,
				       e->reader_rank, TAG_TO_PEER, e->comm, &req[2]));
		PFS_MPI(e, MPI_Isend, (w->ledger, PFS_LEDGER_MAX, MPI_UINT64_T, e->reader_rank,
				       TAG_TO_READER, e->comm, &req[3]));
	}
	for (int i = 0; i < 4; i++)
		if (req[i] != MPI_REQUEST_NULL)
			pfs_engine_wait(e, &req[i]);
}
