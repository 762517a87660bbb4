/* resultpath.c: where a run's results file goes: the default name, and the
 * checks that refuse a results file the run would measure, overwrite or
 * could not write. No MPI, no HDF5. */
#include "pfsbench/core/resultpath.h"
#include "pfsbench/core/util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Runs started within one second would share the default name: the later
 * ones get -2, -3, ... rather than being refused. */
int pfs_results_path(char *buf, size_t len, const char *given, const char *workload)
{
	char stamp[32];
	time_t now = time(NULL);
	struct stat st;
	struct tm tm;
	int rc;

	if (given && *given)
		return pfs_format(buf, len, "%s", given);
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	rc = pfs_format(buf, len, "pfsbench-%s-%s.h5", workload, stamp);
	while (!rc && lstat(buf, &st) == 0 && !pfs_results_path_next(buf, len, workload))
		;
	return rc;
}

int pfs_results_path_next(char *buf, size_t len, const char *workload)
{
	char stamp[32];
	unsigned n = 1;
	int end = 0;

	/* pfsbench-<workload>-<stamp>[-<n>].h5, as pfs_results_path made it */
	if (strncmp(buf, "pfsbench-", 9) || strncmp(buf + 9, workload, strlen(workload)) ||
	    sscanf(buf + 9 + strlen(workload), "-%31[0-9TZ]%n", stamp, &end) != 1)
		return -1;
	if (sscanf(buf + 9 + strlen(workload) + end, "-%u.h5", &n) != 1)
		n = 1;
	if (n >= 1000)
		return -1;
	return pfs_format(buf, len, "pfsbench-%s-%s-%u.h5", workload, stamp, n + 1) ? -1 : 0;
}

void pfs_results_file_init(struct pfs_results_file *rf)
{
	rf->dirfd = rf->fd = -1;
	rf->name[0] = 0;
}

void pfs_results_file_close(struct pfs_results_file *rf)
{
	if (rf->fd >= 0)
		close(rf->fd);
	if (rf->dirfd >= 0)
		close(rf->dirfd);
	pfs_results_file_init(rf);
}

/* The directory path names a file in, as a path: "." for a bare name.
 * Returns 0 or -ENAMETOOLONG. */
static int dir_of(const char *path, char dir[PATH_MAX])
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		snprintf(dir, PATH_MAX, ".");
	else if (slash == path)
		snprintf(dir, PATH_MAX, "/");
	else if (pfs_format(dir, PATH_MAX, "%.*s", (int)(slash - path), path))
		return -ENAMETOOLONG;
	return 0;
}

/* The directory of path, opened once: everything after is relative to
 * this descriptor, so a name swapped in the path later changes nothing.
 * The directory itself is the one the path names now (the caller's
 * choice); its entries are never followed. Returns a descriptor or a
 * negative errno; base points into path, at the file's name. */
static int open_parent(const char *path, const char **base)
{
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX];
	int fd;

	*base = slash ? slash + 1 : path;
	if (dir_of(path, dir))
		return -ENAMETOOLONG;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

int pfs_results_path_claim(char *buf, size_t len, const char *workload,
			   struct pfs_results_file *rf, char *why, size_t whylen)
{
	const char *base;
	int err;

	pfs_results_file_init(rf);
	rf->dirfd = open_parent(buf, &base);
	if (rf->dirfd < 0) {
		err = -rf->dirfd;
		rf->dirfd = -1;
		snprintf(why, whylen, "cannot create the results file '%s': %s", buf, strerror(err));
		return -err;
	}
	for (;;) {
		/* A default name has no '/', so base follows buf's changes. */
		if (!*base || pfs_format(rf->name, sizeof(rf->name), "%s", base)) {
			err = !*base ? EISDIR : ENAMETOOLONG;
			break;
		}
		/* O_EXCL: a name taken (a symbolic link too, even a dangling
		 * one) is never opened, so no file but this new one is
		 * written. */
		rf->fd = openat(rf->dirfd, rf->name,
				O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		err = errno;
		if (rf->fd >= 0)
			return 0;
		if (err != EEXIST || !workload || pfs_results_path_next(buf, len, workload))
			break;
	}
	snprintf(why, whylen, "cannot create the results file '%s': %s", buf, strerror(err));
	pfs_results_file_close(rf);
	return -err;
}

int pfs_results_file_remove(struct pfs_results_file *rf)
{
	struct stat mine, there;
	int rc = -ESTALE;

	if (rf->fd < 0)
		return 0;
	/* Only while the name is still the file this run created: another
	 * file put in its place since is not ours to remove. */
	if (!fstat(rf->fd, &mine) &&
	    !fstatat(rf->dirfd, rf->name, &there, AT_SYMLINK_NOFOLLOW) &&
	    mine.st_dev == there.st_dev && mine.st_ino == there.st_ino)
		rc = unlinkat(rf->dirfd, rf->name, 0) ? -errno : 0;
	pfs_results_file_close(rf);
	return rc;
}

/* The directory a path names a file in, resolved: "." for a bare name. */
static int parent_dir(const char *path, char *out)
{
	char dir[PATH_MAX];

	if (dir_of(path, dir))
		return -ENAMETOOLONG;
	return realpath(dir, out) ? 0 : -errno;
}

/* A results file in the directory under test would be measured, and
 * removed or damaged by a cleanup: refuse it. */
static int inside_target(const char *path, const char *parent, const char *target_dir,
			 char *why, size_t whylen)
{
	char target[PATH_MAX];
	size_t n;
	int rc;

	if (!realpath(target_dir, target)) {
		rc = -errno;
		snprintf(why, whylen, "cannot resolve '%s': %s", target_dir, strerror(errno));
		return rc;
	}
	n = strlen(target);
	if (!strncmp(parent, target, n) && (parent[n] == '/' || parent[n] == 0 || n == 1)) {
		snprintf(why, whylen,
			 "the results file '%s' is inside the directory under test '%s'; "
			 "put it elsewhere with --results",
			 path, target_dir);
		return -EINVAL;
	}
	return 0;
}

int pfs_results_path_check(const char *path, const char *target_dir, char *why, size_t whylen)
{
	char parent[PATH_MAX];
	struct stat st;
	int rc;

	rc = parent_dir(path, parent);
	if (rc) {
		snprintf(why, whylen, "cannot write results to '%s': %s", path, strerror(-rc));
		return rc;
	}
	if (target_dir) {
		rc = inside_target(path, parent, target_dir, why, whylen);
		if (rc)
			return rc;
	}
	if (stat(parent, &st) == 0 && !S_ISDIR(st.st_mode)) {
		snprintf(why, whylen, "cannot write results to '%s': %s", path, strerror(ENOTDIR));
		return -ENOTDIR;
	}
	/* lstat: a symlink, even a dangling one, is a name taken. */
	if (lstat(path, &st) == 0) {
		snprintf(why, whylen, "the results file '%s' exists%s; pfsbench does not overwrite results",
			 path, S_ISLNK(st.st_mode) ? " (a symbolic link)" : "");
		return -EEXIST;
	}
	if (access(parent, W_OK)) {
		rc = -errno;
		snprintf(why, whylen, "cannot write results to '%s': %s", path, strerror(errno));
		return rc;
	}
	return 0;
}
