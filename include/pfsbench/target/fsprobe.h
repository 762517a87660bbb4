/* fsprobe.h: what the filesystem itself counted during a step, on one node
 * (src/target/fsprobe.c). A probe is opened once per node for the target and
 * brackets every step: begin before it, end after it, giving named counters
 * that count what happened in between. Sources:
 *   gfs2     GFS2's sbstats (debugfs): DLM requests and queued holders by
 *            glock type (include/pfsbench/target/fsstats.h);
 *   gluster  `gluster volume profile VOL info incremental`, where the
 *            volume's profiling is on and the gluster CLI reaches glusterd:
 *            calls by brick and fop, bytes read and written by brick;
 *   none     nothing available; the probe says why, the run goes on;
 * and, beside any of them, the block device under the target, where /sys
 * knows it: its /sys/dev/block/MAJ:MIN/stat counters ("blk.*"), and for a
 * DRBD device its /proc/drbd counters ("drbd.*") (fsstats.h).
 * No MPI, no HDF5. What each counter means: docs/filesystems.md. */
#ifndef PFSBENCH_FSPROBE_H
#define PFSBENCH_FSPROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pfsbench/target/fsstats.h"

struct pfs_fsinfo;

#define PFS_FSCOUNTER_NAME_MAX 48
#define PFS_FSPROBE_MAX 128 /* counters one step of one node keeps */
#define PFS_FSPROBE_DESC_MAX 256 /* kept as a node's fsstats (core/topology.h) */
#define PFS_FSPROBE_WHERE_MAX 256

struct pfs_fscounter {
	char name[PFS_FSCOUNTER_NAME_MAX]; /* "inode.dlm_requests", "b1.WRITE.calls" */
	uint64_t value;
};

enum pfs_fsprobe_kind { PFS_FSPROBE_NONE, PFS_FSPROBE_GFS2, PFS_FSPROBE_GLUSTER };

struct pfs_fsprobe {
	enum pfs_fsprobe_kind kind;
	char where[PFS_FSPROBE_WHERE_MAX]; /* GFS2's debugfs table directory, or the volume */
	char desc[PFS_FSPROBE_DESC_MAX];   /* what it reads, or "none: <why>" */
	struct pfs_fsstats before;         /* gfs2: the snapshot at begin */
	/* The block device under the target (pfs_fsprobe_open_blk). */
	bool blk;                          /* its stat is read each step */
	bool drbd;                         /* and its /proc/drbd lines */
	unsigned drbd_minor;
	char blk_stat[PFS_FSPROBE_WHERE_MAX];
	char blk_desc[PFS_FSPROBE_DESC_MAX]; /* "loop3 (7:3)", with DRBD's state, or "none: <why>" */
	struct pfs_blkstats blk_before;
	struct pfs_drbd drbd_before;
};

/* Finds the source for the filesystem fs describes: GFS2's debugfs
 * directory of fs->locktable, or a GlusterFS volume (fs->mount_source
 * "host:/volume") whose profile the gluster CLI gives. Never fails: p->kind
 * is PFS_FSPROBE_NONE and p->desc says why where nothing is available.
 *
 * A GlusterFS profile is the whole volume's, not one node's (the servers
 * keep it, and each query starts a new interval for everyone), so only one
 * node may read it: where first_node is false, open asks nothing (no gluster
 * CLI runs) and p->desc says that node 0 reads it. */
void pfs_fsprobe_open(struct pfs_fsprobe *p, const struct pfs_fsinfo *fs, bool first_node);

/* After pfs_fsprobe_open: the block device under path (a block device
 * itself, or a file or directory on a filesystem whose device /sys knows:
 * pfs_blkdev_find), read each step from then on. Never fails: p->blk is
 * false and p->blk_desc says why where there is none. For a DRBD device
 * (major PFS_DRBD_MAJOR) blk_desc holds its state at open, and its
 * counters are read each step when /proc/drbd has them. */
void pfs_fsprobe_open_blk(struct pfs_fsprobe *p, const char *path);

/* Whether the counter of that name (as pfs_fsprobe_end gives it) is a
 * gauge, kept as its value at the step's end: blk.in_flight, drbd.lo, ... */
bool pfs_fscounter_is_gauge(const char *name);

/* Before a step. Returns 0, or a negative errno (the probe then gives
 * nothing for the step). */
int pfs_fsprobe_begin(struct pfs_fsprobe *p);

/* After it: the counters of what happened since begin (and the gauges'
 * values at the end), the nonzero ones, at most cap into out, their number
 * in *n. Returns 0 or a negative errno (-ESTALE: GFS2 was mounted again,
 * or the block device replaced, in between). */
int pfs_fsprobe_end(struct pfs_fsprobe *p, struct pfs_fscounter *out, size_t cap, size_t *n);

/* Pure: the counters of a `gluster volume profile VOL info incremental`
 * text: for the i-th brick (from 1), "b<i>.<FOP>.calls" for each fop's
 * "No. of calls", "b<i>.read_bytes" and "b<i>.written_bytes". Returns 0,
 * -EPROTO for a text that is not such a profile, -ENOSPC past cap. */
int pfs_gluster_profile_parse(const char *text, struct pfs_fscounter *out, size_t cap, size_t *n);

#endif
