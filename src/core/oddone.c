/* oddone.c: one value against the others' median and spread
 * (include/pfsbench/core/oddone.h). O(n log n) a value (O(n^2) for up to
 * PFS_SLOW_PAIRWISE_MAX others): for the few nodes of a report;
 * slownode.c's pass over thousands of cells shares the median of the
 * others over sorted values instead. */
#include "pfsbench/core/oddone.h"

#include "pfsbench/core/util.h"

#include <math.h>

void pfs_oddone_others(const double *v, size_t n, size_t i, double *scratch, double *ref,
		       double *mad)
{
	size_t m = 0;

	for (size_t j = 0; j < n; j++)
		if (j != i)
			scratch[m++] = v[j];
	*ref = pfs_median(scratch, m);
	for (size_t j = 0; j < m; j++)
		scratch[j] = fabs(scratch[j] - *ref);
	*mad = m <= PFS_SLOW_PAIRWISE_MAX ? pfs_oddone_pairwise(v, n, i) : pfs_median(scratch, m);
}

double pfs_oddone_pairwise(const double *v, size_t n, size_t skip)
{
	double d[PFS_SLOW_PAIRWISE_MAX * (PFS_SLOW_PAIRWISE_MAX - 1) / 2];
	size_t m = n - (skip < n), k = 0;

	if (m < 2 || m > PFS_SLOW_PAIRWISE_MAX)
		return NAN;
	for (size_t a = 0; a < n; a++)
		for (size_t b = a + 1; a != skip && b < n; b++)
			if (b != skip)
				d[k++] = fabs(v[a] - v[b]);
	return pfs_median(d, k) / sqrt(2);
}

int pfs_oddone_slow(double dev, double spread)
{
	double bar = PFS_SLOW_K * spread;

	/* a NaN spread (no groups to take it from) stays NaN: never slow */
	if (bar < log(1 + PFS_SLOW_FLOOR))
		bar = log(1 + PFS_SLOW_FLOOR);
	return dev < -bar;
}
