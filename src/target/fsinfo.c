/* fsinfo.c: the target's filesystem (type, mount, GFS2's locking, space,
 * whether it takes O_DIRECT) and cache dropping. */
#include "pfsbench/target/fsinfo.h"
#include "pfsbench/core/interrupt.h"
#include "pfsbench/core/util.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

/* Copies one space-separated mountinfo field, undoing its octal escapes
 * (\040 for a space). Returns the position after the field. */
static const char *field(const char *p, char *out, size_t len)
{
	size_t n = 0;

	while (*p == ' ')
		p++;
	while (*p && *p != ' ' && *p != '\n') {
		char c = *p++;

		if (c == '\\' && p[0] >= '0' && p[0] <= '3' && p[1] >= '0' && p[1] <= '7' &&
		    p[2] >= '0' && p[2] <= '7') {
			c = (char)((p[0] - '0') * 64 + (p[1] - '0') * 8 + (p[2] - '0'));
			p += 3;
		}
		if (n + 1 < len)
			out[n++] = c;
	}
	if (len)
		out[n] = 0;
	return p;
}

/* Length of mount point mp when it contains path, else 0. */
static size_t contains(const char *mp, const char *path)
{
	size_t n = strlen(mp);

	if (!strcmp(mp, "/"))
		return 1;
	if (strncmp(mp, path, n) || (path[n] && path[n] != '/'))
		return 0;
	return n;
}

/* The value of option key in a comma-separated list, or "". */
static void option_value(const char *opts, const char *key, char *out, size_t len)
{
	size_t klen = strlen(key);

	out[0] = 0;
	for (const char *p = opts; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
		if (!strncmp(p, key, klen) && p[klen] == '=') {
			p += klen + 1;
			snprintf(out, len, "%.*s", (int)strcspn(p, ","), p);
			return;
		}
	}
}

/* Whether option word (len chars) is in the comma-separated list. */
static bool has_option(const char *list, const char *word, size_t len)
{
	for (const char *p = list; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (strcspn(p, ",") == len && !strncmp(p, word, len))
			return true;
	return false;
}

/* The options as /proc/mounts lists them, each once: mountinfo splits them
 * into the mount's ("rw,relatime") and the superblock's ("rw,discard"),
 * both starting with rw or ro. The kernel shows one of those (ro when
 * either is read-only), then the mount's others, then the superblock's.
 * Cut when very long: provenance, not something we act on. */
static void merge_options(char *out, size_t len, const char *mnt, const char *super)
{
	bool ro = has_option(mnt, "ro", 2) || has_option(super, "ro", 2);
	size_t n = (size_t)snprintf(out, len, "%s", ro ? "ro" : "rw");

	for (int pass = 0; pass < 2; pass++)
		for (const char *p = pass ? super : mnt; p && *p && n < len;
		     p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
			size_t w = strcspn(p, ",");

			if (!w || has_option("rw,ro", p, w) || (pass && has_option(mnt, p, w)))
				continue;
			n += (size_t)snprintf(out + n, len - n, ",%.*s", (int)w, p);
		}
}

int pfs_mountinfo_find(const char *mountinfo, const char *path, struct pfs_fsinfo *info)
{
	const char *line = mountinfo;
	size_t best = 0;

	while (line && *line) {
		char mp[PATH_MAX], opts[512], tok[512], type[64], src[256], super[512];
		const char *p = line;
		size_t len;

		for (int i = 0; i < 4; i++) /* id, parent, major:minor, root */
			p = field(p, tok, sizeof(tok));
		p = field(p, mp, sizeof(mp));
		p = field(p, opts, sizeof(opts));
		do /* optional fields end at "-" */
			p = field(p, tok, sizeof(tok));
		while (tok[0] && strcmp(tok, "-"));
		p = field(p, type, sizeof(type));
		p = field(p, src, sizeof(src));
		field(p, super, sizeof(super));
		len = contains(mp, path);
		/* >=: a later mount on the same point hides the earlier one. */
		if (len && len >= best && type[0]) {
			best = len;
			snprintf(info->mount_point, sizeof(info->mount_point), "%s", mp);
			snprintf(info->mount_source, sizeof(info->mount_source), "%s", src);
			merge_options(info->mount_options, sizeof(info->mount_options), opts, super);
			for (size_t i = 0; i < sizeof(info->fstype); i++)
				if (!(info->fstype[i] = (char)toupper((unsigned char)type[i])))
					break;
			info->fstype[sizeof(info->fstype) - 1] = 0;
			/* Shown only when given to mount; else see pfs_gfs2_lock_find. */
			option_value(super, "lockproto", info->lockproto, sizeof(info->lockproto));
			option_value(super, "locktable", info->locktable, sizeof(info->locktable));
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return best ? 0 : -ENOENT;
}

/* statfs magic numbers of the filesystems this tool is aimed at, for when
 * /proc/self/mountinfo cannot be read. ext2/3/4 share one magic. */
static const char *magic_name(long type)
{
	switch ((unsigned long)type) {
	case 0x01161970: return "GFS2";
	case 0xEF53: return "EXT4";
	case 0x58465342: return "XFS";
	case 0x01021994: return "TMPFS";
	case 0x6969: return "NFS";
	case 0x65735546: return "FUSE";
	case 0x0BD00BD0: return "LUSTRE";
	case 0x9123683E: return "BTRFS";
	default: return "UNKNOWN";
	}
}

/* The first line of a small file, without its newline. Returns 0 or -errno. */
static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	int rc = 0;

	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f))
		rc = -EIO;
	fclose(f);
	if (!rc)
		buf[strcspn(buf, "\n")] = 0;
	return rc;
}

int pfs_gfs2_lock_find(const char *sysfs_root, unsigned major, unsigned minor,
		       struct pfs_fsinfo *info)
{
	DIR *d = opendir(sysfs_root);
	struct dirent *de;
	int rc = -ENOENT;

	if (!d)
		return -ENOENT;
	while (rc && (de = readdir(d))) {
		char path[PATH_MAX], id[64], want[64];

		if (de->d_name[0] == '.' ||
		    pfs_format(path, sizeof(path), "%s/%s/id", sysfs_root, de->d_name) ||
		    read_line(path, id, sizeof(id)))
			continue;
		snprintf(want, sizeof(want), "%u:%u", major, minor);
		if (strcmp(id, want))
			continue;
		rc = 0;
		/* The kernel names the directory after the table it uses
		 * (at most 63 characters: GFS2_LOCKNAME_LEN). */
		if (!info->locktable[0])
			(void)pfs_format(info->locktable, sizeof(info->locktable), "%s", de->d_name);
		if (!info->lockproto[0] &&
		    (pfs_format(path, sizeof(path), "%s/%s/lock_module/proto_name", sysfs_root,
				de->d_name) ||
		     read_line(path, info->lockproto, sizeof(info->lockproto))))
			info->lockproto[0] = 0;
	}
	closedir(d);
	return rc;
}

int pfs_fsinfo_get(const char *dir, struct pfs_fsinfo *info)
{
	char real[PATH_MAX];
	struct statvfs sv;
	struct statfs sf;
	struct stat st;
	char *mi;

	memset(info, 0, sizeof(*info));
	if (statvfs(dir, &sv))
		return -errno;
	info->bytes_free = (uint64_t)sv.f_bavail * sv.f_frsize;
	info->inodes_free = sv.f_files ? (uint64_t)sv.f_favail : UINT64_MAX;
	if (pfs_read_text("/proc/self/mountinfo", &mi))
		mi = NULL;
	if (!mi || !realpath(dir, real) || pfs_mountinfo_find(mi, real, info)) {
		snprintf(info->fstype, sizeof(info->fstype), "%s",
			 statfs(dir, &sf) ? "UNKNOWN" : magic_name((long)sf.f_type));
	}
	free(mi);
	if (!strcmp(info->fstype, "GFS2") && !stat(dir, &st))
		(void)pfs_gfs2_lock_find("/sys/fs/gfs2", major(st.st_dev), minor(st.st_dev), info);
	return 0;
}

#define DIRECT_ALIGN_DEFAULT 4096u

/* The O_DIRECT alignment of fd's file, where statx says it (Linux 6.1). */
static uint64_t direct_align(int fd)
{
	uint64_t align = DIRECT_ALIGN_DEFAULT;
#ifdef STATX_DIOALIGN
	struct statx stx;

	if (!statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &stx) &&
	    (stx.stx_mask & STATX_DIOALIGN) && stx.stx_dio_offset_align)
		align = stx.stx_dio_offset_align;
#else
	(void)fd;
#endif
	return align;
}

/* A probe file in dirfd: unnamed where the filesystem can, else named
 * (*named set) with the pid in its name, created exclusively. Every node
 * probes at once, and two nodes' leaders may have the same pid: a name
 * taken is tried again with a number after it. */
static int direct_probe_open(int dirfd, char *name, size_t len, bool *named)
{
	int fd = openat(dirfd, ".", O_TMPFILE | O_RDWR | O_DIRECT | O_CLOEXEC, 0600);

	*named = false;
	if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR))
		return fd;
	for (unsigned i = 0; i < 16; i++) {
		int n = snprintf(name, len, ".pfsbench-direct-probe.%ld", (long)getpid());

		if (i && n > 0 && (size_t)n < len)
			snprintf(name + n, len - (size_t)n, ".%u", i);
		fd = openat(dirfd, name,
			    O_CREAT | O_EXCL | O_RDWR | O_DIRECT | O_CLOEXEC | O_NOFOLLOW, 0600);
		if (fd >= 0 || errno != EEXIST)
			break;
	}
	if (fd < 0 && errno == EINVAL) {
		/* Refused at open: created nonetheless on some filesystems. */
		int err = errno;

		unlinkat(dirfd, name, 0);
		errno = err;
	}
	*named = fd >= 0;
	return fd;
}

int pfs_direct_probe(const char *dir, uint64_t *align)
{
	int dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), fd = -1, rc = 0;
	char name[64] = "";
	bool named = false;
	void *buf = NULL;

	*align = DIRECT_ALIGN_DEFAULT;
	if (dirfd < 0)
		return -errno;
	fd = direct_probe_open(dirfd, name, sizeof(name), &named);
	if (fd < 0) {
		rc = -errno;
		goto out;
	}
	*align = direct_align(fd);
	/* Some filesystems open with O_DIRECT and refuse the I/O itself. */
	rc = posix_memalign(&buf, *align > 4096 ? (size_t)*align : 4096, (size_t)*align);
	if (rc) {
		rc = -rc;
		goto out;
	}
	memset(buf, 0, (size_t)*align);
	errno = 0;
	if (pwrite(fd, buf, (size_t)*align, 0) != (ssize_t)*align)
		rc = errno ? -errno : -EIO;
out:
	if (fd >= 0)
		close(fd);
	if (named)
		unlinkat(dirfd, name, 0);
	close(dirfd);
	free(buf);
	return rc;
}

int pfs_check_dir(const char *dir, char *why, size_t whylen)
{
	struct stat st;

	if (stat(dir, &st)) {
		int err = errno;

		pfs_format(why, whylen, "cannot use '%s': %s", dir, strerror(err));
		return -err;
	}
	if (!S_ISDIR(st.st_mode)) {
		pfs_format(why, whylen, "'%s' is not a directory", dir);
		return -ENOTDIR;
	}
	if (access(dir, W_OK | X_OK)) {
		int err = errno;

		pfs_format(why, whylen, "cannot write in '%s': %s", dir, strerror(err));
		return -err;
	}
	return 0;
}

/* Writes 3 to drop_caches: the page cache, dentries and inodes go. */
static int drop_write(void)
{
	int fd, rc = 0;

	fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, "3\n", 2) != 2)
		rc = -errno;
	if (close(fd) && !rc)
		rc = -errno;
	return rc;
}

/* Both in the calling thread: where no thread can be had. */
static int drop_now(void)
{
	sync();
	return drop_write();
}

/* The sync runs in a thread of its own: sync(2) cannot be interrupted, and
 * writing back gigabytes takes seconds to minutes. The caller waits with an
 * eye on SIGINT and SIGTERM; when one comes it leaves the thread to end
 * alone, so that the run's clean-up starts at once (and removing dirty
 * files shortens that writeback). Whoever of the two is last frees the job.
 * The drop itself is the caller's, after the sync: the thread that will read
 * next frees the cache. Dropped from a thread that then exits, the next cold
 * read of 1 GiB from an ext4 on a loop device ran at 6,931 MiB/s [6,797-
 * 8,004] against 7,937 [7,697-8,022] (12 reads each, a plain C program on
 * the development machine; docs/benchmarks.md, "stream on the ext4"). */
struct drop_job {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool done, abandoned;
};

static void drop_job_free(struct drop_job *job)
{
	pthread_cond_destroy(&job->cv);
	pthread_mutex_destroy(&job->mu);
	free(job);
}

static void *drop_thread(void *arg)
{
	struct drop_job *job = arg;
	bool abandoned;

	sync();
	pthread_mutex_lock(&job->mu);
	job->done = true;
	abandoned = job->abandoned;
	pthread_cond_signal(&job->cv);
	pthread_mutex_unlock(&job->mu);
	if (abandoned)
		drop_job_free(job);
	return NULL;
}

/* How often the waiting caller looks at the signal flag. */
#define DROP_POLL_NS 20000000L

int pfs_drop_caches(void)
{
	struct drop_job *job = calloc(1, sizeof(*job));
	pthread_condattr_t ca;
	pthread_t tid;

	if (!job)
		return drop_now();
	pthread_mutex_init(&job->mu, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&job->cv, &ca);
	pthread_condattr_destroy(&ca);
	if (pthread_create(&tid, NULL, drop_thread, job)) {
		drop_job_free(job);
		return drop_now();
	}
	pthread_mutex_lock(&job->mu);
	while (!job->done && !pfs_interrupted()) {
		struct timespec until;

		clock_gettime(CLOCK_MONOTONIC, &until);
		until.tv_nsec += DROP_POLL_NS;
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&job->cv, &job->mu, &until);
	}
	if (!job->done) {
		job->abandoned = true;
		pthread_mutex_unlock(&job->mu);
		pthread_detach(tid);
		return -ECANCELED;
	}
	pthread_mutex_unlock(&job->mu);
	pthread_join(tid, NULL);
	drop_job_free(job);
	return drop_write();
}
