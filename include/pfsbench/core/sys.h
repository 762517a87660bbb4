/* sys.h: the system calls of the op loops, made straight through syscall(2).
 *
 * Why: MPI starts helper threads, and in a threaded process every glibc
 * wrapper that is a cancellation point (openat, close, read, write, fsync,
 * ...) switches asynchronous cancellation on and off around the call: about
 * 30 extra user-space instructions per call, which `make bench` showed as
 * 2.6x the instructions per file of a plain single-threaded loop. pfsbench
 * never cancels a thread, so its loops skip that. Same semantics otherwise:
 * -1 and errno on failure. */
#ifndef PFSBENCH_SYS_H
#define PFSBENCH_SYS_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#include "pfsbench/core/interrupt.h"

static inline int pfs_openat(int dirfd, const char *path, int flags, mode_t mode)
{
	return (int)syscall(SYS_openat, dirfd, path, flags, mode);
}

static inline int pfs_close(int fd)
{
	return (int)syscall(SYS_close, fd);
}

/* unlinkat and mkdirat are no cancellation points: glibc's own wrappers
 * are already a bare system call, a few instructions shorter than
 * syscall(2)'s. */
static inline int pfs_unlinkat(int dirfd, const char *path, int flags)
{
	return unlinkat(dirfd, path, flags);
}

static inline int pfs_mkdirat(int dirfd, const char *path, mode_t mode)
{
	return mkdirat(dirfd, path, mode);
}

static inline ssize_t pfs_read(int fd, void *buf, size_t len)
{
	return (ssize_t)syscall(SYS_read, fd, buf, len);
}

static inline ssize_t pfs_write(int fd, const void *buf, size_t len)
{
	return (ssize_t)syscall(SYS_write, fd, buf, len);
}

/* At an offset, leaving the file position alone: streams of several ranks
 * share one file (pfsbench stream --shared). */
static inline ssize_t pfs_pread(int fd, void *buf, size_t len, uint64_t off)
{
	return (ssize_t)syscall(SYS_pread64, fd, buf, len, (off_t)off);
}

static inline ssize_t pfs_pwrite(int fd, const void *buf, size_t len, uint64_t off)
{
	return (ssize_t)syscall(SYS_pwrite64, fd, buf, len, (off_t)off);
}

static inline int pfs_fsync(int fd)
{
	return (int)syscall(SYS_fsync, fd);
}

/* Writes bytes bytes to fd, buf (buflen bytes) again and again, retrying
 * after signals. Returns 0, -ECANCELED when SIGINT or SIGTERM came between
 * two chunks (a file of gigabytes must not hold up the stop), or -errno
 * (-EIO when write returns 0). Inline: it runs once a file, and a call
 * costs as much as the loop; a file of one chunk never looks at the flag. */
static inline int pfs_write_all(int fd, const char *buf, size_t buflen, uint64_t bytes)
{
	while (bytes) {
		size_t len = bytes < buflen ? (size_t)bytes : buflen;
		ssize_t n = pfs_write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		bytes -= (uint64_t)n;
		if (bytes && pfs_interrupted())
			return -ECANCELED;
	}
	return 0;
}

#endif
