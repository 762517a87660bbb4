/* resultpath.h: where a run's results file goes (src/core/resultpath.c). No
 * MPI, no HDF5. */
#ifndef PFSBENCH_RESULTPATH_H
#define PFSBENCH_RESULTPATH_H

#include <stddef.h>

/* The results file of a run: the given path, or the default
 * "pfsbench-<workload>-<UTC time>.h5" in the current directory. */
int pfs_results_path(char *buf, size_t len, const char *given, const char *workload);

/* The next default name after buf's, when another run took it in the
 * same second: -2, -3, ... Returns 0, or -1 when there is none. */
int pfs_results_path_next(char *buf, size_t len, const char *workload);

/* A results file this run created: the directory it is in, opened once,
 * its name there, and the file itself, open. -1: none. */
struct pfs_results_file {
	int dirfd, fd;
	char name[256];
};

void pfs_results_file_init(struct pfs_results_file *rf);
void pfs_results_file_close(struct pfs_results_file *rf);

/* Takes the name: opens buf's directory once and creates the file in it
 * relative to that descriptor, empty, exclusively and without following a
 * symbolic link, before the run creates anything else; rf holds both,
 * open, and the file is never opened by name again (the HDF5 writer
 * writes through rf->fd's file, src/outputs/hdf5.c). A default name
 * (workload not NULL) that another run took first gives way to the next
 * one, in buf. Returns 0, or a negative errno with a one-line reason in
 * why (rf then holds nothing). */
int pfs_results_path_claim(char *buf, size_t len, const char *workload,
			   struct pfs_results_file *rf, char *why, size_t whylen);

/* Removes the file rf created, when its name in rf's directory still is
 * that file (else leaves whatever is there: not ours), and closes rf.
 * Returns 0, -ESTALE when the name is another file now, or a negative
 * errno. */
int pfs_results_file_remove(struct pfs_results_file *rf);

/* Refuses a results file inside the directory under test, one that exists
 * (a dangling symlink too), or one whose directory is not a directory or
 * cannot be written. target_dir NULL: a run that
 * makes nothing in a directory (a named file), so only the last two.
 * Returns 0, or a negative errno with a one-line reason in why. */
int pfs_results_path_check(const char *path, const char *target_dir, char *why, size_t whylen);

#endif
