/* topology.h: which node each rank is on, and the order of the nodes.
 * Ranks are grouped by node name (PFSBENCH_NODENAME, else the host name);
 * node order is the order of each node's lowest rank; a worker is the
 * 1-based index of a rank among its node's ranks. */
#ifndef PFSBENCH_TOPOLOGY_H
#define PFSBENCH_TOPOLOGY_H

#include <stddef.h>
#include <stdint.h>

#include "pfsbench/core/results.h"

#define PFS_ADDR_MAX 48
#define PFS_KERNEL_MAX 65 /* struct utsname's release */
#define PFS_NODE_FSSTATS_MAX 256 /* a probe's description (target/fsprobe.h's desc) */

struct pfs_node {
	char name[PFS_NODE_NAME_MAX];
	char addr[PFS_ADDR_MAX];  /* first non-loopback IPv4 address, else "-" */
	uint32_t nworkers;
	int leader_rank;          /* lowest rank on the node */
	uint64_t mem_bytes;       /* physical memory of the node */
	char kernel[PFS_KERNEL_MAX]; /* the node's kernel release (uname -r) */
	char fsstats[PFS_NODE_FSSTATS_MAX]; /* what the node's probe of the filesystem reads, or
				   * "none: <why>" (include/pfsbench/target/fsprobe.h) */
	char blockdev[PFS_NODE_FSSTATS_MAX]; /* the block device under the target whose
				   * counters it reads, with a DRBD device's state at the
				   * run's start, or "none: <why>" */
};

/* The fields of a node that the results file keeps, for every output that
 * lists nodes (HDF5 /nodes, export); leader_rank is the run's business. */
extern const struct pfs_field pfs_node_fields[];
extern const size_t pfs_node_nfields;

struct pfs_topology {
	unsigned nnodes;
	struct pfs_node *nodes;   /* nnodes, in node order */
	unsigned *node_of_rank;   /* nranks entries */
	unsigned *worker_of_rank; /* nranks entries, 1-based */
	unsigned workers_min, workers_max;
};

/* The engine groups the ranks by node in three steps (docs/scale.md,
 * "Grouping the ranks by node"), so that no rank needs every rank's name:
 *
 * 1. the ranks are split by pfs_node_color of their names: a node's ranks
 *    always share one color, other nodes' ranks seldom;
 * 2. within a color, every rank's name: pfs_topology_worker says a rank's
 *    worker number and the first of its node's ranks there (in rank order,
 *    the node's lowest rank: its leader); a leader's node is the number of
 *    leaders of lower rank (an exclusive scan), which its node's others
 *    take from it;
 * 3. every rank's (node, worker) and each node's name from its leader:
 *    pfs_topology_from_places. */

/* A node name's color for MPI_Comm_split: FNV-1a of its bytes up to its
 * NUL (at most PFS_NODE_NAME_MAX), 31 bits, modulo buckets when buckets is
 * not 0 (a test's way to make names collide). */
int pfs_node_color(const char *name, unsigned buckets);

/* In a group of n names (PFS_NODE_NAME_MAX bytes each, in rank order), the
 * worker number of entry me (1 + how many entries before it have its
 * name); *first, the index of the first entry with its name. */
unsigned pfs_topology_worker(const char *names, unsigned n, unsigned me, unsigned *first);

/* The topology from each rank's place, places[2 r] its node and
 * places[2 r + 1] its worker, and the nodes' names in node order
 * (nnodes x PFS_NODE_NAME_MAX). Fills node_of_rank, worker_of_rank and the
 * nodes (name, nworkers, leader_rank). Returns 0, -ENOMEM, or -EINVAL when
 * the places are not a grouping (a node past nnodes, a node first seen
 * after a higher one, a worker out of turn). */
int pfs_topology_from_places(struct pfs_topology *topo, const uint32_t *places, int nranks,
			     const char *node_names, unsigned nnodes);
void pfs_topology_free(struct pfs_topology *topo);

/* This process's node name and address. */
int pfs_local_identity(char name[PFS_NODE_NAME_MAX], char addr[PFS_ADDR_MAX]);

/* This host's physical memory in bytes (sysinfo), 0 when unknown. */
uint64_t pfs_local_mem_bytes(void);

/* This host's kernel release, "unknown" when uname fails. */
void pfs_local_kernel(char kernel[PFS_KERNEL_MAX]);

#endif
