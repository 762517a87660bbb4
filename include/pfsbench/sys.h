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

#include <fcntl.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

static inline int pfs_openat(int dirfd, const char *path, int flags, mode_t mode)
{
	return (int)syscall(SYS_openat, dirfd, path, flags, mode);
}

static inline int pfs_close(int fd)
{
	return (int)syscall(SYS_close, fd);
}

static inline int pfs_unlinkat(int dirfd, const char *path, int flags)
{
	return (int)syscall(SYS_unlinkat, dirfd, path, flags);
}

static inline int pfs_mkdirat(int dirfd, const char *path, mode_t mode)
{
	return (int)syscall(SYS_mkdirat, dirfd, path, mode);
}

static inline ssize_t pfs_read(int fd, void *buf, size_t len)
{
	return (ssize_t)syscall(SYS_read, fd, buf, len);
}

static inline ssize_t pfs_write(int fd, const void *buf, size_t len)
{
	return (ssize_t)syscall(SYS_write, fd, buf, len);
}

static inline int pfs_fsync(int fd)
{
	return (int)syscall(SYS_fsync, fd);
}

#endif
