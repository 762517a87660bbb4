/* latency.h: latency percentiles from a results file's rows and their
 * histogram cells (src/analysis/latency.c), for show --latency, export and compare.
 * A group of rows (one op of one test, over all iterations or in one, or
 * one node's in one step, or one row) is summarised by merging the rows' histograms, which is exact:
 * the merged histogram is the histogram of all the group's items. Pure: no
 * MPI, no HDF5. */
#ifndef PFSBENCH_LATENCY_H
#define PFSBENCH_LATENCY_H

#include <stddef.h>
#include <stdint.h>

#include "pfsbench/core/results.h"

#define PFS_LAT_ALL UINT32_MAX /* every iteration, or every rank */

/* How rows are grouped. */
enum pfs_lat_by {
	PFS_LAT_BY_OP,        /* (test, op), all iterations and ranks */
	PFS_LAT_BY_ITERATION, /* (test, iteration, op), all ranks */
	PFS_LAT_BY_ROW,       /* each row: one rank's op in one step */
	PFS_LAT_BY_NODE,      /* (test, iteration, step, op, node): the finest a
			       * file of --latency-detail node holds */
};

/* The finest grouping a file's cells allow: BY_NODE where its
 * provenance's latency_detail is "node", else BY_ROW. */
enum pfs_lat_by pfs_lat_finest(const char *latency_detail);

struct pfs_lat_summary {
	char test[PFS_TEST_NAME_MAX];
	char op[PFS_OP_NAME_MAX];
	uint32_t iteration; /* or PFS_LAT_ALL */
	uint32_t node;      /* node_index, BY_ROW and BY_NODE; or PFS_LAT_ALL */
	uint32_t rank;      /* BY_ROW; or PFS_LAT_ALL */
	uint32_t step;      /* BY_ROW and BY_NODE */
	uint64_t n;         /* items timed */
	uint64_t min_ns, p50_ns, p90_ns, p99_ns, p999_ns, max_ns;
};

/* One summary per group that recorded latency, in the order of the
 * groups' first rows, into a new array (free() it). Time O(n log n + cells),
 * one histogram held at a time. Returns 0, -ENOMEM, or -EINVAL when the
 * cells contradict the rows (a damaged file). */
int pfs_lat_groups(const struct pfs_row *rows, size_t nrows, const struct pfs_lat_cell *cells,
		   size_t ncells, enum pfs_lat_by by, struct pfs_lat_summary **out, size_t *nout);

/* The merged histogram of each group that recorded latency, in the same
 * order as pfs_lat_groups, and the index of each group's first row: for
 * pictures, which need the whole distribution. A histogram is 36 KB, so
 * cap (NULL: none) keeps the groups to draw, in order of first row: the
 * first groups_max, of the first tests_max tests (0: no bound), and says
 * how many there were. Free with pfs_lat_hists_free. Same returns as
 * pfs_lat_groups. */
struct pfs_hist;
struct pfs_lat_hist {
	size_t first;          /* index in rows of the group's first row */
	struct pfs_hist *hist; /* all its rows' items */
};
struct pfs_lat_cap {
	size_t tests_max, groups_max;
	size_t tests, groups; /* set: those that recorded latency */
};
int pfs_lat_hists(const struct pfs_row *rows, size_t nrows, const struct pfs_lat_cell *cells,
		  size_t ncells, enum pfs_lat_by by, struct pfs_lat_cap *cap,
		  struct pfs_lat_hist **out, size_t *nout);
void pfs_lat_hists_free(struct pfs_lat_hist *h, size_t n);

/* The summary of (test, op) among summaries grouped BY_OP, or NULL. */
const struct pfs_lat_summary *pfs_lat_find(const struct pfs_lat_summary *s, size_t n,
					   const char *test, const char *op);

#endif
