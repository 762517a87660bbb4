/* test_counters.c: compare --fs-stats's table (src/analysis/counters.c):
 * summed over nodes, the median over iterations with a missing counter as
 * 0, the mean over a side's runs, NAN for a side without counters, lines
 * in the order of the first run that has them. */
#include "cmocka_prelude.h"

#include "pfsbench/analysis/counters.h"
#include "pfsbench/archive/archive.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define ROWS_MAX 8
#define CTRS_MAX 16

struct run {
	struct pfs_archive a;
	struct pfs_row rows[ROWS_MAX];
	struct pfs_fsstat f[CTRS_MAX];
};

/* A run of test "seq" over iterations 1..iters (a row each), step 1
 * Write, and in iteration 1 a second row: Read. */
static void run_init(struct run *r, unsigned iters)
{
	memset(r, 0, sizeof(*r));
	for (unsigned i = 0; i < iters; i++) {
		snprintf(r->rows[i].test, sizeof(r->rows[i].test), "seq");
		snprintf(r->rows[i].op, sizeof(r->rows[i].op), "Write");
		r->rows[i].iteration = i + 1;
		r->rows[i].step = 1;
	}
	if (iters) {
		r->rows[iters] = r->rows[0];
		snprintf(r->rows[iters].op, sizeof(r->rows[iters].op), "Read");
		iters++;
	}
	r->a.rows = r->rows;
	r->a.nrows = iters;
	r->a.fsstats = r->f;
}

static void ctr(struct run *r, uint32_t it, uint32_t step, uint32_t node, const char *name,
		uint64_t v)
{
	struct pfs_fsstat *f = &r->f[r->a.nfsstats++];

	snprintf(f->test, sizeof(f->test), "seq");
	f->iteration = it;
	f->step = step;
	f->node_index = node;
	snprintf(f->name, sizeof(f->name), "%s", name);
	f->value = v;
}

static void test_sides(void **state)
{
	struct run r[3];
	struct pfs_archive runs[3];
	size_t side_runs[2] = { 1, 2 };
	struct pfs_ctr_table t;

	(void)state;
	/* Side 1: one run of 3 iterations; write_sectors on 2 nodes. In
	 * iteration 3 flush_ios did not move (not stored): its median of
	 * {4, 6, 0} is 4. */
	run_init(&r[0], 3);
	ctr(&r[0], 1, 1, 0, "blk.write_sectors", 100);
	ctr(&r[0], 1, 1, 1, "blk.write_sectors", 50);
	ctr(&r[0], 1, 1, 0, "blk.flush_ios", 4);
	ctr(&r[0], 2, 1, 0, "blk.write_sectors", 200);
	ctr(&r[0], 2, 1, 1, "blk.write_sectors", 10);
	ctr(&r[0], 2, 1, 0, "blk.flush_ios", 6);
	ctr(&r[0], 3, 1, 0, "blk.write_sectors", 90);
	/* Side 2: a run of 1 iteration with counters, and one without
	 * (tmpfs): the side's figure is the first's alone. */
	run_init(&r[1], 1);
	ctr(&r[1], 1, 1, 0, "blk.write_sectors", 300);
	ctr(&r[1], 1, 1, 0, "blk.read_ios", 7);
	run_init(&r[2], 1);
	for (int i = 0; i < 3; i++)
		runs[i] = r[i].a;
	assert_int_equal(pfs_ctr_table(runs, side_runs, 2, &t), 0);
	assert_int_equal(t.n, 3);
	assert_string_equal(t.lines[0].name, "blk.write_sectors");
	assert_string_equal(t.lines[1].name, "blk.flush_ios");
	assert_string_equal(t.lines[2].name, "blk.read_ios");
	assert_int_equal(t.lines[0].step, 1);
	assert_string_equal(t.lines[0].ops, "Write+Read");
	/* Sums over nodes 150, 210, 90: median 150. */
	assert_true(t.lines[0].side[0] == 150);
	assert_true(t.lines[0].side[1] == 300);
	assert_true(t.lines[1].side[0] == 4);
	assert_true(t.lines[1].side[1] == 0);
	assert_true(t.lines[2].side[0] == 0);
	assert_true(t.lines[2].side[1] == 7);
	pfs_ctr_table_free(&t);

	/* Both of side 2's runs with counters: the mean of their figures. */
	run_init(&r[2], 1);
	ctr(&r[2], 1, 1, 0, "blk.write_sectors", 100);
	runs[2] = r[2].a;
	assert_int_equal(pfs_ctr_table(runs, side_runs, 2, &t), 0);
	assert_true(t.lines[0].side[1] == 200);
	assert_true(t.lines[2].side[1] == 3.5);
	pfs_ctr_table_free(&t);

	/* A side whose runs recorded nothing: NAN, not 0. */
	side_runs[0] = 2;
	side_runs[1] = 1;
	run_init(&r[2], 1);
	runs[2] = r[2].a;
	assert_int_equal(pfs_ctr_table(runs, side_runs, 2, &t), 0);
	assert_true(isnan(t.lines[0].side[1]));
	/* Side 1: runs 0 and 1, 150 and 300. */
	assert_true(t.lines[0].side[0] == 225);
	pfs_ctr_table_free(&t);
}

static void test_none(void **state)
{
	struct run r[2];
	struct pfs_archive runs[2];
	size_t side_runs[2] = { 1, 1 };
	struct pfs_ctr_table t;

	(void)state;
	run_init(&r[0], 2);
	run_init(&r[1], 2);
	runs[0] = r[0].a;
	runs[1] = r[1].a;
	assert_int_equal(pfs_ctr_table(runs, side_runs, 2, &t), 0);
	assert_int_equal(t.n, 0);
	pfs_ctr_table_free(&t);
}

/* Counters of iterations that have no rows (a file's rows lost, or a
 * hostile file): the counters' own iterations count, nothing is read past
 * the buffers. */
static void test_counters_without_rows(void **state)
{
	struct run r;
	size_t side_runs[1] = { 1 };
	struct pfs_ctr_table t;

	(void)state;
	run_init(&r, 0);
	ctr(&r, 1, 0, 0, "drbd.dw_kib", 10);
	ctr(&r, 4000000000u, 0, 0, "drbd.dw_kib", 30);
	ctr(&r, 7, 0, 0, "drbd.dw_kib", 20);
	assert_int_equal(pfs_ctr_table(&r.a, side_runs, 1, &t), 0);
	assert_int_equal(t.n, 1);
	assert_string_equal(t.lines[0].ops, "");
	assert_true(t.lines[0].side[0] == 20);
	pfs_ctr_table_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sides),
		cmocka_unit_test(test_none),
		cmocka_unit_test(test_counters_without_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
