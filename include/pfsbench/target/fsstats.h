/* fsstats.h: counters that can be subtracted, parsed from the kernel's text:
 *   a cluster filesystem's lock statistics: GFS2's debugfs glstats and
 *     sbstats (/sys/kernel/debug/gfs2/<locktable>/), summed by glock type;
 *   a block device's own: /sys/dev/block/MAJ:MIN/stat;
 *   a DRBD 8.4 device's: its two lines of /proc/drbd, and its state;
 * and the delta between two snapshots. Parsing and deltas are pure; only
 * pfs_fsstats_snapshot, pfs_blkdev_find and pfs_blkstats_read read files.
 * No MPI, no HDF5. What each counter means: docs/filesystems.md, "GFS2
 * lock statistics" and "Block-device counters". */
#ifndef PFSBENCH_FSSTATS_H
#define PFSBENCH_FSSTATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Where GFS2's statistics are: PFS_GFS2_DEBUGFS "/" locktable. */
#define PFS_GFS2_DEBUGFS "/sys/kernel/debug/gfs2"

/* GFS2's glock types, by number: 0 reserved, 1 nondisk (the transaction,
 * freeze, mount and rename locks), 2 inode, 3 rgrp (resource groups:
 * allocation), 4 meta, 5 iopen (whether an inode is still open on some
 * node), 6 flock, 7 plock, 8 quota, 9 journal. */
enum { PFS_GLOCK_TYPES = 10 };

/* The parts of the statistics to read, in pfs_fsstats.have. */
enum {
	PFS_FSSTATS_GLSTATS = 1u << 0,
	PFS_FSSTATS_SBSTATS = 1u << 1,
};

/* One glock type's counts. In a delta, after minus before. */
struct pfs_glock_counts {
	int64_t dlm_requests; /* dcnt / "dlm": lock requests sent to the DLM */
	int64_t queued;       /* qcnt / "queue": holders queued on glocks (GFS2's own requests) */
	int64_t glocks;       /* glstats only: glocks of the type in memory; 0 in sb */
};

struct pfs_fsstats {
	unsigned have; /* PFS_FSSTATS_* that were read */
	/* sbstats: the whole filesystem on this node since it was mounted,
	 * summed over CPUs. Only grows while mounted. */
	struct pfs_glock_counts sb[PFS_GLOCK_TYPES];
	/* glstats: the glocks in memory now. A glock that is freed (an
	 * unlinked inode's, or one the node gave back) takes its counts with
	 * it, so these can go down. */
	struct pfs_glock_counts gl[PFS_GLOCK_TYPES];
};

/* "inode", "rgrp", ...: the name sbstats gives a glock type; NULL past
 * the last. */
const char *pfs_glock_type_name(unsigned type);

/* Parses the text of a glstats file ("G: n:2/1128 rtt:0/0 rttb:0/0 irt:0/0
 * dcnt: 3 qcnt: 5" a glock) into st->gl, and sets PFS_FSSTATS_GLSTATS.
 * Returns 0, -EPROTO for a line it does not understand or a glock type past
 * the last, or -ERANGE when a sum would not fit. */
int pfs_fsstats_parse_glstats(const char *text, struct pfs_fsstats *st);

/* Parses the text of an sbstats file ("inode dlm: 12 3", a type and a
 * statistic, one column a CPU) into st->sb, and sets PFS_FSSTATS_SBSTATS.
 * Only "dlm" and "queue" are kept: the others are smoothed averages, which
 * cannot be subtracted. Returns 0, -EPROTO or -ERANGE, as above. */
int pfs_fsstats_parse_sbstats(const char *text, struct pfs_fsstats *st);

/* Reads table_dir/glstats and table_dir/sbstats (table_dir:
 * PFS_GFS2_DEBUGFS "/" locktable) into st; st->have says which. Returns 0
 * when at least one was read, -ENOENT when neither exists (no debugfs, not
 * root, not GFS2), or the first other -errno of reading or parsing. */
int pfs_fsstats_snapshot(const char *table_dir, struct pfs_fsstats *st);

/* delta = after - before, for the parts both have. Returns 0, or -ESTALE
 * when an sbstats counter went down: the filesystem was mounted again in
 * between, and the delta means nothing. */
int pfs_fsstats_delta(const struct pfs_fsstats *before, const struct pfs_fsstats *after,
		      struct pfs_fsstats *delta);

/* ---- a block device's own counters ------------------------------------- */

/* The fields of /sys/block/<dev>/stat, in the kernel's order
 * (Documentation/block/stat.rst): 11 before Linux 4.18, 15 with the
 * discard fields, 17 with the flush fields since 5.5. */
enum {
	PFS_BLK_READ_IOS, PFS_BLK_READ_MERGES, PFS_BLK_READ_SECTORS, PFS_BLK_READ_TICKS,
	PFS_BLK_WRITE_IOS, PFS_BLK_WRITE_MERGES, PFS_BLK_WRITE_SECTORS, PFS_BLK_WRITE_TICKS,
	PFS_BLK_IN_FLIGHT, PFS_BLK_IO_TICKS, PFS_BLK_TIME_IN_QUEUE,
	PFS_BLK_DISCARD_IOS, PFS_BLK_DISCARD_MERGES, PFS_BLK_DISCARD_SECTORS, PFS_BLK_DISCARD_TICKS,
	PFS_BLK_FLUSH_IOS, PFS_BLK_FLUSH_TICKS,
	PFS_BLK_FIELDS
};

struct pfs_blkstats {
	unsigned nfields; /* 11, 15 or 17: the ones the kernel gave */
	uint64_t v[PFS_BLK_FIELDS];
};

/* "read_ios", "read_sectors", "read_ticks_ms", "in_flight", ...: the
 * counter's name in the results file, after "blk."; NULL past the last. */
const char *pfs_blkstat_name(unsigned field);

/* Whether the field is a gauge (in_flight: what is in flight now), not a
 * counter: a gauge is kept as its value at the step's end, not a delta. */
bool pfs_blkstat_is_gauge(unsigned field);

/* Parses a stat file's text: one line of 11, 15 or 17 decimal numbers.
 * Returns 0, -EPROTO for any other text (another count, a word, a second
 * line, a line over 1024 characters), -ERANGE for a number past 2^64 - 1. */
int pfs_blkstats_parse(const char *text, struct pfs_blkstats *st);

/* Reads and parses the stat file at path. 0 or a negative errno. */
int pfs_blkstats_read(const char *path, struct pfs_blkstats *st);

/* ---- DRBD 8.4 (/proc/drbd) ----------------------------------------------- */

#define PFS_DRBD_PROC "/proc/drbd"
#define PFS_DRBD_MAJOR 147

/* The counters of a device's second line, in drbd_proc.c's order. ns, nr,
 * dw, dr and oos are KiB; al and bm are metadata writes; lo, pe, ua, ap,
 * ep and oos are gauges. */
enum {
	PFS_DRBD_NS, PFS_DRBD_NR, PFS_DRBD_DW, PFS_DRBD_DR, PFS_DRBD_AL, PFS_DRBD_BM,
	PFS_DRBD_LO, PFS_DRBD_PE, PFS_DRBD_UA, PFS_DRBD_AP, PFS_DRBD_EP, PFS_DRBD_OOS,
	PFS_DRBD_FIELDS
};

struct pfs_drbd {
	bool configured;       /* false for "N: cs:Unconfigured" */
	char cs[24];           /* connection state: "Connected", "StandAlone", ... */
	char role[16], peer_role[16];  /* ro: "Primary", "Secondary", "Unknown" */
	char disk[16], peer_disk[16];  /* ds: "UpToDate", "Diskless", "DUnknown", ... */
	char protocol;         /* 'A', 'B', 'C', or ' ' when no network is configured */
	unsigned have;         /* the counters found: bit i for field i */
	uint64_t v[PFS_DRBD_FIELDS];
};

/* "ns_kib", "al", "oos_kib", ...: the counter's name after "drbd."; NULL
 * past the last. */
const char *pfs_drbd_name(unsigned field);
bool pfs_drbd_is_gauge(unsigned field);

/* Finds minor's lines in the text of /proc/drbd ("version: ..." first,
 * then " N: cs:... ro:A/B ds:A/B P flags" and its counters line, with
 * resync progress lines between devices). Returns 0, -ENOENT when minor is
 * not there, -EPROTO for its lines malformed (a missing field, a line over
 * 1024 characters), -ERANGE for a number past 2^64 - 1. */
int pfs_drbd_parse(const char *text, unsigned minor, struct pfs_drbd *d);

/* "cs:Connected ro:Primary/Secondary ds:UpToDate/UpToDate protocol C", or
 * "cs:Unconfigured". Returns 0 or -ENAMETOOLONG. */
int pfs_drbd_state_text(const struct pfs_drbd *d, char *buf, size_t len);

/* ---- which device --------------------------------------------------------- */

/* The block device under path, as /sys knows it: path's own device number
 * when it is a block device (st_rdev), else its filesystem's (st_dev).
 * Fills name ("loop3", "sda1", "drbd1") from the link sysfs_dev/MAJ:MIN
 * (sysfs_dev: "/sys/dev/block") and stat with sysfs_dev/MAJ:MIN/stat.
 * Returns 0, -ENODEV when /sys knows no such block device (tmpfs, NFS,
 * FUSE), -ENAMETOOLONG, or stat's -errno. */
int pfs_blkdev_find(const char *path, const char *sysfs_dev, dev_t *dev, char *name,
		    size_t namelen, char *stat, size_t statlen);

/* delta = after - before for a counter, or after for a gauge. A counter
 * that went down from the upper half of 32 bits to the lower wrapped (the
 * kernel keeps some as unsigned int: DRBD's, the ticks): delta = after +
 * 2^32 - before; any other fall means the device was replaced or its
 * counters reset in between: -ESTALE. */
int pfs_counter_delta(uint64_t before, uint64_t after, bool gauge, uint64_t *delta);

#endif
