/* compare.h: the statistics behind `pfsbench compare`, and its report.
 * Definitions (docs/compare.md):
 *   rate of a (test, op) in one iteration = files of all its rows / the sum,
 *     over the plan's steps, of that step's wall time (latest end - earliest
 *     start of the op's rows in the step): the aggregate over nodes for ops
 *     that run on all nodes at once, the mean throughput for node-by-node ops;
 *   rate of a run = the mean of its iterations' rates;
 *   iteration spread = coefficient of variation of the iterations' rates;
 *   node spread = coefficient of variation of each node's rate, the same
 *     formula over that node's rows only;
 *   noise = iteration spread, else (one iteration) node spread, else 0;
 *   a change is called out when |change| > max(10%, 3 x sqrt(noise_a^2 +
 *     noise_b^2)).
 * No MPI, no HDF5. */
#ifndef PFSBENCH_COMPARE_H
#define PFSBENCH_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "pfsbench/results.h"

struct pfs_archive;

#define PFS_CALLOUT_FLOOR 0.10
#define PFS_CALLOUT_SIGMAS 3.0

struct pfs_cmp_line {
	char test[PFS_TEST_NAME_MAX];
	char op[PFS_OP_NAME_MAX];
	enum pfs_unit unit; /* of the op's rows: what rate counts */
	double rate;        /* per second: items, or bytes for PFS_UNIT_BYTES */
	uint64_t p99_ns;    /* 99th percentile latency over all iterations and ranks; 0: none */
	double iter_spread; /* relative; < 0 when there is one iteration */
	double node_spread; /* relative; < 0 when there is one node */
	unsigned iterations;
};

struct pfs_cmp_run {
	struct pfs_cmp_line *lines; /* in order of first appearance */
	size_t n;
};

/* Returns 0 or -ENOMEM. */
int pfs_compare_stats(const struct pfs_archive *a, struct pfs_cmp_run *out);
void pfs_compare_run_free(struct pfs_cmp_run *run);

double pfs_compare_noise(const struct pfs_cmp_line *l);

/* The change of b against a, in percent, and whether it exceeds the noise. */
bool pfs_compare_called_out(const struct pfs_cmp_line *a, const struct pfs_cmp_line *b,
			    double *change_pct);

/* The whole report of n runs, the first being the base. Returns 0 or
 * -ENOMEM. */
int pfs_compare_print(FILE *out, const struct pfs_archive *runs, const char *const *paths,
		      size_t n, bool colour);

#endif
