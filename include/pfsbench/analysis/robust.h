/* robust.h: the few statistics compare and the slow-node analysis share
 * (src/analysis/robust.c): the median absolute deviation (the median
 * itself, pfs_median, is in core/util.h), the sample standard deviation
 * and Student's t distribution for confidence intervals from a handful of iterations.
 * Pure: no MPI, no HDF5, no I/O. */
#ifndef PFSBENCH_ROBUST_H
#define PFSBENCH_ROBUST_H

#include <stddef.h>

/* The median absolute deviation from center: the median of |v[i] - center|.
 * Overwrites v with those deviations. NAN when n is 0. Unscaled: for
 * normally distributed values it is 0.6745 standard deviations. */
double pfs_mad(double *v, size_t n, double center);

/* The sample standard deviation (n - 1 in the denominator); -1 when n < 2. */
double pfs_sample_sd(const double *v, size_t n);

/* Student's t distribution with df > 0 degrees of freedom (df need not be
 * a whole number, as Welch's df is not): P(T <= t), and its inverse for
 * 0 < p < 1. */
double pfs_t_cdf(double t, double df);
double pfs_t_quantile(double p, double df);

#endif
