/* compare.h: the statistics behind `pfsbench compare`, and its reports
 * (src/compare.c). Definitions (docs/compare.md):
 *   rate of a (test, op) in one iteration = the amount (files, dirs, ops or
 *     bytes) of all its rows / the sum, over the plan's steps, of that
 *     step's wall time (latest end - earliest start of the op's rows in the
 *     step): the aggregate over nodes for ops that run on all nodes at
 *     once, the mean throughput for node-by-node ops;
 *   rate of a run = the median of its iterations' rates;
 *   replicates = the iterations' rates when there are 2 or more, else the
 *     nodes' rates in the one iteration (the same formula over each node's
 *     rows), else none;
 *   noise = sample standard deviation of the replicates' natural logs;
 *   change of run b against run a: the ratio r = rate_b / rate_a, judged on
 *     log r with a Student t interval: log r +- t(df, 1 - alpha / 2) x SE,
 *     SE^2 = SE_a^2 + SE_b^2, SE = c x noise / sqrt(replicates) with
 *     c = sqrt(pi / 2) (the standard error of a median) from 3 replicates
 *     on, 1 below; df by Welch; alpha = 5 % / the lines of the table
 *     (Bonferroni), so a table of two runs of one configuration calls
 *     anything out with a chance of at most about 5 %;
 *   called out when that interval excludes r = 1, r is beyond the floor
 *     (r > 1.10 or r < 1 / 1.10), and the change moved a step's time by
 *     10 ms or more: max(step_a, step_b) x (1 - 1 / R) >= 10 ms, R = r or
 *     1 / r, whichever is above 1, step the median wall time of the op's
 *     steps (for runs of one plan, the time the faster run's steps were
 *     shorter by), and by 10 ms or more beyond how much longer the slower
 *     run's ranks waited for a CPU a step: moved - (wait_slow - wait_fast)
 *     >= 10 ms, wait the median over the op's steps of the longest wait of
 *     one of its ranks (rows' wait_us, Linux's run_delay). Else a change
 *     beyond the noise and the floor is 'short' (moved under 10 ms) or
 *     'busy' (the CPU waits account for all but under 10 ms of it).
 * No MPI, no HDF5. */
#ifndef PFSBENCH_COMPARE_H
#define PFSBENCH_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pfsbench/results.h"

struct pfs_archive;

#define PFS_CMP_FLOOR 1.10  /* a change smaller than 10 % is never called out */
#define PFS_CMP_ALPHA 0.05  /* the family-wise error of one table of two runs */
/* A change that moved the op's steps by less than this is never called
 * out, however steady each run was: it is no more measurable than a step
 * that short (PFS_SHORT_STEP_US). One rank preempted for a few scheduler
 * slices, a barrier's wake-ups, or the machine's load changing between the
 * two runs moves a step of a few ms by 30 % and more, each run's own
 * iterations alike, so that the interval misses it. */
#define PFS_CMP_RESOLVE_US PFS_SHORT_STEP_US

struct pfs_cmp_line {
	char test[PFS_TEST_NAME_MAX];
	char op[PFS_OP_NAME_MAX];
	enum pfs_unit unit;  /* of the op's rows: what rate counts */
	double rate;         /* per second: items, or bytes for PFS_UNIT_BYTES */
	unsigned iterations;
	unsigned replicates; /* behind noise: iterations, or nodes of one iteration */
	bool node_replicates;
	double noise;        /* SD of the replicates' logs; < 0 when fewer than 2 */
	uint64_t step_us;    /* median wall time of the op's steps */
	uint64_t wait_us;    /* median over the op's steps of the longest wait of one of
			      * its ranks for a CPU (rows' wait_us); 0 where unrecorded */
	uint64_t p99_ns;     /* 99th percentile latency over all iterations and ranks; 0: none */
};

struct pfs_cmp_run {
	struct pfs_cmp_line *lines; /* in order of first appearance */
	size_t n;
};

/* Returns 0, -ENOMEM, or -EINVAL for damaged latency histograms. */
int pfs_compare_stats(const struct pfs_archive *a, struct pfs_cmp_run *out);
void pfs_compare_run_free(struct pfs_cmp_run *run);

/* The line of (test, op) in run, or NULL. */
const struct pfs_cmp_line *pfs_compare_find(const struct pfs_cmp_run *run, const char *test,
					    const char *op);

/* The table of n runs, st[0] the base: its lines that every run has, in
 * its order, into shared (room for st[0].n); *unshared counts the (test,
 * op)s of any run that are not in every run. Returns how many are shared. */
size_t pfs_compare_shared(const struct pfs_cmp_run *st, size_t n,
			  const struct pfs_cmp_line **shared, size_t *unshared);

/* The error each line of a table of nshared lines is judged at:
 * PFS_CMP_ALPHA / nshared (Bonferroni). */
double pfs_compare_alpha(size_t nshared);

/* The verdict on b against a. */
struct pfs_cmp_verdict {
	double ratio;        /* rate_b / rate_a; 0 when a rate is 0 */
	double low, high;    /* the interval of the ratio; equal to ratio without one */
	bool interval;       /* false: neither run measured its noise, or a rate is 0 */
	double moved_us;     /* max(step_a, step_b) x (1 - 1 / R): the time the change is */
	bool unresolved;     /* beyond the noise and the floor, but moved under 10 ms */
	double waited_us;    /* how much longer the slower run's ranks waited for a CPU */
	bool busy;           /* moved 10 ms or more, but under 10 ms beyond those waits */
	bool called_out;
};

/* Judges b against a at error alpha for this one line (the caller divides
 * PFS_CMP_ALPHA by the lines of its table). */
void pfs_compare_judge(const struct pfs_cmp_line *a, const struct pfs_cmp_line *b, double alpha,
		       struct pfs_cmp_verdict *v);

/* "318x slower", "1.25x faster", "no change" (under 0.5 %); "-" for a
 * ratio of 0. Returns buf. */
const char *pfs_compare_ratio_text(char *buf, size_t len, double ratio);

/* The interval in the change's own terms, "(251-402)": the factors by
 * which b is slower (or faster, as the change says); a bound below 1 is a
 * change the other way. "-" without an interval. Returns buf. */
const char *pfs_compare_interval_text(char *buf, size_t len, const struct pfs_cmp_verdict *v);

enum pfs_cmp_format { PFS_CMP_TEXT, PFS_CMP_CSV, PFS_CMP_JSON };

/* The whole report of n runs, the first being the base. Returns 0,
 * -ENOMEM, or -EINVAL for a damaged file (after a message). */
int pfs_compare_print(FILE *out, const struct pfs_archive *runs, const char *const *paths,
		      size_t n, enum pfs_cmp_format format, bool colour);

#endif
