/* options.h: table-driven command-line parsing. A workload declares its
 * options once, as a NULL-terminated table; the same table drives parsing,
 * --help, the checks of each value and the options' key/value view, which
 * the results file stores and `pfsbench show` reads back. Pure: no MPI. */
#ifndef PFSBENCH_OPTIONS_H
#define PFSBENCH_OPTIONS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define PFS_MAX_TESTS 32
#define PFS_TEST_LIST_MAX 256
#define PFS_LABEL_MAX 64

enum pfs_opt_kind {
	PFS_OPT_SET,     /* bool field := true */
	PFS_OPT_CLEAR,   /* bool field := false */
	PFS_OPT_COUNT,   /* uint64_t, a whole number >= 1 */
	PFS_OPT_UINT,    /* uint64_t, a whole number >= 0 */
	PFS_OPT_SIZE,    /* uint64_t, bytes with k/m/g suffix, >= 1 */
	PFS_OPT_STRING,  /* char[size], non-empty, no control characters */
	PFS_OPT_CHOICE,  /* unsigned, the index of one of choices; the argument
			  * may be left out (--progress), meaning choices[1] */
	PFS_OPT_HELP,
	PFS_OPT_VERSION,
};

/* An option that is no parameter of the run (where results go): the
 * key/value view leaves it out. */
#define PFS_OPTF_NOT_PARAM 1u
/* A PFS_OPT_CHOICE whose argument must be given (--format dd), unlike
 * --progress, whose argument may be left out. */
#define PFS_OPTF_NEEDS_ARG 2u
/* An operand, dd's way: given as NAME=VALUE among the arguments, without
 * dashes (perf_matrix's if=DEV), never as --NAME. It is another spelling
 * of the option that writes the same field, which alone is the run's
 * parameter; giving both is refused as giving one twice. */
#define PFS_OPTF_OPERAND 8u
/* A PFS_OPT_STRING that may be given empty (ab's -A ''): the empty value
 * means something, unlike an empty directory name. */
#define PFS_OPTF_EMPTY_OK 16u

struct pfs_option {
	const char *long_name; /* without "--" */
	int short_name;        /* 0 for none */
	enum pfs_opt_kind kind;
	size_t offset;         /* into the workload's options struct */
	size_t size;           /* of the field */
	uint64_t max;          /* largest accepted number; 0 for no limit */
	const char *arg;       /* argument name in --help, NULL for flags */
	const char *help;
	const char *const *choices; /* PFS_OPT_CHOICE: NULL-terminated names */
	unsigned flags;        /* PFS_OPTF_* */
	/* PFS_OPT_COUNT, _UINT, _SIZE: parses the argument instead of the
	 * kind's own parser (a tool's number syntax, such as dm's 4k or 1s);
	 * returns 0, or a negative errno with the tool's words in err. The
	 * key/value view still stores the number in decimal. NULL: the kind's. */
	int (*parse)(const char *arg, uint64_t *out, char *err, size_t errlen);
};

/* Entries, checked at compile time: the field must have the type the kind
 * writes (git's OPT_INTEGER does the same), so a table cannot write a
 * uint64_t into a bool. */
#define PFS_FIELD_IS(TYPE, field, T)                                                       \
	(0 * sizeof(struct {                                                               \
		_Static_assert(__builtin_types_compatible_p(__typeof__(((TYPE *)0)->field), T), \
			       "option " #field " is not of type " #T);                     \
		int pfs_unused;                                                            \
	}))
#define PFS_OPT_ENTRY(TYPE, field, T, lname, sname, kind, max, arg, help, choices, flags)    \
	{ lname, sname, kind, offsetof(TYPE, field) + PFS_FIELD_IS(TYPE, field, T),       \
	  sizeof(((TYPE *)0)->field), max, arg, help, choices, flags, NULL }

/* --lname sets a bool to true / to false. */
#define PFS_OPT_FLAG(TYPE, field, lname, sname, help) \
	PFS_OPT_ENTRY(TYPE, field, bool, lname, sname, PFS_OPT_SET, 0, NULL, help, NULL, 0)
#define PFS_OPT_NOFLAG(TYPE, field, lname, sname, help) \
	PFS_OPT_ENTRY(TYPE, field, bool, lname, sname, PFS_OPT_CLEAR, 0, NULL, help, NULL, 0)
/* A whole number >= 1, >= 0, or a size in bytes, each at most max (0: none). */
#define PFS_OPT_NUM(TYPE, field, lname, sname, kind, max, arg, help) \
	PFS_OPT_ENTRY(TYPE, field, uint64_t, lname, sname, kind, max, arg, help, NULL, 0)
/* A number by the parser parse (see struct pfs_option). */
#define PFS_OPT_NUM_PARSED(TYPE, field, lname, sname, kind, max, parse, arg, help)         \
	{ lname, sname, kind, offsetof(TYPE, field) + PFS_FIELD_IS(TYPE, field, uint64_t), \
	  sizeof(((TYPE *)0)->field), max, arg, help, NULL, 0, parse }
/* NAME=VALUE for the option OPTION_LNAME, which writes the same field
 * (see PFS_OPTF_OPERAND): a string, or a number by the kind's parser. */
#define PFS_OPT_OPERAND_STR(TYPE, field, name, arg, help)                                       \
	PFS_OPT_ENTRY(TYPE, field, char[sizeof(((TYPE *)0)->field)], name, 0, PFS_OPT_STRING, 0, \
		      arg, help, NULL, PFS_OPTF_OPERAND | PFS_OPTF_NOT_PARAM)
#define PFS_OPT_OPERAND_NUM(TYPE, field, name, kind, max, arg, help)                  \
	PFS_OPT_ENTRY(TYPE, field, uint64_t, name, 0, kind, max, arg, help, NULL,      \
		      PFS_OPTF_OPERAND | PFS_OPTF_NOT_PARAM)
/* A string into a char array. */
#define PFS_OPT_STR(TYPE, field, lname, sname, arg, help, flags)                          \
	PFS_OPT_ENTRY(TYPE, field, char[sizeof(((TYPE *)0)->field)], lname, sname,        \
		      PFS_OPT_STRING, 0, arg, help, NULL, flags)
/* One of a NULL-terminated list of names, into an unsigned; flags may be
 * PFS_OPTF_NEEDS_ARG. */
#define PFS_OPT_CHOOSE(TYPE, field, lname, sname, choices, arg, help) \
	PFS_OPT_ENTRY(TYPE, field, unsigned, lname, sname, PFS_OPT_CHOICE, 0, arg, help, choices, 0)
#define PFS_OPT_CHOOSE_F(TYPE, field, lname, sname, choices, arg, help, flags)                \
	PFS_OPT_ENTRY(TYPE, field, unsigned, lname, sname, PFS_OPT_CHOICE, 0, arg, help, choices, \
		      flags)
#define PFS_OPT_END { NULL, 0, 0, 0, 0, 0, NULL, NULL, NULL, 0, NULL }

/* --progress: when rank 0 draws the live progress line. */
enum pfs_progress_mode { PFS_PROGRESS_AUTO, PFS_PROGRESS_ALWAYS, PFS_PROGRESS_NEVER };
extern const char *const pfs_progress_choices[];

/* Options every workload shares; each workload's options struct starts with
 * one of these (so the engine can read them without knowing the workload). */
struct pfs_common_opts {
	char dir[PATH_MAX];                 /* target directory */
	char results[PATH_MAX];             /* HDF5 results file, "" for the default */
	char test_list[PFS_TEST_LIST_MAX];  /* -t as given, then the tests that run */
	char label[PFS_LABEL_MAX];          /* --label: the run's name in compare, "" for none */
	uint64_t iterations;
	uint64_t stonewall_s;               /* --stonewall, 0 for none */
	uint64_t phase_timeout_s;           /* --phase-timeout, 0 for none */
	unsigned progress;                  /* enum pfs_progress_mode */
	bool drop_caches;
	bool latency;                       /* --latency: also in the hottest loops */
	bool force;
	bool dry_run;
	unsigned ntests;                    /* tests selected, in order */
	unsigned char tests[PFS_MAX_TESTS]; /* indexes into the workload's tests */
};

/* The options every workload accepts, for a workload whose options struct
 * is TYPE with its struct pfs_common_opts in the member `common`. */
#define PFS_COMMON_OPTIONS(TYPE) PFS_COMMON_OPTIONS_ITER(TYPE, 'i')
/* The same, with ISHORT (0 for none) as --iterations' short name, for a
 * workload whose tool gives -i another meaning (dm's input file). */
#define PFS_COMMON_OPTIONS_ITER(TYPE, ISHORT) \
	PFS_COMMON_OPTIONS_FORCE(TYPE, ISHORT, PFS_FORCE_HELP)
/* --force's help for every workload; one whose --force also lets it write a
 * named file or device says so with PFS_COMMON_OPTIONS_FORCE. */
#define PFS_FORCE_HELP "run even when the target lacks the space or inodes the plan needs"
/* The same, with FORCE_HELP as --force's help. */
#define PFS_COMMON_OPTIONS_FORCE(TYPE, ISHORT, FORCE_HELP)                                    \
	PFS_OPT_NUM(TYPE, common.iterations, "iterations", ISHORT, PFS_OPT_COUNT, 1000000, "N", \
		    "run every test N times (default 1)"),                                        \
	PFS_OPT_STR(TYPE, common.results, "results", 0, "PATH",                                 \
		    "HDF5 results file (default pfsbench-<workload>-<time>.h5 here)",             \
		    PFS_OPTF_NOT_PARAM),                                                          \
	PFS_OPT_NOFLAG(TYPE, common.drop_caches, "no-drop-caches", 0,                           \
		       "do not sync and drop the page cache before each phase"),                \
	PFS_OPT_FLAG(TYPE, common.latency, "latency", 0,                                        \
		     "record every item's latency also in the hottest loops (Create, Unlink)"), \
	PFS_OPT_CHOOSE(TYPE, common.progress, "progress", 0, pfs_progress_choices,              \
		       "[=always|never|auto]",                                                    \
		       "a live progress line on stderr (default auto: on a terminal)"),           \
	PFS_OPT_FLAG(TYPE, common.force, "force", 0, FORCE_HELP),                               \
	PFS_OPT_NUM(TYPE, common.phase_timeout_s, "phase-timeout", 0, PFS_OPT_UINT, 31536000,   \
		    "SECONDS",                                                                    \
		    "end the job when a step runs longer, naming the workers not done "           \
		    "(default 0: never)"),                                                        \
	PFS_OPT_STR(TYPE, common.label, "label", 0, "NAME",                                     \
		    "a name for the run, kept in the results file: compare's heading for it",    \
		    PFS_OPTF_NOT_PARAM),                                                          \
	{ "help", 'h', PFS_OPT_HELP, 0, 0, 0, NULL, "print this help and exit", NULL, 0, NULL },     \
	{ "version", 0, PFS_OPT_VERSION, 0, 0, 0, NULL, "print the version and exit", NULL, 0, NULL }

/* --stonewall, for workloads whose plans mark steps PFS_STEP_STONEWALL. */
#define PFS_STONEWALL_OPTION(TYPE)                                                          \
	PFS_OPT_NUM(TYPE, common.stonewall_s, "stonewall", 0, PFS_OPT_UINT, 86400, "SECONDS",  \
		    "creating phases stop after SECONDS, then every rank wears out to the "     \
		    "count of the busiest (docs/methodology.md)")

enum {
	PFS_PARSE_OK = 0,
	PFS_PARSE_HELP = 1,
	PFS_PARSE_VERSION = 2,
};

/* Parses argv (argv[0] is the subcommand) into opts by the table. Returns
 * PFS_PARSE_OK/HELP/VERSION, or -EINVAL with a one-line message in err.
 * Positional arguments other than the table's operands (NAME=VALUE) and an
 * option given twice are refused. */
int pfs_opts_parse(const struct pfs_option *table, void *opts, int argc, char **argv,
		   char *err, size_t errlen);

/* The same for a command whose own options come first and another's
 * command line after them (ab's, before the workload's): parsing stops at
 * the first argument that is no option of the table, or after "--", and
 * *used says how many arguments, argv[0] included, were the table's. */
int pfs_opts_parse_head(const struct pfs_option *table, void *opts, int argc, char **argv,
			int *used, char *err, size_t errlen);

/* Prints the option list of a table, one option a line, for --help. */
void pfs_opts_usage(FILE *out, const struct pfs_option *table);

/* ---- the key/value view ------------------------------------------------- */

enum pfs_value_kind { PFS_VALUE_STRING, PFS_VALUE_UINT, PFS_VALUE_BOOL };

/* One parameter or provenance attribute, as text: a UINT is decimal, a BOOL
 * is "true" or "false". */
struct pfs_kv {
	char *key;
	char *value;
	enum pfs_value_kind kind;
};

/* The value of key among n pairs, or NULL. */
const char *pfs_kv_find(const struct pfs_kv *kv, size_t n, const char *key);

/* Calls fn(ctx, key, value, kind) for every parameter of the table, in its
 * order: a flag's value is whether it is in effect ("true"/"false"), a
 * number in decimal, a choice by its name, a string as it is. Stops at and
 * returns fn's first nonzero return. */
int pfs_opts_to_kv(const struct pfs_option *table, const void *opts,
		   int (*fn)(void *ctx, const char *key, const char *value, enum pfs_value_kind kind),
		   void *ctx);

/* The inverse: sets the option named key from its value as pfs_opts_to_kv
 * writes it. Returns 0, -ENOENT for a key that is no parameter of the
 * table, -EINVAL for a value that is not one it could have written. */
int pfs_opts_from_kv(const struct pfs_option *table, void *opts, const char *key,
		     const char *value);

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
