/* robust.c: median absolute deviation (about pfs_median, which is in
 * src/core/util.c), sample standard deviation, and Student's t
 * distribution. The t CDF is the regularized incomplete
 * beta function, evaluated by its continued fraction (modified Lentz);
 * the quantile inverts the CDF by bisection, which is slow only by the
 * standards of a hot loop and exact to the last few bits. */
#include "pfsbench/analysis/robust.h"
#include "pfsbench/core/util.h"

#include <math.h>
#include <stdlib.h>

double pfs_mad(double *v, size_t n, double center)
{
	for (size_t i = 0; i < n; i++)
		v[i] = fabs(v[i] - center);
	return pfs_median(v, n);
}

double pfs_sample_sd(const double *v, size_t n)
{
	double mean = 0, m2 = 0;

	if (n < 2)
		return -1;
	/* Welford: one pass, no cancellation. */
	for (size_t i = 0; i < n; i++) {
		double d = v[i] - mean;

		mean += d / (double)(i + 1);
		m2 += d * (v[i] - mean);
	}
	return sqrt(m2 / (double)(n - 1));
}

/* The continued fraction of I_x(a, b), 1 / (1 + d1 / (1 + d2 / (1 + ...))),
 * with d(2m+1) = -(a+m)(a+b+m)x / ((a+2m)(a+2m+1)) and
 * d(2m) = m(b-m)x / ((a+2m-1)(a+2m)); it converges quickly for
 * x < (a+1)/(a+b+2). Modified Lentz's method. */
static double beta_fraction(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 1e-15;
	double c = 1, d = 1 - (a + b) * x / (a + 1), f;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	f = d;
	for (int m = 1; m <= 1000; m++) {
		double coef[2] = {
			m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
			-(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
		};

		for (int k = 0; k < 2; k++) {
			double delta;

			d = 1 + coef[k] * d;
			c = 1 + coef[k] / c;
			if (fabs(d) < tiny)
				d = tiny;
			if (fabs(c) < tiny)
				c = tiny;
			d = 1 / d;
			delta = c * d;
			f *= delta;
			if (k == 1 && fabs(delta - 1) < eps)
				return f;
		}
	}
	return f;
}

/* The regularized incomplete beta function I_x(a, b), 0 <= x <= 1. */
static double beta_reg(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(a * log(x) + b * log1p(-x) - (lgamma(a) + lgamma(b) - lgamma(a + b)));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_fraction(a, b, x) / a;
	return 1 - front * beta_fraction(b, a, 1 - x) / b;
}

double pfs_t_cdf(double t, double df)
{
	double tail;

	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return t > 0 ? 1 : 0;
	/* P(|T| > |t|) = I_{df/(df+t^2)}(df/2, 1/2) */
	tail = beta_reg(df / 2, 0.5, df / (df + t * t));
	return t >= 0 ? 1 - tail / 2 : tail / 2;
}

double pfs_t_quantile(double p, double df)
{
	double lo = 0, hi = 1;

	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	if (p < 0.5)
		return -pfs_t_quantile(1 - p, df);
	if (p == 0.5)
		return 0;
	while (pfs_t_cdf(hi, df) < p && hi < 1e300)
		hi *= 2;
	for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
		double mid = (lo + hi) / 2;

		if (pfs_t_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}
