/* test_options.c: table-driven option parsing, test selection, and the
 * create-unlink option table with its checks. */
#include "cmocka_prelude.h"

#include "pfsbench/options.h"
#include "pfsbench/workload.h"

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
	{ "count", 'c', PFS_OPT_COUNT, offsetof(struct t_opts, count), 0, 1000, "N", "count" },
	{ "uint", 'u', PFS_OPT_UINT, offsetof(struct t_opts, uint), 0, 0, "N", "uint" },
	{ "size", 's', PFS_OPT_SIZE, offsetof(struct t_opts, size), 0, 0, "SIZE", "size" },
	{ "name", 'n', PFS_OPT_STRING, offsetof(struct t_opts, name), 16, 0, "NAME", "name" },
	{ "flag", 0, PFS_OPT_SET, offsetof(struct t_opts, flag), 0, 0, NULL, "flag" },
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
	wl->defaults(opts);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values_land_in_their_fields),
		cmocka_unit_test(test_help_and_version),
		cmocka_unit_test(test_bad_input_has_one_clear_message),
		cmocka_unit_test(test_usage_lists_every_option),
		cmocka_unit_test(test_select_tests),
		cmocka_unit_test(test_name_tests),
		cmocka_unit_test(test_create_unlink_options),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
