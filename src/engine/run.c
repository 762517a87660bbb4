/* run.c: the whole run of a workload across the ranks of a communicator:
 * rank 0 parses the options and broadcasts them, every rank learns its node
 * and worker, rank 0 checks the target before anything is created, the run
 * and worker directories are made, the outputs begin, every selected test
 * runs for every iteration (step.c), the outputs end, and what the run
 * created is removed. The other files of src/engine/ own the rest
 * (internal.h lists them). */
#include "internal.h"

#include "pfsbench/core/interrupt.h"
#include "pfsbench/core/resultpath.h"
#include "pfsbench/core/util.h"
#include "pfsbench/engine/engine.h"
#include "pfsbench/target/fsinfo.h"

#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

/* ---- options ---------------------------------------------------------- */

static void usage(const struct pfs_workload *wl, FILE *out)
{
	fprintf(out, "Usage: pfsbench %s %s\n%s\n\nOptions:\n", wl->name, wl->synopsis, wl->summary);
	pfs_opts_usage(out, wl->options);
	fprintf(out, "\nSee pfsbench(1) and docs/methodology.md.\n");
}

/* The selected tests less those that do not go with the options (all of
 * them, without -t); a test -t names that does not go with them is
 * refused. PFS_PARSE_OK or -EINVAL with the reason in err. */
static int keep_applying_tests(const struct pfs_workload *wl, void *opts,
			       const char *const *names, char *err, size_t errlen)
{
	struct pfs_common_opts *common = opts;
	unsigned n = 0;

	for (unsigned i = 0; i < common->ntests; i++) {
		if (wl->test_applies(opts, common->tests[i]))
			common->tests[n++] = common->tests[i];
		else if (common->test_list[0])
			return pfs_refuse(err, errlen, -EINVAL, "-t %s: the test does not go "
					  "with these options", names[common->tests[i]]);
	}
	common->ntests = n;
	if (!n)
		return pfs_refuse(err, errlen, -EINVAL, "no test goes with these options");
	return PFS_PARSE_OK;
}

int pfs_engine_parse(const struct pfs_workload *wl, void *opts, int argc, char **argv, char *err,
		      size_t errlen)
{
	struct pfs_common_opts *common = opts;
	const char *names[PFS_MAX_TESTS + 1] = { 0 };
	int rc;

	if (pfs_workload_defaults(wl, opts))
		return pfs_refuse(err, errlen, -EINVAL, "a default of the option table is no value");
	rc = pfs_opts_parse(wl->options, opts, argc, argv, err, errlen);
	for (unsigned i = 0; wl->tests[i].name && i < PFS_MAX_TESTS; i++)
		names[i] = wl->tests[i].name;
	if (rc == PFS_PARSE_OK)
		rc = pfs_tests_select(common->test_list, names, common->tests, &common->ntests, err,
				      errlen);
	if (rc == PFS_PARSE_OK && wl->test_applies)
		rc = keep_applying_tests(wl, opts, names, err, errlen);
	/* The results file records the tests that run, also when -t was left
	 * at its default (all). */
	if (rc == PFS_PARSE_OK)
		rc = pfs_tests_name(names, common->tests, common->ntests, common->test_list,
				    sizeof(common->test_list));
	/* --runtime is --stonewall under fio's name: one limit, one rule. */
	if (rc == PFS_PARSE_OK && common->runtime_s && common->stonewall_s)
		rc = pfs_refuse(err, errlen, -EINVAL, "--runtime is --stonewall under another "
				"name: give one of them");
	if (rc == PFS_PARSE_OK && common->runtime_s)
		common->stonewall_s = common->runtime_s;
	/* A step the deadline cuts lasts that long at least: a watchdog no
	 * longer would end the job in every one of them. */
	if (rc == PFS_PARSE_OK && common->stonewall_s && common->phase_timeout_s &&
	    common->phase_timeout_s <= common->stonewall_s)
		rc = pfs_refuse(err, errlen, -EINVAL,
				"--phase-timeout %" PRIu64 " would end every step --%s %" PRIu64
				" cuts, which lasts that long at least: give it more",
				common->phase_timeout_s, common->runtime_s ? "runtime" : "stonewall",
				common->stonewall_s);
	if (rc == PFS_PARSE_OK)
		rc = wl->validate(opts, err, errlen);
	return rc;
}

/* On rank 0: parse, select the tests, check. Returns PFS_PARSE_* or -EINVAL
 * after printing the message. */
static int parse_on_root(struct pfs_engine *e, int argc, char **argv)
{
	const struct pfs_workload *wl = e->wl;
	char err[PFS_USAGE_MAX] = "";
	int rc = pfs_engine_parse(wl, e->opts, argc, argv, err, sizeof(err));

	if (rc == PFS_PARSE_HELP)
		usage(wl, e->out);
	else if (rc == PFS_PARSE_VERSION)
		fprintf(e->out, "pfsbench %s\n", PACKAGE_VERSION);
	else if (rc < 0)
		fprintf(e->err, "pfsbench %s: %s\nTry 'pfsbench %s --help'.\n", wl->name, err,
			wl->name);
	fflush(e->out);
	return rc;
}

/* Rank 0 parses and checks; every rank gets the options or the verdict. */
static int parse_options(struct pfs_engine *e, int argc, char **argv)
{
	int rc = e->rank == 0 ? parse_on_root(e, argc, argv) : 0;

	PFS_MPI(e, MPI_Bcast, (&rc, 1, MPI_INT, 0, e->comm));
	if (rc == PFS_PARSE_OK)
		PFS_MPI(e, MPI_Bcast, (e->opts, (int)e->wl->opts_size, MPI_BYTE, 0, e->comm));
	return rc;
}

/* ---- who is where --------------------------------------------------------- */

/* SIZE bytes at mine from each node's leader, to rank 0 alone, into by_node
 * (rank 0's: nnodes x size, in node order; the other ranks pass NULL): the
 * other ranks send nothing, so M x size bytes travel where an allgather of
 * every rank's would carry N^2 x size (docs/scale.md). 0, or -1 when rank 0
 * had no room (by_node NULL, or its counts), agreed. */
static int leaders_to_root(struct pfs_engine *e, const void *mine, int size, void *by_node,
			   const char *what)
{
	int *counts = NULL, *displs = NULL;
	bool leader = e->topo.nodes[e->topo.node].leader_rank == e->rank;

	if (e->rank == 0) {
		counts = calloc((size_t)e->nranks, sizeof(*counts));
		displs = calloc((size_t)e->nranks, sizeof(*displs));
	}
	if (pfs_all_allocated(e, e->rank != 0 || (counts && displs && by_node), what)) {
		free(counts);
		free(displs);
		return -1;
	}
	for (unsigned n = 0; e->rank == 0 && n < e->topo.nnodes; n++) {
		counts[e->topo.nodes[n].leader_rank] = size;
		displs[e->topo.nodes[n].leader_rank] = (int)n * size;
	}
	PFS_MPI_ASLEEP(e, MPI_Igatherv, mine, leader ? size : 0, MPI_BYTE, by_node, counts, displs,
		       MPI_BYTE, 0, e->comm);
	free(counts);
	free(displs);
	return 0;
}

/* What the results file says of a node, as its leader sees it. */
struct node_facts {
	uint64_t mem_bytes;
	char kernel[PFS_KERNEL_MAX];
	char addr[PFS_ADDR_MAX];
};

/* Each node's memory, kernel and address, on rank 0 (for the results file;
 * the other ranks never read them). 0 or -1, on every rank. */
static int gather_node_facts(struct pfs_engine *e, const char addr[PFS_ADDR_MAX])
{
	struct node_facts mine = { .mem_bytes = pfs_local_mem_bytes() }, *all = NULL;

	pfs_local_kernel(mine.kernel);
	memcpy(mine.addr, addr, PFS_ADDR_MAX);
	if (e->rank == 0)
		all = malloc(e->topo.nnodes * sizeof(*all));
	if (leaders_to_root(e, &mine, (int)sizeof(mine), all,
			    "gathering the nodes' memory, kernels and addresses")) {
		free(all);
		return -1;
	}
	for (unsigned n = 0; e->rank == 0 && n < e->topo.nnodes; n++) {
		struct pfs_node *node = &e->topo.nodes[n];

		node->mem_bytes = all[n].mem_bytes;
		memcpy(node->kernel, all[n].kernel, PFS_KERNEL_MAX);
		node->kernel[PFS_KERNEL_MAX - 1] = 0;
		memcpy(node->addr, all[n].addr, PFS_ADDR_MAX);
		node->addr[PFS_ADDR_MAX - 1] = 0;
	}
	free(all);
	return 0;
}

/* Once the run will happen: each node's probe of the filesystem's own
 * counters, and what it reads, for the results file (rank 0's copy; every
 * rank keeps its own probe). 0, or -1 when rank 0 had no memory for it,
 * agreed as every failure is. */
static int open_probes(struct pfs_engine *e)
{
	_Static_assert(PFS_FSPROBE_DESC_MAX == PFS_NODE_FSSTATS_MAX,
		       "a probe's descriptions are its node's fsstats and blockdev, copied whole");
	char probe[2][PFS_FSPROBE_DESC_MAX], *probes = NULL;

	pfs_probe_open(e, probe[0], probe[1]);
	if (e->rank == 0)
		probes = malloc(e->topo.nnodes * sizeof(probe));
	if (leaders_to_root(e, probe, (int)sizeof(probe), probes, "the probes' descriptions")) {
		free(probes);
		return -1;
	}
	for (unsigned n = 0; e->rank == 0 && n < e->topo.nnodes; n++) {
		struct pfs_node *node = &e->topo.nodes[n];
		const char *mine = probes + (size_t)n * sizeof(probe);

		memcpy(node->fsstats, mine, sizeof(probe[0]));
		node->fsstats[sizeof(probe[0]) - 1] = 0;
		memcpy(node->blockdev, mine + sizeof(probe[0]), sizeof(probe[1]));
		node->blockdev[sizeof(probe[1]) - 1] = 0;
	}
	free(probes);
	return 0;
}

/* This rank's worker number and node (include/pfsbench/core/topology.h's
 * three steps, docs/scale.md): the ranks whose names share a color give
 * each other their names (a node's ranks, and seldom another's); a node's
 * number is how many leaders (a node's lowest rank) come before its own,
 * which its leader tells the node's others. place: node, worker; *mine
 * (malloc'd), the ranks of its node in rank order, *nmine of them. */
static int place_of(struct pfs_engine *e, const char *name, uint32_t place[2], int **mine,
		    unsigned *nmine)
{
	char *names = NULL;
	unsigned buckets = (unsigned)pfs_env_count("PFSBENCH_DEBUG_NODE_BUCKETS", 0), first, worker;
	int n = 1, me = 0, leader, before = 0, *befores = NULL, *idx = NULL, k = 0;
	MPI_Comm alike;
	MPI_Group alike_group, world_group;

	PFS_MPI(e, MPI_Comm_split, (e->comm, pfs_node_color(name, buckets), e->rank, &alike));
	MPI_Comm_size(alike, &n);
	MPI_Comm_rank(alike, &me);
	names = malloc((size_t)n * PFS_NODE_NAME_MAX);
	befores = malloc((size_t)n * sizeof(*befores));
	idx = malloc((size_t)n * sizeof(*idx));
	*mine = malloc((size_t)n * sizeof(**mine));
	if (pfs_all_allocated(e, names && befores && idx && *mine,
			      "gathering the names of a node's ranks")) {
		free(names);
		free(befores);
		free(idx);
		free(*mine);
		*mine = NULL;
		MPI_Comm_free(&alike);
		return -1;
	}
	PFS_MPI_ASLEEP(e, MPI_Iallgather, name, PFS_NODE_NAME_MAX, MPI_CHAR, names,
		       PFS_NODE_NAME_MAX, MPI_CHAR, alike);
	worker = pfs_topology_worker(names, (unsigned)n, (unsigned)me, &first);
	leader = worker == 1;
	PFS_MPI_ASLEEP(e, MPI_Iexscan, &leader, &before, 1, MPI_INT, MPI_SUM, e->comm);
	if (e->rank == 0)
		before = 0; /* MPI leaves rank 0's exclusive scan undefined */
	PFS_MPI_ASLEEP(e, MPI_Iallgather, &before, 1, MPI_INT, befores, 1, MPI_INT, alike);
	place[0] = (uint32_t)befores[first];
	place[1] = worker;
	/* The node's ranks: those of the color with this name, in rank order
	 * (the split's key), as ranks of the job. */
	for (int i = 0; i < n; i++)
		if (!strncmp(names + (size_t)i * PFS_NODE_NAME_MAX, name, PFS_NODE_NAME_MAX))
			idx[k++] = i;
	MPI_Comm_group(alike, &alike_group);
	MPI_Comm_group(e->comm, &world_group);
	PFS_MPI(e, MPI_Group_translate_ranks, (alike_group, k, idx, world_group, *mine));
	MPI_Group_free(&alike_group);
	MPI_Group_free(&world_group);
	*nmine = (unsigned)k;
	free(names);
	free(befores);
	free(idx);
	MPI_Comm_free(&alike);
	return 0;
}

/* Step 3: each node's record from its leader to rank 0, which puts them in
 * node order (a record of no node, or of a node already had, is left as
 * none, for every rank's check to refuse) and broadcasts them: M records,
 * never one a rank. */
static void nodes_table(struct pfs_engine *e, const struct pfs_node_rec *mine, bool leader,
			struct pfs_node_rec *all, int nnodes)
{
	if (e->rank != 0) {
		if (leader) {
			MPI_Request req;

			PFS_MPI(e, MPI_Isend, (mine, (int)sizeof(*mine), MPI_BYTE, 0, TAG_NODE_RECORD,
					       e->comm, &req));
			pfs_engine_wait(e, &req);
		}
	} else {
		if (mine->node < (uint32_t)nnodes)
			all[mine->node] = *mine;
		for (int k = 1; k < nnodes; k++) {
			struct pfs_node_rec c;
			MPI_Request req;

			PFS_MPI(e, MPI_Irecv, (&c, (int)sizeof(c), MPI_BYTE, MPI_ANY_SOURCE,
					       TAG_NODE_RECORD, e->comm, &req));
			pfs_engine_wait(e, &req);
			if (c.node < (uint32_t)nnodes && !all[c.node].leader_plus1)
				all[c.node] = c;
		}
	}
	PFS_MPI_ASLEEP(e, MPI_Ibcast, all, nnodes * (int)sizeof(*all), MPI_BYTE, 0, e->comm);
}

static int identify(struct pfs_engine *e)
{
	char name[PFS_NODE_NAME_MAX], addr[PFS_ADDR_MAX];
	uint32_t place[2];
	int rc = pfs_local_identity(name, addr), worst = 0, *mine = NULL, leader, nnodes = 0;
	unsigned nmine = 0;
	struct pfs_node_rec rec = { 0 }, *all = NULL;

	PFS_MPI_ASLEEP(e, MPI_Iallreduce, &rc, &worst, 1, MPI_INT, MPI_MIN, e->comm);
	if (worst || place_of(e, name, place, &mine, &nmine))
		return -1;
	leader = place[1] == 1;
	PFS_MPI_ASLEEP(e, MPI_Iallreduce, &leader, &nnodes, 1, MPI_INT, MPI_SUM, e->comm);
	all = calloc((size_t)(nnodes > 0 ? nnodes : 1), sizeof(*all));
	if (pfs_all_allocated(e, all != NULL, "gathering the nodes' records")) {
		free(mine);
		return -1;
	}
	if (leader) {
		rec.leader_plus1 = (uint32_t)e->rank + 1;
		rec.second_plus1 = nmine > 1 ? (uint32_t)mine[1] + 1 : 0;
		rec.nworkers = nmine;
		rec.node = place[0];
		memcpy(rec.name, name, PFS_NODE_NAME_MAX);
	}
	nodes_table(e, &rec, leader, all, nnodes);
	rc = pfs_topology_from_nodes(&e->topo, all, (unsigned)nnodes, e->nranks, e->rank, mine,
				     nmine);
	free(all);
	free(mine);
	/* The records are the same on every rank, a rank's own node is not:
	 * all refuse alike. */
	PFS_MPI_ASLEEP(e, MPI_Iallreduce, &rc, &worst, 1, MPI_INT, MPI_MIN, e->comm);
	if (worst == -EINVAL) {
		if (e->rank == 0)
			pfs_error("the nodes' records as gathered are no grouping of the ranks by node");
		pfs_topology_free(&e->topo);
		return -1;
	}
	if (pfs_all_allocated(e, !rc, "grouping the ranks by node") || gather_node_facts(e, addr))
		return -1;
	e->w.node = e->topo.node;
	e->w.worker = e->topo.worker;
	e->w.node_name = e->topo.nodes[e->w.node].name;
	return 0;
}

/* ---- checks before anything is created ---------------------------------- */

/* A need in units of unit, rounded up, or huge when it saturated: the
 * workloads' needs stop at UINT64_MAX when a plan overflows 64 bits, and
 * rounding that up the usual way would wrap to 0. */
static const char *need_text(char *buf, size_t len, uint64_t n, uint64_t unit, const char *suffix,
			     const char *huge)
{
	if (n == UINT64_MAX)
		snprintf(buf, len, "%s", huge);
	else
		snprintf(buf, len, "%" PRIu64 "%s", n / unit + (n % unit != 0), suffix);
	return buf;
}

/* --dry-run: the workload says what the plan makes, the engine what it
 * needs; preflight then says whether the target has it. */
static void print_dry_run(struct pfs_engine *e, const struct pfs_needs *needs)
{
	char bytes[32], inodes[32];

	fprintf(e->out, "pfsbench %s --dry-run: nothing is created\n", e->wl->name);
	if (e->wl->dry_run)
		e->wl->dry_run(e->out, e->opts, (unsigned)e->nranks, e->topo.nnodes);
	fprintf(e->out, "the run needs %s and %s inodes in '%s'\n",
		need_text(bytes, sizeof(bytes), needs->bytes, 1024, " KiB", "16 EiB or more"),
		need_text(inodes, sizeof(inodes), needs->inodes, 1, "", "2^64 or more"),
		e->common->dir);
}

/* The results file's name, chosen and checked (not yet taken). 0 or -1. */
static int check_results_path(struct pfs_engine *e)
{
	char why[PATH_MAX + 128];
	int rc;

	if (pfs_results_path(e->results_path, sizeof(e->results_path), e->common->results,
			     e->wl->name))
		return pfs_error("the results file name is too long");
	rc = pfs_results_path_check(e->results_path,
				    e->persist == PFS_PERSIST_NAMED ? NULL : e->common->dir, why,
				    sizeof(why));
	/* A default name that another run took since pfs_results_path chose
	 * it is no reason to stop: the claim in preflight moves on to the next. */
	if (rc && !(rc == -EEXIST && !e->common->results[0]))
		return pfs_error("%s", why);
	return 0;
}

/* --direct's probe on one node, by its leader: what it found, for rank 0. */
struct pfs_direct_answer {
	int32_t rc; /* pfs_direct_probe's: 0, or a negative errno */
	uint64_t align;
	char fstype[sizeof(((struct pfs_fsinfo *)0)->fstype)];
};

/* On every rank, before preflight: under --direct, each node's leader (its
 * lowest rank) probes the target directory as its node sees it, for a node
 * may mount another filesystem at the same path, or none. Rank 0 keeps
 * each node's answer in e->direct (one a node, in node order).
 * A named file or device is not probed (its directory may be another
 * filesystem): opening it with O_DIRECT fails the run where refused.
 * 0, or -1 when rank 0 had no memory for the answers, agreed. */
static int probe_direct(struct pfs_engine *e)
{
	struct pfs_direct_answer mine = { .rc = 0, .align = 4096 };

	if (!e->common->direct || e->persist == PFS_PERSIST_NAMED)
		return 0;
	if (e->rank == 0)
		e->direct = calloc(e->topo.nnodes, sizeof(mine));
	if (e->topo.nodes[e->w.node].leader_rank == e->rank) {
		struct pfs_fsinfo fs;

		mine.rc = pfs_direct_probe(e->common->dir, &mine.align);
		snprintf(mine.fstype, sizeof(mine.fstype), "%s",
			 pfs_fsinfo_get(e->common->dir, &fs) ? "UNKNOWN" : fs.fstype);
	}
	return leaders_to_root(e, &mine, (int)sizeof(mine), e->direct,
			       "gathering the nodes' O_DIRECT probes");
}

/* --direct, on rank 0: every node's filesystem must take O_DIRECT, and the
 * plan's sizes its alignment; else the run is refused before anything is
 * created, naming the first node that refuses and its filesystem. */
static int check_direct(struct pfs_engine *e)
{
	char why[PFS_USAGE_MAX] = "";

	for (unsigned n = 0; n < e->topo.nnodes; n++) {
		const char *node = e->topo.nodes[n].name;
		struct pfs_direct_answer a = { .rc = 0, .align = 4096, .fstype = "" };
		char fstype[PFS_PRINTABLE_SIZE(sizeof(a.fstype))];

		if (e->direct)
			a = e->direct[n];
		a.fstype[sizeof(a.fstype) - 1] = 0;
		pfs_printable(fstype, sizeof(fstype), a.fstype);
		if (a.rc == -EINVAL || a.rc == -EOPNOTSUPP)
			return pfs_error("--direct: node %s: the filesystem of '%s' (%s) refuses "
					 "O_DIRECT; run without --direct", node, e->common->dir,
					 fstype);
		if (a.rc)
			return pfs_error("--direct: node %s: cannot try O_DIRECT in '%s' (%s): %s",
					 node, e->common->dir, fstype, strerror(-a.rc));
		if (e->wl->check_direct && e->wl->check_direct(e->opts, a.align, why, sizeof(why)))
			return pfs_error("--direct: node %s: '%s' (%s): %s", node, e->common->dir,
					 fstype, why);
		/* A named file: one check of the sizes, against the default block. */
		if (!e->direct)
			break;
	}
	return 0;
}

static int preflight(struct pfs_engine *e, struct pfs_fsinfo *fs)
{
	struct pfs_needs needs = { 0, 0 };
	char why[PATH_MAX + 128], need[32];
	int rc;

	e->wl->needs(e->opts, (unsigned)e->nranks, &needs);
	if (e->common->dry_run)
		print_dry_run(e, &needs);
	/* A run on a named file makes nothing in the directory it is in. */
	rc = e->persist == PFS_PERSIST_NAMED ? 0 : pfs_check_dir(e->common->dir, why, sizeof(why));
	if (rc)
		return pfs_error("%s", why);
	if (e->wl->check_ranks &&
	    e->wl->check_ranks(e->opts, (unsigned)e->nranks, why, sizeof(why)))
		return pfs_error("%s", why);
	rc = pfs_fsinfo_get(e->common->dir, fs);
	if (rc)
		return pfs_error("cannot statvfs '%s': %s", e->common->dir, strerror(-rc));
	if (e->common->direct && check_direct(e))
		return -1;
	if (e->wants_results && check_results_path(e))
		return -1;
	if (!e->common->force && needs.bytes > fs->bytes_free)
		return pfs_error("'%s' has %" PRIu64 " MiB free; this run needs %s (use --force "
				 "to run anyway, or lower the counts)",
				 e->common->dir, fs->bytes_free >> 20,
				 need_text(need, sizeof(need), needs.bytes, 1 << 20, " MiB",
					   "16 EiB or more"));
	if (!e->common->force && needs.inodes > fs->inodes_free)
		return pfs_error("'%s' has %" PRIu64 " free inodes; this run needs %s (use --force "
				 "to run anyway)",
				 e->common->dir, fs->inodes_free,
				 need_text(need, sizeof(need), needs.inodes, 1, "", "2^64 or more"));
	if (pfs_rundir_check(e))
		return -1;
	if (e->common->dry_run) {
		char fstype[PFS_PRINTABLE_SIZE(sizeof(fs->fstype))];

		/* A FUSE subtype is the mounter's to name. */
		fprintf(e->out,
			"'%s' (%s) has %" PRIu64 " KiB and %" PRIu64 " inodes free: the plan fits\n",
			e->common->dir, pfs_printable(fstype, sizeof(fstype), fs->fstype),
			fs->bytes_free / 1024, fs->inodes_free);
		return 0;
	}
	/* The last check, and the run's first creation: the results file's
	 * name, taken exclusively, so that a run whose numbers would go
	 * nowhere never starts, and two runs never share a file. */
	if (e->wants_results &&
	    pfs_results_path_claim(e->results_path, sizeof(e->results_path),
				   e->common->results[0] ? NULL : e->wl->name, &e->results,
				   why, sizeof(why)))
		return pfs_error("%s", why);
	return 0;
}

/* ---- outputs -------------------------------------------------------------- */

static void iso_time(char *buf, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* The command line as typed after the program's name, which is written
 * "pfsbench" wherever the binary lies. argv[0] is the command when one was
 * typed (or made by ab); with none ("pfsbench -m DIR"), the caller
 * (pfs_engine_run_from) passes the program's argv whole, its argv[0] being
 * the program itself. */
static void join_args(char *buf, size_t len, const char *command, int argc, char **argv)
{
	size_t n = (size_t)snprintf(buf, len, "pfsbench");

	for (int i = 0; i < argc && n < len; i++)
		if (i > 0 || !strcmp(argv[0], command))
			n += (size_t)snprintf(buf + n, len - n, " %s", argv[i]);
}

/* The first line of the MPI library's version: Open MPI adds build details. */
static void mpi_version(char *buf, size_t len)
{
	char v[MPI_MAX_LIBRARY_VERSION_STRING] = "";
	int n = 0;

	MPI_Get_library_version(v, &n);
	v[strcspn(v, "\n")] = 0;
	snprintf(buf, len, "%s", v);
}

/* Rows the plan makes: each step's workers (the nodes it gives an op),
 * every test and iteration; 0 when a plan cannot be had (no memory). The
 * results file fits its chunks to it (src/outputs/hdf5.c). Into *nsteps_run,
 * the steps of the run (each test's times its iterations), by which the
 * timeline paces its budget (timeline.h). */
static uint64_t rows_planned(const struct pfs_engine *e, uint64_t *nsteps_run)
{
	uint64_t rows = 0;

	*nsteps_run = 0;
	for (unsigned t = 0; t < e->common->ntests; t++) {
		const struct pfs_test *test = &e->wl->tests[e->common->tests[t]];
		size_t nsteps = test->plan(e->opts, e->topo.nnodes, NULL, 0);
		struct pfs_step *steps = calloc(nsteps ? nsteps : 1, sizeof(*steps));
		uint64_t per_iteration = 0, these = pfs_mul_sat_u64(nsteps, e->common->iterations);

		*nsteps_run = *nsteps_run > UINT64_MAX - these ? UINT64_MAX : *nsteps_run + these;
		if (!steps)
			return 0;
		test->plan(e->opts, e->topo.nnodes, steps, nsteps);
		for (size_t s = 0; s < nsteps; s++)
			for (unsigned n = 0; n < e->topo.nnodes; n++)
				if (pfs_step_op_of_node(&steps[s], n) >= 0)
					per_iteration += e->topo.nodes[n].nworkers;
		free(steps);
		per_iteration = pfs_mul_sat_u64(per_iteration, e->common->iterations);
		rows = rows > UINT64_MAX - per_iteration ? UINT64_MAX : rows + per_iteration;
	}
	return rows;
}

static void describe_run(struct pfs_engine *e, const struct pfs_fsinfo *fs, int argc,
			 char **argv)
{
	struct pfs_run_info *ri = &e->ri;
	struct utsname uts;

	ri->workload = e->wl;
	ri->opts = e->opts;
	ri->options = e->wl->options;
	ri->nodes = e->topo.nodes;
	ri->results_path = e->results_path;
	ri->results_file = &e->results;
	snprintf(ri->workload_name, sizeof(ri->workload_name), "%s", e->wl->name);
	snprintf(ri->label, sizeof(ri->label), "%s", e->common->label);
	if (e->wl->note)
		e->wl->note(e->opts, e->topo.nnodes, ri->run_note, sizeof(ri->run_note));
	snprintf(ri->pfsbench_version, sizeof(ri->pfsbench_version), "%s", PACKAGE_VERSION);
	join_args(ri->command_line, sizeof(ri->command_line), e->wl->name, argc, argv);
	iso_time(ri->start_time, sizeof(ri->start_time));
	snprintf(ri->status, sizeof(ri->status), "running");
	mpi_version(ri->mpi_version, sizeof(ri->mpi_version));
	snprintf(ri->kernel_release, sizeof(ri->kernel_release), "%s",
		 uname(&uts) ? "unknown" : uts.release);
	ri->nranks = (uint64_t)e->nranks;
	ri->nnodes = e->topo.nnodes;
	ri->workers_min = e->topo.workers_min;
	ri->workers_max = e->topo.workers_max;
	snprintf(ri->dir, sizeof(ri->dir), "%s", e->common->dir);
	snprintf(ri->run_dir, sizeof(ri->run_dir), "%s", e->run_dir);
	snprintf(ri->fstype, sizeof(ri->fstype), "%s", fs->fstype);
	snprintf(ri->mount_source, sizeof(ri->mount_source), "%s", fs->mount_source);
	snprintf(ri->mount_options, sizeof(ri->mount_options), "%s", fs->mount_options);
	snprintf(ri->mount_point, sizeof(ri->mount_point), "%s", fs->mount_point);
	snprintf(ri->lockproto, sizeof(ri->lockproto), "%s", fs->lockproto);
	snprintf(ri->locktable, sizeof(ri->locktable), "%s", fs->locktable);
	ri->rows_planned = e->rows_planned;
	ri->caches_dropped = e->common->drop_caches;
	snprintf(ri->latency_detail, sizeof(ri->latency_detail), "%s",
		 e->lat_by_node ? "node" : "rank");
	if (!e->common->drop_caches)
		snprintf(ri->caches_note, sizeof(ri->caches_note),
			 "caches were not dropped: --no-drop-caches");
}

/* Every output the caller handed over, in its order. A run that cannot
 * make its results file does not run: a benchmark whose numbers go nowhere
 * was time lost. Returns 0 or -1. */
static int begin_outputs(struct pfs_engine *e)
{
	for (size_t i = 0; i < e->noutputs; i++) {
		struct pfs_output *o = &e->outputs[i];
		bool record = o->ops->flags & PFS_OUTPUT_RESULTS_FILE;

		if (!o->ops->begin(o, &e->ri)) {
			if (record)
				e->results_made = true;
		} else if (record) {
			return -1;
		} else {
			pfs_warn("output %s could not start", o->ops->name);
		}
	}
	return 0;
}

/* Every output's end, in order. -1 when the results file's did not reach
 * its disk whole (its end says which part, on stderr): a run whose file
 * cannot be trusted must not exit 0 (a failed close is where NFS reports
 * a write that did not reach the server; a full disk refuses the final
 * flush and leaves the file unreadable). */
static int end_outputs(struct pfs_engine *e, enum pfs_run_status st, const char *reason)
{
	int rc = 0;

	iso_time(e->ri.end_time, sizeof(e->ri.end_time));
	for (size_t i = 0; i < e->noutputs; i++)
		if (e->outputs[i].ops->end(&e->outputs[i], &e->ri, st, reason) &&
		    (e->outputs[i].ops->flags & PFS_OUTPUT_RESULTS_FILE))
			rc = -1;
	return rc;
}

/* s as a shell reads it back, for a command the user may paste; as it is
 * where it cannot be quoted in len. */
static void quote_word(char *buf, size_t len, const char *s)
{
	if (pfs_shell_quote(buf, len, s))
		snprintf(buf, len, "%s", s);
}

/* The run's last word on stderr, also after a failure or a signal: where
 * its results file is and how to read it, so that nobody has to look. */
static void say_results(const struct pfs_engine *e)
{
	char abs[PATH_MAX], quoted[2 * PATH_MAX + 8], proc[64];
	const char *path = e->results_path;
	ssize_t n;

	if (!e->results_made)
		return;
	/* Where the file this run created is (never resolved by its name,
	 * which someone may have pointed elsewhere since). */
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", e->results.fd);
	n = e->results.fd >= 0 ? readlink(proc, abs, sizeof(abs) - 1) : -1;
	if (n > 0 && abs[0] == '/') {
		abs[n] = 0;
		path = abs;
	}
	quote_word(quoted, sizeof(quoted), path);
	fprintf(e->err, "pfsbench: results: %s (read it with: pfsbench show %s)\n", path, quoted);
}

/* After a signal, before the clean-up: mpirun kills the ranks soon after
 * its SIGTERM (odls_base_sigkill_timeout, 1 s unless the launcher gives
 * more; docs/cluster.md), and a large run's files take longer to remove.
 * So the user learns now, not after the kill, where the files are and
 * which command removes what is left. */
static void say_removing(const struct pfs_engine *e, const char *why)
{
	char quoted[2 * PATH_MAX + 8];

	if (!e->run_dir_made)
		return;
	quote_word(quoted, sizeof(quoted), e->common->dir);
	fprintf(e->err,
		"pfsbench: %s; removing the run's files in '%s'; if the job is killed first, "
		"remove what is left with: pfsbench clean %s\n",
		why, e->run_dir, quoted);
	fflush(e->err);
}

/* The watchdog's end of a run (watchdog.c), on rank 0: stderr says why,
 * line by line, the results file says it too, and where the run's files
 * stay; MPI_Abort then ends every rank, also a stopped or stuck one (which
 * cannot take part in a clean-up). */
static void run_abort(struct pfs_engine *e, const char *reason)
{
	char quoted[2 * PATH_MAX + 8];
	const char *line = reason;

	while (*line) {
		size_t len = strcspn(line, "\n");

		fprintf(e->err, "pfsbench: %s%.*s\n", line == reason ? "" : "  ", (int)len, line);
		line += len + (line[len] == '\n');
	}
	(void)end_outputs(e, PFS_RUN_ABORTED, reason);
	if (e->run_dir_made) {
		quote_word(quoted, sizeof(quoted), e->common->dir);
		fprintf(e->err,
			"pfsbench: ending the job; the run's files stay in '%s'; once no rank of it "
			"is left, remove them with: pfsbench clean %s\n",
			e->run_dir, quoted);
	}
	say_results(e);
	fflush(e->err);
	fflush(e->out);
	MPI_Abort(e->comm, PFS_EXIT_FAILED);
}

/* The lowest rank's failure or signal (pfs_first_failure). */
static const char *abort_reason(const struct pfs_engine *e, int status)
{
	if (status == PFS_EXIT_OK)
		return "";
	if (e->failure[0])
		return e->failure;
	return e->interrupted_ranks ? "interrupted by a signal"
				    : "a worker failed; see the messages above";
}

/* ---- the whole run -------------------------------------------------------- */

/* Everything up to the run's first step: the run and worker directories,
 * the workload's setup, the outputs, the common clock. */
static int start(struct pfs_engine *e, const struct pfs_fsinfo *fs, int argc, char **argv)
{
	int rc = e->rank == 0 ? pfs_rundir_make(e) : 0;

	pfs_engine_bcast_int(e, &rc);
	if (rc)
		return -1;
	PFS_MPI_ASLEEP(e, MPI_Ibcast, e->run_dir, sizeof(e->run_dir), MPI_CHAR, 0, e->comm);
	/* Every rank opens the run directory rank 0 made, and no other. */
	PFS_MPI_ASLEEP(e, MPI_Ibcast, &e->run_dir_dev, 1, MPI_UINT64_T, 0, e->comm);
	PFS_MPI_ASLEEP(e, MPI_Ibcast, &e->run_dir_ino, 1, MPI_UINT64_T, 0, e->comm);
	/* A resuming run's items stay until its first step: a run that cannot
	 * start leaves them for another try. */
	e->w.keep = e->persist == PFS_PERSIST_RESUME;
	e->w.state = calloc(1, e->wl->state_size ? e->wl->state_size : 1);
	e->hist[0] = malloc(sizeof(struct pfs_hist));
	e->hist[1] = malloc(sizeof(struct pfs_hist));
	rc = e->w.state && e->hist[0] && e->hist[1] ? pfs_rundir_make_worker(e)
						    : pfs_fail(&e->w, "allocate", "state", ENOMEM);
	/* Every worker's directory before any worker's file (setup makes the
	 * files of stream and matrix): the files then get inode numbers one
	 * after another, as a file per process in one directory does. Left to
	 * the race between one rank's file and the next rank's directory, two
	 * ranks' files on ext4 (Linux 6.18; its streaming writes take their
	 * goal by inode number modulo the possible CPUs, 2 here) often took
	 * the same goal and were written back interleaved in 8 MiB extents,
	 * and their cold reads ran at 0.63-0.70x dd's (docs/benchmarks.md,
	 * "Two ranks' files on ext4"). */
	if (pfs_agree(e, rc != 0) && !rc)
		rc = -ECANCELED;
	if (!rc) {
		rc = e->wl->setup(&e->w);
		e->setup_done = true;
	}
	/* On every rank, also after a failed setup: the roles say who waits
	 * for whose last progress message (pfs_progress_finish). */
	if (pfs_progress_configure(e) && !rc)
		rc = pfs_fail(&e->w, "allocate", "the progress view", ENOMEM);
	if (pfs_agree(e, rc != 0))
		return -1;
	/* Every worker's directory exists now: open the peer's. */
	if (pfs_agree(e, pfs_peer_open(e) != 0))
		return -1;
	if (open_probes(e))
		return -1;
	{
		uint64_t nsteps;

		e->rows_planned = rows_planned(e, &nsteps);
		pfs_timeline_plan(&e->timeline, nsteps > SIZE_MAX ? SIZE_MAX : (size_t)nsteps);
	}
	if (e->rank == 0) {
		describe_run(e, fs, argc, argv);
		rc = begin_outputs(e);
	}
	if (pfs_agree(e, rc != 0))
		return -1;
	/* The run's clock starts here; start_us of every row counts from it. */
	e->w.keep = false;
	pfs_clock_sync(e);
	pfs_engine_barrier(e);
	e->epoch_us = pfs_now_us();
	PFS_MPI_ASLEEP(e, MPI_Ibcast, &e->epoch_us, 1, MPI_UINT64_T, 0, e->comm);
	return 0;
}

/* Removes what the run created (rundir.c). A worker first learns what its
 * reader (--shift) removed of its items: every item is removed exactly once. */
static void remove_run(struct pfs_engine *e)
{
	pfs_peer_exchange(e);
	pfs_rundir_remove(e);
}

/* --output-format json|csv: the workload's report (wl->report) is left
 * out, and the caller's summary writes the rows from the results file at
 * the end; so the caller must have handed over both. The kept outputs are
 * the engine's own copy: the caller's list stays as it was. 0, or -1
 * after rank 0 said why (exit 2). */
static int choose_outputs(struct pfs_engine *e)
{
	size_t n = 0;

	if (e->common->output_format == PFS_FORMAT_TEXT)
		return 0;
	if (!e->summary || !e->wants_results) {
		if (e->rank == 0)
			fprintf(e->err, "pfsbench %s: --output-format %s needs a results file to "
					"read the rows from, and this run writes none\n",
				e->wl->name, pfs_output_format_choices[e->common->output_format]);
		return -1;
	}
	e->kept_outputs = calloc(e->noutputs ? e->noutputs : 1, sizeof(*e->kept_outputs));
	if (!e->kept_outputs) {
		if (e->rank == 0)
			pfs_error("out of memory");
		return -1;
	}
	for (size_t i = 0; i < e->noutputs; i++)
		if (e->outputs[i].ops != e->wl->report)
			e->kept_outputs[n++] = e->outputs[i];
	e->outputs = e->kept_outputs;
	e->noutputs = n;
	return 0;
}

/* --latency-detail: node unless the workload's report reads each rank's
 * histogram (stream), which refuses node. 0, or -1 after rank 0 said why
 * (exit 2). */
static int choose_latency_detail(struct pfs_engine *e)
{
	unsigned detail = e->common->latency_detail;

	if (detail == PFS_LAT_DETAIL_NODE && e->wl->latency_by_rank) {
		if (e->rank == 0)
			fprintf(e->err, "pfsbench %s: --latency-detail node: its report gives each "
					"rank's latency, so it keeps each rank's histograms\n"
					"Try 'pfsbench %s --help'.\n", e->wl->name, e->wl->name);
		return -1;
	}
	e->lat_by_node = detail == PFS_LAT_DETAIL_NODE ||
			 (detail == PFS_LAT_DETAIL_AUTO && !e->wl->latency_by_rank);
	return 0;
}

static int run(struct pfs_engine *e, int argc, char **argv)
{
	struct pfs_fsinfo fs;
	int rc, status = PFS_EXIT_OK;

	rc = parse_options(e, argc, argv);
	if (rc != PFS_PARSE_OK)
		return rc < 0 ? PFS_EXIT_USAGE : PFS_EXIT_OK;
	if (choose_outputs(e) || choose_latency_detail(e))
		return PFS_EXIT_USAGE;
	if (identify(e))
		return PFS_EXIT_FAILED;
	e->persist = e->wl->persist ? e->wl->persist(e->opts, e->persist_key,
						     sizeof(e->persist_key))
				    : PFS_PERSIST_NONE;
	if (e->persist < 0) {
		if (e->rank == 0)
			pfs_error("the options make too long a run directory name");
		return PFS_EXIT_USAGE;
	}
	/* Options that depend on the nodes (--shift) are checked now, still
	 * before anything is created. */
	{
		char err[PFS_USAGE_MAX] = "";

		rc = pfs_peer_plan(e, err, sizeof(err));
		if (rc == -ENOMEM)
			return PFS_EXIT_FAILED;
		if (rc) {
			if (e->rank == 0)
				fprintf(e->err, "pfsbench %s: %s\nTry 'pfsbench %s --help'.\n",
					e->wl->name, err, e->wl->name);
			return PFS_EXIT_USAGE;
		}
	}

	if (probe_direct(e))
		return PFS_EXIT_FAILED;
	rc = e->rank == 0 ? preflight(e, &fs) : 0;
	fflush(e->out);
	pfs_engine_bcast_int(e, &rc);
	if (rc || e->common->dry_run)
		return rc ? PFS_EXIT_USAGE : PFS_EXIT_OK;

	if (start(e, &fs, argc, argv)) {
		remove_run(e);
		/* The empty file preflight made to take the name: nothing
		 * was measured, so nothing is kept. */
		if (e->rank == 0 && !e->results_made &&
		    pfs_results_file_remove(&e->results) == -ESTALE)
			pfs_warn("left '%s': it is no longer the file this run created",
				 e->results_path);
		return PFS_EXIT_FAILED;
	}
	/* Tests outermost, iterations inside, as create_unlink_perf orders them. */
	for (unsigned t = 0; t < e->common->ntests && status == PFS_EXIT_OK; t++)
		for (unsigned it = 1; it <= e->common->iterations && status == PFS_EXIT_OK; it++)
			if (pfs_run_test(e, &e->wl->tests[e->common->tests[t]], it))
				status = PFS_EXIT_FAILED;

	if (status != PFS_EXIT_OK)
		pfs_first_failure(e);
	/* Outputs first: after a signal, mpirun's SIGKILL may come before a
	 * long cleanup ends, and the results file must say "aborted" by then. */
	e->w.keep = e->persist == PFS_PERSIST_LEAVE && status == PFS_EXIT_OK;
	if (e->rank == 0) {
		if (end_outputs(e, status == PFS_EXIT_OK ? PFS_RUN_COMPLETE : PFS_RUN_ABORTED,
				abort_reason(e, status)))
			status = PFS_EXIT_FAILED;
		e->gathered.closed_us = pfs_run_time(e, pfs_now_us());
	}
	if (e->rank == 0 && e->interrupted_ranks)
		say_removing(e, abort_reason(e, status));
	remove_run(e);
	/* The rows as export writes them, from the file just completed: one
	 * writer of JSON and CSV, so they never differ. */
	if (e->rank == 0 && e->summary && e->results_made &&
	    e->common->output_format != PFS_FORMAT_TEXT &&
	    e->summary(e->out, e->results_path, e->common->output_format))
		status = PFS_EXIT_FAILED;
	pfs_engine_bcast_int(e, &status);
	if (e->rank == 0)
		say_results(e);
	return status;
}

/* PFSBENCH_DEBUG_SCALE set: what rank 0 gathered and held over the run
 * (the records of its largest block, the ticks' most rounds in one),
 * for tests/engine/scale.sh and docs/scale.md. Its peak memory is the
 * process's largest resident set (getrusage: VmHWM), MPI's own included;
 * the time is from the latest row's end to the results file's close, on
 * the run's clock: the last test iteration's gather, its writing and the
 * file's end. */
static void say_scale(const struct pfs_engine *e)
{
	const char *env = getenv("PFSBENCH_DEBUG_SCALE");
	/* Now, not at the peak: the process's own memory, the files it
	 * maps (libraries) and shared memory (Open MPI's shared-memory
	 * transport maps each peer's segment: docs/scale.md). */
	const char *keys[] = { "RssAnon:", "RssFile:", "RssShmem:" };
	long kb[3] = { -1, -1, -1 };
	char line[256];
	struct rusage ru;
	FILE *f;

	if (e->rank != 0 || !e->results_made || !env || !*env || getrusage(RUSAGE_SELF, &ru))
		return;
	f = fopen("/proc/self/status", "re");
	while (f && fgets(line, sizeof(line), f))
		for (size_t i = 0; i < 3; i++)
			if (!strncmp(line, keys[i], strlen(keys[i])))
				kb[i] = strtol(line + strlen(keys[i]), NULL, 10);
	if (f)
		fclose(f);
	fprintf(e->err,
		"pfsbench: scale: %d ranks on %u nodes; rank 0 gathered %" PRIu64 " rows, %" PRIu64
		" latency cells, %" PRIu64 " ticks, %" PRIu64 " fsstats, at most %" PRIu64
		" bytes in one block (ticks in %u rounds); peak memory %ld kB (at the end: %ld "
		"anonymous, %ld files, %ld shared); last op's end to the results file closed: "
		"%.3f s\n",
		e->nranks, e->topo.nnodes, e->gathered.rows, e->gathered.cells, e->gathered.ticks,
		e->gathered.fsstats, e->gathered.block_max_bytes, e->gathered.tick_rounds,
		ru.ru_maxrss, kb[0], kb[1], kb[2],
		e->gathered.closed_us > e->gathered.last_end_us
			? (double)(e->gathered.closed_us - e->gathered.last_end_us) / 1e6
			: 0.0);
	fflush(e->err);
}

int pfs_engine_main(const struct pfs_workload *wl, int argc, char **argv, MPI_Comm comm,
		    const struct pfs_engine_io *io)
{
	struct pfs_engine e;
	FILE *messages;
	int status;

	memset(&e, 0, sizeof(e));
	e.out = io->out;
	e.err = io->err;
	e.outputs = io->outputs;
	e.noutputs = io->noutputs;
	e.summary = io->summary;
	for (size_t i = 0; i < e.noutputs; i++)
		if (e.outputs[i].ops->flags & PFS_OUTPUT_RESULTS_FILE)
			e.wants_results = true;
	messages = pfs_messages_to(e.err);
	e.row_type = e.cell_type = e.tick_type = e.fsstat_type = MPI_DATATYPE_NULL;
	e.prog_req = e.sw_req = MPI_REQUEST_NULL;
	e.w.node_name = "?";
	e.watch = pfs_watchdog_check;
	e.abort_run = run_abort;
	if (MPI_Comm_dup(comm, &e.comm) != MPI_SUCCESS) {
		pfs_error("MPI_Comm_dup failed; stopping the job");
		MPI_Abort(comm, PFS_EXIT_FAILED);
	}
	/* Errors come back to the caller, so that each can be named. */
	PFS_MPI(&e, MPI_Comm_set_errhandler, (e.comm, MPI_ERRORS_RETURN));
	PFS_MPI(&e, MPI_Comm_rank, (e.comm, &e.rank));
	PFS_MPI(&e, MPI_Comm_size, (e.comm, &e.nranks));
	e.wl = wl;
	e.opts = calloc(1, wl->opts_size);
	if (pfs_all_allocated(&e, e.opts && !pfs_gather_init(&e) && !pfs_progress_init(&e),
			      "starting the run")) {
		pfs_progress_free(&e);
		free(e.opts);
		pfs_gather_free(&e);
		PFS_MPI(&e, MPI_Comm_free, (&e.comm));
		pfs_messages_to(messages);
		return PFS_EXIT_FAILED;
	}
	e.common = e.opts;
	e.w.rank = e.rank;
	e.w.engine = &e;
	e.w.tick = pfs_engine_tick;
	e.w.dirfd = -1;
	e.w.peer_dirfd = -1;
	e.marker_fd = -1;
	e.target_dirfd = e.run_dirfd = e.w.run_dirfd = -1;
	pfs_results_file_init(&e.results);
	e.schedstat_fd = pfs_schedstat_open();
	pfs_cgroup_meter_open(&e.throttle);
	e.peer_rank = e.reader_rank = -1;
	e.w.opts = e.opts;
	e.w.out = e.out;
	e.w.err = e.err;
	pfs_stop_recv_post(&e);
	e.stop_relays = true;
	if (pfs_interrupt_install())
		pfs_warn("cannot catch SIGINT and SIGTERM; an interrupted run's results file "
			 "will say running, not aborted");

	status = run(&e, argc, argv);
	pfs_interrupt_restore();
	/* Every progress message sent has been received. */
	pfs_progress_finish(&e);
	say_scale(&e);

	/* A notice sent after the last step (a signal during the cleanup)
	 * is received before the receive for them is cancelled. */
	(void)pfs_agree(&e, false);
	e.stop_relays = false;
	PFS_MPI(&e, MPI_Cancel, (&e.stop_recv));
	PFS_MPI(&e, MPI_Wait, (&e.stop_recv, MPI_STATUS_IGNORE));
	fflush(e.out);
	free(e.w.state);
	free(e.hist[0]);
	free(e.hist[1]);
	if (e.schedstat_fd >= 0)
		close(e.schedstat_fd);
	pfs_cgroup_meter_close(&e.throttle);
	free(e.rows);
	free(e.cells);
	free(e.fsstats);
	pfs_progress_free(&e);
	free(e.opts);
	free(e.kept_outputs);
	free(e.direct);
	pfs_results_file_close(&e.results);
	pfs_topology_free(&e.topo);
	pfs_gather_free(&e);
	PFS_MPI(&e, MPI_Comm_free, (&e.comm));
	pfs_messages_to(messages);
	return status;
}
