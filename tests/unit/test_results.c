/* test_results.c: the arithmetic of the table's derived columns, the order
 * of rows, and the field table's agreement with struct pfs_row. */
#include "cmocka_prelude.h"

#include "pfsbench/core/results.h"

#include <string.h>

static void test_us_per_file_truncates(void **state)
{
	(void)state;
	assert_true(pfs_us_per_file(11565202, 50000) == 231); /* 231.30 */
	assert_true(pfs_us_per_file(27094287, 2500) == 10837); /* 10837.71 */
	assert_true(pfs_us_per_file(999, 1000) == 0);
	assert_true(pfs_us_per_file(5, 0) == 0);
}

static void test_files_per_sec_from_integer_us_per_file(void **state)
{
	(void)state;
	/* As create_unlink_perf prints: 1000000 / 231 = 4329.0, not 50000/11.565 = 4323 */
	assert_true(pfs_files_per_sec(11565202, 50000) == 4329);
	assert_true(pfs_files_per_sec(4892826, 50000) == 10309);
	assert_true(pfs_files_per_sec(102270637, 2500) == 24);
	assert_true(pfs_files_per_sec(1000000, 1) == 1);
	assert_true(pfs_files_per_sec(2000001, 1) == 0); /* slower than 1 file/s */
}

static void test_files_per_sec_guards_zero(void **state)
{
	(void)state;
	assert_true(pfs_files_per_sec(0, 0) == 0);
	assert_true(pfs_files_per_sec(123, 0) == 0);
	/* under a microsecond a file: the true rate, not a division by zero */
	assert_true(pfs_files_per_sec(500, 1000) == 2000000);
	assert_true(pfs_files_per_sec(0, 1000) == 1000000000);
}

static struct pfs_row row(uint32_t step, uint32_t node, uint32_t worker, uint64_t start,
			  uint64_t elapsed)
{
	struct pfs_row r;

	memset(&r, 0, sizeof(r));
	r.iteration = 1;
	r.step = step;
	r.node_index = node;
	r.worker = worker;
	r.start_us = start;
	r.elapsed_us = elapsed;
	return r;
}

static void test_plan_order(void **state)
{
	struct pfs_row r[] = {
		row(1, 0, 1, 100, 1), row(0, 1, 2, 0, 50), row(0, 1, 1, 0, 90), row(0, 0, 1, 0, 99),
	};

	(void)state;
	pfs_rows_sort(r, 4, PFS_ORDER_PLAN);
	assert_true(r[0].step == 0 && r[0].node_index == 0);
	assert_true(r[1].step == 0 && r[1].node_index == 1 && r[1].worker == 1);
	assert_true(r[2].step == 0 && r[2].node_index == 1 && r[2].worker == 2);
	assert_true(r[3].step == 1);
}

static void test_completion_order(void **state)
{
	struct pfs_row r[] = {
		row(0, 0, 1, 0, 30), row(0, 1, 1, 5, 10), row(1, 2, 1, 40, 1), row(0, 2, 1, 0, 15),
	};

	(void)state;
	pfs_rows_sort(r, 4, PFS_ORDER_COMPLETION);
	/* ends: 30, 15, 41, 15 -> node 1 and 2 tie at 15, node order breaks it */
	assert_true(r[0].node_index == 1 && r[1].node_index == 2 && r[1].step == 0);
	assert_true(r[2].node_index == 0 && r[3].step == 1);
}

static void test_field_table_matches_the_row(void **state)
{
	size_t covered = 0;

	(void)state;
	for (size_t i = 0; i < pfs_row_nfields; i++) {
		const struct pfs_field *f = &pfs_row_fields[i];

		assert_true(f->offset + f->size <= sizeof(struct pfs_row));
		if (f->type == PFS_FIELD_U32)
			assert_int_equal(f->size, 4);
		if (f->type == PFS_FIELD_U64)
			assert_int_equal(f->size, 8);
		for (size_t j = 0; j < i; j++) {
			assert_string_not_equal(f->name, pfs_row_fields[j].name);
			/* no two fields overlap */
			assert_true(f->offset >= pfs_row_fields[j].offset + pfs_row_fields[j].size ||
				    pfs_row_fields[j].offset >= f->offset + f->size);
		}
		covered += f->size;
	}
	/* every byte of the row but padding is described */
	assert_true(covered <= sizeof(struct pfs_row) && covered + 8 > sizeof(struct pfs_row));
}

static void test_set_text_truncates_and_pads(void **state)
{
	char buf[4];

	(void)state;
	memset(buf, 'x', sizeof(buf));
	pfs_row_set_text(buf, sizeof(buf), "ab");
	assert_memory_equal(buf, "ab\0\0", 4);
	pfs_row_set_text(buf, sizeof(buf), "abcdef");
	assert_memory_equal(buf, "abc\0", 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_us_per_file_truncates),
		cmocka_unit_test(test_files_per_sec_from_integer_us_per_file),
		cmocka_unit_test(test_files_per_sec_guards_zero),
		cmocka_unit_test(test_plan_order),
		cmocka_unit_test(test_completion_order),
		cmocka_unit_test(test_field_table_matches_the_row),
		cmocka_unit_test(test_set_text_truncates_and_pads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
