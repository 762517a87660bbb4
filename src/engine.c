/* engine.c: the phase engine. It owns everything a workload must not repeat:
 * option broadcast, the target checks, the run directory, cache dropping,
 * barriers and clocks, agreement on errors, gathering rows to rank 0 and
 * handing them to the outputs, and cleanup. A workload only says what its
 * ops do (include/pfsbench/workload.h).
 *
 * A test is a plan of steps. Each step: the node leaders drop caches, every
 * rank meets at a barrier, the assigned ranks run their op under the clock,
 * and all ranks agree on whether anyone failed. */
#include "pfsbench/archive.h"
#include "pfsbench/engine.h"
#include "pfsbench/fsinfo.h"
#include "pfsbench/interrupt.h"
#include "pfsbench/options.h"
#include "pfsbench/output.h"
#include "pfsbench/topology.h"
#include "pfsbench/util.h"
#include "pfsbench/workload.h"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define TAG_STOP 4711
#define TAG_CLOCK 4712
#define CLOCK_ROUNDS 8
#define MAX_OUTPUTS 4

struct pfs_engine {
	MPI_Comm comm;
	int rank, nranks;
	const struct pfs_workload *wl;
	void *opts;
	struct pfs_common_opts *common;
	struct pfs_topology topo;
	struct pfs_worker w;
	int64_t clock_offset_us; /* this node's clock to node 0's */
	uint64_t epoch_us;        /* the run's start, on node 0's clock */
	char run_dir[PATH_MAX];
	bool run_dir_made, worker_dir_made, setup_done;
	int persist; /* enum pfs_persist */
	char persist_key[128];

	/* Stop notices: a failing rank tells every other rank at once, so that
	 * loops elsewhere end within PFS_POLL_EVERY items, not at the phase's
	 * end. Each rank keeps one receive posted for them. */
	MPI_Request stop_recv;
	int stop_buf;
	bool stop_recv_done;
	MPI_Request *stop_sends;
	bool sent_stop;

	/* This rank's rows of the current test iteration. */
	struct pfs_row *rows;
	size_t nrows, cap;

	/* Rank 0 only. */
	char results_path[PATH_MAX];
	struct pfs_run_info ri;
	struct pfs_output outputs[MAX_OUTPUTS];
	size_t noutputs;
	struct pfs_row *all_rows;
	bool drop_failed;
	int interrupted_ranks; /* ranks that caught SIGINT/SIGTERM, at the last agreement */
	char failure[512];     /* this rank's first failure; on rank 0 after a failed
				* run, the lowest failing rank's (first_failure) */
};

/* ---- stop notices and agreement ------------------------------------- */

static void post_stop_recv(struct pfs_engine *e)
{
	e->stop_recv_done = false;
	MPI_Irecv(&e->stop_buf, 1, MPI_INT, MPI_ANY_SOURCE, TAG_STOP, e->comm, &e->stop_recv);
}

static void send_stops(struct pfs_engine *e)
{
	if (e->sent_stop || e->nranks == 1)
		return;
	e->stop_sends = calloc((size_t)e->nranks, sizeof(MPI_Request));
	if (!e->stop_sends)
		return; /* the others still learn of it at the step's end */
	e->sent_stop = true;
	for (int r = 0; r < e->nranks; r++) {
		e->stop_sends[r] = MPI_REQUEST_NULL;
		if (r != e->rank)
			MPI_Isend(&e->rank, 1, MPI_INT, r, TAG_STOP, e->comm, &e->stop_sends[r]);
	}
}

bool pfs_engine_poll(struct pfs_worker *w)
{
	struct pfs_engine *e = w->engine;
	int done = 0;

	if (w->stopped)
		return true;
	if (pfs_interrupted()) {
		w->stopped = true;
		return true;
	}
	if (!e->stop_recv_done && MPI_Test(&e->stop_recv, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS &&
	    done)
		e->stop_recv_done = true;
	w->stopped = e->stop_recv_done;
	return w->stopped;
}

int pfs_fail(struct pfs_worker *w, const char *op, const char *name, int err)
{
	struct pfs_engine *e = w->engine;

	if (!w->failed) {
		w->failed = true;
		/* Cut when extreme: the message must still be printed. */
		(void)pfs_format(e->failure, sizeof(e->failure), "node %s worker %u: cannot %s '%s%s%s': %s",
				 w->node_name, w->worker, op, w->dir, name && *name ? "/" : "",
				 name ? name : "", strerror(err));
		pfs_error("%s", e->failure);
		if (!w->stopped)
			send_stops(e);
	}
	return -err;
}

/* Every rank calls this at the same point. Returns how many ranks failed
 * or were interrupted by a signal (0 when all is well) and leaves no stop
 * notice in flight: each rank receives exactly as many notices as were sent
 * to it. */
static int agree(struct pfs_engine *e, bool failed)
{
	int in[3] = { failed ? 1 : 0, e->sent_stop ? 1 : 0, pfs_interrupted() ? 1 : 0 };
	int out[3] = { 0, 0, 0 };

	if (MPI_Allreduce(in, out, 3, MPI_INT, MPI_SUM, e->comm) != MPI_SUCCESS) {
		pfs_error("rank %d: MPI_Allreduce failed; aborting every rank", e->rank);
		MPI_Abort(e->comm, PFS_EXIT_FAILED);
	}
	int expect = out[1] - (e->sent_stop ? 1 : 0);

	for (int i = 0; i < expect; i++) {
		if (!e->stop_recv_done)
			MPI_Wait(&e->stop_recv, MPI_STATUS_IGNORE);
		post_stop_recv(e);
	}
	if (e->sent_stop) {
		MPI_Waitall(e->nranks, e->stop_sends, MPI_STATUSES_IGNORE);
		free(e->stop_sends);
		e->stop_sends = NULL;
		e->sent_stop = false;
	}
	e->w.stopped = false;
	e->w.failed = false;
	e->interrupted_ranks = out[2];
	return out[0] + out[2];
}

/* ---- options ---------------------------------------------------------- */

static void usage(const struct pfs_workload *wl, FILE *out)
{
	fprintf(out, "Usage: pfsbench %s %s\n%s\n\nOptions:\n", wl->name, wl->synopsis, wl->summary);
	pfs_opts_usage(out, wl->options);
	fprintf(out, "\nSee pfsbench(1) and docs/methodology.md.\n");
}

/* Rank 0 parses and checks; every rank gets the options or the verdict. */
static int parse_options(struct pfs_engine *e, int argc, char **argv)
{
	const struct pfs_workload *wl = e->wl;
	int rc = 0;

	if (e->rank == 0) {
		const char *names[PFS_MAX_TESTS + 1] = { 0 };
		char err[512] = "";

		wl->defaults(e->opts);
		e->common->iterations = 1;
		e->common->drop_caches = true;
		rc = pfs_opts_parse(wl->options, e->opts, argc, argv, err, sizeof(err));
		for (unsigned i = 0; wl->tests[i].name && i < PFS_MAX_TESTS; i++)
			names[i] = wl->tests[i].name;
		if (rc == PFS_PARSE_OK)
			rc = pfs_tests_select(e->common->test_list, names, e->common->tests,
					      &e->common->ntests, err, sizeof(err));
		if (rc == PFS_PARSE_OK)
			rc = wl->validate(e->opts, err, sizeof(err));
		if (rc == PFS_PARSE_HELP)
			usage(wl, stdout);
		else if (rc == PFS_PARSE_VERSION)
			printf("pfsbench %s\n", PACKAGE_VERSION);
		else if (rc < 0)
			fprintf(stderr, "pfsbench %s: %s\nTry 'pfsbench %s --help'.\n", wl->name, err,
				wl->name);
		fflush(stdout);
	}
	MPI_Bcast(&rc, 1, MPI_INT, 0, e->comm);
	if (rc == PFS_PARSE_OK)
		MPI_Bcast(e->opts, (int)wl->opts_size, MPI_BYTE, 0, e->comm);
	return rc;
}

/* ---- the run directory ------------------------------------------------ */

static void iso_time(char *buf, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* Replaces any '/' in the last component of path (a node name, a key). */
static void flatten_last(char *path)
{
	for (char *p = strrchr(path, '/') + 1; *p; p++)
		if (*p == '/')
			*p = '_';
}

/* A run that leaves its items for a later one, or resumes them, works in
 * DIR/pfsbench.<workload>.<key>, a name both runs derive from the options.
 * Names it and checks, before anything is created, that it is there for a
 * resuming run and not there for a leaving one. Returns 0, or -EEXIST or
 * -ENOENT with a message. */
static int check_persist_dir(struct pfs_engine *e)
{
	struct stat st;
	bool there;

	if (pfs_format(e->run_dir, sizeof(e->run_dir), "%s/pfsbench.%s.%s", e->common->dir,
		       e->wl->name, e->persist_key))
		return pfs_error("the run directory name under '%s' is too long", e->common->dir);
	flatten_last(e->run_dir);
	there = !stat(e->run_dir, &st) && S_ISDIR(st.st_mode);
	if (e->persist == PFS_PERSIST_LEAVE && there) {
		pfs_error("'%s' exists: an earlier run with these options left it there; remove "
			  "it first (see pfsbench %s --help)", e->run_dir, e->wl->name);
		return -EEXIST;
	}
	if (e->persist == PFS_PERSIST_RESUME && !there) {
		pfs_error("nothing to resume: no earlier run with these options left '%s'",
			  e->run_dir);
		return -ENOENT;
	}
	return 0;
}

/* A name no other run shares: time, host and the batch job (or pid). */
static int name_fresh_run_dir(struct pfs_engine *e)
{
	const char *job = getenv("SLURM_JOB_ID");
	char stamp[32], jobbuf[32];
	time_t now = time(NULL);
	struct tm tm;

	if (!job)
		job = getenv("PBS_JOBID");
	if (!job)
		job = getenv("LSB_JOBID");
	if (!job) {
		snprintf(jobbuf, sizeof(jobbuf), "p%ld", (long)getpid());
		job = jobbuf;
	}
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%S", &tm);
	if (pfs_format(e->run_dir, sizeof(e->run_dir), "%s/pfsbench.%s.%s.%s", e->common->dir,
		       stamp, e->topo.nodes[0].name, job))
		return pfs_error("the run directory name under '%s' is too long", e->common->dir);
	flatten_last(e->run_dir);
	return 0;
}

/* A persistent run's directory was named by check_persist_dir; a resuming
 * run finds it there, and owns it from now on. */
static int make_run_dir(struct pfs_engine *e)
{
	if (e->persist == PFS_PERSIST_NONE && name_fresh_run_dir(e))
		return -1;
	if (e->persist != PFS_PERSIST_RESUME && mkdir(e->run_dir, 0755))
		return pfs_error("cannot create '%s': %s", e->run_dir, strerror(errno));
	e->run_dir_made = true;
	return 0;
}

static int make_worker_dir(struct pfs_engine *e)
{
	struct pfs_worker *w = &e->w;

	if (pfs_format(w->dir, sizeof(w->dir), "%s/%s.%u", e->run_dir, w->node_name, w->worker))
		return pfs_error("the worker directory name is too long");
	flatten_last(w->dir);
	if (e->persist != PFS_PERSIST_RESUME && mkdir(w->dir, 0755))
		return pfs_fail(w, "create", NULL, errno);
	e->worker_dir_made = true;
	w->dirfd = open(w->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (w->dirfd < 0)
		return pfs_fail(w, "open", NULL, errno);
	return 0;
}

/* Removes what the run created and nothing else: the workload removes its
 * own items, then each worker its empty directory, then rank 0 the run
 * directory. rmdir never removes a directory someone else filled. When the
 * run leaves its items for a later one (w->keep), all of it stays. */
static void remove_run(struct pfs_engine *e)
{
	struct pfs_worker *w = &e->w;

	if (e->setup_done && e->wl->cleanup(w))
		pfs_warn("node %s worker %u: some files were left in '%s'", w->node_name, w->worker,
			 w->dir);
	if (w->dirfd >= 0)
		close(w->dirfd);
	w->dirfd = -1;
	if (e->worker_dir_made && !w->keep && rmdir(w->dir))
		pfs_warn("cannot remove '%s': %s", w->dir, strerror(errno));
	MPI_Barrier(e->comm);
	if (e->rank == 0 && e->run_dir_made && !w->keep && rmdir(e->run_dir))
		pfs_warn("cannot remove '%s': %s", e->run_dir, strerror(errno));
}

/* ---- checks before anything is created ---------------------------------- */

/* --dry-run: the workload says what the plan makes, the engine what it
 * needs; preflight then says whether the target has it. */
static void print_dry_run(struct pfs_engine *e, const struct pfs_needs *needs)
{
	printf("pfsbench %s --dry-run: nothing is created\n", e->wl->name);
	if (e->wl->dry_run)
		e->wl->dry_run(stdout, e->opts, (unsigned)e->nranks, e->topo.nnodes);
	printf("the run needs %" PRIu64 " KiB and %" PRIu64 " inodes in '%s'\n",
	       needs->bytes / 1024 + (needs->bytes % 1024 != 0), needs->inodes, e->common->dir);
}

static int preflight(struct pfs_engine *e, struct pfs_fsinfo *fs)
{
	struct pfs_needs needs = { 0, 0 };
	char why[PATH_MAX + 128];
	int rc;

	e->wl->needs(e->opts, (unsigned)e->nranks, &needs);
	if (e->common->dry_run)
		print_dry_run(e, &needs);
	rc = pfs_check_dir(e->common->dir, why, sizeof(why));
	if (rc)
		return pfs_error("%s", why);
	rc = pfs_fsinfo_get(e->common->dir, fs);
	if (rc)
		return pfs_error("cannot statvfs '%s': %s", e->common->dir, strerror(-rc));
	if (pfs_results_path(e->results_path, sizeof(e->results_path), e->common->results,
			     e->wl->name))
		return pfs_error("the results file name is too long");
	if (pfs_results_path_check(e->results_path, e->common->dir, why, sizeof(why)))
		return pfs_error("%s", why);
	if (!e->common->force && needs.bytes > fs->bytes_free)
		return pfs_error("'%s' has %" PRIu64 " MiB free; this run needs %" PRIu64
				 " MiB (use --force to run anyway, or lower the counts)",
				 e->common->dir, fs->bytes_free >> 20, (needs.bytes + (1 << 20) - 1) >> 20);
	if (!e->common->force && needs.inodes > fs->inodes_free)
		return pfs_error("'%s' has %" PRIu64 " free inodes; this run needs %" PRIu64
				 " (use --force to run anyway)",
				 e->common->dir, fs->inodes_free, needs.inodes);
	if (e->persist != PFS_PERSIST_NONE && check_persist_dir(e))
		return -1;
	if (e->common->dry_run)
		printf("'%s' (%s) has %" PRIu64 " KiB and %" PRIu64 " inodes free: the plan fits\n",
		       e->common->dir, fs->fstype, fs->bytes_free / 1024, fs->inodes_free);
	return 0;
}

/* ---- one clock for all nodes ---------------------------------------------- */

/* Rows of different nodes are ordered by their end times, so every rank
 * states times on node 0's clock. Ranks of one node share CLOCK_MONOTONIC,
 * so only node leaders measure their offset to rank 0: the round trip with
 * the least delay of CLOCK_ROUNDS, offset = remote - (send + receive) / 2
 * (Cristian's method; the error is at most half that round trip). */
static void sync_clocks(struct pfs_engine *e)
{
	bool leader = e->topo.nodes[e->w.node].leader_rank == e->rank;
	int64_t offset = 0;
	MPI_Comm node_comm;

	if (e->rank == 0) {
		for (unsigned n = 1; n < e->topo.nnodes; n++)
			for (int k = 0; k < CLOCK_ROUNDS; k++) {
				int peer = e->topo.nodes[n].leader_rank;
				uint64_t now;

				MPI_Recv(NULL, 0, MPI_BYTE, peer, TAG_CLOCK, e->comm, MPI_STATUS_IGNORE);
				now = pfs_now_us();
				MPI_Send(&now, 1, MPI_UINT64_T, peer, TAG_CLOCK, e->comm);
			}
	} else if (leader) {
		uint64_t best = UINT64_MAX;

		for (int k = 0; k < CLOCK_ROUNDS; k++) {
			uint64_t t1 = pfs_now_us(), remote, t2;

			MPI_Send(NULL, 0, MPI_BYTE, 0, TAG_CLOCK, e->comm);
			MPI_Recv(&remote, 1, MPI_UINT64_T, 0, TAG_CLOCK, e->comm, MPI_STATUS_IGNORE);
			t2 = pfs_now_us();
			if (t2 - t1 < best) {
				best = t2 - t1;
				offset = (int64_t)remote - (int64_t)(t1 + (t2 - t1) / 2);
			}
		}
	}
	MPI_Comm_split(e->comm, (int)e->w.node, e->rank, &node_comm);
	MPI_Bcast(&offset, 1, MPI_INT64_T, 0, node_comm);
	MPI_Comm_free(&node_comm);
	e->clock_offset_us = offset;
}

/* Microseconds since the run's start barrier, on node 0's clock. A clock
 * estimate a few microseconds off cannot make a time negative. */
static uint64_t run_time(const struct pfs_engine *e, uint64_t local_us)
{
	int64_t t = (int64_t)local_us + e->clock_offset_us - (int64_t)e->epoch_us;

	return t > 0 ? (uint64_t)t : 0;
}

/* ---- rows --------------------------------------------------------------- */

static int add_row(struct pfs_engine *e, const char *test, unsigned it, unsigned step,
		   unsigned sample, const struct pfs_sample *s, uint64_t t0, uint64_t t1)
{
	struct pfs_row *r;

	if (e->nrows == e->cap) {
		size_t cap = e->cap ? e->cap * 2 : 64;
		struct pfs_row *nr = realloc(e->rows, cap * sizeof(*nr));

		if (!nr)
			return -ENOMEM;
		e->rows = nr;
		e->cap = cap;
	}
	r = &e->rows[e->nrows++];
	memset(r, 0, sizeof(*r));
	pfs_row_set_text(r->test, sizeof(r->test), test);
	pfs_row_set_text(r->op, sizeof(r->op), s->op);
	pfs_row_set_text(r->node, sizeof(r->node), e->w.node_name);
	r->iteration = it;
	r->node_index = e->w.node;
	r->worker = e->w.worker;
	r->rank = (uint32_t)e->rank;
	r->step = step;
	r->sample = sample;
	r->start_us = run_time(e, t0);
	r->elapsed_us = s->timed ? s->elapsed_us : t1 - t0;
	r->files = s->files;
	r->bytes = s->bytes;
	return 0;
}

/* Gathers every rank's rows of one test iteration to rank 0, puts them in
 * the test's order and gives them to the outputs. */
static int gather_rows(struct pfs_engine *e, enum pfs_order order)
{
	int n = (int)(e->nrows * sizeof(struct pfs_row)), *counts = NULL, *displs = NULL;
	size_t total = 0;
	int rc = 0;

	if (e->rank == 0) {
		counts = calloc((size_t)e->nranks, sizeof(int));
		displs = calloc((size_t)e->nranks, sizeof(int));
	}
	MPI_Gather(&n, 1, MPI_INT, counts, 1, MPI_INT, 0, e->comm);
	if (e->rank == 0) {
		for (int r = 0; r < e->nranks; r++) {
			displs[r] = (int)total;
			total += (size_t)counts[r];
		}
		free(e->all_rows);
		e->all_rows = malloc(total ? total : 1);
	}
	MPI_Gatherv(e->rows, n, MPI_BYTE, e->all_rows, counts, displs, MPI_BYTE, 0, e->comm);
	if (e->rank == 0) {
		size_t nrows = total / sizeof(struct pfs_row);

		pfs_rows_sort(e->all_rows, nrows, order);
		for (size_t i = 0; i < e->noutputs; i++)
			if (e->outputs[i].ops->block(&e->outputs[i], &e->ri, e->all_rows, nrows))
				rc = -EIO;
	}
	free(counts);
	free(displs);
	e->nrows = 0;
	return rc;
}

/* ---- steps and tests ---------------------------------------------------- */

static int op_of_node(const struct pfs_step *s, unsigned node)
{
	for (unsigned i = 0; i < s->nassign; i++)
		if (s->assign[i].node == PFS_ALL_NODES || (unsigned)s->assign[i].node == node)
			return (int)s->assign[i].op;
	return -1;
}

/* The node leaders sync and drop the page cache, so every phase starts cold
 * on every node, as create_unlink_perf does. A failure is reported once and
 * recorded; later phases then run without dropping. */
static void drop_caches(struct pfs_engine *e)
{
	int rc = 0, worst = 0;

	if (!e->common->drop_caches || e->drop_failed)
		return;
	if (e->topo.nodes[e->w.node].leader_rank == e->rank)
		rc = pfs_drop_caches();
	MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MIN, e->comm);
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

/* Runs one iteration of one test. Returns 0, or -1 when a rank failed. */
static int run_test(struct pfs_engine *e, const struct pfs_test *t, unsigned it)
{
	unsigned nnodes = e->topo.nnodes;
	size_t nsteps = t->plan(e->opts, nnodes, NULL, 0);
	struct pfs_step *steps = calloc(nsteps ? nsteps : 1, sizeof(*steps));
	int failed = 0;

	if (!steps)
		return pfs_error("out of memory");
	t->plan(e->opts, nnodes, steps, nsteps);
	for (size_t s = 0; s < nsteps && !failed; s++) {
		struct pfs_sample samples[PFS_MAX_SAMPLES];
		unsigned nsamples = 0;
		int op = op_of_node(&steps[s], e->w.node), rc = 0;
		uint64_t t0, t1;

		drop_caches(e);
		MPI_Barrier(e->comm);
		if (op >= 0) {
			e->w.poll_countdown = PFS_POLL_EVERY;
			t0 = pfs_now_us();
			rc = e->wl->run_op(&e->w, (unsigned)op, samples, &nsamples);
			t1 = pfs_now_us();
			for (unsigned i = 0; !rc && i < nsamples; i++)
				if (add_row(e, t->name, it, (unsigned)s, i, &samples[i], t0, t1))
					rc = pfs_fail(&e->w, "record", "rows", ENOMEM);
		}
		failed = agree(e, rc != 0 && e->w.failed);
	}
	free(steps);
	if (gather_rows(e, t->order) && e->rank == 0)
		pfs_warn("an output failed to record test %s iteration %u", t->name, it);
	return failed ? -1 : 0;
}

/* ---- the whole run -------------------------------------------------------- */

static void join_args(char *buf, size_t len, int argc, char **argv)
{
	size_t n = (size_t)snprintf(buf, len, "pfsbench");

	for (int i = 0; i < argc && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, " %s", argv[i]);
}

/* Each node's memory, as its leader sees it: for the results file. */
static void gather_memory(struct pfs_engine *e)
{
	uint64_t mine = pfs_local_mem_bytes(), *all = malloc((size_t)e->nranks * sizeof(*all));

	if (!all)
		MPI_Abort(e->comm, PFS_EXIT_FAILED);
	MPI_Allgather(&mine, 1, MPI_UINT64_T, all, 1, MPI_UINT64_T, e->comm);
	for (unsigned n = 0; n < e->topo.nnodes; n++)
		e->topo.nodes[n].mem_bytes = all[e->topo.nodes[n].leader_rank];
	free(all);
}

static int identify(struct pfs_engine *e)
{
	char name[PFS_NODE_NAME_MAX], addr[PFS_ADDR_MAX];
	char *names = NULL, *addrs = NULL;
	int rc = pfs_local_identity(name, addr), worst = 0;

	MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MIN, e->comm);
	if (worst)
		return -1;
	names = malloc((size_t)e->nranks * PFS_NODE_NAME_MAX);
	addrs = malloc((size_t)e->nranks * PFS_ADDR_MAX);
	if (!names || !addrs)
		MPI_Abort(e->comm, PFS_EXIT_FAILED);
	MPI_Allgather(name, PFS_NODE_NAME_MAX, MPI_CHAR, names, PFS_NODE_NAME_MAX, MPI_CHAR,
		      e->comm);
	MPI_Allgather(addr, PFS_ADDR_MAX, MPI_CHAR, addrs, PFS_ADDR_MAX, MPI_CHAR, e->comm);
	if (pfs_topology_group(&e->topo, names, e->nranks))
		MPI_Abort(e->comm, PFS_EXIT_FAILED);
	for (unsigned n = 0; n < e->topo.nnodes; n++)
		memcpy(e->topo.nodes[n].addr, addrs + (size_t)e->topo.nodes[n].leader_rank * PFS_ADDR_MAX,
		       PFS_ADDR_MAX);
	gather_memory(e);
	free(names);
	free(addrs);
	e->w.node = e->topo.node_of_rank[e->rank];
	e->w.worker = e->topo.worker_of_rank[e->rank];
	e->w.node_name = e->topo.nodes[e->w.node].name;
	return 0;
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

static void begin_outputs(struct pfs_engine *e, const struct pfs_fsinfo *fs, char *cmdline)
{
	struct pfs_run_info *ri = &e->ri;

	ri->workload = e->wl;
	ri->opts = e->opts;
	ri->dir = e->common->dir;
	ri->run_dir = e->run_dir;
	ri->results_path = e->results_path;
	snprintf(ri->fstype, sizeof(ri->fstype), "%s", fs->fstype);
	snprintf(ri->mount_source, sizeof(ri->mount_source), "%s", fs->mount_source);
	snprintf(ri->mount_options, sizeof(ri->mount_options), "%s", fs->mount_options);
	snprintf(ri->mount_point, sizeof(ri->mount_point), "%s", fs->mount_point);
	snprintf(ri->lockproto, sizeof(ri->lockproto), "%s", fs->lockproto);
	snprintf(ri->locktable, sizeof(ri->locktable), "%s", fs->locktable);
	mpi_version(ri->mpi_version, sizeof(ri->mpi_version));
	ri->nranks = (unsigned)e->nranks;
	ri->nnodes = e->topo.nnodes;
	ri->nodes = e->topo.nodes;
	ri->workers_min = e->topo.workers_min;
	ri->workers_max = e->topo.workers_max;
	ri->caches_dropped = e->common->drop_caches;
	if (!e->common->drop_caches)
		snprintf(ri->caches_note, sizeof(ri->caches_note),
			 "caches were not dropped: --no-drop-caches");
	ri->command_line = cmdline;
	iso_time(ri->start_time, sizeof(ri->start_time));
	e->outputs[e->noutputs++] = (struct pfs_output){ .ops = e->wl->report, .fp = stdout };
	e->outputs[e->noutputs++] = (struct pfs_output){ .ops = &pfs_output_hdf5 };
	for (size_t i = 0; i < e->noutputs; i++)
		if (e->outputs[i].ops->begin(&e->outputs[i], ri))
			pfs_warn("output %s could not start", e->outputs[i].ops->name);
}

static void end_outputs(struct pfs_engine *e, enum pfs_run_status st, const char *reason)
{
	iso_time(e->ri.end_time, sizeof(e->ri.end_time));
	for (size_t i = 0; i < e->noutputs; i++)
		e->outputs[i].ops->end(&e->outputs[i], &e->ri, st, reason);
}

/* After a failed run: rank 0 gets the message of the lowest rank that
 * failed, so the results file says what went wrong, not only that it did. */
static void first_failure(struct pfs_engine *e)
{
	char *all = e->rank == 0 ? calloc((size_t)e->nranks, sizeof(e->failure)) : NULL;

	MPI_Gather(e->failure, sizeof(e->failure), MPI_CHAR, all, sizeof(e->failure), MPI_CHAR, 0,
		   e->comm);
	for (int r = 0; all && r < e->nranks; r++)
		if (all[(size_t)r * sizeof(e->failure)]) {
			memcpy(e->failure, all + (size_t)r * sizeof(e->failure), sizeof(e->failure));
			break;
		}
	free(all);
}

static const char *abort_reason(const struct pfs_engine *e, int status)
{
	int sig = pfs_interrupted();

	if (status == PFS_EXIT_OK)
		return "";
	if (sig == SIGINT)
		return "interrupted by SIGINT";
	if (sig == SIGTERM)
		return "interrupted by SIGTERM";
	if (e->interrupted_ranks)
		return "interrupted by a signal to another rank";
	return e->failure[0] ? e->failure : "a worker failed; see the messages above";
}

static int run(struct pfs_engine *e, int argc, char **argv)
{
	struct pfs_fsinfo fs;
	char cmdline[4096];
	int rc, status = PFS_EXIT_OK;

	rc = parse_options(e, argc, argv);
	if (rc != PFS_PARSE_OK)
		return rc < 0 ? PFS_EXIT_USAGE : PFS_EXIT_OK;
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

	rc = e->rank == 0 ? preflight(e, &fs) : 0;
	fflush(stdout);
	MPI_Bcast(&rc, 1, MPI_INT, 0, e->comm);
	if (rc || e->common->dry_run)
		return rc ? PFS_EXIT_USAGE : PFS_EXIT_OK;

	rc = e->rank == 0 ? make_run_dir(e) : 0;
	MPI_Bcast(&rc, 1, MPI_INT, 0, e->comm);
	if (rc)
		return PFS_EXIT_FAILED;
	MPI_Bcast(e->run_dir, sizeof(e->run_dir), MPI_CHAR, 0, e->comm);
	/* A resuming run's items stay until its first step: a run that cannot
	 * start leaves them for another try. */
	e->w.keep = e->persist == PFS_PERSIST_RESUME;
	e->w.state = calloc(1, e->wl->state_size ? e->wl->state_size : 1);
	rc = e->w.state ? make_worker_dir(e) : pfs_fail(&e->w, "allocate", "state", ENOMEM);
	if (!rc) {
		rc = e->wl->setup(&e->w);
		e->setup_done = true;
	}
	if (agree(e, rc != 0)) {
		remove_run(e);
		return PFS_EXIT_FAILED;
	}

	if (e->rank == 0) {
		join_args(cmdline, sizeof(cmdline), argc, argv);
		begin_outputs(e, &fs, cmdline);
	}
	/* The run's clock starts here; start_us of every row counts from it. */
	e->w.keep = false;
	sync_clocks(e);
	MPI_Barrier(e->comm);
	e->epoch_us = pfs_now_us();
	MPI_Bcast(&e->epoch_us, 1, MPI_UINT64_T, 0, e->comm);

	/* Tests outermost, iterations inside, as create_unlink_perf orders them. */
	for (unsigned t = 0; t < e->common->ntests && status == PFS_EXIT_OK; t++)
		for (unsigned it = 1; it <= e->common->iterations && status == PFS_EXIT_OK; it++)
			if (run_test(e, &e->wl->tests[e->common->tests[t]], it))
				status = PFS_EXIT_FAILED;

	if (status != PFS_EXIT_OK)
		first_failure(e);
	/* Outputs first: after a signal, mpirun's SIGKILL may come before a
	 * long cleanup ends, and the results file must say "aborted" by then. */
	e->w.keep = e->persist == PFS_PERSIST_LEAVE && status == PFS_EXIT_OK;
	if (e->rank == 0)
		end_outputs(e, status == PFS_EXIT_OK ? PFS_RUN_COMPLETE : PFS_RUN_ABORTED,
			    abort_reason(e, status));
	remove_run(e);
	return status;
}

int pfs_engine_main(const struct pfs_workload *wl, int argc, char **argv, MPI_Comm comm)
{
	struct pfs_engine e;
	int status;

	memset(&e, 0, sizeof(e));
	MPI_Comm_dup(comm, &e.comm);
	MPI_Comm_set_errhandler(e.comm, MPI_ERRORS_RETURN);
	MPI_Comm_rank(e.comm, &e.rank);
	MPI_Comm_size(e.comm, &e.nranks);
	e.wl = wl;
	e.opts = calloc(1, wl->opts_size);
	if (!e.opts)
		MPI_Abort(comm, PFS_EXIT_FAILED);
	e.common = e.opts;
	e.w.rank = e.rank;
	e.w.engine = &e;
	e.w.dirfd = -1;
	e.w.opts = e.opts;
	e.w.node_name = "?";
	post_stop_recv(&e);
	if (pfs_interrupt_install())
		pfs_warn("cannot catch SIGINT and SIGTERM; an interrupted run's results file "
			 "will say running, not aborted");

	status = run(&e, argc, argv);
	pfs_interrupt_restore();

	MPI_Cancel(&e.stop_recv);
	MPI_Wait(&e.stop_recv, MPI_STATUS_IGNORE);
	fflush(stdout);
	free(e.w.state);
	free(e.rows);
	free(e.all_rows);
	free(e.opts);
	pfs_topology_free(&e.topo);
	MPI_Comm_free(&e.comm);
	return status;
}
