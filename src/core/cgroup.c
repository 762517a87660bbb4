/* cgroup.c: the CPU controller's throttling of this process's cgroup, from
 * /proc/self/cgroup and the cgroup's cpu.stat (include/pfsbench/core/cgroup.h).
 * Both files are read with one bounded read and parsed as hostile text:
 * lengths, not NULs, bound every look, and no number may wrap.
 *
 * The kernel's counter (kernel/sched/fair.c, unthrottle_cfs_rq) adds, for
 * each CPU on which the cgroup's run queue was throttled, the time until it
 * was let run again: it is the cgroup's, not a thread's, and sums the CPUs
 * where the cgroup was held back (from Linux 6.5 only those where something
 * of the cgroup was waiting to run). */
#include "pfsbench/core/cgroup.h"
#include "pfsbench/core/util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/vfs.h>
#include <unistd.h>

#ifndef CGROUP_SUPER_MAGIC
#define CGROUP_SUPER_MAGIC 0x27e0eb
#endif
#ifndef CGROUP2_SUPER_MAGIC
#define CGROUP2_SUPER_MAGIC 0x63677270
#endif

/* /proc/self/cgroup of a process in a few dozen cgroups, with long paths. */
#define PROC_CGROUP_MAX 16384
/* cpu.stat is under 300 bytes on Linux 6.x (v2 with every key). */
#define CPU_STAT_MAX 1024

/* The line at *p (up to its newline or end), *p moved to the next line.
 * Returns its length; *line is NULL past the end. */
static size_t next_line(const char **p, const char *end, const char **line)
{
	const char *nl;

	*line = NULL;
	if (*p >= end)
		return 0;
	*line = *p;
	nl = memchr(*p, '\n', (size_t)(end - *p));
	*p = nl ? nl + 1 : end;
	return (size_t)((nl ? nl : end) - *line);
}

/* Whether the comma-separated list s (n bytes) holds the word "cpu". */
static bool has_cpu(const char *s, size_t n)
{
	const char *end = s + n;

	while (s < end) {
		const char *comma = memchr(s, ',', (size_t)(end - s));
		size_t w = (size_t)((comma ? comma : end) - s);

		if (w == 3 && !memcmp(s, "cpu", 3))
			return true;
		s = comma ? comma + 1 : end;
	}
	return false;
}

/* A cgroup path as the kernel writes it: absolute, no NUL, no empty, "."
 * or ".." component ("/" alone is the root). */
static bool path_ok(const char *s, size_t n)
{
	if (!n || s[0] != '/' || memchr(s, '\0', n))
		return false;
	if (n == 1)
		return true;
	for (size_t i = 1, from = 1; i <= n; i++) {
		if (i < n && s[i] != '/')
			continue;
		if (i == from || (i - from == 1 && s[from] == '.') ||
		    (i - from == 2 && s[from] == '.' && s[from + 1] == '.'))
			return false;
		from = i + 1;
	}
	return true;
}

enum pfs_cgroup_version pfs_cgroup_find_cpu(const char *text, size_t len, char *path,
					    size_t pathlen)
{
	const char *p = text, *end = text + len, *line, *v2 = NULL;
	size_t n, v2len = 0;

	while ((n = next_line(&p, end, &line)), line) {
		/* "ID:CONTROLLERS:PATH"; PATH may hold colons. */
		const char *c1 = memchr(line, ':', n), *c2, *cg;
		size_t cglen;

		if (!c1)
			continue;
		c2 = memchr(c1 + 1, ':', n - (size_t)(c1 + 1 - line));
		if (!c2)
			continue;
		cg = c2 + 1;
		cglen = n - (size_t)(cg - line);
		if (c1 - line == 1 && line[0] == '0' && c2 == c1 + 1) {
			if (!v2) {
				v2 = cg;
				v2len = cglen;
			}
		} else if (has_cpu(c1 + 1, (size_t)(c2 - c1 - 1))) {
			if (!path_ok(cg, cglen) || cglen >= pathlen)
				return PFS_CGROUP_NONE;
			memcpy(path, cg, cglen);
			path[cglen] = '\0';
			return PFS_CGROUP_V1;
		}
	}
	if (!v2 || !path_ok(v2, v2len) || v2len >= pathlen)
		return PFS_CGROUP_NONE;
	memcpy(path, v2, v2len);
	path[v2len] = '\0';
	return PFS_CGROUP_V2;
}

int pfs_cgroup_throttled_ns(const char *text, size_t len, enum pfs_cgroup_version v,
			    uint64_t *ns)
{
	const char *key = v == PFS_CGROUP_V1 ? "throttled_time" : "throttled_usec";
	size_t klen = strlen(key), n;
	const char *p = text, *end = text + len, *line;

	if (v == PFS_CGROUP_NONE)
		return -ENOENT;
	while ((n = next_line(&p, end, &line)), line) {
		char num[21]; /* 2^64 - 1 has 20 digits */
		uint64_t value;
		int rc;

		if (n <= klen || memcmp(line, key, klen) || line[klen] != ' ')
			continue;
		n -= klen + 1;
		if (!n || memchr(line + klen + 1, '\0', n))
			return -EINVAL;
		if (n >= sizeof(num)) {
			for (size_t i = 0; i < n; i++)
				if (line[klen + 1 + i] < '0' || line[klen + 1 + i] > '9')
					return -EINVAL;
			return -ERANGE;
		}
		memcpy(num, line + klen + 1, n);
		num[n] = '\0';
		rc = pfs_parse_u64(num, &value);
		if (!rc && v == PFS_CGROUP_V2)
			rc = pfs_mul_u64(value, 1000, &value);
		if (!rc)
			*ns = value;
		return rc;
	}
	return -ENOENT;
}

/* One pread from the start of fd into buf (cap bytes, NUL-terminated): a
 * read that fills it is cut after its last newline, so that no value is
 * read cut short. Returns the length, or -1. */
static ssize_t read_bounded(int fd, char *buf, size_t cap)
{
	ssize_t n = pread(fd, buf, cap - 1, 0);

	if (n <= 0)
		return -1;
	if ((size_t)n == cap - 1) {
		char *nl = memrchr(buf, '\n', (size_t)n);

		if (!nl)
			return -1;
		n = nl + 1 - buf;
	}
	buf[n] = '\0';
	return n;
}

/* cpu.stat under root + path, opened when it is on a filesystem of magic. */
static int open_stat(const char *root, const char *path, long magic)
{
	char name[PATH_MAX];
	struct statfs sf;
	int fd;

	if (pfs_format(name, sizeof(name), "%s%s/cpu.stat", root, strcmp(path, "/") ? path : ""))
		return -1;
	fd = open(name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return -1;
	if (fstatfs(fd, &sf) || (long)sf.f_type != magic) {
		close(fd);
		return -1;
	}
	return fd;
}

void pfs_cgroup_meter_open(struct pfs_cgroup_meter *m)
{
	static const char *const v1_roots[] = { "/sys/fs/cgroup/cpu", "/sys/fs/cgroup/cpu,cpuacct" };
	char text[PROC_CGROUP_MAX], path[PATH_MAX];
	ssize_t n = -1;
	int fd;

	m->fd = -1;
	m->version = PFS_CGROUP_NONE;
	m->started = false;
	fd = open("/proc/self/cgroup", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read_bounded(fd, text, sizeof(text));
		close(fd);
	}
	if (n < 0)
		return;
	switch (pfs_cgroup_find_cpu(text, (size_t)n, path, sizeof(path))) {
	case PFS_CGROUP_V1:
		for (size_t i = 0; m->fd < 0 && i < sizeof(v1_roots) / sizeof(v1_roots[0]); i++)
			m->fd = open_stat(v1_roots[i], path, CGROUP_SUPER_MAGIC);
		m->version = PFS_CGROUP_V1;
		break;
	case PFS_CGROUP_V2:
		m->fd = open_stat("/sys/fs/cgroup", path, CGROUP2_SUPER_MAGIC);
		m->version = PFS_CGROUP_V2;
		break;
	case PFS_CGROUP_NONE:
		break;
	}
}

/* The cgroup's throttled time now, in ns. Returns 0 or -1. */
static int meter_read(const struct pfs_cgroup_meter *m, uint64_t *ns)
{
	char text[CPU_STAT_MAX];
	ssize_t n;

	if (m->fd < 0)
		return -1;
	n = read_bounded(m->fd, text, sizeof(text));
	if (n < 0 || pfs_cgroup_throttled_ns(text, (size_t)n, m->version, ns))
		return -1;
	return 0;
}

void pfs_cgroup_meter_start(struct pfs_cgroup_meter *m)
{
	m->started = !meter_read(m, &m->start_ns);
}

uint64_t pfs_cgroup_meter_since(const struct pfs_cgroup_meter *m)
{
	uint64_t now;

	if (!m->started || meter_read(m, &now) || now < m->start_ns)
		return 0;
	return now - m->start_ns;
}

void pfs_cgroup_meter_close(struct pfs_cgroup_meter *m)
{
	if (m->fd >= 0)
		close(m->fd);
	m->fd = -1;
}
