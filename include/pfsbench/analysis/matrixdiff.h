/* matrixdiff.h: `pfsbench compare A B` for perf_matrix's matrices: two
 * `pfsbench matrix` results files, two perf_matrix text outputs (old
 * results; also `pfsbench matrix`'s own stdout saved), or one of each.
 * It prints perf_matrix.pl's diff exactly (src/formats/matrixfmt.c: per cell
 * (B - A) / A x 100 as " %.2f%%", " -.--%" where either is 0, of the
 * cells as perf_matrix printed them), and marks each cell whose change is
 * beyond the noise the results files measured:
 *   a cell's noise in a run = the sample standard deviation of the logs
 *     of its measured repetitions' rates (include/pfsbench/plans/matrix_plan.h);
 *     a text file measured none;
 *   a change is beyond the noise when both cells are nonzero, at least
 *     one run measured the cell's noise (-i 2 or more), and the log of
 *     the ratio is: |ln(B / A)| > max(ln 1.10, 3 x sqrt(noise_A^2 +
 *     noise_B^2)). On logs a slowdown to 1/3 weighs as much as a speedup
 *     to 3x, where a relative change could never reach -100 %.
 * On a terminal a marked cell is bold (with NO_COLOR set, followed by
 * '*'); otherwise the diff's lines stay perf_matrix's and a list of the
 * marked cells follows them after a blank line. No MPI, no HDF5 (results
 * files are read through include/pfsbench/archive/archive.h). docs/matrix.md. */
#ifndef PFSBENCH_MATRIXDIFF_H
#define PFSBENCH_MATRIXDIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define PFS_MATRIXDIFF_FLOOR 1.10 /* a ratio within 1/1.10 to 1.10 is never marked */
#define PFS_MATRIXDIFF_SIGMAS 3.0

/* A cell's change is beyond the noise (see above); noise < 0: unmeasured. */
bool pfs_matrixdiff_beyond_noise(double a, double b, double noise_a, double noise_b);

struct pfs_archive;
struct pfs_matrix_result;
struct pfs_workload;

/* The matrix of a `pfsbench matrix` results file, its cells' noise and
 * slowest nodes, reduced from its rows by its own parameters as its report
 * does (its workload's reduce_matrix; a->ri.workload is the workload as
 * the command found it in the registry); for compare's diff and plot's
 * heatmap. 0; -ENOENT for a run of a workload without reduce_matrix, or
 * of none known; -EINVAL with the reason in err for rows that are no
 * matrix of its parameters; -ENOMEM. */
int pfs_matrixdiff_reduce(const struct pfs_archive *a, struct pfs_matrix_result *res, char *err,
			  size_t errlen);

/* For `pfsbench compare`: when argv (argv[0] the command) names two files
 * and at least one of them is no HDF5 file or both are matrix runs, does
 * the diff and returns the exit status (0; 1 when a file cannot be read or
 * stdout written; 2 when a file is no perf_matrix output or the two do not
 * fit). Otherwise returns -1, having printed nothing: compare goes on.
 * find is the registry's pfs_workload_find, handed in by the command, so
 * that this layer below the workloads names none of them. */
int pfs_matrixdiff_compare(int argc, char **argv,
			   const struct pfs_workload *(*find)(const char *name));

#endif
