/* test_refusals.c: every workload's refusals of its command line, table-
 * driven, through pfs_engine_parse: the very function rank 0 of each
 * run calls before anything else (src/engine/run.c). A refusal here costs
 * microseconds; the same case as a 2-rank mpirun costs 1.5 s, 3 s under
 * ASan. The end-to-end path (exit 2, one message from rank 0 alone, the
 * usage hint, nothing created, no results file) stays in each workload's
 * script with a few cases (tests/mpi/bad-input.sh, tree-bad-input.sh,
 * bonnie-bad-input.sh, tests/stream/errors.sh, tests/matrix/run.sh), and
 * so do the refusals that need the filesystem or the ranks (a missing
 * directory, the space a run needs, what -R finds). */
#include "cmocka_prelude.h"

#include "pfsbench/engine.h"
#include "pfsbench/options.h"
#include "pfsbench/workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAXARGS 16

/* A workload, its command line after the command's name, and the message
 * (a fixed substring of it) the refusal must give. */
struct refusal {
	const char *workload;
	const char *msg;
	const char *args[MAXARGS];
};

/* The base command lines below name directories that need not exist:
 * each refusal comes before any look at the filesystem (stream's checks
 * look at the path last, stream's and matrix's too, so their accepted lines
 * below name /tmp). */
static const struct refusal refusals[] = {
	/* create-unlink (tests/mpi/bad-input.sh kept unknown options, a
	 * missing -m, the directory checks and the space a run needs) */
	{ "create-unlink", "-f/--files wants a whole number, not 'abc'", { "-m", "/d", "-f", "abc" } },
	{ "create-unlink", "-f/--files must be at least 1", { "-m", "/d", "-f", "0" } },
	{ "create-unlink", "-F/--write-files wants a whole number, not '-3'", { "-m", "/d", "-F", "-3" } },
	{ "create-unlink", "-i/--iterations must be at least 1", { "-m", "/d", "-i", "0" } },
	{ "create-unlink", "-s/--size wants a size such as 4096, 64k or 4m, not '4q'",
	  { "-m", "/d", "-s", "4q" } },
	{ "create-unlink", "unknown test 'zz' in -t (known: se,pa,ua,ub,uc)", { "-m", "/d", "-t", "se,zz" } },
	{ "create-unlink", "-F (20) cannot exceed -f (10)", { "-m", "/d", "-f", "10", "-F", "20" } },
	{ "create-unlink", "unexpected argument 'extra'", { "-m", "/d", "extra" } },
	{ "create-unlink", "-m/--mount wants printable text, without control characters",
	  { "-m", "/d\nx", "-f", "5", "-F", "1", "-s", "1k" } },
	{ "create-unlink", "-f/--files '99999999999' is too large", { "-m", "/d", "-f", "99999999999" } },
	{ "create-unlink", "unknown option '-x'", { "-m", "/d", "-x" } },
	/* tree (tests/mpi/tree-bad-input.sh) */
	{ "tree", "unknown option '-x'", { "-o", "/d", "-x" } },
	{ "tree", "-d/--dirs must be at least 1", { "-o", "/d", "-d", "0" } },
	{ "tree", "-f/--files must be at least 1", { "-o", "/d", "-f", "0" } },
	{ "tree", "-s/--size must be at least 1", { "-o", "/d", "-s", "0" } },
	{ "tree", "-l/--levels wants a whole number, not '-1'", { "-o", "/d", "-l", "-1" } },
	{ "tree", "-f/--files wants a whole number, not '-5'", { "-o", "/d", "-f", "-5" } },
	{ "tree", "-l/--levels '300' is too large", { "-o", "/d", "-l", "300" } },
	{ "tree", "make a tree too large to count", { "-o", "/d", "-l", "30", "-d", "10" } },
	{ "tree", "unexpected argument 'extra'", { "-o", "/d", "extra" } },
	{ "tree", "-C and -R exclude each other", { "-o", "/d", "-C", "-R" } },
	{ "tree", "-C and -R run once", { "-o", "/d", "-C", "-i", "2" } },
	/* bonnie (tests/mpi/bonnie-bad-input.sh) */
	{ "bonnie", "-s '64x': '64x' is not a size in MiB (suffix m, g or t)",
	  { "-d", "/d", "-r", "32m", "-s", "64x" } },
	{ "bonnie", "-s '64m:300': the chunk size '300' is not a power of two",
	  { "-d", "/d", "-r", "32m", "-s", "64m:300" } },
	{ "bonnie", "-s '64m::8192': not SIZE[:CHUNK[:SEEKS[:PROCS]]]",
	  { "-d", "/d", "-r", "32m", "-s", "64m::8192" } },
	{ "bonnie", "-s '64m:8k:8192:0': '0' is not a number of seekers",
	  { "-d", "/d", "-r", "32m", "-s", "64m:8k:8192:0" } },
	{ "bonnie", "-s 63m is less than twice the RAM (32 MiB)", { "-d", "/d", "-r", "32m", "-s", "63m" } },
	{ "bonnie", "-n '1:-1': bonnie++'s links (MAX -1 or -2) are not supported",
	  { "-d", "/d", "-r", "32m", "-s", "64m", "-n", "1:-1" } },
	{ "bonnie", "-n '1:512:4096': the largest file (512 bytes) is smaller than the smallest (4096)",
	  { "-d", "/d", "-r", "32m", "-s", "64m", "-n", "1:512:4096" } },
	{ "bonnie", "-n '1:0:0:100000': '100000' is not a number of directories",
	  { "-d", "/d", "-r", "32m", "-s", "64m", "-n", "1:0:0:100000" } },
	{ "bonnie", "-n 28340: too many files to keep the names of",
	  { "-d", "/d", "-r", "0", "-s", "0", "-n", "28340" } },
	{ "bonnie", "nothing to run: no I/O tests (-s 0 or -F) and no file tests (-n 0)",
	  { "-d", "/d", "-r", "32m", "-s", "0", "-n", "0" } },
	{ "bonnie", "nothing to run", { "-d", "/d", "-r", "32m", "-F", "-n", "0" } },
	{ "bonnie", "-r 'lots': not a number of MiB", { "-d", "/d", "-r", "lots" } },
	{ "bonnie", "-r '1g': not a number of MiB (bonnie++ reads '1g' as 1)",
	  { "-d", "/d", "-r", "1g", "-s", "4g" } },
	{ "bonnie", "-m: a name without commas or control characters",
	  { "-d", "/d", "-r", "32m", "-s", "64m", "-m", "a,b" } },
	{ "bonnie", "--bonnie-version '2.00a': pfsbench writes 1.96 (the default) or 1.98",
	  { "-d", "/d", "-r", "32m", "-s", "64m", "--bonnie-version", "2.00a" } },
	{ "bonnie", "-z/--seed '4294967296' is too large",
	  { "-d", "/d", "-r", "32m", "-s", "64m", "-z", "4294967296" } },
	{ "bonnie", "unexpected argument 'extra'", { "-d", "/d", "-r", "32m", "-s", "64m", "extra" } },
	/* stream (tests/stream/errors.sh) */
	{ "stream", "say where to stream: -o PATH to write, -i PATH to read", { "-b", "1M" } },
	{ "stream", "-i with -o copies in dm", { "-i", "/d", "-o", "/f" } },
	{ "stream", "-a fills the buffer instead of reading: not with -i", { "-i", "/d", "-a", "0" } },
	{ "stream", "-b/--buffer-size: 12x is not a valid number", { "-o", "/d", "-b", "12x" } },
	{ "stream", "-b/--buffer-size must be at least 1", { "-o", "/d", "-b", "0" } },
	{ "stream", "-b/--buffer-size '2g' is too large", { "-o", "/d", "-b", "2g" } },
	{ "stream", "--shared puts rank r at offset r x -s: give -s", { "-o", "/d", "--shared" } },
	{ "stream", "--prepare writes the data a read (-i) reads", { "-o", "/d", "--prepare", "-s", "1M" } },
	{ "stream", "--keep leaves a write run's files (-o)", { "-i", "/d", "--keep" } },
	{ "stream", "-d shows the percentage of -s: give -s", { "-o", "/d", "-d" } },
	/* matrix (tests/matrix/run.sh) */
	{ "matrix", "say what to measure: --read PATH (if=PATH) or --write PATH (of=PATH)", { "--req", "4k" } },
	{ "matrix", "--read and --write: one at a time", { "--read", "/d", "of=/d" } },
	{ "matrix", "-w/--write and of= say the same: give one", { "--write", "/d", "of=/d" } },
	{ "matrix", "--req: '3k..8k': 8k is not 3k times a power of two", { "--write", "/d", "--req", "3k..8k" } },
	{ "matrix", "--xfer: sizes must increase: 1m comes after 4194304 bytes",
	  { "--write", "/d", "--xfer", "4m,1m" } },
	{ "matrix", "no cell to run", { "--write", "/d", "--req", "1m", "--xfer", "64k" } },
	{ "matrix", "-i/--iter '1001' is too large", { "--write", "/d", "-i", "1001" } },
	{ "matrix", "iter= must be at least 1", { "of=/d", "iter=0" } },
	{ "matrix", "--iterations repeats whole runs", { "--write", "/d", "--iterations", "2" } },
	{ "matrix", "--no-fsync is for writes", { "--read", "/d", "--no-fsync" } },
	{ "matrix", "--direct wants one of auto, on, off, not 'yes'", { "--write", "/d", "--direct=yes" } },
	{ "matrix", "unexpected argument 'bs=4k'", { "of=/d", "bs=4k" } },
};

/* Each workload's base command line, accepted: so that each refusal above
 * is the bad argument's doing. */
static const struct refusal accepted[] = {
	{ "create-unlink", NULL, { "-m", "/d", "-f", "10", "-F", "2", "-s", "4k" } },
	{ "tree", NULL, { "-o", "/d", "-l", "1", "-d", "2", "-f", "2", "-s", "1" } },
	{ "bonnie", NULL, { "-d", "/d", "-r", "32m", "-s", "64m" } },
	{ "stream", NULL, { "-o", "/tmp", "-b", "4k", "-s", "64k" } },
	{ "matrix", NULL, { "--write", "/tmp", "--req", "4k,8k", "--xfer", "64k,128k" } },
};

/* Parses one case; err receives the message. */
static int parse_case(const struct refusal *c, char *err, size_t errlen)
{
	const struct pfs_workload *wl = pfs_workload_find(c->workload);
	char *argv[MAXARGS + 2] = { (char *)c->workload };
	int argc = 1, rc;
	void *opts;

	assert_non_null(wl);
	for (size_t i = 0; i < MAXARGS && c->args[i]; i++)
		argv[argc++] = (char *)c->args[i];
	opts = calloc(1, wl->opts_size);
	assert_non_null(opts);
	err[0] = 0;
	rc = pfs_engine_parse(wl, opts, argc, argv, err, errlen);
	free(opts);
	return rc;
}

static void test_each_refusal_says_why(void **state)
{
	char err[512];
	unsigned bad = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(refusals) / sizeof(refusals[0]); i++) {
		int rc = parse_case(&refusals[i], err, sizeof(err));

		if (rc >= 0 || !strstr(err, refusals[i].msg)) {
			fprintf(stderr, "%s %s ...: returned %d, said '%s'; wanted a refusal saying '%s'\n",
				refusals[i].workload, refusals[i].args[0], rc, err, refusals[i].msg);
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

static void test_base_lines_are_accepted(void **state)
{
	char err[512];

	(void)state;
	for (size_t i = 0; i < sizeof(accepted) / sizeof(accepted[0]); i++) {
		int rc = parse_case(&accepted[i], err, sizeof(err));

		if (rc != PFS_PARSE_OK)
			fprintf(stderr, "%s: %s\n", accepted[i].workload, err);
		assert_int_equal(rc, PFS_PARSE_OK);
	}
}

/* A refusal is one message: no newline inside it (the engine adds the
 * usage hint on a line of its own). */
static void test_a_refusal_is_one_line(void **state)
{
	char err[512];

	(void)state;
	for (size_t i = 0; i < sizeof(refusals) / sizeof(refusals[0]); i++) {
		parse_case(&refusals[i], err, sizeof(err));
		assert_null(strchr(err, '\n'));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_base_lines_are_accepted),
		cmocka_unit_test(test_each_refusal_says_why),
		cmocka_unit_test(test_a_refusal_is_one_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
