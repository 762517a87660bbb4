/* pictures.h: which pictures a results file gets, and from what
 * (src/pictures.c), for `pfsbench plot` and `pfsbench report`. It turns
 * loaded runs into the numbers of include/pfsbench/plotdata.h and those
 * into a gnuplot script (include/pfsbench/plotscript.h). The places where
 * other modules' answers come in are its extension points:
 *   pfs_pictures_flags     the slow nodes (the slow-node analysis);
 *   pfs_pictures_cmp       each run's rate and interval (compare);
 *   pfs_pictures_matrix    a matrix run's cells (the matrix workload);
 *   a stream run's MiB/s over time is the bytes picture of the progress.
 * No MPI, no HDF5. */
#ifndef PFSBENCH_PICTURES_H
#define PFSBENCH_PICTURES_H

#include <stddef.h>

#include "pfsbench/plotdata.h"
#include "pfsbench/plotscript.h"

struct pfs_archive;
struct pfs_matrix;

/* The pictures of one run, each named prefix + kind ("timeline",
 * "rates", "progress-files", "latency", "matrix"); label names the run in
 * captions. Kinds with nothing to draw (no latency recorded) are left
 * out. Returns 0, -ENOMEM, or -EINVAL for a file whose latency histograms
 * are damaged (after a message). */
int pfs_pictures_run(struct pfs_plot_script *s, const struct pfs_archive *a, const char *prefix,
		     const char *label);

/* The comparison of n >= 2 runs ("compare"), when they share ops. */
int pfs_pictures_compare(struct pfs_plot_script *s, const struct pfs_archive *runs, size_t n,
			 const char *const *labels);

/* A perf_matrix matrix as a heatmap, named prefix + "matrix". */
int pfs_pictures_heatmap(struct pfs_plot_script *s, const struct pfs_matrix *m, const char *prefix,
			 const char *label);

/* ---- extension points --------------------------------------------------------- */

/* The slow nodes of a run, as flags for the bars and lanes (an empty op:
 * leaves barriers late), into a new array (free() it). Returns 0 or
 * -ENOMEM. */
int pfs_pictures_flags(const struct pfs_archive *a, struct pfs_plot_flag **flags, size_t *n);

/* Each (test, op) of the first run and its rate, interval and verdict in
 * every run. Returns 0, -ENOMEM, or -ENOENT when the runs share no op. */
int pfs_pictures_cmp(const struct pfs_archive *runs, size_t n, struct pfs_plot_cmp *out);

/* The cells of a matrix run. Returns 0, or -ENOENT for a run that is not
 * one. */
int pfs_pictures_matrix(const struct pfs_archive *a, struct pfs_matrix *m);

#endif
