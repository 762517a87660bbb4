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

/* A leader: the ranks of the node it reads from (from) into peers and of
 * the node that reads from it (by) into readers, each node's leader
 * sending its node's ranks once to each node paired with it. */
static void leaders_swap(struct pfs_engine *e, int from, int by, int *peers, int *readers)
{
	unsigned me = e->w.node, nw = e->topo.nodes[me].nworkers;
	int pair[2] = { from, by }, *into[2] = { peers, readers };
	MPI_Request req[4];
	int k = 0;

	for (int i = 0; i < 2; i++) {
		int leader;

		if (pair[i] < 0 || (i == 1 && pair[1] == pair[0]))
			continue;
		if ((unsigned)pair[i] == me) {
			memcpy(into[i], e->topo.node_ranks, nw * sizeof(*into[i]));
			continue;
		}
		leader = e->topo.nodes[pair[i]].leader_rank;
		PFS_MPI(e, MPI_Irecv, (into[i], (int)nw, MPI_INT, leader, TAG_PEER_RANKS, e->comm,
				       &req[k++]));
		PFS_MPI(e, MPI_Isend, (e->topo.node_ranks, (int)nw, MPI_INT, leader, TAG_PEER_RANKS,
				       e->comm, &req[k++]));
	}
	for (int i = 0; i < k; i++)
		pfs_engine_wait(e, &req[i]);
	if (by >= 0 && by == from)
		memcpy(readers, peers, nw * sizeof(*readers));
}

/* This rank's peer and reader (place[0], place[1], -1 for none) when its
 * node reads from node `from` or is read by node `by`. No rank holds every
 * rank's place (docs/scale.md): the nodes' leaders swap their nodes' ranks
 * and tell each of their ranks the two of its worker number. 0, or -ENOMEM
 * on every rank (after its message). */
static int find_ranks(struct pfs_engine *e, int from, int by, int place[2])
{
	unsigned nw = e->topo.nodes[e->w.node].nworkers;
	bool leader = e->topo.nodes[e->w.node].leader_rank == e->rank, paired = from >= 0 || by >= 0;
	int *buf = leader && paired ? malloc(4 * (size_t)nw * sizeof(*buf)) : NULL;
	int *peers = buf, *readers = buf ? buf + nw : NULL, *out = buf ? buf + 2 * nw : NULL;
	MPI_Request *req = leader && paired ? calloc(nw, sizeof(*req)) : NULL;

	place[0] = place[1] = -1;
	if (pfs_all_allocated(e, !(leader && paired) || (buf && req), "pairing the ranks")) {
		free(buf);
		free(req);
		return -ENOMEM;
	}
	if (!paired)
		return 0;
	if (!leader) {
		MPI_Request one;

		PFS_MPI(e, MPI_Irecv, (place, 2, MPI_INT, e->topo.node_ranks[0], TAG_PEER_PLACE,
				       e->comm, &one));
		pfs_engine_wait(e, &one);
		return 0;
	}
	leaders_swap(e, from, by, peers, readers);
	for (unsigned w = 0; w < nw; w++) {
		out[2 * w] = from >= 0 ? peers[w] : -1;
		out[2 * w + 1] = by >= 0 ? readers[w] : -1;
	}
	place[0] = out[0];
	place[1] = out[1];
	for (unsigned w = 1; w < nw; w++)
		PFS_MPI(e, MPI_Isend, (&out[2 * w], 2, MPI_INT, e->topo.node_ranks[w], TAG_PEER_PLACE,
				       e->comm, &req[w]));
	for (unsigned w = 1; w < nw; w++)
		pfs_engine_wait(e, &req[w]);
	free(buf);
	free(req);
	return 0;
}

/* Every rank, after the nodes are known; the workload's answer is the same
 * on every rank. Returns 0, -EINVAL with a message in err, or -ENOMEM on
 * every rank when one had no memory (after its message). */
int pfs_peer_plan(struct pfs_engine *e, char *err, size_t errlen)
{
	unsigned nn = e->topo.nnodes, me = e->w.node;
	int *peer, rc = 0, from = -1, by = -1, place[2];
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
		if (k == me)
			from = peer[k];
		if (peer[k] >= 0 && (unsigned)peer[k] == me)
			by = (int)k;
	}
	free(peer);
	free(readers);
	/* The same on every rank: all return here alike. */
	if (rc)
		return rc;
	rc = find_ranks(e, from, by, place);
	if (rc)
		return rc;
	e->peer_rank = place[0];
	e->reader_rank = place[1];
	if (from >= 0)
		e->w.peer_node = (unsigned)from;
	e->w.has_peer = e->peer_rank >= 0;
	e->w.has_reader = e->reader_rank >= 0;
	return 0;
}

/* Once every worker's directory exists. Returns 0 or a negative errno
 * after pfs_fail. */
int pfs_peer_open(struct pfs_engine *e)
{
	struct pfs_worker *w = &e->w;
	int r = e->peer_rank;

	if (r < 0)
		return 0;
	/* The peer is its node's worker of this rank's number. */
	if (pfs_rundir_worker_path(e, e->topo.nodes[w->peer_node].name, w->worker, w->peer_dir,
				   sizeof(w->peer_dir)))
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
