/* oddone.c: one value against the others' median and spread
 * (include/pfsbench/core/oddone.h). O(n log n) a value: for the few nodes
 * of a report; slownode.c's pass over thousands of cells shares the
 * median of the others over sorted values instead. */
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
	*mad = pfs_median(scratch, m);
}

int pfs_oddone_slow(double dev, double spread)
{
	double bar = PFS_SLOW_K * spread;

	/* a NaN spread (no groups to take it from) stays NaN: never slow */
	if (bar < log(1 + PFS_SLOW_FLOOR))
		bar = log(1 + PFS_SLOW_FLOOR);
	return dev < -bar;
}
