/* test_itemname.c: the patterns workloads declare their names in, which
 * decide what `pfsbench clean` removes. Literal characters ('.' too) match
 * only themselves; runs match their exact counts; a following run can take
 * back what a greedy one took (bonnie's random names); malformed patterns
 * match nothing; hostile names (empty, long, control characters, '/')
 * match nothing they should not. And every registered workload's tables
 * are well formed, so no declared name silently matches nothing. */
#include "cmocka_prelude.h"

#include "pfsbench/core/itemname.h"
#include "pfsbench/engine/workload.h"

#include <errno.h>
#include <string.h>

struct match_case {
	const char *pattern, *name;
	bool match;
};

static const struct match_case cases[] = {
	{ "Bonnie.io", "Bonnie.io", true },
	{ "Bonnie.io", "BonnieXio", false }, /* '.' is no wildcard */
	{ "Bonnie.io", "Bonnie.io.x", false },
	{ "Bonnie.io", "Bonnie.i", false },
	{ "f[0-9]{10}", "f0000000000", true },
	{ "f[0-9]{10}", "f123456789", false },
	{ "f[0-9]{10}", "f01234567890", false },
	{ "f[0-9]{10}", "f000000000a", false },
	{ "f[0-9]{10}", "F0000000000", false },
	{ "f[0-9]{10}", "", false },
	{ "d[0-9]{1,20}", "d7", true },
	{ "d[0-9]{1,20}", "d", false },
	{ "d[0-9]{1,20}", "d123456789012345678901", false },
	{ "d[0-9]{1,20}", "d12345678901234567890", true },
	{ "d[0-9]{1,20}", "d1/2", false },
	{ "d[0-9]{1,20}", "d1\n", false },
	{ "[0-9]{5}", "00003", true },
	{ "[0-9]{5}", "0003", false },
	/* bonnie++'s sequential and random names: 10 hex digits and 0 to 12
	 * letters or digits, either order; the second needs backtracking,
	 * since the hex digits are letters and digits too */
	{ "[0-9a-f]{10}[a-zA-Z0-9]{0,12}", "0000000deeBSoU", true },
	{ "[0-9a-f]{10}[a-zA-Z0-9]{0,12}", "0000000def", true },
	{ "[0-9a-f]{10}[a-zA-Z0-9]{0,12}", "0000000deeBSoUabcdefghi", false },
	{ "[a-zA-Z0-9]{0,12}[0-9a-f]{10}", "Xy0000000abc", true },
	{ "[a-zA-Z0-9]{0,12}[0-9a-f]{10}", "abcdefabcdef0123456789", true },
	{ "[a-zA-Z0-9]{0,12}[0-9a-f]{10}", "abcdefabcdefa0123456789", false },
	{ "[a-zA-Z0-9]{0,12}[0-9a-f]{10}", "0000000abg", false },
	{ "[a-zA-Z0-9]{0,12}[0-9a-f]{10}", "x-00000000ab", false },
	/* a set written out, as a workload writes its own characters */
	{ "[abc]{2}", "ca", true },
	{ "[abc]{2}", "cd", false },
	{ "[a-]", "-", true }, /* a '-' at the end is itself */
	/* malformed: matches nothing */
	{ "[0-9", "0", false },
	{ "[]", "", false },
	{ "[0-9]{2,1}", "00", false },
	{ "[0-9]{x}", "0", false },
	{ "[0-9]{0}", "", false },
};

static void test_match(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		bool got = pfs_item_name_match(cases[i].pattern, cases[i].name);

		if (got != cases[i].match)
			fail_msg("'%s' against '%s': %d, expected %d", cases[i].pattern, cases[i].name,
				 got, cases[i].match);
	}
	assert_false(pfs_item_name_match(NULL, "x"));
	assert_false(pfs_item_name_match("x", NULL));
}

static void test_long_name(void **state)
{
	char name[300];

	(void)state;
	memset(name, 'a', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	assert_false(pfs_item_name_match("[a-zA-Z0-9]{0,12}[0-9a-f]{10}", name));
	assert_false(pfs_item_name_match("d[0-9]{1,20}", name));
}

static void test_check(void **state)
{
	(void)state;
	assert_int_equal(pfs_item_pattern_check("f[0-9]{10}"), 0);
	assert_int_equal(pfs_item_pattern_check("Bonnie.files"), 0);
	assert_int_equal(pfs_item_pattern_check("[0-9]{1,20}x"), 0);
	assert_int_equal(pfs_item_pattern_check(""), -EINVAL);
	assert_int_equal(pfs_item_pattern_check(NULL), -EINVAL);
	assert_int_equal(pfs_item_pattern_check("a/b"), -EINVAL);
	assert_int_equal(pfs_item_pattern_check("[0-9"), -EINVAL);
	assert_int_equal(pfs_item_pattern_check("a]"), -EINVAL);
	assert_int_equal(pfs_item_pattern_check("a{2}"), -EINVAL);
	assert_int_equal(pfs_item_pattern_check("[0-9]{3,2}"), -EINVAL);
	assert_int_equal(pfs_item_pattern_check("[0-9]{999}"), -EINVAL);
}

static const struct pfs_item inner[] = {
	{ "f[0-9]{2}", PFS_ITEM_FILE, NULL },
	{ NULL, 0, NULL },
};
static const struct pfs_item outer[] = {
	{ "x", PFS_ITEM_FILE, NULL },
	{ "x", PFS_ITEM_DIR, inner },
	{ "top", PFS_ITEM_DIR, inner },
	{ NULL, 0, NULL },
};

static void test_find(void **state)
{
	const struct pfs_item *other = outer;

	(void)state;
	assert_ptr_equal(pfs_item_find(outer, "x", PFS_ITEM_FILE, NULL), &outer[0]);
	assert_ptr_equal(pfs_item_find(outer, "x", PFS_ITEM_DIR, NULL), &outer[1]);
	/* a name of ours with the wrong type: found as the other one */
	assert_null(pfs_item_find(outer, "top", PFS_ITEM_FILE, &other));
	assert_ptr_equal(other, &outer[2]);
	assert_null(pfs_item_find(outer, "nope", PFS_ITEM_FILE, &other));
	assert_null(other);
	assert_null(pfs_item_find(NULL, "x", PFS_ITEM_FILE, &other));
}

/* Every pattern of a table and of the tables below it, each table once
 * (a tree's table holds itself). */
static void check_table(const struct pfs_item *items, const struct pfs_item **seen, size_t *nseen,
			const char *wl)
{
	for (size_t i = 0; i < *nseen; i++)
		if (seen[i] == items)
			return;
	assert_true(*nseen < 64);
	seen[(*nseen)++] = items;
	for (; items->name; items++) {
		if (pfs_item_pattern_check(items->name))
			fail_msg("%s: malformed pattern '%s'", wl, items->name);
		assert_true(items->type == PFS_ITEM_FILE || items->type == PFS_ITEM_DIR);
		if (items->type == PFS_ITEM_FILE)
			assert_null(items->inside);
		if (items->inside)
			check_table(items->inside, seen, nseen, wl);
	}
}

static void test_workload_tables(void **state)
{
	(void)state;
	for (size_t i = 0; pfs_workloads[i]; i++) {
		const struct pfs_item *seen[64];
		size_t nseen = 0;

		/* every workload makes items in its workers' directories */
		if (!pfs_workloads[i]->items || !pfs_workloads[i]->items->name)
			fail_msg("%s declares no items", pfs_workloads[i]->name);
		check_table(pfs_workloads[i]->items, seen, &nseen, pfs_workloads[i]->name);
		if (pfs_workloads[i]->run_items)
			check_table(pfs_workloads[i]->run_items, seen, &nseen, pfs_workloads[i]->name);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_match),
		cmocka_unit_test(test_long_name),
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_workload_tables),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
