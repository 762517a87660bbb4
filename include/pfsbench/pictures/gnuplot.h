/* gnuplot.h: gnuplot as a child process (src/pictures/gnuplot.c), for plot and
 * report. The script comes from include/pfsbench/pictures/plotscript.h; gnuplot
 * runs in a directory of ours with its defaults (-d: no init files), the
 * script on its standard input. */
#ifndef PFSBENCH_GNUPLOT_H
#define PFSBENCH_GNUPLOT_H

#include <stddef.h>

/* The Debian package that provides it, for messages. */
#define PFS_GNUPLOT_PACKAGE "gnuplot-nox"

/* The gnuplot to run: $PFSBENCH_GNUPLOT when set (a gnuplot elsewhere, or
 * the tests' missing one), else the one configure found, else "gnuplot" on
 * PATH. Returns 0 with its path in buf, or -ENOENT when there is none that
 * can be executed. */
int pfs_gnuplot_find(char *buf, size_t len);

/* "pfsbench: COMMAND needs gnuplot, which is not installed: install
 * Debian's gnuplot-nox (apt-get install gnuplot-nox)"; returns -1. */
int pfs_gnuplot_missing(const char *command);

/* Runs gnuplot on script in the directory open as dir (its working
 * directory: fchdir, never a path), where the script's outputs go: plot
 * and report give it their private directory (include/pfsbench/core/outdir.h).
 * Returns 0, or -1 after a message with what gnuplot said (its last lines
 * on stderr) when it failed. */
int pfs_gnuplot_run(const char *gnuplot, const char *script, size_t len, int dir);

#endif
