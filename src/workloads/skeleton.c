/* skeleton.c: a workload to copy, as fio ships engines/skeleton_external.c.
 * It compiles, runs and is tested (tests/engine/run_inprocess.c), but is
 * built into the tests only, never into pfsbench: it measures nothing
 * worth a user's time. Each worker writes --files files of --size bytes in
 * its own directory (test "wr": step Write, then step Remove), and the
 * engine does everything else: parsing, the target's checks, the run
 * directory, barriers, clocks, cache drops, stonewalls, failures agreed
 * between ranks, progress, latency, rows and every output.
 *
 * To make a workload of it:
 *   1. copy this file to src/workloads/NAME.c and rename skel_* and SKEL_*;
 *   2. add `&pfs_workload_NAME,` to pfs_workloads[] (src/workloads/
 *      registry.c) and its `extern` beside the others in
 *      include/pfsbench/engine/workload.h, which the unit tests use;
 *   3. add the file to libpfsbench_a_SOURCES in Makefile.am;
 *   4. list the file in docs/architecture.md ("Every file"), and give the
 *      command a paragraph in README.md and docs/pfsbench.1.in.
 * Nothing else names a workload: `pfsbench --help` lists it from the
 * registry, `pfsbench NAME --help` prints its option table, `pfsbench
 * clean` removes what its items table names, and the readers (show,
 * compare, export, plot) find its options in the results file.
 *
 * A workload never sees MPI and never prints its results: it counts items
 * and bytes in struct pfs_worker (include/pfsbench/engine/worker.h) and
 * the engine makes the rows. */
#include "pfsbench/core/itemname.h"
#include "pfsbench/core/options.h"
#include "pfsbench/core/sys.h"
#include "pfsbench/core/util.h"
#include "pfsbench/engine/workload.h"
#include "pfsbench/outputs/output.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- options ------------------------------------------------------------ */

/* The parsed command line. It must start with struct pfs_common_opts (the
 * directory, iterations, tests, results file, ...): the engine reads those
 * fields through a cast. The whole struct is broadcast from rank 0 as
 * bytes, so it holds values, never pointers. */
struct skel_opts {
	struct pfs_common_opts common;
	uint64_t files; /* per worker */
	uint64_t size;  /* bytes per file */
};

/* One table drives parsing, --help and the parameters the results file
 * keeps; each default is in its entry (the *_DEF macros), where the parser
 * applies it and --help prints it. The macros check each field's type at
 * compile time. */
static const struct pfs_option skel_options[] = {
	PFS_OPT_STR(struct skel_opts, common.dir, "mount", 'm', "DIR",
		    "directory to run in (required)", 0),
	PFS_OPT_NUM_DEF(struct skel_opts, files, "files", 'f', PFS_OPT_COUNT, 1000000000, "N",
			"files per worker", "10"),
	PFS_OPT_NUM_DEF(struct skel_opts, size, "size", 's', PFS_OPT_SIZE, 1ull << 30, "BYTES",
			"bytes per file", "4096"),
	PFS_COMMON_OPTIONS(struct skel_opts),
	PFS_OPT_END,
};

/* After parsing, on rank 0: the values against each other. A refusal is
 * -EINVAL with one message; the run exits 2 before anything is made. */
static int skel_validate(void *opts, char *err, size_t errlen)
{
	const struct skel_opts *o = opts;

	if (!o->common.dir[0]) {
		pfs_format(err, errlen, "-m DIR is required: the directory to run in");
		return -EINVAL;
	}
	return 0;
}

/* The space and inodes of the whole run at its peak, checked against
 * statvfs before anything is created (--force runs anyway). Saturate
 * rather than wrap: a plan of 2^64 bytes is refused, not run. */
static void skel_needs(const void *opts, unsigned nranks, struct pfs_needs *needs)
{
	const struct skel_opts *o = opts;
	double files = (double)o->files * nranks;

	needs->inodes = pfs_u64_sat(files);
	needs->bytes = pfs_u64_sat(files * (double)o->size);
}

/* ---- the names it makes --------------------------------------------------- */

/* One pattern builds the names and tells `pfsbench clean` what they look
 * like (include/pfsbench/core/itemname.h): from the same constants, so
 * the two cannot drift apart. */
#define SKEL_PREFIX "skel."
#define SKEL_DIGITS 10

static const struct pfs_item skel_items[] = {
	{ SKEL_PREFIX "[0-9]{" PFS_ITEM_STR(SKEL_DIGITS) "}", PFS_ITEM_FILE, NULL },
	{ NULL, 0, NULL },
};

static void skel_name(char *buf, size_t len, uint64_t i)
{
	snprintf(buf, len, SKEL_PREFIX "%0" PFS_ITEM_STR(SKEL_DIGITS) "llu", (unsigned long long)i);
}

/* ---- per worker ------------------------------------------------------------ */

/* Each worker's state (state_size bytes, zeroed by the engine before
 * setup). made counts the files that exist, so that cleanup removes
 * exactly those, also after a failure or a stop half-way. */
struct skel_state {
	char *buf;     /* one file's bytes */
	uint64_t made; /* files 0 .. made-1 exist */
};

/* Once the worker's directory exists (w->dirfd). pfs_fail prints the
 * failure with the node and worker, and tells every rank to stop. */
static int skel_setup(struct pfs_worker *w)
{
	const struct skel_opts *o = w->opts;
	struct skel_state *st = w->state;

	st->buf = malloc(o->size ? o->size : 1);
	if (!st->buf)
		return pfs_fail(w, "allocate", "the file buffer", ENOMEM);
	memset(st->buf, 'x', o->size);
	return 0;
}

/* At the end, also after a failure: remove what the worker made and
 * nothing else (unless the run keeps its items, w->keep). */
static int skel_cleanup(struct pfs_worker *w)
{
	struct skel_state *st = w->state;
	char name[32];
	int rc = 0;

	for (; st->made > 0 && !w->keep; st->made--) {
		skel_name(name, sizeof(name), st->made - 1);
		if (pfs_unlinkat(w->dirfd, name, 0) && errno != ENOENT)
			rc = -errno;
	}
	free(st->buf);
	st->buf = NULL;
	return rc;
}

/* ---- ops: the per-item work --------------------------------------------------- */

enum { OP_WRITE, OP_REMOVE };
/* By op index, for the engine's messages about an op. */
static const char *const skel_op_names[] = { "Write", "Remove" };

/* One file: created (never through a link, never one that exists), filled,
 * closed. A close that fails is a write that failed: on a network
 * filesystem, that is where errors appear. */
static int write_one(struct pfs_worker *w, struct skel_state *st, const char *name, size_t size)
{
	int fd = pfs_openat(w->dirfd, name, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC,
			    0644);
	ssize_t n;

	if (fd < 0)
		return pfs_fail(w, "create", name, errno);
	st->made++;
	n = size ? write(fd, st->buf, size) : 0;
	if (n < 0 || (size_t)n != size) {
		int err = n < 0 ? errno : EIO;

		close(fd);
		return pfs_fail(w, "write", name, err);
	}
	if (close(fd))
		return pfs_fail(w, "close", name, errno);
	w->bytes += size;
	return 0;
}

/* One op of a step. pfs_op_start names the row and says what it counts;
 * pfs_tick, before each item, lets the engine look at the clock (stop
 * notices, progress, the stonewall) and says when to leave: told to stop,
 * or the target done. pfs_lat_start/stop time each item when latency is
 * recorded. pfs_op_done hands the engine the row. */
static int skel_run_op(struct pfs_worker *w, unsigned op)
{
	const struct skel_opts *o = w->opts;
	struct skel_state *st = w->state;
	uint64_t n = op == OP_WRITE ? o->files : st->made;
	char name[32];
	int rc = 0;

	pfs_op_start(w, skel_op_names[op], PFS_UNIT_FILES, n, 0);
	while (!rc && !pfs_tick(w)) {
		uint64_t t = pfs_lat_start(w);

		if (op == OP_WRITE) {
			skel_name(name, sizeof(name), st->made);
			rc = write_one(w, st, name, (size_t)o->size);
		} else {
			skel_name(name, sizeof(name), st->made - 1);
			if (pfs_unlinkat(w->dirfd, name, 0))
				rc = pfs_fail(w, "remove", name, errno);
			else
				st->made--;
		}
		if (!rc) {
			pfs_lat_stop(w, t);
			w->items++;
		}
	}
	if (rc)
		return rc;
	if (w->stopped)
		return -ECANCELED;
	return pfs_op_done(w);
}

/* ---- tests: plans of steps --------------------------------------------------- */

/* A test is a list of steps; in each, the assigned nodes' workers run an
 * op and the others wait at the barrier that ends it. PFS_ALL_NODES: every
 * node at once. Called with cap 0 to count the steps first. */
static size_t skel_plan(const void *opts, unsigned nnodes, struct pfs_step *steps, size_t cap)
{
	size_t i = 0;

	(void)opts;
	(void)nnodes;
	/* Writes may stop at --stonewall's deadline; the removal removes what
	 * was made. */
	i = pfs_plan_put(steps, cap, i,
			 pfs_step_with(PFS_STEP1(PFS_ALL_NODES, OP_WRITE), PFS_STEP_STONEWALL));
	i = pfs_plan_put(steps, cap, i, PFS_STEP1(PFS_ALL_NODES, OP_REMOVE));
	return i;
}

/* -t chooses among these by name (all when left out). PFS_ORDER_PLAN: the
 * report lists the rows in the plan's order. */
static const struct pfs_test skel_tests[] = {
	{ "wr", PFS_ORDER_PLAN, skel_plan },
	{ NULL, 0, NULL },
};

/* ---- the table the engine reads ------------------------------------------------ */

/* Designated initializers: a hook left out is NULL, and every optional
 * hook of struct pfs_workload (include/pfsbench/engine/workload.h) says
 * what NULL means. report: the text report on the run's out stream;
 * create_unlink_perf's table (pfs_output_table) fits any workload. */
const struct pfs_workload pfs_workload_skeleton = {
	.name = "skeleton",
	.summary = "write and remove small files (a workload to copy; tests only)",
	.synopsis = "-m DIR [-f N] [-s BYTES] [options]",
	.options = skel_options,
	.opts_size = sizeof(struct skel_opts),
	.state_size = sizeof(struct skel_state),
	.tests = skel_tests,
	.op_names = skel_op_names,
	.report = &pfs_output_table,
	.validate = skel_validate,
	.needs = skel_needs,
	.setup = skel_setup,
	.run_op = skel_run_op,
	.cleanup = skel_cleanup,
	.items = skel_items,
};
