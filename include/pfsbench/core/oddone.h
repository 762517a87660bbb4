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

/* Value i of v[0..n-1] (one a node, n >= 3; logs of rates) against the
 * others: *ref = the median of the others' values, *mad = the median of
 * their absolute deviations from *ref. Leaving the node out keeps a slow
 * node from hiding in the spread when there are only 3. scratch holds n
 * doubles. */
void pfs_oddone_others(const double *v, size_t n, size_t i, double *scratch, double *ref,
		       double *mad);

/* Slow: below the others' median by more than max(k x spread, log 1.10). */
int pfs_oddone_slow(double dev, double spread);

#endif
