/* options.h: table-driven command-line parsing. Every command, workload or
 * reader of results files, declares its options once, as a NULL-terminated
 * table: flags, numbers, strings, choices, its positional arguments, and
 * each option's default. The same table drives parsing, the defaults,
 * --help (which prints each default from the table, so no help string
 * repeats a number), the checks of each value and the options' key/value
 * view, which the results file stores and `pfsbench show` reads back.
 * Pure: no MPI. */
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
	PFS_OPT_REAL,    /* double, a decimal number >= 0 (at most max, when not 0) */
	PFS_OPT_VALUE,   /* unsigned field := value: a flag of a group that chooses
			  * one thing (--csv, --json); the group's flags write one
			  * field, so two of them exclude each other */
	PFS_OPT_ARG,     /* a positional argument (FILE.h5), into a const char *;
			  * required, non-empty; the table's ARG entries take the
			  * arguments in their order */
	PFS_OPT_ARGS,    /* every positional argument left, into a struct
			  * pfs_opt_args; at least value of them, at most max */
	PFS_OPT_HELP,
	PFS_OPT_VERSION,
};

/* The positional arguments of a PFS_OPT_ARGS entry: pointers into argv, in
 * their order, allocated by the parser (pfs_opts_free). With
 * PFS_OPTF_SIDES, v[0 .. split - 1] came before "--" and the rest after;
 * split is n when there was no "--". */
struct pfs_opt_args {
	char **v;
	size_t n;
	size_t split;
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
/* An option that must be given (plot's -o). */
#define PFS_OPTF_REQUIRED 32u
/* A PFS_OPT_ARGS whose "--" separates two sides (compare A1 A2 -- B1 B2)
 * instead of ending the options: options may follow it, and each side
 * must have an argument. */
#define PFS_OPTF_SIDES 64u
/* An option that may be given again (clean -n -n, export --csv --csv), as
 * the commands always took it; any other given twice is refused. A flag
 * given again says the same; a value given again wins. */
#define PFS_OPTF_REPEAT 128u

struct pfs_option {
	const char *long_name; /* without "--"; a positional argument's name */
	int short_name;        /* 0 for none */
	enum pfs_opt_kind kind;
	size_t offset;         /* into the options struct */
	size_t size;           /* of the field */
	uint64_t max;          /* largest accepted number; 0 for no limit */
	const char *arg;       /* argument name in --help, NULL for flags */
	const char *help;      /* what it does; never its default (def says it) */
	const char *const *choices; /* PFS_OPT_CHOICE: NULL-terminated names */
	unsigned flags;        /* PFS_OPTF_* */
	/* PFS_OPT_COUNT, _UINT, _SIZE: parses the argument instead of the
	 * kind's own parser (a tool's number syntax, such as dm's 4k or 1s);
	 * returns 0, or a negative errno with the tool's words in err. The
	 * key/value view still stores the number in decimal. NULL: the kind's. */
	int (*parse)(const char *arg, uint64_t *out, char *err, size_t errlen);
	/* The default, written as the argument would be ("4m", "auto",
	 * "."): pfs_opts_defaults sets it, --help prints "(default 4m)".
	 * NULL: the field starts zero or empty. */
	const char *def;
	/* A default the command works out when the option is not given
	 * (--results' file name, bonnie's RAM): --help prints it, nothing
	 * sets it. */
	const char *def_shown;
	/* PFS_OPT_VALUE: the number the flag writes; PFS_OPT_ARGS: the
	 * fewest arguments. */
	uint64_t value;
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
/* Every field of an entry but parse and value; def and shown as struct
 * pfs_option says. */
#define PFS_OPT_ENTRY_ALL(TYPE, field, T, lname, sname, kind_, max_, arg_, help_, choices_,   \
			  flags_, def_, shown)                                                   \
	{ .long_name = lname, .short_name = sname, .kind = kind_,                                  \
	  .offset = offsetof(TYPE, field) + PFS_FIELD_IS(TYPE, field, T),                          \
	  .size = sizeof(((TYPE *)0)->field), .max = max_, .arg = arg_, .help = help_,             \
	  .choices = choices_, .flags = flags_, .def = def_, .def_shown = shown }
#define PFS_OPT_ENTRY(TYPE, field, T, lname, sname, kind, max, arg, help, choices, flags)     \
	PFS_OPT_ENTRY_ALL(TYPE, field, T, lname, sname, kind, max, arg, help, choices, flags, NULL, \
			  NULL)
/* The same with a default (see struct pfs_option's def). */
#define PFS_OPT_ENTRY_DEF(TYPE, field, T, lname, sname, kind, max, arg, help, choices, flags, def) \
	PFS_OPT_ENTRY_ALL(TYPE, field, T, lname, sname, kind, max, arg, help, choices, flags, def,   \
			  NULL)
/* With a default the command works out at run time: shown is what --help
 * says of it (see struct pfs_option's def_shown). */
#define PFS_OPT_ENTRY_SHOWN(TYPE, field, T, lname, sname, kind, max, arg, help, flags, shown) \
	PFS_OPT_ENTRY_ALL(TYPE, field, T, lname, sname, kind, max, arg, help, NULL, flags, NULL,  \
			  shown)

/* --lname sets a bool to true / to false. */
#define PFS_OPT_FLAG(TYPE, field, lname, sname, help) \
	PFS_OPT_ENTRY(TYPE, field, bool, lname, sname, PFS_OPT_SET, 0, NULL, help, NULL, 0)
#define PFS_OPT_FLAG_F(TYPE, field, lname, sname, help, flags) \
	PFS_OPT_ENTRY(TYPE, field, bool, lname, sname, PFS_OPT_SET, 0, NULL, help, NULL, flags)
#define PFS_OPT_NOFLAG(TYPE, field, lname, sname, help) \
	PFS_OPT_ENTRY(TYPE, field, bool, lname, sname, PFS_OPT_CLEAR, 0, NULL, help, NULL, 0)
/* A whole number >= 1, >= 0, or a size in bytes, each at most max (0: none). */
#define PFS_OPT_NUM(TYPE, field, lname, sname, kind, max, arg, help) \
	PFS_OPT_ENTRY(TYPE, field, uint64_t, lname, sname, kind, max, arg, help, NULL, 0)
/* A number by the parser parse (see struct pfs_option). */
#define PFS_OPT_NUM_PARSED(TYPE, field, lname, sname, kind_, max_, parse_, arg_, help_)   \
	{ .long_name = lname, .short_name = sname, .kind = kind_,                            \
	  .offset = offsetof(TYPE, field) + PFS_FIELD_IS(TYPE, field, uint64_t),             \
	  .size = sizeof(((TYPE *)0)->field), .max = max_, .arg = arg_, .help = help_,       \
	  .parse = parse_ }
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
/* The same entries with a default, def, as the argument would give it. */
#define PFS_OPT_NUM_DEF(TYPE, field, lname, sname, kind, max, arg, help, def)                   \
	PFS_OPT_ENTRY_DEF(TYPE, field, uint64_t, lname, sname, kind, max, arg, help, NULL, 0, def)
#define PFS_OPT_STR_DEF(TYPE, field, lname, sname, arg, help, flags, def)                      \
	PFS_OPT_ENTRY_DEF(TYPE, field, char[sizeof(((TYPE *)0)->field)], lname, sname,          \
			  PFS_OPT_STRING, 0, arg, help, NULL, flags, def)
#define PFS_OPT_CHOOSE_DEF(TYPE, field, lname, sname, choices, arg, help, flags, def)           \
	PFS_OPT_ENTRY_DEF(TYPE, field, unsigned, lname, sname, PFS_OPT_CHOICE, 0, arg, help,    \
			  choices, flags, def)
/* A decimal number >= 0, at most max (0: none), into a double. */
#define PFS_OPT_REAL_DEF(TYPE, field, lname, sname, max, arg, help, def)                        \
	PFS_OPT_ENTRY_DEF(TYPE, field, double, lname, sname, PFS_OPT_REAL, max, arg, help, NULL, 0, \
			  def)
/* --lname writes v into an unsigned; the flags that write one field are a
 * group of which one may be given (--csv | --json). flags may be
 * PFS_OPTF_REPEAT. */
#define PFS_OPT_SETVAL(TYPE, field, lname, sname, v, help_, flags_)                            \
	{ .long_name = lname, .short_name = sname, .kind = PFS_OPT_VALUE,                        \
	  .offset = offsetof(TYPE, field) + PFS_FIELD_IS(TYPE, field, unsigned),                 \
	  .size = sizeof(((TYPE *)0)->field), .help = help_, .flags = flags_, .value = v }
/* A positional argument NAME into a const char *, and every one left (at
 * least fewest, at most most, 0: no limit) into a struct pfs_opt_args;
 * flags may be PFS_OPTF_SIDES. */
#define PFS_OPT_POS(TYPE, field, name, help)                                                   \
	PFS_OPT_ENTRY(TYPE, field, const char *, name, 0, PFS_OPT_ARG, 0, name, help, NULL, 0)
#define PFS_OPT_POS_ALL(TYPE, field, name, fewest, most, help_, flags_)                        \
	{ .long_name = name, .kind = PFS_OPT_ARGS,                                               \
	  .offset = offsetof(TYPE, field) + PFS_FIELD_IS(TYPE, field, struct pfs_opt_args),      \
	  .size = sizeof(((TYPE *)0)->field), .max = most, .arg = name, .help = help_,           \
	  .flags = flags_, .value = fewest }
/* -h, --help for a table; --version. */
#define PFS_OPT_HELP_ENTRY \
	{ .long_name = "help", .short_name = 'h', .kind = PFS_OPT_HELP, .help = "print this help and exit" }
#define PFS_OPT_VERSION_ENTRY \
	{ .long_name = "version", .kind = PFS_OPT_VERSION, .help = "print the version and exit" }
#define PFS_OPT_END { .long_name = NULL }

/* --progress: when rank 0 draws the live progress line. */
enum pfs_progress_mode { PFS_PROGRESS_AUTO, PFS_PROGRESS_ALWAYS, PFS_PROGRESS_NEVER };
extern const char *const pfs_progress_choices[];

/* --output-format: what the run prints on stdout. text: the workload's
 * own report; json and csv: instead of it, at the end, what `pfsbench
 * export --json` or `--csv` writes of the run's results file. */
enum pfs_output_format { PFS_FORMAT_TEXT, PFS_FORMAT_JSON, PFS_FORMAT_CSV };
extern const char *const pfs_output_format_choices[];

/* --latency-detail: what a latency histogram of the results file covers.
 * node: a node's ranks' items of one op in one step, merged on the node
 * before they travel (docs/scale.md); rank: each row's own; auto: node,
 * except for a workload whose report reads each rank's (stream). */
enum pfs_lat_detail { PFS_LAT_DETAIL_AUTO, PFS_LAT_DETAIL_NODE, PFS_LAT_DETAIL_RANK };
extern const char *const pfs_lat_detail_choices[];

/* Options every workload shares; each workload's options struct starts with
 * one of these (so the engine can read them without knowing the workload). */
struct pfs_common_opts {
	char dir[PATH_MAX];                 /* target directory */
	char results[PATH_MAX];             /* HDF5 results file, "" for the default */
	char test_list[PFS_TEST_LIST_MAX];  /* -t as given, then the tests that run */
	char label[PFS_LABEL_MAX];          /* --label: the run's name in compare, "" for none */
	uint64_t iterations;
	uint64_t stonewall_s;               /* --stonewall, 0 for none */
	uint64_t runtime_s;                 /* --runtime, 0 for none */
	uint64_t phase_timeout_s;           /* --phase-timeout, 0 for none */
	unsigned progress;                  /* enum pfs_progress_mode */
	unsigned output_format;             /* enum pfs_output_format */
	bool direct;                        /* --direct: O_DIRECT, probed before the run */
	bool drop_caches;
	bool latency;                       /* --latency: also in the hottest loops */
	unsigned latency_detail;            /* enum pfs_lat_detail */
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
	PFS_OPT_NUM_DEF(TYPE, common.iterations, "iterations", ISHORT, PFS_OPT_COUNT, 1000000, "N", \
			"run every test N times", "1"),                                             \
	PFS_OPT_RESULTS(TYPE, common.results, "PATH", "HDF5 results file",                       \
			"pfsbench-<workload>-<time>.h5 here"),                                      \
	PFS_OPT_NOFLAG(TYPE, common.drop_caches, "no-drop-caches", 0,                           \
		       "do not sync and drop the page cache before each phase"),                \
	PFS_OPT_FLAG(TYPE, common.latency, "latency", 0,                                        \
		     "record every item's latency also in the hottest loops (Create, Unlink)"), \
	PFS_OPT_CHOOSE_DEF(TYPE, common.latency_detail, "latency-detail", 0,                    \
			   pfs_lat_detail_choices, "auto|node|rank",                              \
			   "latency histograms kept per node (merged there) or per rank",          \
			   PFS_OPTF_NEEDS_ARG | PFS_OPTF_NOT_PARAM, "auto"),                        \
	PFS_OPT_CHOOSE_DEF(TYPE, common.progress, "progress", 0, pfs_progress_choices,          \
			   "[=always|never|auto]",                                                \
			   "a live progress line on stderr (auto: on a terminal)", 0, "auto"),     \
	PFS_OPT_CHOOSE_DEF(TYPE, common.output_format, "output-format", 0,                      \
			   pfs_output_format_choices, "text|json|csv",                            \
			   "stdout: the report, or at the end the rows as export --json/--csv "   \
			   "writes them", PFS_OPTF_NEEDS_ARG | PFS_OPTF_NOT_PARAM, "text"),        \
	PFS_OPT_FLAG(TYPE, common.force, "force", 0, FORCE_HELP),                               \
	PFS_OPT_NUM_DEF(TYPE, common.phase_timeout_s, "phase-timeout", 0, PFS_OPT_UINT, 31536000, \
			"SECONDS",                                                                \
			"end the job when a step runs longer, naming the workers not done "       \
			"(0: never)", "0"),                                                       \
	PFS_OPT_STR(TYPE, common.label, "label", 0, "NAME",                                     \
		    "a name for the run, kept in the results file: compare's heading for it",    \
		    PFS_OPTF_NOT_PARAM),                                                          \
	PFS_OPT_HELP_ENTRY,                                                                     \
	PFS_OPT_VERSION_ENTRY

/* A string option, no parameter of the run, whose default the command
 * works out (shown is what --help says of it). */
#define PFS_OPT_RESULTS(TYPE, field, arg, help, shown)                                          \
	PFS_OPT_ENTRY_SHOWN(TYPE, field, char[sizeof(((TYPE *)0)->field)], "results", 0,         \
			    PFS_OPT_STRING, 0, arg, help, PFS_OPTF_NOT_PARAM, shown)

/* -t LIST: the tests to run; all of them, in the workload's order, when
 * it is not given. */
#define PFS_OPT_TESTS(TYPE, lname, sname, help)                                                \
	PFS_OPT_ENTRY_SHOWN(TYPE, common.test_list, char[PFS_TEST_LIST_MAX], lname, sname,       \
			    PFS_OPT_STRING, 0, "LIST", help, 0, "all")

/* --stonewall, for workloads whose plans mark steps PFS_STEP_STONEWALL. */
#define PFS_STONEWALL_OPTION(TYPE)                                                          \
	PFS_OPT_NUM(TYPE, common.stonewall_s, "stonewall", 0, PFS_OPT_UINT, 86400, "SECONDS",  \
		    "creating phases stop after SECONDS, then every rank wears out to the "     \
		    "count of the busiest (docs/methodology.md)")

/* --runtime, fio's name for a time-limited run: the engine's parse makes
 * it the stonewall of the steps the plan marks PFS_STEP_STONEWALL (in
 * create-unlink and tree, --stonewall under another name). */
#define PFS_RUNTIME_OPTION(TYPE, HELP) \
	PFS_OPT_NUM(TYPE, common.runtime_s, "runtime", 0, PFS_OPT_UINT, 86400, "SECONDS", HELP)
#define PFS_RUNTIME_SAME_HELP "the same as --stonewall SECONDS, under fio's name"

/* --direct, for workloads with a check_direct (engine/workload.h). */
#define PFS_DIRECT_OPTION(TYPE, HELP) PFS_OPT_FLAG(TYPE, common.direct, "direct", 0, HELP)

enum {
	PFS_PARSE_OK = 0,
	PFS_PARSE_HELP = 1,
	PFS_PARSE_VERSION = 2,
};

/* Parses argv (argv[0] is the subcommand) into opts by the table. Returns
 * PFS_PARSE_OK/HELP/VERSION, or -EINVAL with a one-line message in err.
 * Positional arguments go to the table's PFS_OPT_ARG and PFS_OPT_ARGS
 * entries, in order; a table without them takes only its operands
 * (NAME=VALUE). An option given twice, two flags of one PFS_OPT_VALUE
 * group, a missing PFS_OPTF_REQUIRED option or positional argument, and
 * arguments beyond the table's are refused. Options may come before, among
 * and after the positional arguments; "--" ends the options (but see
 * PFS_OPTF_SIDES). Defaults are not set here: pfs_opts_defaults. */
int pfs_opts_parse(const struct pfs_option *table, void *opts, int argc, char **argv,
		   char *err, size_t errlen);

/* The same for a command whose own options come first and another's
 * command line after them (ab's, before the workload's): parsing stops at
 * the first argument that is no option of the table, or after "--", and
 * *used says how many arguments, argv[0] included, were the table's. */
int pfs_opts_parse_head(const struct pfs_option *table, void *opts, int argc, char **argv,
			int *used, char *err, size_t errlen);

/* Sets every option of the table that has a default (def) to it, and
 * every --no-X flag's field (PFS_OPT_CLEAR) to true: what the options are
 * before the command line. 0, or -EINVAL when a def is no value its
 * option accepts (a table's mistake; the unit tests try every table). */
int pfs_opts_defaults(const struct pfs_option *table, void *opts);

/* Frees what parsing allocated in opts (PFS_OPT_ARGS' lists). */
void pfs_opts_free(const struct pfs_option *table, void *opts);

/* Prints the option list of a table, one option a line, for --help: the
 * positional arguments too, and each default as "(default X)" from the
 * table. */
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
