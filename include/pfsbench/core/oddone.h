/* oddone.h: the rule that names a node slower than the others, shared by
 * the slow-node analysis of loaded runs (src/analysis/slownode.c) and the
 * reports that name the odd node out as they print (hdparm's baseline,
 * src/outputs/stream.c), so that there is one rule (docs/methodology.md,
 * "Slow nodes, imbalance and waiting"). Pure: no MPI, no I/O. */
#ifndef PFSBENCH_ODDONE_H
#define PFSBENCH_ODDONE_H

#include <stddef.h>

#define PFS_SLOW_K 5.0          /* k: how many MADs below the median is slow */
#define PFS_SLOW_FLOOR 0.10     /* never slow by less than 10 % */
#define PFS_SLOW_MIN_NODES 3u   /* fewer cannot say which node is the odd one */
/* Up to this many other nodes their spread is taken from their pairwise
 * differences (pfs_oddone_pairwise); above it from their MAD, which is then
 * within 10 % of its large-sample value and costs n log n, not n^2. */
#define PFS_SLOW_PAIRWISE_MAX 16u

/* Value i of v[0..n-1] (one a node, n >= 3; logs of rates) against the
 * others: *ref = the median of the others' values, *mad = their spread on
 * the scale of a MAD: pfs_oddone_pairwise for up to PFS_SLOW_PAIRWISE_MAX
 * others, else the median of their absolute deviations from *ref. Leaving
 * the node out keeps a slow node from hiding in the spread when there are
 * only 3. scratch holds n doubles. */
void pfs_oddone_others(const double *v, size_t n, size_t i, double *scratch, double *ref,
		       double *mad);

/* The spread of v[0..n-1] without v[skip] (skip >= n: all of them), m of
 * them, 2 <= m <= PFS_SLOW_PAIRWISE_MAX: the median of their m (m - 1) / 2
 * absolute pairwise differences, / sqrt 2. For normal values of standard
 * deviation s its median is 0.6745 s at m = 2, as a MAD's is for many
 * values, 0.81 s at 3, 0.75 s at 4, 0.70 s at 8; the MAD of few values is
 * far lower and often near 0 (of 3 values it is the smaller gap to the
 * middle one: median 0.36 s, under 0.07 s one time in ten), so that "k
 * MADs" meant as little as the floor (docs/methodology.md). NAN outside
 * the range. */
double pfs_oddone_pairwise(const double *v, size_t n, size_t skip);

/* Slow: below the others' median by more than max(k x spread, log 1.10). */
int pfs_oddone_slow(double dev, double spread);

#endif
