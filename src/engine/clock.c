/* clock.c: one clock for all nodes. Rows of different nodes are ordered by
 * their end times, so every rank states times on node 0's clock. Ranks of
 * one node share CLOCK_MONOTONIC, so only node leaders measure their offset
 * to rank 0: the round trip with the least delay of CLOCK_ROUNDS, offset =
 * remote - (send + receive) / 2 (Cristian's method; the error is at most
 * half that round trip). */
#include "internal.h"

#include "pfsbench/core/util.h"

#define CLOCK_ROUNDS 8

void pfs_clock_sync(struct pfs_engine *e)
{
	bool leader = e->topo.nodes[e->w.node].leader_rank == e->rank;
	int64_t offset = 0;
	MPI_Comm node_comm;

	if (e->rank == 0) {
		for (unsigned n = 1; n < e->topo.nnodes; n++)
			for (int k = 0; k < CLOCK_ROUNDS; k++) {
				int peer = e->topo.nodes[n].leader_rank;
				uint64_t now;

				PFS_MPI(e, MPI_Recv, (NULL, 0, MPI_BYTE, peer, TAG_CLOCK, e->comm,
						      MPI_STATUS_IGNORE));
				now = pfs_now_us();
				PFS_MPI(e, MPI_Send, (&now, 1, MPI_UINT64_T, peer, TAG_CLOCK, e->comm));
			}
	} else if (leader) {
		uint64_t best = UINT64_MAX;

		for (int k = 0; k < CLOCK_ROUNDS; k++) {
			uint64_t t1 = pfs_now_us(), remote, t2;

			PFS_MPI(e, MPI_Send, (NULL, 0, MPI_BYTE, 0, TAG_CLOCK, e->comm));
			PFS_MPI(e, MPI_Recv, (&remote, 1, MPI_UINT64_T, 0, TAG_CLOCK, e->comm,
					      MPI_STATUS_IGNORE));
			t2 = pfs_now_us();
			if (t2 - t1 < best) {
				best = t2 - t1;
				offset = (int64_t)remote - (int64_t)(t1 + (t2 - t1) / 2);
			}
		}
	}
	PFS_MPI(e, MPI_Comm_split, (e->comm, (int)e->w.node, e->rank, &node_comm));
	PFS_MPI(e, MPI_Bcast, (&offset, 1, MPI_INT64_T, 0, node_comm));
	PFS_MPI(e, MPI_Comm_free, (&node_comm));
	e->clock_offset_us = offset;
}

/* Microseconds since the run's start barrier, on node 0's clock. A clock
 * estimate a few microseconds off cannot make a time negative. */
uint64_t pfs_run_time(const struct pfs_engine *e, uint64_t local_us)
{
	int64_t t = (int64_t)local_us + e->clock_offset_us - (int64_t)e->epoch_us;

	return t > 0 ? (uint64_t)t : 0;
}
