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

/* Pure grouping: names is nranks entries of PFS_NODE_NAME_MAX bytes.
 * Fills node_of_rank, worker_of_rank and the nodes (name, nworkers,
 * leader_rank). Returns 0 or -ENOMEM. */
int pfs_topology_group(struct pfs_topology *topo, const char *names, int nranks);
void pfs_topology_free(struct pfs_topology *topo);

/* This process's node name and address. */
int pfs_local_identity(char name[PFS_NODE_NAME_MAX], char addr[PFS_ADDR_MAX]);

/* This host's physical memory in bytes (sysinfo), 0 when unknown. */
uint64_t pfs_local_mem_bytes(void);

/* This host's kernel release, "unknown" when uname fails. */
void pfs_local_kernel(char kernel[PFS_KERNEL_MAX]);

#endif
