/* test_compare.c: compare's verdict, worked by hand. The interval of the
 * ratio from two runs' noise (Welch's df, the median's standard error), a
 * run without noise borrowing the other's, the 10 % floor, the symmetry of
 * slower and faster, and the words: "318x slower", "1.25x faster", "no
 * change", the interval in the change's own direction; the table of
 * several runs: its shared lines and their error. */
#include "cmocka_prelude.h"

#include "pfsbench/compare.h"
#include "pfsbench/robust.h"

#include <math.h>
#include <string.h>

static struct pfs_cmp_line line(double rate, double noise, unsigned reps)
{
	struct pfs_cmp_line l;

	memset(&l, 0, sizeof(l));
	strcpy(l.test, "pa");
	strcpy(l.op, "Create");
	l.rate = rate;
	l.noise = noise;
	l.replicates = reps;
	l.iterations = reps;
	l.step_us = 1000000;
	return l;
}

static bool near(double a, double b)
{
	return fabs(a - b) < 1e-9 * fabs(b);
}

/* 2x with 10 % noise in 3 iterations each: va = vb = pi/2 x 0.01 / 3,
 * Welch df = 4, t(4, 0.975) = 2.776; by hand. */
static void test_interval_by_hand(void **state)
{
	struct pfs_cmp_line a = line(100, 0.1, 3), b = line(200, 0.1, 3);
	struct pfs_cmp_verdict v;
	double se = sqrt(2 * M_PI / 2 * 0.01 / 3), t = pfs_t_quantile(0.975, 4);

	(void)state;
	pfs_compare_judge(&a, &b, 0.05, &v);
	assert_true(near(v.ratio, 2));
	assert_true(v.interval);
	assert_true(near(v.low, 2 * exp(-t * se)));
	assert_true(near(v.high, 2 * exp(t * se)));
	assert_true(fabs(t - 2.77644511) < 1e-6);
	assert_true(v.called_out);
	/* The other order: the same interval, inverted, and called out too. */
	pfs_compare_judge(&b, &a, 0.05, &v);
	assert_true(near(v.ratio, 0.5) && near(v.high, 0.5 * exp(t * se)));
	assert_true(v.called_out);
}

/* 4 and 2 replicates: unequal variances, Welch's df by its formula. */
static void test_welch_df(void **state)
{
	struct pfs_cmp_line a = line(1000, 0.2, 4), b = line(1500, 0.05, 2);
	struct pfs_cmp_verdict v;
	double va = M_PI / 2 * 0.04 / 4, vb = 0.0025 / 2; /* the median of 2 is their mean */
	double df = (va + vb) * (va + vb) / (va * va / 3 + vb * vb / 1);
	double t = pfs_t_quantile(1 - 0.01 / 2, df);

	(void)state;
	pfs_compare_judge(&a, &b, 0.01, &v);
	assert_true(near(v.low, 1.5 * exp(-t * sqrt(va + vb))));
	assert_true(near(v.high, 1.5 * exp(t * sqrt(va + vb))));
}

/* One run without noise (one iteration on one node) is taken to be as noisy
 * as the other, with the other's degrees of freedom; without any, no
 * interval and nothing called out. */
static void test_borrowed_noise(void **state)
{
	struct pfs_cmp_line a = line(100, -1, 1), b = line(300, 0.1, 4), c = line(50, -1, 1);
	struct pfs_cmp_verdict v;
	double se = sqrt(0.01 + M_PI / 2 * 0.01 / 4), t = pfs_t_quantile(0.975, 3);

	(void)state;
	pfs_compare_judge(&a, &b, 0.05, &v);
	assert_true(v.interval && near(v.low, 3 * exp(-t * se)) && near(v.high, 3 * exp(t * se)));
	assert_true(v.called_out);
	pfs_compare_judge(&a, &c, 0.05, &v);
	assert_false(v.interval);
	assert_false(v.called_out);
	assert_true(near(v.ratio, 0.5) && v.low == v.ratio && v.high == v.ratio);
}

/* The floor: with no spread at all the interval is the ratio, and only a
 * change beyond 10 % is called out, either way. */
static void test_floor(void **state)
{
	static const struct {
		double ratio;
		bool loud;
	} cases[] = { { 1.0, false }, { 1.09, false }, { 1 / 1.09, false }, { 1.11, true },
		      { 1 / 1.11, true }, { 318, true }, { 1 / 318.0, true } };
	struct pfs_cmp_verdict v;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pfs_cmp_line a = line(1000, 0, 3), b = line(1000 * cases[i].ratio, 0, 3);

		pfs_compare_judge(&a, &b, 0.05, &v);
		assert_true(v.interval);
		assert_int_equal(v.called_out, cases[i].loud);
	}
}

/* Noise decides: 318x is called out through 30 % noise in both orders,
 * 1.5x is not through 50 %, and a run against itself never is. */
static void test_noise_decides(void **state)
{
	struct pfs_cmp_line fast = line(64135, 0.3, 3), slow = line(201.6, 0.3, 3);
	struct pfs_cmp_line n1 = line(100, 0.5, 3), n2 = line(150, 0.5, 3);
	struct pfs_cmp_verdict v;
	double alpha = 0.05 / 20;

	(void)state;
	pfs_compare_judge(&fast, &slow, alpha, &v);
	assert_true(v.called_out && v.high < 1);
	pfs_compare_judge(&slow, &fast, alpha, &v);
	assert_true(v.called_out && v.low > 1);
	pfs_compare_judge(&n1, &n2, alpha, &v);
	assert_false(v.called_out);
	assert_true(v.low < 1 && v.high > 1);
	pfs_compare_judge(&fast, &fast, alpha, &v);
	assert_false(v.called_out);
	assert_true(near(v.ratio, 1));
}

/* The time a change is: two runs of one plan whose steps last 7 ms, the
 * second 1.3x slower with tight noise, moved each step by 2.1 ms and are
 * not called out; the same factor on 70 ms steps moved them by 21 ms and
 * is; 318x slower from 0.7 ms steps moved them by 222 ms and is, either
 * way; the floor is PFS_SHORT_STEP_US, the same as a step's. */
static void test_time_moved(void **state)
{
	struct pfs_cmp_line a = line(1000, 0.01, 5), b = line(1000 / 1.3, 0.01, 5);
	struct pfs_cmp_verdict v;

	(void)state;
	assert_int_equal(PFS_CMP_RESOLVE_US, 10000);
	a.step_us = 7000;
	b.step_us = 9100;
	pfs_compare_judge(&a, &b, 0.05, &v);
	assert_true(v.interval && v.high < 1);
	assert_true(fabs(v.moved_us - 9100 * (1 - 1 / 1.3)) < 1e-6);
	assert_true(v.unresolved);
	assert_false(v.called_out);
	pfs_compare_judge(&b, &a, 0.05, &v); /* the other order: the same time */
	assert_true(v.unresolved && !v.called_out && v.low > 1);
	a.step_us = 70000;
	b.step_us = 91000;
	pfs_compare_judge(&a, &b, 0.05, &v);
	assert_true(fabs(v.moved_us - 21000) < 1e-6);
	assert_true(v.called_out && !v.unresolved);
	/* Just either side of 10 ms. */
	b.step_us = 43334; /* x (1 - 1/1.3) = 10000.15 */
	a.step_us = 0;
	pfs_compare_judge(&a, &b, 0.05, &v);
	assert_true(v.called_out);
	b.step_us = 43333; /* 9999.9 */
	pfs_compare_judge(&a, &b, 0.05, &v);
	assert_true(v.unresolved && !v.called_out);
	b = line(1000 / 318.0, 0.01, 5);
	a.step_us = 700;
	b.step_us = 222600;
	pfs_compare_judge(&a, &b, 0.05, &v);
	assert_true(v.called_out && !v.unresolved);
	pfs_compare_judge(&b, &a, 0.05, &v);
	assert_true(v.called_out && !v.unresolved);
	/* Within the noise: neither called out nor said to be unresolved. */
	b = line(1000 / 1.3, 0.5, 3);
	b.step_us = 9100;
	pfs_compare_judge(&a, &b, 0.05, &v);
	assert_false(v.called_out || v.unresolved);
}

/* The CPU waits: 2x slower on 50 ms steps (moved 50 ms) while the slower
 * run's ranks waited 45 ms longer a step: busy, not called out; with 35 ms
 * longer waits, 15 ms are left: called out; the faster run waiting longer
 * explains nothing; rows without waits change nothing. */
static void test_busy(void **state)
{
	struct pfs_cmp_line a = line(1000, 0.01, 5), b = line(500, 0.01, 5);
	struct pfs_cmp_verdict v;

	(void)state;
	a.step_us = 50000;
	b.step_us = 100000;
	a.wait_us = 5000;
	b.wait_us = 50000;
	pfs_compare_judge(&a, &b, 0.05, &v);
	assert_true(fabs(v.moved_us - 50000) < 1e-6 && fabs(v.waited_us - 45000) < 1e-6);
	assert_true(v.busy && !v.called_out && !v.unresolved);
	pfs_compare_judge(&b, &a, 0.05, &v); /* the other order: the same */
	assert_true(v.busy && !v.called_out);
	b.wait_us = 40000;
	pfs_compare_judge(&a, &b, 0.05, &v);
	assert_true(fabs(v.waited_us - 35000) < 1e-6);
	assert_true(v.called_out && !v.busy);
	a.wait_us = 60000; /* the faster run waited longer */
	pfs_compare_judge(&a, &b, 0.05, &v);
	assert_true(v.waited_us == 0 && v.called_out && !v.busy);
	a.wait_us = b.wait_us = 0;
	pfs_compare_judge(&a, &b, 0.05, &v);
	assert_true(v.called_out && !v.busy);
}

static void test_zero_rate(void **state)
{
	struct pfs_cmp_line a = line(0, 0.1, 3), b = line(100, 0.1, 3);
	struct pfs_cmp_verdict v;
	char buf[64];

	(void)state;
	pfs_compare_judge(&a, &b, 0.05, &v);
	assert_true(v.ratio == 0 && !v.interval && !v.called_out);
	assert_string_equal(pfs_compare_ratio_text(buf, sizeof(buf), v.ratio), "-");
	assert_string_equal(pfs_compare_interval_text(buf, sizeof(buf), &v), "-");
}

static void test_words(void **state)
{
	static const struct {
		double ratio;
		const char *text;
	} cases[] = {
		{ 1 / 318.16, "318x slower" }, { 318.16, "318x faster" }, { 1.25, "1.25x faster" },
		{ 0.8, "1.25x slower" },       { 1.004, "no change" },   { 1 / 1.004, "no change" },
		{ 1.006, "1.01x faster" },     { 12.34, "12.3x faster" }, { 1 / 99.96, "100x slower" },
		{ 1, "no change" },
	};
	struct pfs_cmp_verdict v = { .ratio = 1 / 318.0, .low = 1 / 402.0, .high = 1 / 251.0,
				     .interval = true, .called_out = true };
	struct pfs_cmp_verdict w = { .ratio = 1.05, .low = 0.85, .high = 1.30, .interval = true };
	char buf[64];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_string_equal(pfs_compare_ratio_text(buf, sizeof(buf), cases[i].ratio),
				    cases[i].text);
	/* In the change's direction: 251 to 402 times slower. */
	assert_string_equal(pfs_compare_interval_text(buf, sizeof(buf), &v), "(251-402)");
	/* Crossing no change: a bound below 1 is the other direction. */
	assert_string_equal(pfs_compare_interval_text(buf, sizeof(buf), &w), "(0.85-1.30)");
}

/* The table of three runs: the base's lines every run has, in the base's
 * order; the others counted once per run that has them alone or lacks
 * them; each shared line judged at 5 % / their number. */
static void test_shared_table(void **state)
{
	struct pfs_cmp_line a[3] = { line(1, 0, 3), line(2, 0, 3), line(3, 0, 3) };
	struct pfs_cmp_line b[3] = { line(1, 0, 3), line(2, 0, 3), line(9, 0, 3) };
	struct pfs_cmp_line c[2] = { line(1, 0, 3), line(2, 0, 3) };
	struct pfs_cmp_run st[3] = { { a, 3 }, { b, 3 }, { c, 2 } };
	const struct pfs_cmp_line *shared[3];
	size_t unshared = 99;

	(void)state;
	strcpy(a[1].op, "Read");
	strcpy(a[2].op, "Unlink");
	strcpy(b[0].op, "Read");
	strcpy(b[2].op, "Write");
	strcpy(c[1].op, "Read");
	/* a: Create Read Unlink; b: Read Create Write; c: Create Read. */
	assert_int_equal(pfs_compare_shared(st, 3, shared, &unshared), 2);
	assert_ptr_equal(shared[0], &a[0]);
	assert_ptr_equal(shared[1], &a[1]);
	assert_int_equal(unshared, 2); /* a's Unlink; b's Write */
	assert_ptr_equal(pfs_compare_find(&st[1], "pa", "Read"), &b[0]);
	assert_null(pfs_compare_find(&st[2], "pa", "Unlink"));
	assert_true(near(pfs_compare_alpha(2), PFS_CMP_ALPHA / 2));
	assert_true(near(pfs_compare_alpha(0), PFS_CMP_ALPHA));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_interval_by_hand),
		cmocka_unit_test(test_welch_df),
		cmocka_unit_test(test_borrowed_noise),
		cmocka_unit_test(test_floor),
		cmocka_unit_test(test_noise_decides),
		cmocka_unit_test(test_time_moved),
		cmocka_unit_test(test_busy),
		cmocka_unit_test(test_zero_rate),
		cmocka_unit_test(test_words),
		cmocka_unit_test(test_shared_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
