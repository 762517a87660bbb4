/* matrixfmt.h: perf_matrix.pl's throughput matrix (one row per transfer
 * size, one column per request size, MiB/s) as text: perf_matrix's own
 * lines, the same matrix labelled with the sizes, perf_matrix's diff of two
 * matrices, a strict reader of old perf_matrix outputs, a cell's rate, and
 * the outlier rule for repeated runs of a cell. Pure: no MPI, no HDF5, no
 * state. docs/formats.md gives the rules and where they come from. */
#ifndef PFSBENCH_MATRIXFMT_H
#define PFSBENCH_MATRIXFMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* At most this many transfer sizes (rows) and request sizes (columns). */
#define PFS_MATRIXFMT_MAX 32

/* perf_matrix's sizes: requests 1 KiB, 2 KiB, ... 4 MiB (13 columns),
 * transfers 1 MiB, 2 MiB, ... 1 GiB (11 rows). */
#define PFS_MATRIXFMT_PERF_COLS 13
#define PFS_MATRIXFMT_PERF_ROWS 11

/* The most bytes pfs_matrixfmt_parse accepts: an 11 x 13 file is about
 * 1 KiB; anything much larger is not a perf_matrix output. */
#define PFS_MATRIXFMT_TEXT_MAX 65536

struct pfs_matrix {
	unsigned rows;                        /* transfer sizes, 1..PFS_MATRIXFMT_MAX */
	unsigned cols;                        /* request sizes, 1..PFS_MATRIXFMT_MAX */
	uint64_t xfer_bytes[PFS_MATRIXFMT_MAX]; /* each row's transfer size */
	uint64_t req_bytes[PFS_MATRIXFMT_MAX];  /* each column's request size */
	double mibps[PFS_MATRIXFMT_MAX][PFS_MATRIXFMT_MAX]; /* [row][col], >= 0 */
};

/* perf_matrix's 11 x 13 sizes, every cell 0. */
void pfs_matrixfmt_init_perf(struct pfs_matrix *m);

/* A cell's rate: moved_bytes / 2^20 / seconds. A cell whose request is
 * larger than its transfer is not run and is 0 (perf_matrix prints 0.00).
 * 0, or -EINVAL for a zero request or transfer size or a zero time. */
int pfs_matrixfmt_cell_mibps(uint64_t req_bytes, uint64_t xfer_bytes, uint64_t moved_bytes,
			     uint64_t elapsed_ns, double *mibps);

/* The outlier rule for one cell's n repetitions: mean and population
 * standard deviation of all n, then the repetitions no further than one
 * standard deviation from the mean (bounds included) are kept and
 * averaged. kept[i] says which. Should rounding leave none (it cannot in
 * exact arithmetic), all are kept. */
struct pfs_matrixfmt_runs {
	double mean_all;  /* of all n */
	double stddev;    /* population: sqrt(sum (x - mean)^2 / n) */
	double mean_kept; /* the cell's value */
	size_t nkept;
};

/* 0, or -EINVAL for n = 0 or a value that is negative or not finite. */
int pfs_matrixfmt_average_runs(const double *mibps, size_t n, bool *kept,
			       struct pfs_matrixfmt_runs *out);

/* perf_matrix's matrix: one line per row, each cell " %.2f", nothing
 * else, then "\n". 0, -EINVAL for a bad matrix (sizes out of range, a cell
 * negative or not finite), -EIO when fp fails. */
int pfs_matrixfmt_print(FILE *fp, const struct pfs_matrix *m);

/* The same cells under a title, with the request sizes above the columns
 * and the transfer sizes before the rows ("1KiB", "4MiB", "1GiB"); a cell
 * whose request exceeds its transfer prints "-". Same returns. */
int pfs_matrixfmt_print_labelled(FILE *fp, const struct pfs_matrix *m);

/* The same layout under another title, for another measure of the same
 * cells (pfsbench matrix's slowest node / median node). */
int pfs_matrixfmt_print_titled(FILE *fp, const struct pfs_matrix *m, const char *title);

/* perf_matrix's diff of a (before) and b (after): per cell
 * (b - a) / a x 100 as " %.2f%%", or " -.--%" where either is 0; one line
 * per row. The cells are taken as given: diff what perf_matrix printed by
 * rounding first (pfs_matrixfmt_round). Same returns, and -EINVAL when the
 * two have different sizes. */
int pfs_matrixfmt_print_diff(FILE *fp, const struct pfs_matrix *a, const struct pfs_matrix *b);

/* One cell of that diff, with its leading space (" -53.49%", " -.--%"),
 * into buf: 0, or -ENAMETOOLONG when it does not fit. For readers that
 * mark cells as they print them (pfsbench compare on a terminal). */
int pfs_matrixfmt_diff_cell(char *buf, size_t len, double a, double b);

/* Each cell as perf_matrix printed it, "%.2f" read back. 0 or -EINVAL. */
int pfs_matrixfmt_round(struct pfs_matrix *m);

/* Reads a perf_matrix output: exactly m->rows lines of m->cols numbers
 * (m->rows, m->cols and the sizes are the caller's, e.g. from
 * pfs_matrixfmt_init_perf), numbers separated by spaces or tabs, each
 * digits with an optional fraction, every line ending in "\n" (the last
 * may lack it). Anything else, or more than PFS_MATRIXFMT_TEXT_MAX bytes,
 * is -EINVAL with the first problem in err ("line 3: 12 numbers, want
 * 13"); m's cells are then unchanged. */
int pfs_matrixfmt_parse(const char *text, size_t len, struct pfs_matrix *m, char *err,
			size_t errlen);

/* pfs_matrixfmt_parse on what fp holds, read to its end but never more
 * than PFS_MATRIXFMT_TEXT_MAX + 1 bytes. Also -EIO when reading fails and
 * -ENOMEM, both with err. */
int pfs_matrixfmt_read(FILE *fp, struct pfs_matrix *m, char *err, size_t errlen);

#endif
