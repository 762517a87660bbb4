/* topology.c: groups ranks into nodes by name; finds this host's identity. */
#include "pfsbench/core/topology.h"
#include "pfsbench/core/util.h"

#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <unistd.h>

#define NODE_FIELD(field, name, type, unit, desc) \
	{ name, type, offsetof(struct pfs_node, field), sizeof(((struct pfs_node *)0)->field), unit, \
	  desc, NULL }

const struct pfs_field pfs_node_fields[] = {
	NODE_FIELD(name, "name", PFS_FIELD_STRING, "", "node name"),
	NODE_FIELD(addr, "addr", PFS_FIELD_STRING, "", "first non-loopback IPv4 address, or -"),
	NODE_FIELD(nworkers, "workers", PFS_FIELD_U32, "", "workers (ranks) on the node"),
	NODE_FIELD(mem_bytes, "mem_bytes", PFS_FIELD_U64, "bytes", "physical memory"),
	NODE_FIELD(kernel, "kernel", PFS_FIELD_STRING, "", "kernel release (uname -r)"),
	NODE_FIELD(fsstats, "fsstats", PFS_FIELD_STRING, "",
		   "the filesystem counters the node records each step (/fsstats), or none: why"),
	NODE_FIELD(blockdev, "blockdev", PFS_FIELD_STRING, "",
		   "the block device under the target, whose counters (blk.*, drbd.*) the node "
		   "records each step, with a DRBD device's state at the start; or none: why"),
};
const size_t pfs_node_nfields = sizeof(pfs_node_fields) / sizeof(pfs_node_fields[0]);

int pfs_node_color(const char *name, unsigned buckets)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < PFS_NODE_NAME_MAX && name[i]; i++)
		h = (h ^ (unsigned char)name[i]) * 16777619u;
	h &= 0x7fffffff;
	return (int)(buckets ? h % buckets : h);
}

unsigned pfs_topology_worker(const char *names, unsigned n, unsigned me, unsigned *first)
{
	const char *mine = names + (size_t)me * PFS_NODE_NAME_MAX;
	unsigned worker = 0;

	*first = me;
	for (unsigned i = 0; i <= me && i < n; i++)
		if (!strncmp(names + (size_t)i * PFS_NODE_NAME_MAX, mine, PFS_NODE_NAME_MAX) &&
		    !worker++)
			*first = i;
	return worker;
}

int pfs_topology_from_nodes(struct pfs_topology *topo, const struct pfs_node_rec *recs,
			    unsigned nnodes, int nranks, int rank, const int *mine, unsigned nmine)
{
	uint64_t total = 0;
	int me;

	memset(topo, 0, sizeof(*topo));
	if (!nnodes || !nmine)
		return -EINVAL;
	topo->nodes = calloc(nnodes, sizeof(*topo->nodes));
	topo->node_ranks = malloc(nmine * sizeof(*topo->node_ranks));
	if (!topo->nodes || !topo->node_ranks) {
		pfs_topology_free(topo);
		return -ENOMEM;
	}
	topo->nnodes = nnodes;
	for (unsigned n = 0; n < nnodes; n++) {
		const struct pfs_node_rec *c = &recs[n];
		struct pfs_node *node = &topo->nodes[n];

		/* Its node's, leaders rising with the nodes (node order is
		 * the order of the lowest ranks), a second rank after its
		 * leader exactly when there are two ranks or more. */
		if (c->node != n || !c->leader_plus1 || c->leader_plus1 > (uint32_t)nranks ||
		    !c->nworkers ||
		    (n && c->leader_plus1 <= recs[n - 1].leader_plus1) ||
		    (c->nworkers > 1) != (c->second_plus1 != 0) ||
		    (c->second_plus1 && (c->second_plus1 <= c->leader_plus1 ||
					 c->second_plus1 > (uint32_t)nranks))) {
			pfs_topology_free(topo);
			return -EINVAL;
		}
		memcpy(node->name, c->name, PFS_NODE_NAME_MAX);
		node->name[PFS_NODE_NAME_MAX - 1] = 0;
		node->nworkers = c->nworkers;
		node->leader_rank = (int)c->leader_plus1 - 1;
		node->second_rank = (int)c->second_plus1 - 1;
		total += c->nworkers;
	}
	memcpy(topo->node_ranks, mine, nmine * sizeof(*mine));
	me = pfs_topology_node_led_by(topo, mine[0]);
	/* This rank's node as its record says: led by the first of its
	 * ranks, of their number, its second rank the second of them, its
	 * ranks rising, this one among them. */
	if (total != (uint64_t)nranks || me < 0 || topo->nodes[me].nworkers != nmine ||
	    (nmine > 1 && topo->nodes[me].second_rank != mine[1])) {
		pfs_topology_free(topo);
		return -EINVAL;
	}
	for (unsigned i = 1; i < nmine; i++)
		if (mine[i] <= mine[i - 1]) {
			pfs_topology_free(topo);
			return -EINVAL;
		}
	topo->node = (unsigned)me;
	topo->worker = pfs_topology_worker_here(topo, rank);
	if (!topo->worker) {
		pfs_topology_free(topo);
		return -EINVAL;
	}
	topo->workers_min = topo->workers_max = topo->nodes[0].nworkers;
	for (unsigned n = 1; n < topo->nnodes; n++) {
		if (topo->nodes[n].nworkers < topo->workers_min)
			topo->workers_min = topo->nodes[n].nworkers;
		if (topo->nodes[n].nworkers > topo->workers_max)
			topo->workers_max = topo->nodes[n].nworkers;
	}
	return 0;
}

void pfs_topology_free(struct pfs_topology *topo)
{
	free(topo->nodes);
	free(topo->node_ranks);
	memset(topo, 0, sizeof(*topo));
}

int pfs_topology_node_led_by(const struct pfs_topology *topo, int rank)
{
	unsigned lo = 0, hi = topo->nnodes;

	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;

		if (topo->nodes[mid].leader_rank == rank)
			return (int)mid;
		if (topo->nodes[mid].leader_rank < rank)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

unsigned pfs_topology_worker_here(const struct pfs_topology *topo, int rank)
{
	unsigned lo = 0, hi = topo->nodes ? topo->nodes[topo->node].nworkers : 0;

	/* node_ranks rises (pfs_topology_from_nodes checks it). */
	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;

		if (topo->node_ranks[mid] == rank)
			return mid + 1;
		if (topo->node_ranks[mid] < rank)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

/* The first IPv4 address of an interface that is up and not loopback: the
 * address the node is known by on the cluster network, as the Red Hat tool
 * prints it. "-" when there is none. */
static void local_addr(char addr[PFS_ADDR_MAX])
{
	struct ifaddrs *ifs, *i;

	pfs_format(addr, PFS_ADDR_MAX, "-");
	if (getifaddrs(&ifs))
		return;
	for (i = ifs; i; i = i->ifa_next) {
		if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET)
			continue;
		if ((i->ifa_flags & IFF_LOOPBACK) || !(i->ifa_flags & IFF_UP))
			continue;
		inet_ntop(AF_INET, &((struct sockaddr_in *)i->ifa_addr)->sin_addr, addr,
			  PFS_ADDR_MAX);
		break;
	}
	freeifaddrs(ifs);
}

int pfs_local_identity(char name[PFS_NODE_NAME_MAX], char addr[PFS_ADDR_MAX])
{
	const char *env = getenv("PFSBENCH_NODENAME");

	memset(name, 0, PFS_NODE_NAME_MAX);
	if (env && *env) {
		if (pfs_format(name, PFS_NODE_NAME_MAX, "%s", env))
			return pfs_error("PFSBENCH_NODENAME is longer than %d characters",
					 PFS_NODE_NAME_MAX - 1);
	} else if (gethostname(name, PFS_NODE_NAME_MAX - 1)) {
		return pfs_error("cannot read the host name: %s", strerror(errno));
	}
	local_addr(addr);
	return 0;
}

void pfs_local_kernel(char kernel[PFS_KERNEL_MAX])
{
	struct utsname uts;

	if (uname(&uts) || pfs_format(kernel, PFS_KERNEL_MAX, "%s", uts.release))
		pfs_format(kernel, PFS_KERNEL_MAX, "unknown");
}

uint64_t pfs_local_mem_bytes(void)
{
	struct sysinfo si;

	if (sysinfo(&si))
		return 0;
	return (uint64_t)si.totalram * si.mem_unit;
}
