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
	int second_rank;          /* its second-lowest rank, -1 when it has one */
	uint64_t mem_bytes;       /* physical memory of the node */
	char kernel[PFS_KERNEL_MAX]; /* the node's kernel release (uname -r) */
	char fsstats[PFS_NODE_FSSTATS_MAX]; /* what the node's probe of the filesystem reads, or
				   * "none: <why>" (include/pfsbench/target/fsprobe.h) */
	char blockdev[PFS_NODE_FSSTATS_MAX]; /* the block device under the target whose
				   * counters it reads, with a DRBD device's state at the
				   * run's start, or "none: <why>" */
};

/* The fields of a node that the results file keeps, for every output that
 * lists nodes (HDF5 /nodes, export); leader_rank and second_rank are the
 * run's business. */
extern const struct pfs_field pfs_node_fields[];
extern const size_t pfs_node_nfields;

/* What each rank knows of the ranks: every node (M entries, with its
 * leader), and of the ranks only its own node's (k entries). No rank holds
 * an entry per rank of the job (docs/scale.md, "Grouping the ranks by
 * node"). */
struct pfs_topology {
	unsigned nnodes;
	struct pfs_node *nodes;   /* nnodes, in node order */
	unsigned node, worker;    /* this rank's node and worker (1-based) */
	int *node_ranks;          /* this rank's node's ranks in rank order:
				   * worker w is node_ranks[w - 1] */
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
 * 3. each node's leader sends rank 0 its node's record (struct
 *    pfs_node_rec), and rank 0 broadcasts the M of them in node order:
 *    pfs_topology_from_nodes. A rank's own node's ranks are those of its
 *    color with its name, from step 2. */

/* A node name's color for MPI_Comm_split: FNV-1a of its bytes up to its
 * NUL (at most PFS_NODE_NAME_MAX), 31 bits, modulo buckets when buckets is
 * not 0 (a test's way to make names collide). */
int pfs_node_color(const char *name, unsigned buckets);

/* In a group of n names (PFS_NODE_NAME_MAX bytes each, in rank order), the
 * worker number of entry me (1 + how many entries before it have its
 * name); *first, the index of the first entry with its name. */
unsigned pfs_topology_worker(const char *names, unsigned n, unsigned me, unsigned *first);

/* A node's record in step 3, from its leader. Ranks are stored plus one:
 * 0 is "none". */
struct pfs_node_rec {
	uint32_t leader_plus1; /* its lowest rank + 1 */
	uint32_t second_plus1; /* its second-lowest rank + 1; 0: it has one rank */
	uint32_t nworkers;
	uint32_t node;         /* its number: the leaders of lower rank */
	char name[PFS_NODE_NAME_MAX];
};

/* The topology of rank `rank` from the nodes' records (nnodes, in node
 * order) and its node's ranks (nmine, in rank order, itself among them).
 * Fills the nodes (name, nworkers, leader_rank, second_rank), node, worker
 * and node_ranks. Returns 0, -ENOMEM, or -EINVAL when the records are no
 * grouping of nranks ranks (a record not of its place's node or of none,
 * leaders not in rising rank order, a second rank not after its leader or
 * missing, sizes that do not add up to nranks) or do not agree with this
 * rank's own node (its ranks not the ones its node's record says). */
int pfs_topology_from_nodes(struct pfs_topology *topo, const struct pfs_node_rec *recs,
			    unsigned nnodes, int nranks, int rank, const int *mine, unsigned nmine);
void pfs_topology_free(struct pfs_topology *topo);

/* The node whose leader is rank, or -1 (a binary search: leaders rise with
 * the nodes). */
int pfs_topology_node_led_by(const struct pfs_topology *topo, int rank);

/* rank's worker number on this rank's node, or 0 when it is on another. */
unsigned pfs_topology_worker_here(const struct pfs_topology *topo, int rank);

/* This process's node name and address. */
int pfs_local_identity(char name[PFS_NODE_NAME_MAX], char addr[PFS_ADDR_MAX]);

/* This host's physical memory in bytes (sysinfo), 0 when unknown. */
uint64_t pfs_local_mem_bytes(void);

/* This host's kernel release, "unknown" when uname fails. */
void pfs_local_kernel(char kernel[PFS_KERNEL_MAX]);

#endif
