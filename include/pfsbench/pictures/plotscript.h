/* plotscript.h: gnuplot scripts that draw pfsbench's pictures
 * (src/pictures/plotscript.c), from the numbers include/pfsbench/pictures/plotdata.h
 * prepares. Each picture is written as SVG, PNG or both, under a name the
 * caller chooses, into gnuplot's working directory. What a results file
 * says never reaches gnuplot's command language as it is: numbers go into
 * data blocks, and names (nodes, tests, ops) through pfs_plot_safe. Pure:
 * writes text to a FILE *, runs nothing (src/pictures/gnuplot.c runs gnuplot). */
#ifndef PFSBENCH_PLOTSCRIPT_H
#define PFSBENCH_PLOTSCRIPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "pfsbench/pictures/plotdata.h"

struct pfs_matrix;

#define PFS_PLOT_SVG 1u
#define PFS_PLOT_PNG 2u

#define PFS_PLOT_NAME_MAX 48     /* a picture's file name without extension */
#define PFS_PLOT_CAPTION_MAX 512
#define PFS_PLOT_LABEL_MAX 48    /* a name as a picture prints it */

struct pfs_plot_picture {
	char name[PFS_PLOT_NAME_MAX];       /* [a-z0-9-]: "timeline", "r2-latency" */
	char caption[PFS_PLOT_CAPTION_MAX]; /* what it shows; may hold a file's names: escape it */
};

/* A script being written: the pictures so far, in order. */
struct pfs_plot_script {
	FILE *fp;
	unsigned formats;                  /* PFS_PLOT_SVG | PFS_PLOT_PNG */
	struct pfs_plot_picture *pics;
	size_t npics, cap;
	char what[PFS_PLOT_LABEL_MAX];     /* the workload: heads each picture's title */
	char about[PFS_PLOT_CAPTION_MAX];  /* which run(s): each picture's subtitle */
};

/* Starts a script on fp. Returns 0 or -EINVAL for no format. */
int pfs_plot_script_begin(struct pfs_plot_script *s, FILE *fp, unsigned formats);
void pfs_plot_script_free(struct pfs_plot_script *s);

/* A name from a results file as gnuplot may see it inside a quoted string:
 * letters, digits, space and ._-+=/:,()[]# are kept, every other byte
 * (quotes, backslashes, newlines, @, $, <, &, bytes above 127) becomes
 * '?', and more than PFS_PLOT_LABEL_MAX - 1 bytes are cut with "...". */
void pfs_plot_safe(char *dst, size_t len, const char *src);

/* What the next pictures are of, drawn inside each of them: what (the
 * workload, "" for none) heads its title, about (which run: its label,
 * filesystem and mount point, nodes x workers, date) is its subtitle.
 * Both pass through pfs_plot_safe's filter (about is not cut). */
void pfs_plot_script_about(struct pfs_plot_script *s, const char *what, const char *about);

/* The pictures. name: [a-z0-9-], unique within the script; the caption is
 * the caller's words. Inside each picture: a title (what it shows, of
 * which workload, in which unit), the subtitle pfs_plot_script_about set,
 * and a line for each mark it uses (red, hatched, a triangle, "*"). Each returns 0, -EINVAL for a bad name or nothing to
 * draw, -ENOMEM. */

/* One panel per test (bars in order of test), a lane per (node, worker):
 * a bar per step, the barrier wait after it shaded. flags: an empty op
 * marks its node as leaving barriers late (its lanes say so). */
int pfs_plot_timeline_script(struct pfs_plot_script *s, const char *name, const char *caption,
			     const struct pfs_plot_lane *lanes, size_t nlanes,
			     const struct pfs_plot_bar *bars, size_t nbars,
			     const struct pfs_plot_flag *flags, size_t nflags);

/* One panel per (test, op), a bar per lane; flagged bars red, with their
 * factor. */
int pfs_plot_rates_script(struct pfs_plot_script *s, const char *name, const char *caption,
			  const struct pfs_plot_lane *lanes, size_t nlanes,
			  const struct pfs_plot_rate *rates, size_t nrates);

/* One panel per test, a line per node; every panel of one unit and as
 * many nodes; node_names[nnodes]. */
struct pfs_plot_progress_panel {
	const char *test;
	const struct pfs_plot_progress *p;
};
int pfs_plot_progress_script(struct pfs_plot_script *s, const char *name, const char *caption,
			     const struct pfs_plot_progress_panel *panels, size_t npanels,
			     const char *const *node_names);

/* One panel per test, a curve per op, latency on a log axis. */
struct pfs_plot_cdf_curve {
	const char *test, *op;
	const struct pfs_plot_cdf *cdf;
};
int pfs_plot_latency_script(struct pfs_plot_script *s, const char *name, const char *caption,
			    const struct pfs_plot_cdf_curve *curves, size_t ncurves);

/* Each op's rate in every run side by side, on a log axis whose range is
 * the rates' widened 4x each way, with compare's interval of each later
 * run's ratio drawn on the rate's scale (the first run's rate x its
 * bounds), clipped to the axis with a triangle; labels[nruns] name the
 * runs. -EINVAL also when no rate is above 0. */
int pfs_plot_compare_script(struct pfs_plot_script *s, const char *name, const char *caption,
			    const struct pfs_plot_cmp *c, const char *const *labels);

/* perf_matrix's matrix as a heatmap: transfer sizes up, request sizes
 * across, MiB/s in each cell; cells that were not run are blank. */
int pfs_plot_heatmap_script(struct pfs_plot_script *s, const char *name, const char *caption,
			    const struct pfs_matrix *m);

/* "4KiB", "1MiB", "3GiB", "1000B": a size for an axis. */
void pfs_plot_size_text(char *buf, size_t len, unsigned long long bytes);

#endif
