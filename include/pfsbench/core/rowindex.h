/* rowindex.h: the one index over a results file's rows (src/core/rowindex.c):
 * rows sorted by a key of (test, op, iteration, step, node, rank) in any
 * order, the equal run of a key found in such a sort, and the groups of
 * rows that share a key numbered in order of their first rows, the order
 * every report follows. Every reader that groups rows uses it, so a key
 * compares the same wherever it is used. Pure: no MPI, no HDF5. */
#ifndef PFSBENCH_ROWINDEX_H
#define PFSBENCH_ROWINDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pfs_row;

/* The fields of a key, compared in the order a key lists them and ended
 * by PFS_ROW_END. Names compare as bytes (strncmp within their field, so
 * a hostile file's unended name stays inside its row); numbers by value.
 * PFS_ROW_ITSELF is the row's own place: each row a group of its own. */
enum pfs_row_field {
	PFS_ROW_END = 0,
	PFS_ROW_TEST,
	PFS_ROW_OP,
	PFS_ROW_ITERATION,
	PFS_ROW_STEP,
	PFS_ROW_NODE, /* node_index */
	PFS_ROW_RANK,
	PFS_ROW_ITSELF,
};

/* group[] of a row pfs_row_number left out. */
#define PFS_ROW_NONE SIZE_MAX

/* a against b by key: negative, 0 or positive. PFS_ROW_ITSELF compares
 * their addresses, so a and b must then be rows of one array. */
int pfs_row_cmp(const struct pfs_row *a, const struct pfs_row *b, const enum pfs_row_field *key);

/* Sorts idx[0..n), indexes into rows, by key, then by index: the order is
 * total, and each run of equal keys is led by its earliest row. */
void pfs_row_sort(const struct pfs_row *rows, size_t *idx, size_t n,
		  const enum pfs_row_field *key);

/* The run of idx[0..n) (sorted by pfs_row_sort with the same key, or one
 * it begins) whose rows equal probe by key: idx[*lo..*hi), empty
 * (*lo == *hi) when there is none. Binary search: O(log n). */
void pfs_row_range(const struct pfs_row *rows, const size_t *idx, size_t n,
		   const enum pfs_row_field *key, const struct pfs_row *probe, size_t *lo,
		   size_t *hi);

/* Numbers the groups of rows equal by key 0, 1, ... in order of their
 * first rows: group[i] is row i's, first[g] group g's first row (both
 * have room for nrows), *ngroups their count. keep, when not NULL, picks
 * the rows to number; the others get PFS_ROW_NONE. O(n log n) whatever
 * the number of groups. Returns 0 or -ENOMEM. */
int pfs_row_number(const struct pfs_row *rows, size_t nrows, const enum pfs_row_field *key,
		   bool (*keep)(const struct pfs_row *), size_t *group, size_t *first,
		   size_t *ngroups);

#endif
