/* runmark.h: the marker file that says a directory is a pfsbench run
 * directory, and the names a run directory holds. The engine writes the
 * marker into every run directory it makes, before anything else, and
 * removes it last; `pfsbench clean` removes nothing from a directory whose
 * marker it cannot read. No MPI. */
#ifndef PFSBENCH_RUNMARK_H
#define PFSBENCH_RUNMARK_H

#include <stdbool.h>
#include <stddef.h>

#define PFS_RUNMARK_NAME ".pfsbench-run"
#define PFS_RUNDIR_PREFIX "pfsbench." /* every run directory's name starts so */
#define PFS_RUNMARK_FORMAT 1u
#define PFS_RUNMARK_MAX 4096 /* bytes: a larger marker is not ours */

/* What the marker says, one "key value" line each after the first line
 * "pfsbench-run <format>" (docs/architecture.md shows one). */
struct pfs_runmark {
	unsigned format;
	char run[256];      /* the run directory's own name */
	char workload[64];  /* the workload's name: what its directories hold */
	char started[32];   /* UTC, as 2026-12-01T06:30:00Z */
	char node0[256];    /* rank 0's node */
	char job[64];       /* the batch job, or p<pid of rank 0> */
	char version[64];   /* the pfsbench that wrote it */
};

/* The marker's text into buf: 0, or -ENAMETOOLONG. Control characters in
 * the values become '_': every value stays on its line. */
int pfs_runmark_format(const struct pfs_runmark *m, char *buf, size_t len);

/* Reads len bytes of marker text (anyone's: NULs, no newline, any length)
 * into m. 0, or -EINVAL with the reason in err. */
int pfs_runmark_parse(const char *buf, size_t len, struct pfs_runmark *m, char *err,
		      size_t errlen);

/* Creates the marker in the directory dirfd (O_EXCL, never through a
 * symbolic link), writes m into it and takes an exclusive flock(2) on it,
 * which the returned descriptor holds for the run: `pfsbench clean` leaves
 * a run directory whose marker is locked. Returns the descriptor or
 * -errno. */
int pfs_runmark_create(int dirfd, const struct pfs_runmark *m);

/* Opens the marker in dirfd, only when it is a small regular file, takes
 * the lock without waiting, and reads it into m. Returns the descriptor
 * (holding the lock), -EBUSY when a run holds the lock, -ENOENT when there
 * is no marker, or another -errno or -EINVAL with the reason in err. */
int pfs_runmark_open(int dirfd, struct pfs_runmark *m, char *err, size_t errlen);

/* Whether name is the name of a worker's directory, <node>.<worker>: a
 * node name without '/' or control characters, a dot, a decimal number. */
bool pfs_runmark_worker_name(const char *name);

#endif
