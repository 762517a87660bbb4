/* test_rowindex.c: the row index every reader groups rows with: a key's
 * order, the run of a key, and groups numbered in order of first row. */
#include "cmocka_prelude.h"

#include "pfsbench/core/results.h"
#include "pfsbench/core/rowindex.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct pfs_row row(const char *test, const char *op, uint32_t iteration, uint32_t step,
			  uint32_t node, uint32_t rank)
{
	struct pfs_row r = { .iteration = iteration, .step = step, .node_index = node, .rank = rank };

	strcpy(r.test, test);
	strcpy(r.op, op);
	return r;
}

/* Rows as a run writes them, names out of alphabetical order, so that the
 * order of first row and the order of names differ. */
static struct pfs_row rows[8];

static int setup(void **state)
{
	(void)state;
	rows[0] = row("uc", "Create", 1, 0, 1, 2);
	rows[1] = row("uc", "Create", 1, 0, 0, 0);
	rows[2] = row("se", "Write", 1, 1, 0, 1);
	rows[3] = row("uc", "Unlink", 1, 1, 0, 0);
	rows[4] = row("se", "Write", 2, 0, 1, 3);
	rows[5] = row("uc", "Create", 2, 0, 0, 0);
	rows[6] = row("se", "Read", 1, 2, 0, 0);
	rows[7] = row("uc", "Create", 1, 0, 0, 0); /* equal to row 1 by every field */
	return 0;
}

static void test_sort_follows_the_key_then_the_row(void **state)
{
	static const enum pfs_row_field key[] = { PFS_ROW_TEST, PFS_ROW_ITERATION, PFS_ROW_STEP,
						  PFS_ROW_OP, PFS_ROW_NODE, PFS_ROW_END };
	static const size_t want[] = { 2, 6, 4, 1, 7, 0, 3, 5 };
	size_t idx[8];

	(void)state;
	for (size_t i = 0; i < 8; i++)
		idx[i] = 7 - i; /* backwards: ties must still come out by row */
	pfs_row_sort(rows, idx, 8, key);
	for (size_t i = 0; i < 8; i++)
		assert_int_equal(idx[i], want[i]);
}

static void test_cmp_compares_fields_in_the_keys_order(void **state)
{
	static const enum pfs_row_field by_rank[] = { PFS_ROW_RANK, PFS_ROW_END },
					by_test_rank[] = { PFS_ROW_TEST, PFS_ROW_RANK, PFS_ROW_END },
					none[] = { PFS_ROW_END },
					itself[] = { PFS_ROW_ITSELF, PFS_ROW_END };

	(void)state;
	assert_true(pfs_row_cmp(&rows[0], &rows[4], by_rank) < 0);      /* rank 2 < 3 */
	assert_true(pfs_row_cmp(&rows[0], &rows[4], by_test_rank) > 0); /* "uc" > "se" */
	assert_int_equal(pfs_row_cmp(&rows[0], &rows[4], none), 0);
	assert_int_equal(pfs_row_cmp(&rows[1], &rows[7], by_test_rank), 0);
	assert_true(pfs_row_cmp(&rows[1], &rows[7], itself) < 0);
	assert_true(pfs_row_cmp(&rows[7], &rows[1], itself) > 0);
}

/* A name that fills its field has no NUL: the comparison stays inside. */
static void test_cmp_keeps_inside_a_full_name(void **state)
{
	static const enum pfs_row_field by_test_op[] = { PFS_ROW_TEST, PFS_ROW_OP, PFS_ROW_END };
	struct pfs_row two[2];

	(void)state;
	memset(two, 0, sizeof(two));
	memset(two[0].test, 'x', sizeof(two[0].test));
	memset(two[1].test, 'x', sizeof(two[1].test));
	strcpy(two[0].op, "Read");
	strcpy(two[1].op, "Write");
	assert_true(pfs_row_cmp(&two[0], &two[1], by_test_op) < 0);
}

static void test_range_finds_a_keys_run(void **state)
{
	static const enum pfs_row_field key[] = { PFS_ROW_TEST, PFS_ROW_ITERATION, PFS_ROW_STEP,
						  PFS_ROW_END };
	size_t idx[8], lo, hi;
	struct pfs_row probe = row("uc", "", 1, 0, 0, 0);

	(void)state;
	for (size_t i = 0; i < 8; i++)
		idx[i] = i;
	pfs_row_sort(rows, idx, 8, key);
	pfs_row_range(rows, idx, 8, key, &probe, &lo, &hi);
	assert_int_equal(hi - lo, 3); /* rows 0, 1 and 7 */
	for (size_t i = lo; i < hi; i++)
		assert_int_equal(pfs_row_cmp(&rows[idx[i]], &probe, key), 0);
	probe = row("uc", "", 1, 5, 0, 0); /* no such step: an empty run where it would be */
	pfs_row_range(rows, idx, 8, key, &probe, &lo, &hi);
	assert_int_equal(lo, hi);
	assert_int_equal(lo, 7);
	pfs_row_range(rows, idx, 0, key, &probe, &lo, &hi);
	assert_int_equal(lo, 0);
	assert_int_equal(hi, 0);
}

static void test_number_in_order_of_first_row(void **state)
{
	static const enum pfs_row_field by_test[] = { PFS_ROW_TEST, PFS_ROW_END },
					by_test_op[] = { PFS_ROW_TEST, PFS_ROW_OP, PFS_ROW_END };
	static const size_t want_test[] = { 0, 0, 1, 0, 1, 0, 1, 0 };
	static const size_t want_op[] = { 0, 0, 1, 2, 1, 0, 3, 0 };
	static const size_t want_first[] = { 0, 2, 3, 6 };
	size_t group[8], first[8], n;

	(void)state;
	assert_int_equal(pfs_row_number(rows, 8, by_test, NULL, group, first, &n), 0);
	assert_int_equal(n, 2); /* "uc" first: it ran first, though "se" sorts first */
	assert_int_equal(first[0], 0);
	assert_int_equal(first[1], 2);
	for (size_t i = 0; i < 8; i++)
		assert_int_equal(group[i], want_test[i]);
	assert_int_equal(pfs_row_number(rows, 8, by_test_op, NULL, group, first, &n), 0);
	assert_int_equal(n, 4);
	for (size_t i = 0; i < 8; i++)
		assert_int_equal(group[i], want_op[i]);
	for (size_t g = 0; g < n; g++)
		assert_int_equal(first[g], want_first[g]);
}

static bool second_iteration(const struct pfs_row *r)
{
	return r->iteration == 2;
}

static void test_number_leaves_out_the_rows_not_kept(void **state)
{
	static const enum pfs_row_field by_test[] = { PFS_ROW_TEST, PFS_ROW_END },
					itself[] = { PFS_ROW_ITSELF, PFS_ROW_END };
	size_t group[8], first[8], n;

	(void)state;
	assert_int_equal(pfs_row_number(rows, 8, by_test, second_iteration, group, first, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(first[0], 4); /* "se" now runs first */
	assert_int_equal(first[1], 5);
	for (size_t i = 0; i < 8; i++)
		assert_true(group[i] == (i == 4 ? 0 : i == 5 ? 1 : PFS_ROW_NONE));
	/* each row a group of its own, equal fields or not */
	assert_int_equal(pfs_row_number(rows, 8, itself, NULL, group, first, &n), 0);
	assert_int_equal(n, 8);
	for (size_t i = 0; i < 8; i++) {
		assert_int_equal(group[i], i);
		assert_int_equal(first[i], i);
	}
	assert_int_equal(pfs_row_number(rows, 0, by_test, NULL, group, first, &n), 0);
	assert_int_equal(n, 0);
}

/* Many names: numbered by sorting, so the count costs n log n; and each
 * name's rows share one number, the one of its first row's place. */
static void test_number_many_names(void **state)
{
	static const enum pfs_row_field by_test_op[] = { PFS_ROW_TEST, PFS_ROW_OP, PFS_ROW_END };
	enum { N = 20000, NAMES = 5000 };
	struct pfs_row *many = calloc(N, sizeof(*many));
	size_t *group = malloc(N * sizeof(*group)), *first = malloc(N * sizeof(*first)), n;

	(void)state;
	assert_non_null(many);
	assert_non_null(group);
	assert_non_null(first);
	for (size_t i = 0; i < N; i++) {
		size_t name = (NAMES - 1) - i % NAMES; /* first seen in descending order */

		snprintf(many[i].test, sizeof(many[i].test), "t%zu", name / 100);
		snprintf(many[i].op, sizeof(many[i].op), "op%zu", name % 100);
	}
	assert_int_equal(pfs_row_number(many, N, by_test_op, NULL, group, first, &n), 0);
	assert_int_equal(n, NAMES);
	for (size_t i = 0; i < N; i++)
		assert_int_equal(group[i], i % NAMES);
	for (size_t g = 0; g < n; g++)
		assert_int_equal(first[g], g);
	free(many);
	free(group);
	free(first);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_sort_follows_the_key_then_the_row, setup),
		cmocka_unit_test_setup(test_cmp_compares_fields_in_the_keys_order, setup),
		cmocka_unit_test(test_cmp_keeps_inside_a_full_name),
		cmocka_unit_test_setup(test_range_finds_a_keys_run, setup),
		cmocka_unit_test_setup(test_number_in_order_of_first_row, setup),
		cmocka_unit_test_setup(test_number_leaves_out_the_rows_not_kept, setup),
		cmocka_unit_test(test_number_many_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
