/* test_plotdata.c: the arithmetic behind the pictures on rows made by hand:
 * lanes, timeline bars and barrier waits (also uc's two rows a step), rates
 * per worker over iterations and their flags, bin widths, rate over time
 * from ticks (exact values, gaps, hostile ticks), CDF points, which of a
 * comparison's rates a log axis can show. */
#include "cmocka_prelude.h"

#include "pfsbench/core/histogram.h"
#include "pfsbench/pictures/plotdata.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct pfs_row row(const char *test, const char *op, unsigned node, unsigned worker,
			  unsigned rank, unsigned it, unsigned step, uint64_t start, uint64_t elapsed,
			  uint64_t items)
{
	struct pfs_row r;

	memset(&r, 0, sizeof(r));
	snprintf(r.test, sizeof(r.test), "%s", test);
	snprintf(r.op, sizeof(r.op), "%s", op);
	snprintf(r.node, sizeof(r.node), "n%u", node + 1);
	snprintf(r.unit, sizeof(r.unit), "files");
	r.node_index = node;
	r.worker = worker;
	r.rank = rank;
	r.iteration = it;
	r.step = step;
	r.start_us = start;
	r.elapsed_us = elapsed;
	r.items = items;
	return r;
}

static void test_lanes_sorted_and_unique(void **state)
{
	struct pfs_row rows[] = {
		row("pa", "Create", 1, 2, 3, 1, 0, 0, 10, 1), row("pa", "Create", 0, 1, 0, 1, 0, 0, 10, 1),
		row("pa", "Create", 1, 1, 2, 1, 0, 0, 10, 1), row("pa", "Unlink", 0, 1, 0, 1, 1, 0, 10, 1),
	};
	struct pfs_plot_lane *l;
	size_t n;

	(void)state;
	assert_int_equal(pfs_plot_lanes(rows, 4, &l, &n), 0);
	assert_int_equal(n, 3);
	assert_int_equal(l[0].node_index, 0);
	assert_int_equal(l[1].node_index, 1);
	assert_int_equal(l[1].worker, 1);
	assert_int_equal(l[2].worker, 2);
	assert_string_equal(l[2].node, "n2");
	assert_int_equal(pfs_plot_lane_of(l, n, 1, 2), 2);
	assert_int_equal(pfs_plot_lane_of(l, n, 5, 1), n);
	free(l);
	assert_int_equal(pfs_plot_lanes(NULL, 0, &l, &n), 0);
	assert_int_equal(n, 0);
	free(l);
}

/* Two ranks in a step: the faster one waits from its end to the step's
 * last end; uc's two rows of one rank are one bar from the earliest start
 * to the latest end. */
static void test_timeline_bars_and_waits(void **state)
{
	struct pfs_row rows[] = {
		row("pa", "Create", 0, 1, 0, 1, 0, 100, 200, 5),
		row("pa", "Create", 1, 1, 1, 1, 0, 120, 380, 5),
		row("pa", "Unlink", 0, 1, 0, 1, 1, 600, 50, 5),
		row("pa", "Unlink", 1, 1, 1, 1, 1, 610, 10, 5),
		row("uc", "Create", 0, 1, 0, 1, 0, 1000, 50, 5),
		row("uc", "Unlink", 0, 1, 0, 1, 0, 1000, 80, 5),
	};
	struct pfs_plot_lane *l;
	struct pfs_plot_bar *b;
	size_t nl, nb;

	(void)state;
	assert_int_equal(pfs_plot_lanes(rows, 6, &l, &nl), 0);
	assert_int_equal(pfs_plot_timeline(rows, 6, l, nl, &b, &nb), 0);
	assert_int_equal(nb, 5);
	assert_string_equal(b[0].op, "Create");
	assert_int_equal(b[0].lane, 0);
	assert_int_equal(b[0].start_us, 100);
	assert_int_equal(b[0].end_us, 300);
	assert_int_equal(b[0].step_end_us, 500);
	assert_int_equal(pfs_plot_wait_us(&b[0]), 200);
	assert_int_equal(pfs_plot_wait_us(&b[1]), 0);
	assert_int_equal(b[1].lane, 1);
	assert_int_equal(pfs_plot_wait_us(&b[2]), 0); /* 600 + 50 is the step's end */
	assert_int_equal(pfs_plot_wait_us(&b[3]), 30);
	assert_string_equal(b[4].test, "uc");
	assert_string_equal(b[4].op, "Create+Unlink");
	assert_int_equal(b[4].start_us, 1000);
	assert_int_equal(b[4].end_us, 1080);
	free(l);
	free(b);
}

/* A worker's rate is its amount over its summed times, across
 * iterations; a bytes row's is in MiB/s; flags mark a node's op. */
static void test_rates_over_iterations(void **state)
{
	struct pfs_row rows[] = {
		row("se", "Create", 0, 1, 0, 1, 0, 0, 500000, 1000),
		row("se", "Create", 0, 1, 0, 2, 0, 0, 1500000, 1000),
		row("se", "Create", 1, 1, 1, 1, 1, 0, 1000000, 500),
		row("se", "Write", 1, 1, 1, 1, 2, 0, 1000000, 2),
	};
	struct pfs_plot_flag flag = { .node_index = 1, .test = "se", .op = "Create", .factor = 4 };
	struct pfs_plot_lane *l;
	struct pfs_plot_rate *r;
	size_t nl, nr;

	(void)state;
	snprintf(rows[3].unit, sizeof(rows[3].unit), "bytes");
	rows[3].bytes = 2u << 20;
	assert_int_equal(pfs_plot_lanes(rows, 4, &l, &nl), 0);
	assert_int_equal(pfs_plot_rates(rows, 4, l, nl, &flag, 1, &r, &nr), 0);
	assert_int_equal(nr, 3);
	assert_int_equal(r[0].group, 0);
	assert_int_equal(r[0].lane, 0);
	assert_float_equal(r[0].rate, 1000.0, 1e-9);
	assert_float_equal(r[0].slow, 0, 0);
	assert_int_equal(r[1].lane, 1);
	assert_float_equal(r[1].rate, 500.0, 1e-9);
	assert_float_equal(r[1].slow, 4, 0);
	assert_string_equal(r[2].op, "Write");
	assert_int_equal(r[2].group, 1);
	assert_int_equal(r[2].unit, PFS_UNIT_BYTES);
	assert_float_equal(r[2].rate, 2.0, 1e-9);
	free(l);
	free(r);
}

static void test_bin_width(void **state)
{
	(void)state;
	assert_int_equal(pfs_plot_bin_us(0), PFS_PLOT_BIN_MIN_US);
	assert_int_equal(pfs_plot_bin_us(400000), 1000);
	assert_int_equal(pfs_plot_bin_us(4000000), 10000);
	assert_int_equal(pfs_plot_bin_us(4000001), 10001);
}

/* One rank: 400 items in 0.4 s, a tick at 0.1 s with 300 done: 3000/s
 * for 100 bins of 1 ms, then 100 items over 0.3 s. Node 2 did nothing of
 * the unit: a gap. */
static void test_progress_from_ticks(void **state)
{
	struct pfs_row rows[] = { row("pa", "Create", 0, 1, 0, 1, 0, 0, 400000, 400) };
	struct pfs_tick t = { .test = "pa", .iteration = 1, .step = 0, .rank = 0,
			      .time_us = 100000, .items = 300 };
	struct pfs_plot_progress p;

	(void)state;
	assert_int_equal(pfs_plot_progress(rows, 1, &t, 1, 2, PFS_UNIT_FILES, &p), 0);
	assert_int_equal(p.bin_us, 1000);
	assert_int_equal(p.nbins, 401);
	assert_float_equal(p.rate[0], 3000.0, 1e-6);
	assert_float_equal(p.rate[99], 3000.0, 1e-6);
	assert_float_equal(p.rate[100], 100.0 / 0.3, 1e-6);
	assert_float_equal(p.rate[399], 100.0 / 0.3, 1e-6);
	assert_true(isnan(p.rate[400])); /* starts at the op's end: not in it */
	for (size_t b = 0; b < p.nbins; b++)
		assert_true(isnan(p.rate[p.nbins + b]));
	pfs_plot_progress_free(&p);
	/* Without ticks: the op at its mean rate. */
	assert_int_equal(pfs_plot_progress(rows, 1, NULL, 0, 1, PFS_UNIT_FILES, &p), 0);
	assert_float_equal(p.rate[0], 1000.0, 1e-6);
	assert_float_equal(p.rate[399], 1000.0, 1e-6);
	pfs_plot_progress_free(&p);
	assert_int_equal(pfs_plot_progress(rows, 1, &t, 1, 1, PFS_UNIT_BYTES, &p), -ENOENT);
}

/* Ticks a damaged file might hold: counting down, past the row's amount,
 * before the op's start, of no row. No rate is ever negative, and the
 * items add up to the row's. */
static void test_progress_hostile_ticks(void **state)
{
	struct pfs_row rows[] = { row("pa", "Create", 0, 1, 0, 1, 0, 1000, 400000, 400) };
	struct pfs_tick t[] = {
		{ .test = "pa", .iteration = 1, .rank = 0, .time_us = 0, .items = 50 },
		{ .test = "pa", .iteration = 1, .rank = 0, .time_us = 200000, .items = 9000 },
		{ .test = "pa", .iteration = 1, .rank = 0, .time_us = 300000, .items = 10 },
		{ .test = "pa", .iteration = 1, .rank = 0, .time_us = UINT64_MAX, .items = 400 },
		{ .test = "zz", .iteration = 1, .rank = 7, .time_us = 5, .items = 1 },
	};
	struct pfs_plot_progress p;
	double sum = 0;

	(void)state;
	assert_int_equal(pfs_plot_progress(rows, 1, t, 5, 1, PFS_UNIT_FILES, &p), 0);
	for (size_t b = 0; b < p.nbins; b++)
		if (!isnan(p.rate[b])) {
			assert_true(p.rate[b] >= 0);
			sum += p.rate[b] * (double)p.bin_us / 1e6;
		}
	assert_float_equal(sum, 400.0, 1e-6);
	pfs_plot_progress_free(&p);
}

/* 1 item of 100 ns and 3 of 1000 ns: from (min, 0), a quarter at 100 ns,
 * flat to the bottom of 1000 ns's bucket, all at the max. */
static void test_cdf_points(void **state)
{
	struct pfs_hist *h = malloc(sizeof(*h));
	struct pfs_plot_cdf c;
	uint64_t lo, hi;

	(void)state;
	assert_non_null(h);
	pfs_hist_init(h);
	assert_int_equal(pfs_plot_cdf(h, &c), 0);
	assert_int_equal(c.n, 0);
	pfs_plot_cdf_free(&c);
	pfs_hist_add(h, 100);
	for (int i = 0; i < 3; i++)
		pfs_hist_add(h, 1000);
	assert_int_equal(pfs_plot_cdf(h, &c), 0);
	pfs_hist_bucket_range(pfs_hist_bucket(1000), &lo, &hi);
	assert_true(lo > 100 && lo <= 1000 && hi >= 1000);
	assert_int_equal(c.n, 4);
	assert_float_equal(c.x_us[0], 0.1, 1e-12);
	assert_float_equal(c.y[0], 0, 0);
	assert_float_equal(c.x_us[1], 0.1, 1e-12);
	assert_float_equal(c.y[1], 0.25, 1e-12);
	assert_float_equal(c.x_us[2], (double)lo / 1000.0, 1e-12);
	assert_float_equal(c.y[2], 0.25, 1e-12);
	assert_float_equal(c.x_us[3], 1.0, 1e-12);
	assert_float_equal(c.y[3], 1.0, 1e-12);
	pfs_plot_cdf_free(&c);
	free(h);
}

/* The comparison draws a rate only where a log axis can: present, above
 * 0, finite. */
static void test_cmp_drawn(void **state)
{
	static const struct {
		struct pfs_plot_cmp_cell cell;
		bool drawn;
	} cases[] = {
		{ { .present = true, .rate = 12.5 }, true },
		{ { .present = true, .rate = 1e-9 }, true },
		{ { .present = false, .rate = 12.5 }, false },
		{ { .present = true, .rate = 0 }, false },
		{ { .present = true, .rate = -1 }, false },
		{ { .present = true, .rate = INFINITY }, false },
		{ { .present = true, .rate = NAN }, false },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_int_equal(pfs_plot_cmp_drawn(&cases[i].cell), cases[i].drawn);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lanes_sorted_and_unique),
		cmocka_unit_test(test_timeline_bars_and_waits),
		cmocka_unit_test(test_rates_over_iterations),
		cmocka_unit_test(test_bin_width),
		cmocka_unit_test(test_progress_from_ticks),
		cmocka_unit_test(test_progress_hostile_ticks),
		cmocka_unit_test(test_cdf_points),
		cmocka_unit_test(test_cmp_drawn),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
