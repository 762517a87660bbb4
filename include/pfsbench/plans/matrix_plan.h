/* matrix_plan.h: `pfsbench matrix` (perf_matrix.pl on the engine) as data:
 * its options, the lists of request and transfer sizes, the plan of steps
 * (which cell and repetition each step is), and the reduction of a test
 * iteration's rows to the matrix: each repetition's rate over all ranks,
 * the outlier rule's verdict on it, each cell's value, noise and slowest
 * node. Shared by the workload (src/workloads/matrix.c), its report
 * (src/outputs/matrix.c) and the diff of two runs (src/analysis/matrixdiff.c), so
 * that none reaches into another. Pure: no MPI, no HDF5. See
 * docs/matrix.md; the outlier rule is docs/methodology.md's. */
#ifndef PFSBENCH_MATRIX_PLAN_H
#define PFSBENCH_MATRIX_PLAN_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pfsbench/core/options.h"
#include "pfsbench/core/results.h"
#include "pfsbench/formats/matrixfmt.h"

#define PFS_MATRIX_TEST "matrix"  /* the one test, as rows name it */
#define PFS_MATRIX_OP_READ "Read" /* a cell's op, as rows name it */
#define PFS_MATRIX_OP_WRITE "Write"
#define PFS_MATRIX_LIST_MAX 128                 /* --req and --xfer, as given */
#define PFS_MATRIX_XFER_MAX ((uint64_t)1 << 40) /* the largest transfer: 1 TiB */
#define PFS_MATRIX_ITER_MAX 1000u               /* -i */
#define PFS_MATRIX_REQ_DEFAULT "1k..4m"         /* perf_matrix's 13 columns */
#define PFS_MATRIX_XFER_DEFAULT "1m..1g"        /* perf_matrix's 11 rows */

/* --direct: O_DIRECT always, never, or (auto, the default) on a block
 * device only, as perf_matrix's lmdd was used on one. validate turns auto
 * into on or off, so the results file says what was done. */
enum pfs_matrix_direct { PFS_MATRIX_DIRECT_AUTO, PFS_MATRIX_DIRECT_ON, PFS_MATRIX_DIRECT_OFF };

struct pfs_matrix_opts {
	struct pfs_common_opts common; /* common.dir: where the target is, set by validate */
	char read[PATH_MAX];           /* --read, if=: a directory, or a file or device (--force) */
	char write[PATH_MAX];          /* --write, of=: the same, to write */
	char req[PFS_MATRIX_LIST_MAX]; /* --req: request sizes (columns) */
	char xfer[PFS_MATRIX_LIST_MAX]; /* --xfer: transfer sizes (rows) */
	uint64_t iter;                  /* -i/--iter, iter=: repetitions of every cell */
	unsigned direct;                /* --direct: enum pfs_matrix_direct */
	bool fsync;                     /* writes: fsync before the clock stops (--no-fsync) */
	/* Set by validate, no option: --read/--write names a file or device,
	 * not a directory (the run makes no directory). */
	bool named;
};

static inline bool pfs_matrix_reading(const struct pfs_matrix_opts *o)
{
	return o->read[0] != 0;
}

/* The path the run reads or writes, as given. */
static inline const char *pfs_matrix_target(const struct pfs_matrix_opts *o)
{
	return pfs_matrix_reading(o) ? o->read : o->write;
}

/* A list of sizes: items separated by commas, each a size (4096, 64k, 1m,
 * 1g) or a range A..B, which is A, 2A, 4A, ... B (B must be A times a
 * power of two); all of them increasing, each 1 to max bytes, at most
 * PFS_MATRIXFMT_MAX in all. 0, or -EINVAL with the reason in err. */
int pfs_matrix_sizes_parse(const char *list, uint64_t max, uint64_t *sizes, unsigned *n, char *err,
			   size_t errlen);

/* ---- the plan ----------------------------------------------------------------- */

/* Step 0 opens each rank's file (and, for a read of the run's own files,
 * writes them, untimed); every later step is one repetition of one cell.
 * The repetitions are passes over the whole matrix: pass 1 runs every
 * cell, then pass 2, ...; within a pass, transfer sizes in order (rows),
 * and request sizes in order within each (columns). A cell whose request
 * is larger than its transfer is not run. */
#define PFS_MATRIX_FIRST_CELL_STEP 1u

struct pfs_matrix_plan {
	struct pfs_matrix sizes; /* rows: transfer sizes, columns: request sizes; cells 0 */
	unsigned reps;           /* -i */
	unsigned ncells;         /* cells run in each pass */
	unsigned char cell_row[PFS_MATRIXFMT_MAX * PFS_MATRIXFMT_MAX]; /* by order in a pass */
	unsigned char cell_col[PFS_MATRIXFMT_MAX * PFS_MATRIXFMT_MAX];
	uint64_t span;    /* the largest transfer: one rank's part of a named target */
	uint64_t req_max; /* the largest request */
};

/* The plan of the options' lists and -i. 0, or -EINVAL with a message
 * naming the option ("--req: ..."). */
int pfs_matrix_plan_init(struct pfs_matrix_plan *p, const struct pfs_matrix_opts *o, char *err,
			 size_t errlen);

/* Steps of the plan: 1 + cells x repetitions. */
size_t pfs_matrix_plan_steps(const struct pfs_matrix_plan *p);

/* The cell (row, column) and repetition (from 0) that step runs; false for
 * step 0 and for steps past the plan. */
bool pfs_matrix_plan_cell(const struct pfs_matrix_plan *p, uint64_t step, unsigned *row,
			  unsigned *col, unsigned *rep);

/* ---- rows to the matrix ----------------------------------------------------------
 * Definitions (docs/matrix.md, docs/methodology.md):
 *   a repetition's rate = bytes of all ranks' rows of its step / (latest
 *     end - earliest start of them), in MiB/s; a repetition is measured
 *     when every rank has its row (an aborted step's are not);
 *   the outlier rule (pfs_matrixfmt_average_runs): over a cell's measured
 *     repetitions, those within one population standard deviation of
 *     their mean are kept, the others discarded (row.discarded = 1);
 *   a cell's value = the mean of its kept repetitions' rates (0 when none
 *     was measured); what perf_matrix printed;
 *   a cell's noise = the sample standard deviation of the natural logs
 *     of all its measured repetitions' rates, discarded ones included (the
 *     kept ones lie within one deviation by construction, so their spread
 *     would understate it); for a small spread it is the coefficient of
 *     variation, and on logs a slowdown and a speedup of one factor weigh
 *     the same;
 *   a node's rate in a cell = the mean over the kept repetitions of its
 *     rows' bytes / (its latest end - its earliest start);
 *   slowest node / median node = the lowest node rate / the median of the
 *     node rates (the mean of the middle two for an even count). */

struct pfs_matrix_cell {
	unsigned reps;     /* repetitions measured */
	unsigned kept;     /* of them, kept */
	double noise;      /* SD of log rates; < 0 with fewer than 2 measured */
	double slow_ratio; /* < 0 with one node, or none kept */
	unsigned slow_node;
};

struct pfs_matrix_result {
	struct pfs_matrix m; /* sizes, and each cell's value in MiB/s */
	struct pfs_matrix_cell cell[PFS_MATRIXFMT_MAX][PFS_MATRIXFMT_MAX];
	unsigned nnodes;
	unsigned cells_run;      /* cells of the plan (request <= transfer) */
	unsigned cells_missing;  /* of them, cells with no repetition measured */
	unsigned reps_measured;  /* repetitions measured, all cells */
	unsigned reps_discarded; /* of them, discarded */
};

/* Checks the rows of one test iteration against the plan (op, which is
 * PFS_MATRIX_OP_READ or _WRITE; bytes rows; a step of the plan, its cell's transfer in bytes and
 * requests, a rank below nranks and a node below nnodes, one row per
 * rank and step, one iteration) and applies the outlier rule: marks every
 * row of a discarded or unmeasured repetition discarded, the others not.
 * 0, or -EINVAL with the first problem in err (rows then unchanged), or
 * -ENOMEM. */
int pfs_matrix_judge(const struct pfs_matrix_plan *p, const char *op, struct pfs_row *rows,
		     size_t n, unsigned nranks, unsigned nnodes, char *err, size_t errlen);

/* The same checks, then the matrix from the rows as they are marked: a
 * repetition counts when it is measured and none of its rows is
 * discarded. Same returns. */
int pfs_matrix_reduce(const struct pfs_matrix_plan *p, const char *op, const struct pfs_row *rows,
		      size_t n, unsigned nranks, unsigned nnodes, struct pfs_matrix_result *out,
		      char *err, size_t errlen);

#endif
