/* fsinfo.h: what the target directory is: its filesystem type, mount source
 * and options, GFS2's lock protocol and table, free space; and dropping the
 * page cache. No MPI. */
#ifndef PFSBENCH_FSINFO_H
#define PFSBENCH_FSINFO_H

#include <stddef.h>
#include <stdint.h>

struct pfs_fsinfo {
	char fstype[64];          /* upper case, from mountinfo, else statfs */
	char mount_point[4096];
	char mount_source[256];
	char mount_options[512];
	char lockproto[32];       /* GFS2's lock_dlm or lock_nolock; "" elsewhere */
	char locktable[64];       /* GFS2's lock table (cluster:fs); "" elsewhere */
	uint64_t bytes_free;      /* for an unprivileged user (f_bavail) */
	uint64_t inodes_free;     /* f_favail; UINT64_MAX when the fs has no limit */
};

/* Fills info for dir. Returns 0, or -errno of statvfs. */
int pfs_fsinfo_get(const char *dir, struct pfs_fsinfo *info);

/* Finds the mount of path in a mountinfo text (as /proc/self/mountinfo):
 * the longest mount point that contains path. Pure, for tests. Returns 0 or
 * -ENOENT. */
int pfs_mountinfo_find(const char *mountinfo, const char *path, struct pfs_fsinfo *info);

/* GFS2's lock protocol and table, where info lacks them, of the GFS2 whose
 * device is major:minor, from sysfs_root (/sys/fs/gfs2): the directory
 * named after the table whose "id" file says major:minor, and its
 * lock_module/proto_name. Returns 0 or -ENOENT. */
int pfs_gfs2_lock_find(const char *sysfs_root, unsigned major, unsigned minor,
		       struct pfs_fsinfo *info);

/* Checks that dir is an existing, writable directory. Returns 0, or a
 * negative errno with a one-line reason in why. */
int pfs_check_dir(const char *dir, char *why, size_t whylen);

/* --direct's probe, before the run: whether dir's filesystem takes
 * O_DIRECT. Opens an unnamed file in dir (O_TMPFILE; where the filesystem
 * has none, a named one, removed at once) with O_DIRECT and writes one
 * aligned block into it, so nothing stays. *align: the file offset and
 * length alignment O_DIRECT needs there (statx's STATX_DIOALIGN where the
 * kernel says, else 4096, which every logical block size divides).
 * Returns 0, or a negative errno: -EINVAL where the filesystem refuses
 * O_DIRECT. */
int pfs_direct_probe(const char *dir, uint64_t *align);

/* sync() (in a thread of its own), then writes 3 to /proc/sys/vm/drop_caches
 * from the calling thread. Returns 0, -errno, or -ECANCELED when SIGINT or
 * SIGTERM came during the sync (pfsbench/interrupt.h): the sync then ends on
 * its own while the caller goes on, and nothing is dropped. */
int pfs_drop_caches(void);

#endif
