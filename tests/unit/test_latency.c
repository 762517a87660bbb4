/* test_latency.c: latency groups from rows and their cells. Groups come
 * in order of their first rows whatever the sort that finds them; a cap
 * keeps the first groups of the first tests and counts them all; cells
 * that contradict the rows are a damaged file. */
#include "cmocka_prelude.h"

#include "pfsbench/analysis/latency.h"
#include "pfsbench/core/histogram.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A row of test and op that timed items items at ns each, and its cell. */
static void row(struct pfs_row *rows, struct pfs_lat_cell *cells, size_t i, const char *test,
		const char *op, uint32_t iteration, uint64_t items, uint64_t ns)
{
	memset(&rows[i], 0, sizeof(rows[i]));
	pfs_row_set_text(rows[i].test, sizeof(rows[i].test), test);
	pfs_row_set_text(rows[i].op, sizeof(rows[i].op), op);
	rows[i].iteration = iteration;
	rows[i].lat_count = items;
	rows[i].lat_min_ns = rows[i].lat_max_ns = ns;
	cells[i] = (struct pfs_lat_cell){ .row = i, .bucket = pfs_hist_bucket(ns), .count = items };
}

static void test_groups_in_order_of_first_row(void **state)
{
	struct pfs_row rows[5];
	struct pfs_lat_cell cells[5];
	struct pfs_lat_summary *s;
	size_t n;

	(void)state;
	row(rows, cells, 0, "zz", "Unlink", 1, 10, 5000);
	row(rows, cells, 1, "aa", "Create", 1, 20, 1000);
	row(rows, cells, 2, "zz", "Unlink", 2, 30, 9000);
	row(rows, cells, 3, "aa", "Create", 2, 40, 2000);
	row(rows, cells, 4, "aa", "Stat", 1, 50, 3000);
	rows[4].lat_count = 0; /* recorded none: no group, no cell */
	assert_int_equal(pfs_lat_groups(rows, 5, cells, 4, PFS_LAT_BY_OP, &s, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(s[0].test, "zz");
	assert_int_equal(s[0].n, 40);
	assert_int_equal(s[0].min_ns, 5000);
	assert_int_equal(s[0].max_ns, 9000);
	assert_int_equal(s[0].iteration, PFS_LAT_ALL);
	assert_string_equal(s[1].op, "Create");
	assert_int_equal(s[1].n, 60);
	free(s);
	assert_int_equal(pfs_lat_groups(rows, 5, cells, 4, PFS_LAT_BY_ITERATION, &s, &n), 0);
	assert_int_equal(n, 4);
	for (size_t g = 0; g < 4; g++)
		assert_int_equal(s[g].n, (g + 1) * 10); /* rows 0..3, in order */
	assert_int_equal(s[2].iteration, 2);
	free(s);
}

/* A file of --latency-detail node: 2 nodes of 2 ranks, one step of
 * Create; each node's cells on its lowest rank's row, the other row's
 * count and extremes its own. BY_NODE gives one group a node with all
 * its rows' items and extremes, in order of first row; BY_OP the same
 * percentiles as if every row carried its own; BY_ROW sees a row with
 * latency and no cells, which it cannot sum alone. */
static void test_merged_on_the_node(void **state)
{
	struct pfs_row rows[4];
	struct pfs_lat_cell cells[4], node_cells[4];
	struct pfs_lat_summary *s, *own;
	size_t n, nown;

	(void)state;
	for (size_t i = 0; i < 4; i++) {
		row(rows, cells, i, "pa", "Create", 1, 10 * (i + 1), 1000 * (i + 1));
		rows[i].node_index = (uint32_t)(i / 2);
		rows[i].rank = (uint32_t)i;
	}
	/* node 0 is rows 0 and 1, node 1 rows 2 and 3; the cells as the merge
	 * leaves them, each on its node's first row (one bucket a row here) */
	for (size_t i = 0; i < 4; i++)
		node_cells[i] = (struct pfs_lat_cell){ i / 2 * 2, cells[i].bucket, cells[i].count };

	assert_int_equal(pfs_lat_finest("node"), PFS_LAT_BY_NODE);
	assert_int_equal(pfs_lat_finest("rank"), PFS_LAT_BY_ROW);
	assert_int_equal(pfs_lat_finest(""), PFS_LAT_BY_ROW);
	assert_int_equal(pfs_lat_groups(rows, 4, node_cells, 4, PFS_LAT_BY_NODE, &s, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(s[0].n, 30);
	assert_int_equal(s[0].node, 0);
	assert_int_equal(s[0].rank, PFS_LAT_ALL);
	assert_int_equal(s[0].min_ns, 1000);
	assert_int_equal(s[0].max_ns, 2000);
	assert_int_equal(s[1].n, 70);
	assert_int_equal(s[1].node, 1);
	assert_int_equal(s[1].max_ns, 4000);
	free(s);
	assert_int_equal(pfs_lat_groups(rows, 4, node_cells, 4, PFS_LAT_BY_OP, &s, &n), 0);
	assert_int_equal(pfs_lat_groups(rows, 4, cells, 4, PFS_LAT_BY_OP, &own, &nown), 0);
	assert_int_equal(n, 1);
	assert_int_equal(nown, 1);
	assert_int_equal(s[0].n, own[0].n);
	assert_int_equal(s[0].p50_ns, own[0].p50_ns);
	assert_int_equal(s[0].p99_ns, own[0].p99_ns);
	assert_int_equal(s[0].node, PFS_LAT_ALL);
	free(s);
	free(own);
	assert_int_equal(pfs_lat_groups(rows, 4, node_cells, 4, PFS_LAT_BY_ROW, &s, &n), -EINVAL);
}

/* 5 tests of 2 ops, each test's rows in reverse: the cap keeps the first
 * 3 groups by first row, of the first 2 tests, and says there were 5
 * tests and 10 groups. */
static void test_cap_keeps_the_first_groups_of_the_first_tests(void **state)
{
	struct pfs_row rows[10];
	struct pfs_lat_cell cells[10];
	struct pfs_lat_cap cap = { .tests_max = 2, .groups_max = 3 };
	struct pfs_lat_hist *h;
	char test[8];
	size_t n;

	(void)state;
	for (size_t i = 0; i < 10; i++) {
		snprintf(test, sizeof(test), "t%zu", 9 - i / 2);
		row(rows, cells, i, test, i % 2 ? "a" : "b", 1, i + 1, 1000);
	}
	assert_int_equal(pfs_lat_hists(rows, 10, cells, 10, PFS_LAT_BY_OP, &cap, &h, &n), 0);
	assert_int_equal(n, 3);
	assert_int_equal(cap.tests, 5);
	assert_int_equal(cap.groups, 10);
	for (size_t g = 0; g < 3; g++) {
		assert_int_equal(h[g].first, g);
		assert_int_equal(h[g].hist->n, g + 1);
	}
	pfs_lat_hists_free(h, n);
	cap = (struct pfs_lat_cap){ .tests_max = 1, .groups_max = 64 };
	assert_int_equal(pfs_lat_hists(rows, 10, cells, 10, PFS_LAT_BY_OP, &cap, &h, &n), 0);
	assert_int_equal(n, 2); /* the first test's two ops */
	pfs_lat_hists_free(h, n);
	/* a test is as early as its first row, whichever op that is */
	row(rows, cells, 0, "t9", "b", 1, 1, 1000);
	row(rows, cells, 1, "t1", "a", 1, 2, 1000);
	row(rows, cells, 2, "t9", "a", 1, 3, 1000);
	assert_int_equal(pfs_lat_hists(rows, 3, cells, 3, PFS_LAT_BY_OP, &cap, &h, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(h[0].first, 0);
	assert_int_equal(h[1].first, 2);
	pfs_lat_hists_free(h, n);
}

static void test_cells_against_the_rows_are_damage(void **state)
{
	struct pfs_row rows[2];
	struct pfs_lat_cell cells[2];
	struct pfs_lat_summary *s;
	size_t n;

	(void)state;
	row(rows, cells, 0, "pa", "Create", 1, 10, 1000);
	row(rows, cells, 1, "pa", "Unlink", 1, 10, 1000);
	cells[1].row = 7; /* no such row */
	assert_int_equal(pfs_lat_groups(rows, 2, cells, 2, PFS_LAT_BY_OP, &s, &n), -EINVAL);
	assert_null(s);
	cells[1].row = 1;
	rows[1].lat_count = 0; /* a cell of a row that recorded none */
	assert_int_equal(pfs_lat_groups(rows, 2, cells, 2, PFS_LAT_BY_ROW, &s, &n), -EINVAL);
	rows[1].lat_count = 10;
	assert_int_equal(pfs_lat_groups(rows, 2, cells, 1, PFS_LAT_BY_OP, &s, &n), -EINVAL);
	assert_int_equal(n, 0); /* a group with latency and no cell */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_groups_in_order_of_first_row),
		cmocka_unit_test(test_merged_on_the_node),
		cmocka_unit_test(test_cap_keeps_the_first_groups_of_the_first_tests),
		cmocka_unit_test(test_cells_against_the_rows_are_damage),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
