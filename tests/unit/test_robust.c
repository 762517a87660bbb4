/* test_robust.c: the shared statistics. The MAD (the median it builds on
 * is tested in test_util.c); the sample SD against the two-pass formula; Student's t
 * against closed forms (df 1 is Cauchy, df 2 has an algebraic CDF) and
 * against published quantiles, including the far tails Bonferroni needs;
 * the quantile inverts the CDF. */
#include "cmocka_prelude.h"

#include "pfsbench/analysis/robust.h"

#include <math.h>

static void test_mad(void **state)
{
	double dev[] = { 1, 2, 3, 4, 100 };

	(void)state;
	/* |v - 3| = 2 1 0 1 97: median 1; the outlier does not move it. */
	assert_true(pfs_mad(dev, 5, 3) == 1);
	assert_true(isnan(pfs_mad(dev, 0, 0)));
}

static void test_sample_sd(void **state)
{
	double v[] = { 2, 4, 4, 4, 5, 5, 7, 9 }, big[] = { 1e9 + 1, 1e9 + 2, 1e9 + 3 };

	(void)state;
	/* mean 5, squared deviations 32, n - 1 = 7 */
	assert_true(fabs(pfs_sample_sd(v, 8) - sqrt(32.0 / 7)) < 1e-12);
	assert_true(fabs(pfs_sample_sd(big, 3) - 1) < 1e-6); /* no cancellation */
	assert_true(pfs_sample_sd(v, 1) < 0);
	assert_true(pfs_sample_sd(v, 0) < 0);
}

static void test_t_cdf_closed_forms(void **state)
{
	static const double ts[] = { -30, -3, -1, -0.2, 0, 0.2, 1, 2.5, 12.7, 300 };

	(void)state;
	for (size_t i = 0; i < sizeof(ts) / sizeof(ts[0]); i++) {
		double t = ts[i];
		double cauchy = 0.5 + atan(t) / M_PI;
		double two = 0.5 + t / (2 * sqrt(2 + t * t));

		assert_true(fabs(pfs_t_cdf(t, 1) - cauchy) < 1e-12);
		assert_true(fabs(pfs_t_cdf(t, 2) - two) < 1e-12);
		/* symmetric */
		assert_true(fabs(pfs_t_cdf(t, 7.5) + pfs_t_cdf(-t, 7.5) - 1) < 1e-12);
	}
	/* a large df is nearly the normal distribution: Phi(1.96) */
	assert_true(fabs(pfs_t_cdf(1.959963984540054, 1e6) - 0.975) < 1e-6);
	assert_true(isnan(pfs_t_cdf(1, 0)));
	assert_true(pfs_t_cdf(INFINITY, 3) == 1 && pfs_t_cdf(-INFINITY, 3) == 0);
}

static void test_t_quantiles(void **state)
{
	/* Published two-sided critical values (p one-sided). */
	static const struct {
		double p, df, t;
	} known[] = {
		{ 0.975, 1, 12.7062047 },  { 0.975, 2, 4.30265273 }, { 0.975, 3, 3.18244631 },
		{ 0.975, 4, 2.77644511 },  { 0.975, 10, 2.22813885 }, { 0.975, 30, 2.04227246 },
		{ 0.995, 1, 63.6567412 },  { 0.995, 5, 4.03214298 }, { 0.9995, 3, 12.9239786 },
		{ 0.9995, 10, 4.58689386 }, { 0.975, 1e7, 1.95996398 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		double t = pfs_t_quantile(known[i].p, known[i].df);

		assert_true(fabs(t - known[i].t) < 1e-6 * known[i].t);
		assert_true(fabs(pfs_t_quantile(1 - known[i].p, known[i].df) + t) < 1e-9 * t);
	}
	/* The inverse of the CDF, also far in the tail and at fractional df. */
	for (double df = 0.7; df < 200; df *= 1.9)
		for (double p = 0.6; p < 1; p = 1 - (1 - p) / 7) {
			double t = pfs_t_quantile(p, df);

			assert_true(fabs(pfs_t_cdf(t, df) - p) < 1e-9);
			if (p > 0.99999999)
				break;
		}
	assert_true(pfs_t_quantile(0.5, 4) == 0);
	assert_true(isnan(pfs_t_quantile(0, 4)) && isnan(pfs_t_quantile(1, 4)));
	assert_true(isnan(pfs_t_quantile(0.9, 0)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mad),
		cmocka_unit_test(test_sample_sd),
		cmocka_unit_test(test_t_cdf_closed_forms),
		cmocka_unit_test(test_t_quantiles),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
