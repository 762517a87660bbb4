/* counters.h: the filesystem's and block device's counters of runs side by
 * side, for `compare --fs-stats` (src/analysis/counters.c). The model
 * (docs/compare.md, "Counters"):
 *   a run's figure of a counter in a step of a test = the median, over the
 *     run's iterations of the test, of the counter summed over the nodes
 *     (a counter not stored in an iteration did not move: 0 there; a gauge
 *     is its value at the step's end, summed over the nodes the same way);
 *   a side's figure = the mean of its runs' figures, over the runs that
 *     recorded counters at all (NAN where none did: a run on tmpfs, or a
 *     file written before pfsbench recorded them).
 * No MPI, no HDF5. */
#ifndef PFSBENCH_COUNTERS_H
#define PFSBENCH_COUNTERS_H

#include <stddef.h>
#include <stdint.h>

#include "pfsbench/core/results.h"

struct pfs_archive;

struct pfs_ctr_line {
	char test[PFS_TEST_NAME_MAX];
	uint32_t step;
	char name[sizeof(((struct pfs_fsstat *)0)->name)];
	char ops[32];  /* what ran in the step ("Write", "Create+Unlink"), from the
			* rows of the first run that has the step; "" for none */
	double *side; /* nsides figures (above) */
};

struct pfs_ctr_table {
	struct pfs_ctr_line *lines; /* in the order the first run holding each has them */
	size_t n;
	size_t nsides;
	double *figures; /* n x nsides, behind lines[i].side */
};

/* The table of runs (side s: side_runs[s] runs, after those of the sides
 * before it). Returns 0 or -ENOMEM; t is empty when no run has counters. */
int pfs_ctr_table(const struct pfs_archive *runs, const size_t *side_runs, size_t nsides,
		  struct pfs_ctr_table *t);
void pfs_ctr_table_free(struct pfs_ctr_table *t);

#endif
