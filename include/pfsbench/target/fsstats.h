/* fsstats.h: a cluster filesystem's lock statistics as counters that can be
 * subtracted: GFS2's debugfs glstats and sbstats
 * (/sys/kernel/debug/gfs2/<locktable>/), summed by glock type, and the
 * delta between two snapshots. Parsing and deltas are pure; only
 * pfs_fsstats_snapshot reads files. No MPI, no HDF5.
 * What each counter means: docs/filesystems.md, "GFS2 lock statistics". */
#ifndef PFSBENCH_FSSTATS_H
#define PFSBENCH_FSSTATS_H

#include <stdint.h>

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

#endif
