/* test_tree.c: the tree workload's planning arithmetic, options, plans,
 * persistence key and needs, through its public table. */
#include "cmocka_prelude.h"

#include "../registry.h"

#include "pfsbench/engine/workload.h"
#include "pfsbench/plans/tree_plan.h"

#include <errno.h>
#include <string.h>

static const struct pfs_workload *wl = &pfs_workload_tree;

/* fdtree's figures: the seed's run, fdtree's defaults and the edges. */
static void test_totals_match_fdtree(void **state)
{
	static const struct {
		uint64_t l, d, f, s, dirs, files, kib;
	} cases[] = {
		{ 10, 3, 4, 1, 88573, 354292, 1417168 },  /* the GFS2/ext3 seed */
		{ 4, 10, 10, 10, 11111, 111110, 4444400 }, /* the defaults */
		{ 0, 10, 10, 10, 1, 10, 400 },             /* only the top directory */
		{ 0, UINT64_MAX, 1, 1, 1, 1, 4 },
		{ 5, 1, 3, 2, 6, 18, 144 },                /* a chain */
		{ 1, 2, 1, 1, 3, 3, 12 },
		{ 40, 2, 1, 1, (1ull << 41) - 1, (1ull << 41) - 1, ((1ull << 41) - 1) * 4 },
	};
	struct pfs_tree_totals t;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(pfs_tree_totals(cases[i].l, cases[i].d, cases[i].f, cases[i].s, &t), 0);
		assert_true(t.dirs == cases[i].dirs);
		assert_true(t.files == cases[i].files);
		assert_true(t.kib == cases[i].kib);
		assert_true(t.bytes == cases[i].kib * 1024);
	}
}

static void test_totals_refuse_overflow(void **state)
{
	static const struct {
		uint64_t l, d, f, s;
	} cases[] = {
		{ 64, 2, 1, 1 },          /* 2^65 - 1 directories */
		{ 20, 10, 1, 1 },         /* 1.1e20 directories */
		{ 1, UINT64_MAX, 1, 1 },  /* 1 + 2^64 - 1 */
		{ UINT64_MAX, 1, 1, 1 },  /* a chain one too long */
		{ 0, 1, UINT64_MAX, 2 },  /* files x blocks */
		{ 18, 10, 1, 1 },         /* fits as KiB, not as bytes */
	};
	struct pfs_tree_totals t;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_int_equal(pfs_tree_totals(cases[i].l, cases[i].d, cases[i].f, cases[i].s, &t),
				 -ERANGE);
}

/* Parses argv (a NULL-terminated list after "tree") as the engine does,
 * validate included. Returns what parsing or validate returned. */
static int parse(struct pfs_tree_opts *o, const char *const *args)
{
	char *argv[32] = { "tree" };
	char err[256] = "";
	int argc = 1, rc;

	while (args[argc - 1])
		argv[argc] = (char *)args[argc - 1], argc++;
	memset(o, 0, sizeof(*o));
	assert_int_equal(pfs_workload_defaults(wl, o), 0);
	o->common.iterations = 1;
	rc = pfs_opts_parse(wl->options, o, argc, argv, err, sizeof(err));
	if (rc == PFS_PARSE_OK)
		rc = wl->validate(o, err, sizeof(err));
	if (rc)
		assert_true(err[0] != 0); /* every refusal says why */
	return rc;
}

static void test_options_defaults_and_values(void **state)
{
	struct pfs_tree_opts o;

	(void)state;
	assert_int_equal(parse(&o, (const char *const[]){ NULL }), 0);
	assert_true(o.levels == 4 && o.fanout == 10 && o.files == 10 && o.blocks == 10);
	assert_string_equal(o.common.dir, ".");
	assert_false(o.create_only || o.remove_only || o.common.dry_run);
	assert_int_equal(parse(&o, (const char *const[]){ "-l", "0", "-d", "3", "-f", "4", "-s",
							  "1", "-o", "/x", "-C", "--dry-run",
							  NULL }),
			 0);
	assert_true(o.levels == 0 && o.fanout == 3 && o.files == 4 && o.blocks == 1);
	assert_string_equal(o.common.dir, "/x");
	assert_true(o.create_only && o.common.dry_run);
}

static void test_options_refused(void **state)
{
	static const char *const bad[][5] = { /* NULL-terminated */
		{ "-d", "0" }, { "-f", "0" }, { "-s", "0" }, { "-l", "-1" }, { "-d", "-3" },
		{ "-l", "257" }, { "-x" }, { "--bogus" }, { "-o", "" }, { "-f", "1x" },
		{ "-C", "-R" }, { "-C", "-i", "2" }, { "-R", "-i", "3" },
		{ "-l", "20", "-d", "10" }, /* too large to count */
	};
	struct pfs_tree_opts o;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(parse(&o, bad[i]), -EINVAL);
}

/* One step per phase, all nodes at once; -C and -R split the four. */
static void test_plan_phases(void **state)
{
	static const struct {
		bool c, r;
		size_t n;
		unsigned first;
	} cases[] = { { false, false, 4, 0 }, { true, false, 2, 0 }, { false, true, 2, 2 } };
	const struct pfs_test *t = &wl->tests[0];
	struct pfs_step steps[8];
	struct pfs_tree_opts o;

	(void)state;
	assert_string_equal(t->name, "tree");
	assert_null(wl->tests[1].name);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		parse(&o, (const char *const[]){ NULL });
		o.create_only = cases[i].c;
		o.remove_only = cases[i].r;
		assert_int_equal(t->plan(&o, 3, NULL, 0), cases[i].n);
		assert_int_equal(t->plan(&o, 3, steps, 8), cases[i].n);
		for (size_t s = 0; s < cases[i].n; s++) {
			assert_int_equal(steps[s].nassign, 1);
			assert_int_equal(steps[s].assign[0].node, PFS_ALL_NODES);
			assert_int_equal(steps[s].assign[0].op, cases[i].first + s);
		}
	}
}

/* -C and -R find each other by a key of the plan's numbers. */
static void test_persist_key(void **state)
{
	struct pfs_tree_opts o;
	char key[64], small[8];

	(void)state;
	parse(&o, (const char *const[]){ "-l", "10", "-d", "3", "-f", "4", "-s", "1", NULL });
	assert_int_equal(wl->persist(&o, key, sizeof(key)), PFS_PERSIST_NONE);
	o.create_only = true;
	assert_int_equal(wl->persist(&o, key, sizeof(key)), PFS_PERSIST_LEAVE);
	assert_string_equal(key, "l10.d3.f4.s1");
	o.create_only = false;
	o.remove_only = true;
	assert_int_equal(wl->persist(&o, key, sizeof(key)), PFS_PERSIST_RESUME);
	assert_string_equal(key, "l10.d3.f4.s1");
	assert_int_equal(wl->persist(&o, small, sizeof(small)), -ENAMETOOLONG);
}

/* Every worker's whole tree: data plus a block a directory; -R needs none. */
static void test_needs(void **state)
{
	struct pfs_tree_opts o;
	struct pfs_needs n;

	(void)state;
	parse(&o, (const char *const[]){ "-l", "10", "-d", "3", "-f", "4", "-s", "1", NULL });
	wl->needs(&o, 2, &n);
	assert_true(n.bytes == 2 * (1417168ull * 1024 + 88573ull * 4096));
	assert_true(n.inodes == 2 * (88573ull + 354292ull));
	o.remove_only = true;
	wl->needs(&o, 2, &n);
	assert_true(n.bytes == 0 && n.inodes == 0);
	parse(&o, (const char *const[]){ "-l", "40", "-d", "2", "-f", "1", "-s", "1", NULL });
	wl->needs(&o, 1u << 31, &n);
	assert_true(n.bytes == UINT64_MAX && n.inodes == UINT64_MAX);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_totals_match_fdtree),
		cmocka_unit_test(test_totals_refuse_overflow),
		cmocka_unit_test(test_options_defaults_and_values),
		cmocka_unit_test(test_options_refused),
		cmocka_unit_test(test_plan_phases),
		cmocka_unit_test(test_persist_key),
		cmocka_unit_test(test_needs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
