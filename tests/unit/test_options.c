/* test_options.c: table-driven option parsing, test selection, and the
 * create-unlink option table with its checks. */
#include "cmocka_prelude.h"

#include "../registry.h"

#include "pfsbench/core/options.h"
#include "pfsbench/engine/workload.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct t_opts {
	struct pfs_common_opts common;
	uint64_t count, uint, size;
	char name[16];
	bool flag;
};

static const struct pfs_option table[] = {
	PFS_OPT_NUM(struct t_opts, count, "count", 'c', PFS_OPT_COUNT, 1000, "N", "count"),
	PFS_OPT_NUM(struct t_opts, uint, "uint", 'u', PFS_OPT_UINT, 0, "N", "uint"),
	PFS_OPT_NUM(struct t_opts, size, "size", 's', PFS_OPT_SIZE, 0, "SIZE", "size"),
	PFS_OPT_STR(struct t_opts, name, "name", 'n', "NAME", "name", 0),
	PFS_OPT_FLAG(struct t_opts, flag, "flag", 0, "flag"),
	PFS_COMMON_OPTIONS(struct t_opts),
	PFS_OPT_END,
};

static int parse(struct t_opts *o, char *err, size_t errlen, ...)
{
	char *argv[32] = { "test" };
	int argc = 1;
	va_list ap;
	char *a;

	memset(o, 0, sizeof(*o));
	o->common.drop_caches = true;
	va_start(ap, errlen);
	while ((a = va_arg(ap, char *)))
		argv[argc++] = a;
	va_end(ap);
	err[0] = 0;
	return pfs_opts_parse(table, o, argc, argv, err, errlen);
}

static void test_values_land_in_their_fields(void **state)
{
	struct t_opts o;
	char err[256];

	(void)state;
	assert_int_equal(parse(&o, err, sizeof(err), "-c", "7", "--uint=0", "-s", "64k", "-n", "abc",
			       "--flag", "-i", "3", "--no-drop-caches", "--force", NULL),
			 PFS_PARSE_OK);
	assert_true(o.count == 7 && o.uint == 0 && o.size == 65536 && o.flag);
	assert_string_equal(o.name, "abc");
	assert_true(o.common.iterations == 3 && !o.common.drop_caches && o.common.force);
	/* glued short options, as getopt allows and users type: -i2 */
	assert_int_equal(parse(&o, err, sizeof(err), "-i2", "-c1", NULL), PFS_PARSE_OK);
	assert_true(o.common.iterations == 2 && o.count == 1);
	/* --progress takes its value after '=', or none: always */
	assert_int_equal(parse(&o, err, sizeof(err), "--progress", NULL), PFS_PARSE_OK);
	assert_int_equal(o.common.progress, PFS_PROGRESS_ALWAYS);
	assert_int_equal(parse(&o, err, sizeof(err), "--progress=never", NULL), PFS_PARSE_OK);
	assert_int_equal(o.common.progress, PFS_PROGRESS_NEVER);
	assert_int_equal(parse(&o, err, sizeof(err), NULL), PFS_PARSE_OK);
	assert_int_equal(o.common.progress, PFS_PROGRESS_AUTO);
	assert_int_equal(parse(&o, err, sizeof(err), "-c", "1", "-c", "2", NULL), -EINVAL);
	assert_string_equal(err, "-c/--count is given twice");
}

/* A command's own options before another command line (ab's before the
 * workload's): parsing stops at the first word that is no option, or after
 * "--", and leaves the rest alone, in its order. */
static void test_head_stops_at_the_first_operand(void **state)
{
	char *argv[] = { "ab", "-c", "2", "--name=x", "create-unlink", "-m", "/d", "-c", "9", NULL };
	char *dashes[] = { "ab", "-c", "2", "--", "-m", "/d", NULL };
	struct t_opts o;
	char err[256];
	int used = 0;

	(void)state;
	memset(&o, 0, sizeof(o));
	assert_int_equal(pfs_opts_parse_head(table, &o, 9, argv, &used, err, sizeof(err)),
			 PFS_PARSE_OK);
	assert_int_equal(used, 4);
	assert_true(o.count == 2 && !strcmp(o.name, "x"));
	assert_string_equal(argv[4], "create-unlink");
	assert_string_equal(argv[8], "9");
	memset(&o, 0, sizeof(o));
	assert_int_equal(pfs_opts_parse_head(table, &o, 6, dashes, &used, err, sizeof(err)),
			 PFS_PARSE_OK);
	assert_int_equal(used, 4);
	assert_string_equal(dashes[used], "-m");
	/* and the whole parse still takes options after an operand's place */
	assert_int_equal(parse(&o, err, sizeof(err), "extra", "-c", "1", NULL), -EINVAL);
	assert_string_equal(err, "unexpected argument 'extra'");
}

static void test_help_and_version(void **state)
{
	struct t_opts o;
	char err[256];

	(void)state;
	assert_int_equal(parse(&o, err, sizeof(err), "-h", NULL), PFS_PARSE_HELP);
	assert_int_equal(parse(&o, err, sizeof(err), "--version", NULL), PFS_PARSE_VERSION);
}

static void test_bad_input_has_one_clear_message(void **state)
{
	static const struct { const char *a, *b, *msg; } cases[] = {
		{ "-c", "0", "-c/--count must be at least 1" },
		{ "-c", "abc", "-c/--count wants a whole number, not 'abc'" },
		{ "-c", "-5", "-c/--count wants a whole number, not '-5'" },
		{ "-c", "1001", "-c/--count '1001' is too large" },
		{ "-s", "4q", "-s/--size wants a size such as 4096, 64k or 4m, not '4q'" },
		{ "-s", "0", "-s/--size must be at least 1" },
		{ "-x", NULL, "unknown option '-x'" },
		{ "--bogus", NULL, "unknown option '--bogus'" },
		{ "stray", NULL, "unexpected argument 'stray'" },
		{ "-n", "", "-n/--name wants a non-empty NAME" },
		{ "-n", "0123456789abcdef", "-n/--name: '0123456789abcdef...' is too long" },
		{ "-c", NULL, "option '-c' needs an argument" },
		/* a second value would silently win: ask which */
		{ "--flag", "--flag", "--flag is given twice" },
		{ "--progress=sometimes", NULL,
		  "--progress wants one of auto, always, never, not 'sometimes'" },
	};
	struct t_opts o;
	char err[256];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(parse(&o, err, sizeof(err), cases[i].a, cases[i].b, NULL), -EINVAL);
		assert_string_equal(err, cases[i].msg);
	}
}

static void test_usage_lists_every_option(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	pfs_opts_usage(f, table);
	fclose(f);
	for (const struct pfs_option *o = table; o->long_name; o++) {
		char want[64];

		snprintf(want, sizeof(want), "--%s", o->long_name);
		assert_non_null(strstr(buf, want));
	}
	free(buf);
}

/* ---- a command's table: positional arguments, sides, flag groups, numbers
 * with decimals, a required option, defaults --------------------------------- */

enum { FMT_TEXT, FMT_CSV, FMT_JSON };

struct c_opts {
	const char *file;
	struct pfs_opt_args runs;
	double margin;
	unsigned format;
	bool dry, sync;
	uint64_t n;
	char out[16];
};

#define C struct c_opts
static const struct pfs_option c_table[] = {
	PFS_OPT_POS(C, file, "FILE", "the first argument"),
	PFS_OPT_POS_ALL(C, runs, "RUN", 2, 4, "the others; -- parts two sides", PFS_OPTF_SIDES),
	PFS_OPT_REAL_DEF(C, margin, "margin", 0, 1000, "PCT", "a per cent", "10"),
	PFS_OPT_SETVAL(C, format, "csv", 0, FMT_CSV, "CSV", PFS_OPTF_REPEAT),
	PFS_OPT_SETVAL(C, format, "json", 0, FMT_JSON, "JSON", 0),
	PFS_OPT_FLAG(C, dry, "dry-run", 'n', "nothing done"),
	PFS_OPT_NOFLAG(C, sync, "no-sync", 0, "no sync"),
	PFS_OPT_NUM_DEF(C, n, "count", 'c', PFS_OPT_COUNT, 100, "N", "how many", "7"),
	PFS_OPT_STR(C, out, "out", 'o', "OUT", "where it goes", PFS_OPTF_REQUIRED),
	PFS_OPT_HELP_ENTRY,
	PFS_OPT_END,
};
#undef C

/* One command line of c_table and what it must give: rc, and then the
 * message, or the fields ("a b|c" for runs a b before "--" and c after). */
struct c_case {
	const char *args[12];
	int rc;
	const char *msg;
	const char *file, *runs;
	double margin;
	unsigned format;
	bool dry;
};

static void c_parse(const struct c_case *c, struct c_opts *o, char *err, size_t errlen, int *rc)
{
	char *argv[16] = { "cmd" };
	int argc = 1;

	for (size_t i = 0; c->args[i]; i++)
		argv[argc++] = (char *)c->args[i];
	memset(o, 0, sizeof(*o));
	assert_int_equal(pfs_opts_defaults(c_table, o), 0);
	err[0] = 0;
	*rc = pfs_opts_parse(c_table, o, argc, argv, err, errlen);
}

static void runs_text(const struct pfs_opt_args *r, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = 0;
	for (size_t i = 0; i < r->n; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s",
				      !i ? "" : i == r->split ? "|" : " ", r->v[i]);
}

static void test_positional_sides_groups_and_reals(void **state)
{
#define OK(...) { __VA_ARGS__ }, PFS_PARSE_OK, NULL
#define BAD(msg, ...) { __VA_ARGS__ }, -EINVAL, msg, NULL, NULL, 0, 0, false
	static const struct c_case cases[] = {
		/* defaults where nothing is said */
		{ OK("-o", "x", "F", "a", "b"), "F", "a b", 10, FMT_TEXT, false },
		/* options before, among and after the arguments, in their order */
		{ OK("F", "a", "--csv", "b", "-o", "x", "-n"), "F", "a b", 10, FMT_CSV, true },
		/* "--" parts two sides; options may follow it */
		{ OK("-o", "x", "F", "a", "--", "b", "--margin", "0"), "F", "a|b", 0, FMT_TEXT, false },
		{ OK("-o", "x", "F", "a", "b", "--", "c", "d", "-n"), "F", "a b|c d", 10, FMT_TEXT, true },
		{ OK("-o", "x", "F", "a", "--", "b", "--json"), "F", "a|b", 10, FMT_JSON, false },
		/* the reals' edges: 0, the largest, exponents, decimals */
		{ OK("-o", "x", "F", "a", "b", "--margin=1000"), "F", "a b", 1000, FMT_TEXT, false },
		{ OK("-o", "x", "F", "a", "b", "--margin", "1e3"), "F", "a b", 1000, FMT_TEXT, false },
		{ OK("-o", "x", "F", "a", "b", "--margin", "2.5"), "F", "a b", 2.5, FMT_TEXT, false },
		{ OK("-o", "x", "F", "a", "b", "--margin", "0"), "F", "a b", 0, FMT_TEXT, false },
		/* the most arguments: 4 */
		{ OK("-o", "x", "F", "a", "b", "c", "d"), "F", "a b c d", 10, FMT_TEXT, false },
		/* "-" alone is an argument (standard input's name) */
		{ OK("-o", "x", "-", "a", "b"), "-", "a b", 10, FMT_TEXT, false },
		{ BAD("give the first side's RUN before '--'", "-o", "x", "F", "--", "a", "b") },
		{ BAD("give the other side's RUN after '--'", "-o", "x", "F", "a", "--") },
		{ BAD("give the other side's RUN after '--'", "-o", "x", "F", "a", "--", "-n") },
		{ BAD("'--' is given twice: it parts two sides", "-o", "x", "F", "a", "--", "b", "--", "c") },
		{ BAD("give 2 RUN or more", "-o", "x", "F", "a") },
		{ BAD("give FILE", "-o", "x") },
		{ BAD("FILE must not be empty", "-o", "x", "", "a", "b") },
		{ BAD("unexpected argument 'e'", "-o", "x", "F", "a", "b", "c", "d", "e") },
		{ BAD("give -o/--out OUT", "F", "a", "b") },
		{ BAD("--csv and --json exclude each other: give one", "-o", "x", "F", "a", "b", "--csv",
		      "--json") },
		{ BAD("--json and --csv exclude each other: give one", "--json", "-o", "x", "F", "a", "b",
		      "--csv") },
		{ BAD("--json is given twice", "-o", "x", "F", "a", "b", "--json", "--json") },
		/* unless it may be repeated: it says the same again */
		{ OK("-o", "x", "F", "a", "b", "--csv", "--csv"), "F", "a b", 10, FMT_CSV, false },
		{ BAD("-n/--dry-run is given twice", "-o", "x", "F", "a", "b", "-n", "--dry-run") },
		{ BAD("--margin '1000.5' is too large (at most 1000)", "-o", "x", "F", "a", "b", "--margin",
		      "1000.5") },
		{ BAD("--margin 'inf' is too large (at most 1000)", "-o", "x", "F", "a", "b", "--margin",
		      "inf") },
		{ BAD("--margin wants a number, 0 or more, not '-1'", "-o", "x", "F", "a", "b", "--margin",
		      "-1") },
		{ BAD("--margin wants a number, 0 or more, not 'nan'", "-o", "x", "F", "a", "b",
		      "--margin", "nan") },
		{ BAD("--margin wants a number, 0 or more, not '5%'", "-o", "x", "F", "a", "b",
		      "--margin", "5%") },
		{ BAD("--margin wants a number, 0 or more, not ''", "-o", "x", "F", "a", "b", "--margin",
		      "") },
		{ BAD("option '--margin' needs an argument", "-o", "x", "F", "a", "b", "--margin") },
		{ BAD("unknown option '--bogus'", "-o", "x", "F", "a", "b", "--bogus") },
		/* --help before a mistake wins, even without what is required */
		{ { "-h", "--bogus" }, PFS_PARSE_HELP, NULL, NULL, NULL, 0, 0, false },
	};
#undef OK
#undef BAD
	struct c_opts o;
	char err[256], runs[128];
	int rc;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct c_case *c = &cases[i];

		c_parse(c, &o, err, sizeof(err), &rc);
		if (rc != c->rc)
			fail_msg("case %zu: rc %d, not %d (%s)", i, rc, c->rc, err);
		if (c->msg) {
			assert_string_equal(err, c->msg);
			/* a refusal leaves no list behind to free */
			assert_null(o.runs.v);
			continue;
		}
		if (!c->file)
			continue;
		runs_text(&o.runs, runs, sizeof(runs));
		assert_string_equal(o.file, c->file);
		assert_string_equal(runs, c->runs);
		assert_true(o.margin == c->margin);
		assert_int_equal(o.format, c->format);
		assert_int_equal(o.dry, c->dry);
		assert_true(o.sync);    /* --no-sync's field starts true */
		assert_true(o.n == 7);  /* the table's default */
		pfs_opts_free(c_table, &o);
		assert_null(o.runs.v);
	}
}

/* Without sides, "--" ends the options: what follows is an argument even
 * when it starts with a dash. */
struct d_opts {
	const char *dir;
	bool dry;
};

static const struct pfs_option d_table[] = {
	PFS_OPT_POS(struct d_opts, dir, "DIR", "the directory"),
	PFS_OPT_FLAG(struct d_opts, dry, "dry-run", 'n', "nothing done"),
	PFS_OPT_END,
};

static void test_dashes_end_the_options(void **state)
{
	static const struct {
		const char *args[4];
		int rc;
		const char *dir_or_msg;
		bool dry;
	} cases[] = {
		{ { "--", "-n", NULL }, PFS_PARSE_OK, "-n", false },
		{ { "-n", "--", "--dry-run" }, PFS_PARSE_OK, "--dry-run", true },
		{ { "d", "-n" }, PFS_PARSE_OK, "d", true },
		{ { "d", "--", "e" }, -EINVAL, "unexpected argument 'e'", false },
		{ { "--" }, -EINVAL, "give DIR", false },
		{ { "-x", "d" }, -EINVAL, "unknown option '-x'", false },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *argv[6] = { "clean" }, err[128] = "";
		struct d_opts o = { 0 };
		int argc = 1, rc;

		for (size_t k = 0; cases[i].args[k]; k++)
			argv[argc++] = (char *)cases[i].args[k];
		rc = pfs_opts_parse(d_table, &o, argc, argv, err, sizeof(err));
		assert_int_equal(rc, cases[i].rc);
		assert_string_equal(rc ? err : o.dir, cases[i].dir_or_msg);
		assert_int_equal(o.dry, cases[i].dry);
	}
}

/* The defaults: set by pfs_opts_defaults from the table, printed by --help
 * from the same entries, "(default X)" never broken across lines; a
 * default worked out at run time is printed and not set. */
struct e_opts {
	uint64_t size;
	char dir[8];
	unsigned when;
	char machine[8];
	char text[8];
};

#define E struct e_opts
static const struct pfs_option e_table[] = {
	PFS_OPT_NUM_DEF(E, size, "size", 's', PFS_OPT_SIZE, 0, "SIZE",
			"a help text long enough that it has to be wrapped where it reaches the end of "
			"the line, its default and all",
			"4m"),
	PFS_OPT_STR_DEF(E, dir, "dir", 'd', "DIR", "where", 0, "."),
	PFS_OPT_CHOOSE_DEF(E, when, "when", 0, pfs_progress_choices, "[=always|never|auto]", "when",
			   0, "never"),
	PFS_OPT_ENTRY_SHOWN(E, machine, char[8], "machine", 0, PFS_OPT_STRING, 0, "NAME", "a name", 0,
			    "the host's"),
	PFS_OPT_STR(E, text, "text", 0, "TEXT", "no default", 0),
	PFS_OPT_END,
};
#undef E

static void test_defaults_are_the_tables(void **state)
{
	struct e_opts o;
	char *buf = NULL, *line;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	static const struct pfs_option bad_def[] = {
		PFS_OPT_NUM_DEF(struct e_opts, size, "size", 0, PFS_OPT_COUNT, 10, "N", "n", "11"),
		PFS_OPT_END,
	};

	(void)state;
	memset(&o, 0xff, sizeof(o));
	o.machine[0] = o.text[0] = 0;
	assert_int_equal(pfs_opts_defaults(e_table, &o), 0);
	assert_true(o.size == 4u << 20);
	assert_string_equal(o.dir, ".");
	assert_int_equal(o.when, PFS_PROGRESS_NEVER);
	assert_string_equal(o.machine, ""); /* shown only: the command works it out */
	/* a default its own option would refuse is the table's mistake */
	assert_int_equal(pfs_opts_defaults(bad_def, &o), -EINVAL);

	pfs_opts_usage(f, e_table);
	fclose(f);
	assert_non_null(strstr(buf, "(default 4m)\n"));
	assert_non_null(strstr(buf, "where (default .)\n"));
	assert_non_null(strstr(buf, "when (default never)\n"));
	assert_non_null(strstr(buf, "a name (default the host's)\n"));
	assert_non_null(strstr(buf, "no default\n"));
	assert_null(strstr(buf, "no default ("));
	for (line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
		assert_true(strlen(line) <= 79);
		/* "(default" and its value on one line */
		assert_null(strstr(line, "(default\n"));
		assert_true(strlen(line) < 8 || strcmp(line + strlen(line) - 8, "(default"));
	}
	free(buf);
}

static void test_select_tests(void **state)
{
	static const char *const names[] = { "se", "pa", "ua", "ub", "uc", NULL };
	unsigned char sel[PFS_MAX_TESTS];
	unsigned n;
	char err[256];

	(void)state;
	assert_int_equal(pfs_tests_select("", names, sel, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 5);
	assert_int_equal(pfs_tests_select("uc,se,uc", names, sel, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 3);
	assert_int_equal(sel[0], 4);
	assert_int_equal(sel[1], 0);
	assert_int_equal(sel[2], 4);
	assert_int_equal(pfs_tests_select("se,xx", names, sel, &n, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "unknown test 'xx' in -t (known: se,pa,ua,ub,uc)");
	assert_int_equal(pfs_tests_select("se,,pa", names, sel, &n, err, sizeof(err)), -EINVAL);
	assert_int_equal(pfs_tests_select("se,", names, sel, &n, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "-t ends with a comma");
}

/* What the results file records as the tests: the selection's names, also
 * for the default (every test), and the list a selection came from. */
static void test_name_tests(void **state)
{
	static const char *const names[] = { "se", "pa", "ua", "ub", "uc", NULL };
	unsigned char sel[PFS_MAX_TESTS];
	unsigned n;
	char err[256], list[PFS_TEST_LIST_MAX];

	(void)state;
	assert_int_equal(pfs_tests_select("", names, sel, &n, err, sizeof(err)), 0);
	assert_int_equal(pfs_tests_name(names, sel, n, list, sizeof(list)), 0);
	assert_string_equal(list, "se,pa,ua,ub,uc");
	assert_int_equal(pfs_tests_select("uc,se,uc", names, sel, &n, err, sizeof(err)), 0);
	assert_int_equal(pfs_tests_name(names, sel, n, list, sizeof(list)), 0);
	assert_string_equal(list, "uc,se,uc");
	assert_int_equal(pfs_tests_name(names, sel, 0, list, sizeof(list)), 0);
	assert_string_equal(list, "");
	assert_int_equal(pfs_tests_name(names, sel, 3, list, 8), -ENAMETOOLONG);
	assert_int_equal(pfs_tests_name(names, sel, 3, list, 9), 0);
}

/* The create-unlink table, through the workload's own callbacks. */
static int cu_parse(void *opts, char *err, size_t errlen, int argc, char **argv)
{
	const struct pfs_workload *wl = &pfs_workload_create_unlink;
	int rc;

	memset(opts, 0, wl->opts_size);
	assert_int_equal(pfs_workload_defaults(wl, opts), 0);
	rc = pfs_opts_parse(wl->options, opts, argc, argv, err, errlen);
	return rc ? rc : wl->validate(opts, err, errlen);
}

static void test_create_unlink_options(void **state)
{
	const struct pfs_workload *wl = &pfs_workload_create_unlink;
	void *opts = calloc(1, wl->opts_size);
	struct pfs_common_opts *c = opts;
	struct pfs_needs needs;
	char err[256];
	char *ok[] = { "create-unlink", "-m", "/mnt/gfs2", "-i2", "-t", "se,uc" };
	char *no_m[] = { "create-unlink", "-f", "10" };
	char *big_F[] = { "create-unlink", "-m", "/x", "-f", "10", "-F", "11" };

	(void)state;
	assert_int_equal(cu_parse(opts, err, sizeof(err), 6, ok), 0);
	assert_string_equal(c->dir, "/mnt/gfs2");
	assert_string_equal(c->test_list, "se,uc");
	assert_true(c->iterations == 2);
	/* defaults: 2500 files of 4 MiB per worker, 50000 creates */
	wl->needs(opts, 5, &needs);
	assert_true(needs.bytes == 5ull * 2500 * (4u << 20));
	assert_true(needs.inodes == 5ull * 50001);

	assert_int_equal(cu_parse(opts, err, sizeof(err), 3, no_m), -EINVAL);
	assert_string_equal(err, "-m DIR is required: the directory to test in");
	assert_int_equal(cu_parse(opts, err, sizeof(err), 7, big_F), -EINVAL);
	assert_string_equal(err, "-F (11) cannot exceed -f (10): Write uses created files");
	free(opts);
}

/* --label: every workload has it; printable text only, kept out of the
 * parameters (the results file keeps it in the provenance). */
static void test_label(void **state)
{
	const struct pfs_workload *wl = &pfs_workload_tree;
	void *opts = calloc(1, wl->opts_size);
	struct pfs_common_opts *c = opts;
	char err[256];
	char *ok[] = { "tree", "--label", "gluster r2, 3 hosts" };
	char *ctl[] = { "tree", "--label", "two\nlines" };
	char *empty[] = { "tree", "--label", "" };

	(void)state;
	assert_int_equal(pfs_opts_parse(wl->options, opts, 3, ok, err, sizeof(err)), 0);
	assert_string_equal(c->label, "gluster r2, 3 hosts");
	assert_int_equal(pfs_opts_parse(wl->options, opts, 3, ctl, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--label wants printable text, without control characters");
	assert_int_equal(pfs_opts_parse(wl->options, opts, 3, empty, err, sizeof(err)), -EINVAL);
	for (const struct pfs_option *o = wl->options; o->long_name; o++)
		if (!strcmp(o->long_name, "label"))
			assert_true(o->flags & PFS_OPTF_NOT_PARAM);
	free(opts);
}

/* Every string of every workload (paths, names, lists) refuses control
 * characters: a newline in -m split the report's header. */
static void test_strings_printable(void **state)
{
	(void)state;
	for (size_t i = 0; pfs_workloads[i]; i++) {
		const struct pfs_workload *wl = pfs_workloads[i];
		void *opts = calloc(1, wl->opts_size);

		assert_non_null(opts);
		for (const struct pfs_option *o = wl->options; o->long_name; o++) {
			char opt[64], arg[64], err[256], want[128], name[64];
			/* short: bonnie's --bonnie-version holds 4 characters */
			const char *bad[] = { "a\nb", "\tab", "a\x7f", "\x1b[m" };

			if (o->kind != PFS_OPT_STRING)
				continue;
			if (o->flags & PFS_OPTF_OPERAND)
				snprintf(name, sizeof(name), "%s=", o->long_name);
			else if (o->short_name)
				snprintf(name, sizeof(name), "-%c/--%s", o->short_name, o->long_name);
			else
				snprintf(name, sizeof(name), "--%s", o->long_name);
			snprintf(want, sizeof(want), "%s wants printable text, without control characters",
				 name);
			for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
				char *argv[3] = { (char *)wl->name, opt, arg };
				int argc = 3;

				if (o->flags & PFS_OPTF_OPERAND) {
					snprintf(opt, sizeof(opt), "%s=%s", o->long_name, bad[k]);
					argc = 2;
				} else {
					snprintf(opt, sizeof(opt), "--%s", o->long_name);
					snprintf(arg, sizeof(arg), "%s", bad[k]);
				}
				err[0] = 0;
				assert_int_equal(pfs_opts_parse(wl->options, opts, argc, argv, err,
								sizeof(err)),
						 -EINVAL);
				assert_string_equal(err, want);
			}
		}
		free(opts);
	}
}

/* ---- the key/value view ------------------------------------------------- */

struct kv_list {
	struct pfs_kv kv[64];
	size_t n;
};

static int collect(void *ctx, const char *key, const char *value, enum pfs_value_kind kind)
{
	struct kv_list *l = ctx;

	assert_true(l->n < 64);
	l->kv[l->n++] = (struct pfs_kv){ strdup(key), strdup(value), kind };
	return 0;
}

static void kv_free(struct kv_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->kv[i].key);
		free(l->kv[i].value);
	}
	l->n = 0;
}

/* Sets every parameter of the table to a value unlike its default: a
 * flag turned over, a number changed, a string replaced, a choice moved. */
static void change_every_option(const struct pfs_option *opts_table, void *opts)
{
	for (const struct pfs_option *o = opts_table; o->long_name; o++) {
		char *field = (char *)opts + o->offset;

		switch (o->kind) {
		case PFS_OPT_SET:
		case PFS_OPT_CLEAR:
			*(bool *)field = !*(bool *)field;
			break;
		case PFS_OPT_COUNT:
		case PFS_OPT_UINT:
		case PFS_OPT_SIZE:
			*(uint64_t *)field = *(uint64_t *)field + 7;
			break;
		case PFS_OPT_STRING:
			snprintf(field, o->size, "v-%s, \"x\"", o->long_name);
			break;
		case PFS_OPT_CHOICE:
			*(unsigned *)field = (*(unsigned *)field + 1) % 3;
			break;
		default: /* no parameter of a run */
			break;
		}
	}
}

/* Every option of every workload goes to the key/value view and back to
 * the same value: what the results file stores is what show rebuilds. */
static void test_every_option_round_trips_through_kv(void **state)
{
	(void)state;
	for (size_t w = 0; pfs_workloads[w]; w++) {
		const struct pfs_workload *wl = pfs_workloads[w];
		void *a = calloc(1, wl->opts_size), *b = calloc(1, wl->opts_size);
		struct kv_list l = { .n = 0 };
		size_t params = 0;

		assert_non_null(a);
		assert_non_null(b);
		assert_int_equal(pfs_workload_defaults(wl, a), 0);
		change_every_option(wl->options, a);
		assert_int_equal(pfs_opts_to_kv(wl->options, a, collect, &l), 0);
		assert_int_equal(pfs_workload_defaults(wl, b), 0);
		for (size_t i = 0; i < l.n; i++)
			assert_int_equal(pfs_opts_from_kv(wl->options, b, l.kv[i].key, l.kv[i].value), 0);
		for (const struct pfs_option *o = wl->options; o->long_name; o++) {
			bool param = o->kind != PFS_OPT_HELP && o->kind != PFS_OPT_VERSION &&
				     !(o->flags & PFS_OPTF_NOT_PARAM);

			params += param;
			if (param)
				assert_memory_equal((char *)a + o->offset, (char *)b + o->offset,
						    o->kind == PFS_OPT_STRING ? strlen((char *)a + o->offset) + 1
									      : o->size);
		}
		/* Every parameter once, and nothing else (not --results). */
		assert_int_equal(l.n, params);
		assert_null(pfs_kv_find(l.kv, l.n, "results"));
		assert_int_equal(pfs_opts_from_kv(wl->options, b, "results", "/x"), -ENOENT);
		assert_int_equal(pfs_opts_from_kv(wl->options, b, "no-such-option", "1"), -ENOENT);
		kv_free(&l);
		free(a);
		free(b);
	}
}

/* What a hostile results file may hold is refused, not half-applied. */
static void test_kv_refuses_values_it_could_not_have_written(void **state)
{
	struct t_opts o;

	(void)state;
	memset(&o, 0, sizeof(o));
	assert_int_equal(pfs_opts_from_kv(table, &o, "count", "-1"), -EINVAL);
	assert_int_equal(pfs_opts_from_kv(table, &o, "count", "12x"), -EINVAL);
	assert_int_equal(pfs_opts_from_kv(table, &o, "flag", "yes"), -EINVAL);
	assert_int_equal(pfs_opts_from_kv(table, &o, "progress", "sometimes"), -EINVAL);
	assert_int_equal(pfs_opts_from_kv(table, &o, "name", "0123456789abcdefg"), -EINVAL);
	assert_true(o.count == 0 && !o.flag && o.common.progress == 0);
	assert_int_equal(pfs_opts_from_kv(table, &o, "no-drop-caches", "true"), 0);
	assert_false(o.common.drop_caches);
}

/* A tool's own number syntax (dm's, through a parser hook), a choice that
 * needs its argument, and --iterations without -i, as pfsbench stream's
 * table has them. */
struct t_dm_opts {
	struct pfs_common_opts common;
	uint64_t block, seek;
	unsigned format;
	char input[16];
};

static int parse_tenfold(const char *arg, uint64_t *out, char *err, size_t errlen)
{
	uint64_t v;

	if (pfs_parse_u64(arg, &v)) {
		snprintf(err, errlen, "%s is not a valid number", arg);
		return -EINVAL;
	}
	*out = v * 10;
	return 0;
}

static const char *const t_formats[] = { "dm", "dd", "lmdd", NULL };
static const struct pfs_option dm_table[] = {
	PFS_OPT_NUM_PARSED(struct t_dm_opts, block, "buffer-size", 'b', PFS_OPT_COUNT, 1000,
			   parse_tenfold, "N", "b"),
	PFS_OPT_NUM_PARSED(struct t_dm_opts, seek, "seek", 'k', PFS_OPT_UINT, 0, parse_tenfold, "N",
			   "k"),
	PFS_OPT_CHOOSE_F(struct t_dm_opts, format, "format", 0, t_formats, "dm|dd|lmdd", "f",
			 PFS_OPTF_NEEDS_ARG),
	PFS_OPT_STR(struct t_dm_opts, input, "input-file", 'i', "PATH", "i", 0),
	PFS_COMMON_OPTIONS_ITER(struct t_dm_opts, 0),
	PFS_OPT_END,
};

static int dm_parse(struct t_dm_opts *o, char *err, size_t errlen, const char *a, const char *b,
		    const char *c)
{
	char *argv[] = { "test", (char *)a, (char *)b, (char *)c, NULL };
	int argc = 1;

	while (argv[argc])
		argc++;
	memset(o, 0, sizeof(*o));
	err[0] = 0;
	return pfs_opts_parse(dm_table, o, argc, argv, err, errlen);
}

static void test_parser_hooks_choices_and_short_names(void **state)
{
	struct t_dm_opts o;
	char err[256], *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_int_equal(dm_parse(&o, err, sizeof(err), "-b", "7", "-k0"), PFS_PARSE_OK);
	assert_true(o.block == 70 && o.seek == 0);
	assert_int_equal(dm_parse(&o, err, sizeof(err), "-b", "7x", NULL), -EINVAL);
	assert_string_equal(err, "-b/--buffer-size: 7x is not a valid number");
	assert_int_equal(dm_parse(&o, err, sizeof(err), "-b", "0", NULL), -EINVAL);
	assert_string_equal(err, "-b/--buffer-size must be at least 1");
	assert_int_equal(dm_parse(&o, err, sizeof(err), "-b", "101", NULL), -EINVAL);
	assert_string_equal(err, "-b/--buffer-size '101' is too large");
	/* the argument after a blank, and refused when left out */
	assert_int_equal(dm_parse(&o, err, sizeof(err), "--format", "lmdd", NULL), PFS_PARSE_OK);
	assert_int_equal(o.format, 2);
	assert_int_equal(dm_parse(&o, err, sizeof(err), "--format", NULL, NULL), -EINVAL);
	assert_string_equal(err, "option '--format' needs an argument");
	/* -i is the input file; --iterations has no short name */
	assert_int_equal(dm_parse(&o, err, sizeof(err), "-i", "in", "--iterations=3"), PFS_PARSE_OK);
	assert_string_equal(o.input, "in");
	assert_true(o.common.iterations == 3);
	/* the key/value view stores the parsed number, in decimal */
	o.block = 70;
	assert_int_equal(pfs_opts_from_kv(dm_table, &o, "buffer-size", "70"), 0);
	assert_true(o.block == 70);
	f = open_memstream(&buf, &len);
	pfs_opts_usage(f, dm_table);
	fclose(f);
	assert_non_null(strstr(buf, "    --format dm|dd|lmdd "));
	assert_non_null(strstr(buf, "    --iterations N "));
	assert_non_null(strstr(buf, "-i, --input-file PATH "));
	free(buf);
}

/* Operands, dd's NAME=VALUE (perf_matrix's if=, of=, iter=): another
 * spelling of an option, never --NAME, and the two count as one. */
struct t_pm_opts {
	struct pfs_common_opts common;
	char input[64];
	uint64_t iter;
};

static const struct pfs_option pm_table[] = {
	PFS_OPT_STR(struct t_pm_opts, input, "read", 'r', "PATH", "read PATH", 0),
	PFS_OPT_NUM(struct t_pm_opts, iter, "iter", 0, PFS_OPT_COUNT, 100, "N", "N times"),
	PFS_OPT_OPERAND_STR(struct t_pm_opts, input, "if", "PATH", "the same as --read"),
	PFS_OPT_OPERAND_NUM(struct t_pm_opts, iter, "iter", PFS_OPT_COUNT, 100, "N",
			    "the same as --iter"),
	PFS_OPT_END,
};

static int pm_parse(struct t_pm_opts *o, char *err, size_t errlen, char *a, char *b, char *c)
{
	char *argv[] = { "test", a, b, c, NULL };
	int argc = 1;

	memset(o, 0, sizeof(*o));
	while (argc < 4 && argv[argc])
		argc++;
	err[0] = 0;
	return pfs_opts_parse(pm_table, o, argc, argv, err, errlen);
}

static int pm_kv(void *ctx, const char *key, const char *value, enum pfs_value_kind kind)
{
	(void)value;
	(void)kind;
	strcat(ctx, key);
	strcat(ctx, " ");
	return 0;
}

static void test_operands(void **state)
{
	static const struct { char *a, *b, *c; const char *msg; } bad[] = {
		{ "--read", "x", "if=y", "-r/--read and if= say the same: give one" },
		{ "if=y", "--read", "x", "-r/--read and if= say the same: give one" },
		{ "if=y", "if=z", NULL, "if= is given twice" },
		{ "iter=2", "--iter", "3", "--iter and iter= say the same: give one" },
		{ "iter=0", NULL, NULL, "iter= must be at least 1" },
		{ "iter=x", NULL, NULL, "iter= wants a whole number, not 'x'" },
		{ "iter=101", NULL, NULL, "iter= '101' is too large" },
		{ "if=", NULL, NULL, "if= wants a non-empty PATH" },
		{ "of=y", NULL, NULL, "unexpected argument 'of=y'" },
		{ "IF=y", NULL, NULL, "unexpected argument 'IF=y'" },
		{ "if", NULL, NULL, "unexpected argument 'if'" },
		/* an operand is no option */
		{ "--if=y", NULL, NULL, "unknown option '--if=y'" },
	};
	struct t_pm_opts o;
	char err[256], keys[128] = "", *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_int_equal(pm_parse(&o, err, sizeof(err), "if=/dev/x", "iter=5", NULL), PFS_PARSE_OK);
	assert_string_equal(o.input, "/dev/x");
	assert_true(o.iter == 5);
	/* the value keeps its own '=', and options may come after operands */
	assert_int_equal(pm_parse(&o, err, sizeof(err), "if=a=b", "--iter", "2"), PFS_PARSE_OK);
	assert_string_equal(o.input, "a=b");
	assert_true(o.iter == 2);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(pm_parse(&o, err, sizeof(err), bad[i].a, bad[i].b, bad[i].c), -EINVAL);
		assert_string_equal(err, bad[i].msg);
	}
	/* the run's parameters are the options', once each */
	assert_int_equal(pfs_opts_to_kv(pm_table, &o, pm_kv, keys), 0);
	assert_string_equal(keys, "read iter ");
	f = open_memstream(&buf, &len);
	pfs_opts_usage(f, pm_table);
	fclose(f);
	assert_non_null(strstr(buf, "  if=PATH "));
	assert_non_null(strstr(buf, "  iter=N "));
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values_land_in_their_fields),
		cmocka_unit_test(test_head_stops_at_the_first_operand),
		cmocka_unit_test(test_help_and_version),
		cmocka_unit_test(test_bad_input_has_one_clear_message),
		cmocka_unit_test(test_usage_lists_every_option),
		cmocka_unit_test(test_select_tests),
		cmocka_unit_test(test_name_tests),
		cmocka_unit_test(test_create_unlink_options),
		cmocka_unit_test(test_label),
		cmocka_unit_test(test_strings_printable),
		cmocka_unit_test(test_every_option_round_trips_through_kv),
		cmocka_unit_test(test_kv_refuses_values_it_could_not_have_written),
		cmocka_unit_test(test_parser_hooks_choices_and_short_names),
		cmocka_unit_test(test_operands),
		cmocka_unit_test(test_positional_sides_groups_and_reals),
		cmocka_unit_test(test_dashes_end_the_options),
		cmocka_unit_test(test_defaults_are_the_tables),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
