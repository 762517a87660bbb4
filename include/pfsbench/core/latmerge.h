/* latmerge.h: merging a node's latency cells (src/core/latmerge.c), the
 * pure part of --latency-detail node (docs/scale.md, "Latency merged on
 * the node"). A node's ranks send their leader their cells, each with its
 * row's key; the leader merges them and hands each key's merged cells to
 * the lowest of its ranks that had any, which sends them on as its own
 * row's. Pure: no MPI. */
#ifndef PFSBENCH_LATMERGE_H
#define PFSBENCH_LATMERGE_H

#include <stddef.h>
#include <stdint.h>

#include "pfsbench/core/results.h"

/* A latency cell with its row's key: the rows a node merges are those of
 * one test, iteration, step and op. */
struct pfs_keyed_cell {
	char test[PFS_TEST_NAME_MAX];
	char op[PFS_OP_NAME_MAX];
	uint32_t iteration, step;
	uint32_t rank;   /* the rank whose row holds it */
	uint32_t bucket;
	uint64_t count;
};

/* The cell of row (its key) and bucket, of rank; padding zeroed, so that
 * it travels as bytes without leaking memory. */
void pfs_keyed_cell_set(struct pfs_keyed_cell *k, const struct pfs_row *row, uint32_t rank,
			uint32_t bucket, uint64_t count);

/* Whether row has the key of k. */
int pfs_keyed_cell_is_of(const struct pfs_keyed_cell *k, const struct pfs_row *row);

/* Merges n cells in place: one cell per key and bucket, its count the sum
 * (saturating), its rank the lowest of any cell of its key; the cells end
 * sorted by rank, then key, then bucket, so each rank's are together.
 * Returns how many remain. O(n log n). */
size_t pfs_keyed_cells_merge(struct pfs_keyed_cell *c, size_t n);

#endif
