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

#include "pfsbench/commands/ab.h"
#include "pfsbench/core/options.h"
#include "pfsbench/engine/engine.h"
#include "pfsbench/engine/workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAXARGS 20

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
	{ "create-unlink", "--stat adds a Stat op to se, pa and ub, and -t selects none of them",
	  { "-m", "/d", "--stat", "-t", "ua,uc" } },
	{ "create-unlink", "--phase-timeout 3 would end every step --stonewall 5 cuts",
	  { "-m", "/d", "--stonewall", "5", "--phase-timeout", "3" } },
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
	{ "tree", "--stat runs between Create and Unlink, and -C stops after Create",
	  { "-o", "/d", "-C", "--stat" } },
	{ "tree", "--shared-dir and -C exclude each other", { "-o", "/d", "--shared-dir", "-C" } },
	{ "tree", "--shared-dir and --runtime exclude each other",
	  { "-o", "/d", "--shared-dir", "--runtime", "5" } },
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
	{ "bonnie", "--runtime wants a whole number, not '1m'",
	  { "-d", "/d", "-r", "32m", "-s", "64m", "--runtime", "1m" } },
	{ "bonnie", "--phase-timeout 10 would end every step --runtime 10 cuts",
	  { "-d", "/d", "-r", "32m", "-s", "64m", "--runtime", "10", "--phase-timeout", "10" } },
	{ "bonnie", "unknown option '--stonewall'",
	  { "-d", "/d", "-r", "32m", "-s", "64m", "--stonewall", "10" } },
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

/* ---- pfsbench ab: its own options, then each side's, as rank 0 checks
 * them before any round (src/commands/ab.c) ---- */

#define AB_SHARED "create-unlink", "-m", "/d", "-f", "10", "-F", "2", "-s", "4k"

static const struct refusal ab_refusals[] = {
	{ "ab", "-r/--rounds must be at least 1",
	  { "--rounds", "0", "--results", "p", "-A", "", "-B", "--no-fsync", AB_SHARED } },
	{ "ab", "give -B 'OPTIONS', what side B adds", { "--results", "p", "-A", "", AB_SHARED } },
	{ "ab", "give -A 'OPTIONS', what side A adds", { "--results", "p", "-B", "", AB_SHARED } },
	{ "ab", "give --results PREFIX", { "-A", "", "-B", "", AB_SHARED } },
	{ "ab", "name the workload to run after ab's options", { "--results", "p", "-A", "", "-B", "" } },
	{ "ab", "unknown workload 'nope'", { "--results", "p", "-A", "", "-B", "", "nope" } },
	{ "ab", "unknown option '--bogus'", { "--bogus", "--results", "p", "-A", "", "-B", "", AB_SHARED } },
	{ "ab", "side B: unknown option '--bogus'",
	  { "--results", "p", "-A", "-i 2", "-B", "--bogus", AB_SHARED } },
	{ "ab", "side A: -i/--iterations must be at least 1",
	  { "--results", "p", "-A", " -i  0 ", "-B", "", AB_SHARED } },
	{ "ab", "side B: -f/--files is given twice", { "--results", "p", "-A", "", "-B", "-f 3", AB_SHARED } },
	{ "ab", "side A: --results belongs to ab",
	  { "--results", "p", "-A", "--results q", "-B", "", AB_SHARED } },
	{ "ab", "side A: --help and --version are no options of a run",
	  { "--results", "p", "-A", "--help", "-B", "", AB_SHARED } },
	{ "ab", "side A: these options leave a run's files for another run",
	  { "--results", "p", "-A", "-C", "-B", "-C", "tree", "-o", "/d" } },
	{ "ab", "side B: --dry-run makes no results file to compare",
	  { "--results", "p", "-A", "", "-B", "--dry-run", "tree", "-o", "/d" } },
};

/* Parses and checks one ab command line; err receives the message. */
static int ab_case(struct pfs_ab *ab, const struct refusal *c, char *err, size_t errlen)
{
	char *argv[MAXARGS + 2] = { (char *)"ab" };
	int argc = 1, rc;

	for (size_t i = 0; i < MAXARGS && c->args[i]; i++)
		argv[argc++] = (char *)c->args[i];
	err[0] = 0;
	rc = pfs_ab_parse(ab, argc, argv, pfs_workload_find, err, errlen);
	if (rc == PFS_PARSE_OK)
		rc = pfs_ab_check(ab, err, errlen);
	return rc;
}

static void test_ab_refusals_say_why(void **state)
{
	struct pfs_ab ab;
	char err[512];
	unsigned bad = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(ab_refusals) / sizeof(ab_refusals[0]); i++) {
		int rc = ab_case(&ab, &ab_refusals[i], err, sizeof(err));

		if (rc >= 0 || !strstr(err, ab_refusals[i].msg) || strchr(err, '\n')) {
			fprintf(stderr, "ab case %zu: returned %d, said '%s'; wanted a refusal saying '%s'\n",
				i, rc, err, ab_refusals[i].msg);
			bad++;
		}
		pfs_ab_free(&ab);
	}
	assert_int_equal(bad, 0);
}

/* A B, B A, A B, B A: each side as often first as second. */
static void test_ab_rounds_alternate(void **state)
{
	char order[9] = "";

	(void)state;
	for (unsigned r = 1; r <= 4; r++)
		for (unsigned k = 0; k < 2; k++)
			strcat(order, pfs_ab_name(pfs_ab_side(r, k)));
	assert_string_equal(order, "ABBAABBA");
}

static void join(char *buf, size_t len, int argc, char **argv)
{
	buf[0] = 0;
	for (int i = 0; i < argc; i++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", i ? " " : "", argv[i]);
}

/* Each run's command line: the shared options, the side's words, its
 * results file and its label unless the side has one; compare's: A's
 * files, "--", B's. */
static void test_ab_command_lines(void **state)
{
	static const struct refusal c = {
		"ab", NULL, { "-r", "2", "--results", "out/p", "-A", " -m /a  --no-fsync", "-B",
			      "-m /b --label mine", "create-unlink", "-f", "10", "-F", "2" }
	};
	struct pfs_ab ab;
	char err[512], line[1024];
	char **argv;
	int argc;

	(void)state;
	assert_int_equal(ab_case(&ab, &c, err, sizeof(err)), PFS_PARSE_OK);
	argv = pfs_ab_run_argv(&ab, PFS_AB_A, 2, &argc);
	join(line, sizeof(line), argc, argv);
	assert_null(argv[argc]);
	assert_string_equal(line, "create-unlink -f 10 -F 2 -m /a --no-fsync --results out/p-A2.h5 "
				  "--label A");
	argv = pfs_ab_run_argv(&ab, PFS_AB_B, 1, &argc);
	join(line, sizeof(line), argc, argv);
	assert_string_equal(line, "create-unlink -f 10 -F 2 -m /b --label mine --results out/p-B1.h5");
	argv = pfs_ab_compare_argv(&ab, &argc);
	join(line, sizeof(line), argc, argv);
	assert_string_equal(line, "compare out/p-A1.h5 out/p-A2.h5 -- out/p-B1.h5 out/p-B2.h5");
	pfs_ab_free(&ab);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_base_lines_are_accepted),
		cmocka_unit_test(test_each_refusal_says_why),
		cmocka_unit_test(test_a_refusal_is_one_line),
		cmocka_unit_test(test_ab_refusals_say_why),
		cmocka_unit_test(test_ab_rounds_alternate),
		cmocka_unit_test(test_ab_command_lines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
