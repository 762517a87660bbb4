/* options.h: table-driven command-line parsing. A workload declares its
 * options once, as a NULL-terminated table; the same table drives parsing,
 * --help and the checks of each value. Pure: no MPI. */
#ifndef PFSBENCH_OPTIONS_H
#define PFSBENCH_OPTIONS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define PFS_MAX_TESTS 32
#define PFS_TEST_LIST_MAX 256

enum pfs_opt_kind {
	PFS_OPT_SET,     /* bool field := true */
	PFS_OPT_CLEAR,   /* bool field := false */
	PFS_OPT_COUNT,   /* uint64_t, a whole number >= 1 */
	PFS_OPT_UINT,    /* uint64_t, a whole number >= 0 */
	PFS_OPT_SIZE,    /* uint64_t, bytes with k/m/g suffix, >= 1 */
	PFS_OPT_STRING,  /* char[size], non-empty */
	PFS_OPT_HELP,
	PFS_OPT_VERSION,
};

struct pfs_option {
	const char *long_name; /* without "--" */
	int short_name;        /* 0 for none */
	enum pfs_opt_kind kind;
	size_t offset;         /* into the workload's options struct */
	size_t size;           /* of a PFS_OPT_STRING field */
	uint64_t max;          /* largest accepted number; 0 for no limit */
	const char *arg;       /* argument name in --help, NULL for flags */
	const char *help;
};

/* Options every workload shares; each workload's options struct starts with
 * one of these (so the engine can read them without knowing the workload). */
struct pfs_common_opts {
	char dir[PATH_MAX];                 /* target directory */
	char results[PATH_MAX];             /* HDF5 results file, "" for the default */
	char test_list[PFS_TEST_LIST_MAX];  /* -t, as given */
	uint64_t iterations;
	bool drop_caches;
	bool force;
	bool dry_run;
	unsigned ntests;                    /* tests selected, in order */
	unsigned char tests[PFS_MAX_TESTS]; /* indexes into the workload's tests */
};

#define PFS_OPT_END { NULL, 0, 0, 0, 0, 0, NULL, NULL }

/* The options every workload accepts, for a workload whose options struct
 * is TYPE with its struct pfs_common_opts in the member `common`. */
#define PFS_COMMON_OPTIONS(TYPE)                                                   \
	{ "iterations", 'i', PFS_OPT_COUNT, offsetof(TYPE, common.iterations), 0,     \
	  1000000, "N", "run every test N times (default 1)" },                        \
	{ "results", 0, PFS_OPT_STRING, offsetof(TYPE, common.results),               \
	  PATH_MAX, 0, "PATH", "HDF5 results file (default pfsbench-<workload>-<time>.h5 here)" }, \
	{ "no-drop-caches", 0, PFS_OPT_CLEAR, offsetof(TYPE, common.drop_caches), 0,  \
	  0, NULL, "do not sync and drop the page cache before each phase" },         \
	{ "force", 0, PFS_OPT_SET, offsetof(TYPE, common.force), 0, 0, NULL,          \
	  "run even when the target lacks the space or inodes the plan needs" },                 \
	{ "help", 'h', PFS_OPT_HELP, 0, 0, 0, NULL, "print this help and exit" },     \
	{ "version", 0, PFS_OPT_VERSION, 0, 0, 0, NULL, "print the version and exit" }

enum {
	PFS_PARSE_OK = 0,
	PFS_PARSE_HELP = 1,
	PFS_PARSE_VERSION = 2,
};

/* Parses argv (argv[0] is the subcommand) into opts by the table. Returns
 * PFS_PARSE_OK/HELP/VERSION, or -EINVAL with a one-line message in err.
 * Positional arguments are refused. */
int pfs_opts_parse(const struct pfs_option *table, void *opts, int argc, char **argv,
		   char *err, size_t errlen);

/* Prints the option list of a table, one option a line, for --help. */
void pfs_opts_usage(FILE *out, const struct pfs_option *table);

/* Resolves a comma-separated list of test names against names[] (NULL
 * terminated) into indexes. An empty list selects every test. Returns 0 or
 * -EINVAL with a message naming the unknown test. */
int pfs_tests_select(const char *list, const char *const *names, unsigned char *sel,
		     unsigned *nsel, char *err, size_t errlen);

/* Writes the selected tests' names, comma-separated in order, into list:
 * the inverse of pfs_tests_select. Returns 0 or -ENAMETOOLONG. */
int pfs_tests_name(const char *const *names, const unsigned char *sel, unsigned nsel, char *list,
		   size_t len);

#endif
