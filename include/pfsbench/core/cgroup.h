/* cgroup.h: how long the CPU controller held this process's cgroup back by
 * its quota (cgroup v2 cpu.max, v1 cpu.cfs_quota_us), as the kernel counts
 * it in the cgroup's cpu.stat: the meter behind the rows' throttled_us.
 * Finding the cgroup and reading cpu.stat are pure functions of the files'
 * text; only the meter opens and reads files. No MPI. */
#ifndef PFSBENCH_CGROUP_H
#define PFSBENCH_CGROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum pfs_cgroup_version { PFS_CGROUP_NONE, PFS_CGROUP_V1, PFS_CGROUP_V2 };

/* The cgroup of the CPU controller in a /proc/self/cgroup text of len
 * bytes (NULs and all): the path of v1's line whose controllers include
 * "cpu" ("4:cpu,cpuacct:/a/b"), else of v2's "0::/a/b" (on a hybrid system
 * v2's hierarchy has no CPU controller), copied into path. The path must be
 * absolute, without "." or ".." components (what is outside a cgroup
 * namespace reads as "/.." and is not ours to read) and shorter than
 * pathlen. Returns its version, or PFS_CGROUP_NONE. */
enum pfs_cgroup_version pfs_cgroup_find_cpu(const char *text, size_t len, char *path,
					    size_t pathlen);

/* The cgroup's throttled time so far, in ns, from a cpu.stat text of len
 * bytes: v1's "throttled_time" (ns), v2's "throttled_usec" (us). The first
 * line with that key counts; its value is digits alone up to the line's or
 * the text's end. Returns 0, -ENOENT without the line, -EINVAL for a value
 * that is not a number, -ERANGE for one beyond 2^64 ns. */
int pfs_cgroup_throttled_ns(const char *text, size_t len, enum pfs_cgroup_version v,
			    uint64_t *ns);

/* The meter: cpu.stat opened once (pfs_cgroup_meter_open), read with one
 * pread at the start of an op and at its end. */
struct pfs_cgroup_meter {
	int fd;                          /* cpu.stat; -1 where there is none */
	enum pfs_cgroup_version version;
	bool started;                    /* the start's reading succeeded */
	uint64_t start_ns;
};

/* Opens the cgroup's cpu.stat: /sys/fs/cgroup/cpu (or cpu,cpuacct)/PATH on
 * v1, /sys/fs/cgroup/PATH on v2, on a filesystem of that version. Without
 * one, m->fd is -1 and the meter reads 0. */
void pfs_cgroup_meter_open(struct pfs_cgroup_meter *m);
void pfs_cgroup_meter_start(struct pfs_cgroup_meter *m);
/* The cgroup's throttled time since pfs_cgroup_meter_start, in ns; 0 when
 * either reading failed or the counter went back. */
uint64_t pfs_cgroup_meter_since(const struct pfs_cgroup_meter *m);
void pfs_cgroup_meter_close(struct pfs_cgroup_meter *m);

#endif
