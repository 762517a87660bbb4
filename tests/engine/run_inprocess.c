/* run_inprocess.c: the engine driven in-process (pfs_engine_run,
 * include/pfsbench/commands/run.h), as IOR's tests call ior_run: no shell,
 * no second binary. Run under mpirun on 1 or 2 ranks with a scratch
 * directory (tests/engine/run-inprocess.sh):
 *   mpirun -np 2 run_inprocess DIR
 * Each check runs a real workload on real files in DIR and reads its text
 * from memory (open_memstream):
 *   - create-unlink on MPI_COMM_WORLD: a row per worker and op, "Done.",
 *     the results file where --results said, nothing left of the run;
 *   - messages of a refused run in the err stream, not on stderr;
 *   - create-unlink on a split communicator, one run per rank at once;
 *   - the skeleton workload (src/workloads/skeleton.c) and an output of
 *     this file's own (count_rows), each registered by one line of this
 *     file's registries, as src/workloads/registry.c and
 *     src/outputs/output.c register theirs; with no results-file output
 *     in the list, the engine claims no results file.
 * Rank 0 of each run checks its text; every rank prints "not ok" lines
 * for what failed and the program exits 1 on any. */
#include "pfsbench/commands/run.h"
#include "pfsbench/core/results.h"
#include "pfsbench/core/util.h"
#include "pfsbench/engine/workload.h"
#include "pfsbench/outputs/output.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- an output of the test's own: counts what it is handed ---------------- */

struct counts {
	unsigned begun, ended, blocks;
	uint64_t rows, write_rows, write_bytes;
	enum pfs_run_status status;
};

/* The test reads the counts after the run; one run at a time per process. */
static struct counts counted;

static int count_begin(struct pfs_output *o, const struct pfs_run_info *ri)
{
	(void)ri;
	o->priv = &counted;
	counted.begun++;
	return 0;
}

static int count_block(struct pfs_output *o, const struct pfs_run_info *ri,
		       const struct pfs_block *b)
{
	struct counts *c = o->priv;

	(void)ri;
	c->blocks++;
	c->rows += b->nrows;
	for (size_t i = 0; i < b->nrows; i++)
		if (!strcmp(b->rows[i].op, "Write")) {
			c->write_rows++;
			c->write_bytes += b->rows[i].bytes;
		}
	return 0;
}

static int count_end(struct pfs_output *o, const struct pfs_run_info *ri,
		     enum pfs_run_status status, const char *reason)
{
	struct counts *c = o->priv;

	(void)ri;
	(void)reason;
	c->ended++;
	c->status = status;
	return 0;
}

static const struct pfs_output_ops count_rows = {
	.name = "count-rows",
	.begin = count_begin,
	.block = count_block,
	.end = count_end,
};

/* ---- the test's registries: one line each registers the new things --------- */

extern const struct pfs_workload pfs_workload_skeleton; /* src/workloads/skeleton.c */

static const struct pfs_workload *const test_workloads[] = {
	&pfs_workload_skeleton,
	NULL,
};

static const struct pfs_output_ops *const test_outputs[] = {
	&count_rows,
	NULL,
};

/* ---- checks ------------------------------------------------------------------ */

static int failed;

static void check(bool ok, const char *what)
{
	printf("%s - %s\n", ok ? "ok" : "not ok", what);
	fflush(stdout);
	if (!ok)
		failed = 1;
}

/* A run's text, captured. */
struct capture {
	char *out, *err;
	size_t outlen, errlen;
	FILE *outf, *errf;
};

static void capture_open(struct capture *c)
{
	memset(c, 0, sizeof(*c));
	c->outf = open_memstream(&c->out, &c->outlen);
	c->errf = open_memstream(&c->err, &c->errlen);
	if (!c->outf || !c->errf) {
		perror("open_memstream");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
}

static void capture_close(struct capture *c)
{
	fclose(c->outf);
	fclose(c->errf);
}

static void capture_free(struct capture *c)
{
	free(c->out);
	free(c->err);
}

/* Lines of text that contain all of the words, in order. */
static unsigned lines_with(const char *text, const char *a, const char *b)
{
	unsigned n = 0;

	for (const char *l = text; l && *l;) {
		const char *end = strchr(l, '\n'), *pa;
		size_t len = end ? (size_t)(end - l) : strlen(l);
		char *line = strndup(l, len);

		pa = line ? strstr(line, a) : NULL;
		if (pa && (!b || strstr(pa + strlen(a), b)))
			n++;
		free(line);
		l = end ? end + 1 : NULL;
	}
	return n;
}

static bool ends_with(const char *text, const char *tail)
{
	size_t n = strlen(text), t = strlen(tail);

	return n >= t && !strcmp(text + n - t, tail);
}

/* Names in dir (but . and ..), or -1. */
static int entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	if (!d)
		return -1;
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

static void make_dir(const char *path)
{
	if (mkdir(path, 0755) && errno != EEXIST) {
		perror(path);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
}

/* create-unlink's test se, 2 iterations, on comm in dir, its results file
 * beside dir (never inside the directory under test); rank 0 of comm
 * checks. */
static void run_create_unlink(MPI_Comm comm, const char *dir, const char *what)
{
	char results[PATH_MAX + 16], label[256];
	char *argv[] = { "pfsbench", "create-unlink", "-m", (char *)dir, "-f", "7", "-F", "2",
			 "-s", "4k", "-t", "se", "-i", "2", "--results", results, NULL };
	struct capture c;
	int rank, size, status;
	unsigned workers;

	MPI_Comm_rank(comm, &rank);
	MPI_Comm_size(comm, &size);
	workers = (unsigned)size;
	snprintf(results, sizeof(results), "%s.h5", dir);
	capture_open(&c);
	status = pfs_engine_run(16, argv, comm, c.outf, c.errf);
	capture_close(&c);
	if (rank == 0) {
		snprintf(label, sizeof(label), "%s: exit 0", what);
		check(status == PFS_EXIT_OK, label);
		/* se: Create, Write, Read, Unlink; a row per worker each, per
		 * iteration. */
		snprintf(label, sizeof(label), "%s: a Create row per worker and iteration", what);
		check(lines_with(c.out, " se ", " Create ") == 2 * workers, label);
		snprintf(label, sizeof(label), "%s: an Unlink row per worker and iteration", what);
		check(lines_with(c.out, " se ", " Unlink ") == 2 * workers, label);
		snprintf(label, sizeof(label), "%s: the report ends Done.", what);
		check(ends_with(c.out, "\nDone.\n"), label);
		snprintf(label, sizeof(label), "%s: where the results file is, on err", what);
		check(lines_with(c.err, "pfsbench: results: ", results) == 1, label);
		snprintf(label, sizeof(label), "%s: the results file is there", what);
		check(access(results, R_OK) == 0, label);
		snprintf(label, sizeof(label), "%s: nothing of the run is left", what);
		check(entries(dir) == 0, label);
	}
	if (rank == 0 && status != PFS_EXIT_OK)
		fprintf(stderr, "--- out:\n%s--- err:\n%s---\n", c.out, c.err);
	capture_free(&c);
}

/* A refused run: its messages go to err, its exit is 2. */
static void run_refused(const char *dir)
{
	char missing[PATH_MAX];
	char *argv[] = { "pfsbench", "create-unlink", "-m", missing, NULL };
	char *bad[] = { "pfsbench", "nosuch", NULL };
	struct capture c;
	int rank, status;

	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	snprintf(missing, sizeof(missing), "%s/missing", dir);
	capture_open(&c);
	status = pfs_engine_run(4, argv, MPI_COMM_WORLD, c.outf, c.errf);
	capture_close(&c);
	if (rank == 0) {
		check(status == PFS_EXIT_USAGE, "a missing directory: exit 2");
		check(lines_with(c.err, "pfsbench: ", missing) >= 1,
		      "a missing directory: the message, naming it, on err");
		check(c.outlen == 0, "a missing directory: nothing on out");
	}
	capture_free(&c);

	capture_open(&c);
	status = pfs_engine_run(2, bad, MPI_COMM_WORLD, c.outf, c.errf);
	capture_close(&c);
	if (rank == 0) {
		check(status == PFS_EXIT_USAGE, "an unknown workload: exit 2");
		check(lines_with(c.err, "unknown command 'nosuch'", NULL) == 1,
		      "an unknown workload: said on err");
	}
	capture_free(&c);
}

/* The skeleton, through the test's registries: its report and the test's
 * output, and no results file. */
static void run_skeleton(const char *dir)
{
	char files[] = "5", size[] = "3000";
	char *argv[] = { "pfsbench", "skeleton", "-m", (char *)dir, "-f", files, "-s", size, NULL };
	struct capture c;
	int rank, nranks, status;

	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &nranks);
	memset(&counted, 0, sizeof(counted));
	capture_open(&c);
	status = pfs_engine_run_from(test_workloads, test_outputs, 8, argv, MPI_COMM_WORLD, c.outf,
				     c.errf);
	capture_close(&c);
	if (rank == 0) {
		check(status == PFS_EXIT_OK, "skeleton: exit 0");
		check(lines_with(c.out, " wr ", " Write ") == (unsigned)nranks,
		      "skeleton: a Write row per worker in its report");
		check(lines_with(c.out, " wr ", " Remove ") == (unsigned)nranks,
		      "skeleton: a Remove row per worker in its report");
		check(ends_with(c.out, "\nDone.\n"), "skeleton: the report ends Done.");
		check(counted.begun == 1 && counted.ended == 1 && counted.blocks == 1,
		      "count-rows: begun, handed the one iteration, ended");
		check(counted.rows == 2 * (uint64_t)nranks, "count-rows: every row of the run");
		check(counted.status == PFS_RUN_COMPLETE, "count-rows: told the run completed");
		check(counted.write_rows == (uint64_t)nranks &&
			      counted.write_bytes == (uint64_t)nranks * 5 * 3000,
		      "skeleton: every worker wrote its 5 files of 3000 bytes");
		check(lines_with(c.err, "pfsbench: results: ", NULL) == 0,
		      "no results-file output: no results file said");
		check(entries(dir) == 0, "skeleton: nothing left, no results file made");
	}
	if (rank == 0 && status != PFS_EXIT_OK)
		fprintf(stderr, "--- out:\n%s--- err:\n%s---\n", c.out, c.err);
	capture_free(&c);
}

int main(int argc, char **argv)
{
	char dir[PATH_MAX];
	MPI_Comm alone;
	int rank, nranks;

	if (MPI_Init(&argc, &argv) != MPI_SUCCESS)
		return 1;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &nranks);
	if (argc != 2) {
		if (rank == 0)
			fprintf(stderr, "usage: run_inprocess DIR\n");
		MPI_Finalize();
		return 2;
	}

	snprintf(dir, sizeof(dir), "%s/world", argv[1]);
	if (rank == 0)
		make_dir(dir);
	MPI_Barrier(MPI_COMM_WORLD);
	run_create_unlink(MPI_COMM_WORLD, dir, "create-unlink on MPI_COMM_WORLD");
	run_refused(argv[1]);

	/* Each rank alone: as many runs at once as ranks, in directories of
	 * their own. */
	MPI_Comm_split(MPI_COMM_WORLD, rank, 0, &alone);
	snprintf(dir, sizeof(dir), "%s/alone%d", argv[1], rank);
	make_dir(dir);
	run_create_unlink(alone, dir, "create-unlink on a communicator of one rank");
	MPI_Comm_free(&alone);

	snprintf(dir, sizeof(dir), "%s/skeleton", argv[1]);
	if (rank == 0)
		make_dir(dir);
	MPI_Barrier(MPI_COMM_WORLD);
	run_skeleton(dir);

	MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	MPI_Finalize();
	return failed;
}
