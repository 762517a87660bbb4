/* test_latmerge.c: a node's latency cells merged by their rows' key
 * (core/latmerge.h): one cell per key and bucket, the counts summed (and
 * saturated), each key's cells given to the lowest rank that had any of
 * it, the result sorted by rank so each rank's are together. */
#include "cmocka_prelude.h"

#include "pfsbench/core/latmerge.h"

#include <stdint.h>
#include <string.h>

static struct pfs_row row_of(const char *op, uint32_t step)
{
	struct pfs_row r;

	memset(&r, 0, sizeof(r));
	strcpy(r.test, "pa");
	strcpy(r.op, op);
	r.iteration = 1;
	r.step = step;
	return r;
}

static void test_merged_onto_lowest_rank(void **state)
{
	struct pfs_row create = row_of("Create", 0), unlink = row_of("Unlink", 3);
	struct pfs_keyed_cell c[7];

	(void)state;

	/* rank 5 and 3 timed Create; rank 5 alone Unlink */
	pfs_keyed_cell_set(&c[0], &create, 5, 130, 4);
	pfs_keyed_cell_set(&c[1], &unlink, 5, 200, 1);
	pfs_keyed_cell_set(&c[2], &create, 3, 130, 6);
	pfs_keyed_cell_set(&c[3], &create, 3, 12, 2);
	pfs_keyed_cell_set(&c[4], &create, 5, 12, UINT64_MAX - 1);
	pfs_keyed_cell_set(&c[5], &create, 5, 900, 1);
	pfs_keyed_cell_set(&c[6], &unlink, 5, 200, 2);
	assert_int_equal(pfs_keyed_cells_merge(c, 7), 4);
	/* rank 3 carries Create's three buckets, in bucket order */
	assert_int_equal(c[0].rank, 3);
	assert_string_equal(c[0].op, "Create");
	assert_int_equal(c[0].bucket, 12);
	assert_true(c[0].count == UINT64_MAX); /* saturated, not wrapped */
	assert_int_equal(c[1].bucket, 130);
	assert_int_equal(c[1].count, 10);
	assert_int_equal(c[2].bucket, 900);
	assert_int_equal(c[2].rank, 3);
	/* rank 5 keeps Unlink, its two cells of one bucket summed */
	assert_int_equal(c[3].rank, 5);
	assert_string_equal(c[3].op, "Unlink");
	assert_int_equal(c[3].count, 3);
	assert_true(pfs_keyed_cell_is_of(&c[3], &unlink));
	assert_false(pfs_keyed_cell_is_of(&c[3], &create));
}

static void test_keys_differ_by_step_and_iteration(void **state)
{
	struct pfs_row a = row_of("Write", 1), b = row_of("Write", 2), d = row_of("Write", 1);
	struct pfs_keyed_cell c[3];

	(void)state;
	d.iteration = 2;
	pfs_keyed_cell_set(&c[0], &a, 1, 7, 1);
	pfs_keyed_cell_set(&c[1], &b, 0, 7, 1);
	pfs_keyed_cell_set(&c[2], &d, 0, 7, 1);
	assert_int_equal(pfs_keyed_cells_merge(c, 3), 3);
	assert_int_equal(c[0].rank, 0);
	assert_int_equal(c[1].rank, 0);
	assert_int_equal(c[2].rank, 1);
	assert_int_equal(pfs_keyed_cells_merge(c, 0), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_merged_onto_lowest_rank),
		cmocka_unit_test(test_keys_differ_by_step_and_iteration),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
