/* pictures.h: which pictures a results file gets, and from what
 * (src/pictures/pictures.c), for `pfsbench plot` and `pfsbench report`. It turns
 * loaded runs into the numbers of include/pfsbench/pictures/plotdata.h and those
 * into a gnuplot script (include/pfsbench/pictures/plotscript.h). Other modules'
 * answers come in, never recomputed, through:
 *   pfs_pictures_flags     the slow nodes (src/analysis/slownode.c's pfs_analyze);
 *   pfs_pictures_cmp       each run's ratio, interval and call-out
 *                          (src/analysis/compare.c's pfs_compare_table);
 *   pfs_pictures_matrix    a matrix run's cells (its workload's reduce_matrix,
 *                          through src/analysis/matrixdiff.c);
 *   a stream run's MiB/s over time is the bytes picture of the progress.
 * No MPI, no HDF5. */
#ifndef PFSBENCH_PICTURES_H
#define PFSBENCH_PICTURES_H

#include <stddef.h>

#include "pfsbench/pictures/plotdata.h"
#include "pfsbench/pictures/plotscript.h"

struct pfs_archive;
struct pfs_matrix;

/* The pictures of one run, each named prefix + kind ("timeline",
 * "rates", "progress-files", "latency", "matrix"); label names the run in
 * captions. Kinds with nothing to draw (no latency recorded) are left
 * out; a run whose workload (a->ri.workload) has reduce_matrix gets its
 * heatmap only. Returns 0, -ENOMEM, or -EINVAL for a file whose latency histograms
 * are damaged (after a message). */
int pfs_pictures_run(struct pfs_plot_script *s, const struct pfs_archive *a, const char *prefix,
		     const char *label);

/* The comparison of n >= 2 runs ("compare"), when they share ops. */
int pfs_pictures_compare(struct pfs_plot_script *s, const struct pfs_archive *runs, size_t n,
			 const char *const *labels);

/* A perf_matrix matrix as a heatmap, named prefix + "matrix". */
int pfs_pictures_heatmap(struct pfs_plot_script *s, const struct pfs_matrix *m, const char *prefix,
			 const char *label);

/* ---- other modules' answers --------------------------------------------------- */

/* The slow nodes of a run, as `show --analyze` names them (pfs_analyze,
 * include/pfsbench/analysis/slownode.h): a flag per (test, op) a named node is slow
 * in, and one with an empty op for a node that leaves barriers late, into
 * a new array (free() it). Returns 0 or -ENOMEM. */
int pfs_pictures_flags(const struct pfs_archive *a, struct pfs_plot_flag **flags, size_t *n);

/* compare's table of n >= 2 runs: the (test, op)s every run has, in the
 * first run's order, and each run's verdict against the first
 * (pfs_compare_table, each run a side). Returns 0,
 * -ENOMEM, -EINVAL for damaged latency histograms (after a message), or
 * -ENOENT when the runs share no op. */
int pfs_pictures_cmp(const struct pfs_archive *runs, size_t n, struct pfs_plot_cmp *out);

/* The cells of a `pfsbench matrix` run (pfs_matrixdiff_reduce, by
 * a->ri.workload's reduce_matrix). Returns 0, -ENOENT for a run of a
 * workload without one (or a->ri.workload NULL), -EINVAL with the reason
 * in err, or -ENOMEM. */
int pfs_pictures_matrix(const struct pfs_archive *a, struct pfs_matrix *m, char *err,
			size_t errlen);

#endif
