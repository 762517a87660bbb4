/* test_fsprobe.c: the filesystem's counters around a step: GlusterFS's
 * incremental profile parsed from real `gluster volume profile` output
 * (tests/data/gluster), GFS2's sbstats deltas as named counters from real
 * debugfs files of a two-node run (tests/data/gfs2), and a filesystem with
 * neither saying so. */
#include "cmocka_prelude.h"

#include "pfsbench/core/util.h"
#include "pfsbench/target/fsinfo.h"
#include "pfsbench/target/fsprobe.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef DATA_DIR
#error DATA_DIR must name tests/data
#endif

static char *slurp(const char *name)
{
	char path[512], *text = NULL;

	snprintf(path, sizeof(path), "%s/%s", DATA_DIR, name);
	assert_int_equal(pfs_read_text(path, &text), 0);
	return text;
}

static uint64_t value(const struct pfs_fscounter *c, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(c[i].name, name))
			return c[i].value;
	return 0;
}

/* 50 files written, one read and all removed on a 2-brick volume: the
 * bricks' CREATE, WRITE and UNLINK calls add up to 50, as the files were
 * spread over them, and the bytes are the files' 2 bytes each. */
static void test_gluster_profile_counts_calls_and_bytes(void **state)
{
	struct pfs_fscounter c[PFS_FSPROBE_MAX];
	char *text = slurp("gluster/profile-incremental.txt");
	size_t n;

	(void)state;
	assert_int_equal(pfs_gluster_profile_parse(text, c, PFS_FSPROBE_MAX, &n), 0);
	assert_int_equal(value(c, n, "b1.CREATE.calls") + value(c, n, "b2.CREATE.calls"), 50);
	assert_int_equal(value(c, n, "b1.UNLINK.calls") + value(c, n, "b2.UNLINK.calls"), 50);
	assert_int_equal(value(c, n, "b1.WRITE.calls") + value(c, n, "b2.WRITE.calls"), 50);
	assert_int_equal(value(c, n, "b1.written_bytes") + value(c, n, "b2.written_bytes"), 100);
	assert_int_equal(value(c, n, "b2.read_bytes"), 2);
	assert_int_equal(value(c, n, "b2.READ.calls"), 1);
	assert_int_equal(value(c, n, "b1.LOOKUP.calls"), 333);
	/* zeros are left out: b1 read nothing */
	for (size_t i = 0; i < n; i++) {
		assert_true(c[i].value > 0);
		assert_string_not_equal(c[i].name, "b1.read_bytes");
	}
	/* too small an array is said, not cut silently */
	assert_int_equal(pfs_gluster_profile_parse(text, c, 3, &n), -ENOSPC);
	free(text);
}

/* The first interval after `profile start`, and texts that are no profile. */
static void test_gluster_profile_edges(void **state)
{
	struct pfs_fscounter c[PFS_FSPROBE_MAX];
	char *text = slurp("gluster/profile-incremental-first.txt");
	size_t n;

	(void)state;
	assert_int_equal(pfs_gluster_profile_parse(text, c, PFS_FSPROBE_MAX, &n), 0);
	assert_int_equal(value(c, n, "b1.LOOKUP.calls"), 5);
	assert_int_equal(value(c, n, "b1.SETXATTR.calls"), 2);
	free(text);
	assert_int_equal(pfs_gluster_profile_parse("", c, PFS_FSPROBE_MAX, &n), -EPROTO);
	assert_int_equal(pfs_gluster_profile_parse("Volume pv is not started\n", c,
						   PFS_FSPROBE_MAX, &n), -EPROTO);
	/* a brick with junk lines and an overlong one gives what it can */
	assert_int_equal(pfs_gluster_profile_parse("Brick: h:/b\nnonsense\n 1.0 2.0 ns 3.0 ns "
						   "4.0 ns 7 CREATE\nData Written: 9 bytes\n",
						   c, PFS_FSPROBE_MAX, &n),
			 0);
	assert_int_equal(n, 2);
	assert_int_equal(value(c, n, "b1.CREATE.calls"), 7);
	assert_int_equal(value(c, n, "b1.written_bytes"), 9);
}

/* GFS2: sbstats before and after a create-unlink run on node n1 of the
 * two-node cluster, as named counters: the deltas tests/unit/
 * test_fsstats.c checks by glock type. */
static void test_gfs2_counters_are_sbstats_deltas(void **state)
{
	struct pfs_fscounter c[PFS_FSPROBE_MAX];
	struct pfs_fsprobe p;
	size_t n;

	(void)state;
	memset(&p, 0, sizeof(p));
	p.kind = PFS_FSPROBE_GFS2;
	snprintf(p.where, sizeof(p.where), "%s/gfs2/n1-before-cu", DATA_DIR);
	assert_int_equal(pfs_fsprobe_begin(&p), 0);
	snprintf(p.where, sizeof(p.where), "%s/gfs2/n1-after-cu", DATA_DIR);
	assert_int_equal(pfs_fsprobe_end(&p, c, PFS_FSPROBE_MAX, &n), 0);
	assert_int_equal(value(c, n, "inode.dlm_requests"), 6308);
	assert_int_equal(value(c, n, "inode.queued"), 13006);
	assert_int_equal(value(c, n, "iopen.dlm_requests"), 7472);
	assert_int_equal(value(c, n, "rgrp.queued"), 4038);
	assert_int_equal(value(c, n, "rgrp.dlm_requests"), 5);
	assert_int_equal(value(c, n, "iopen.queued"), 2825);
	/* after and before swapped: a remount in between, no counters */
	snprintf(p.where, sizeof(p.where), "%s/gfs2/n1-after-cu", DATA_DIR);
	assert_int_equal(pfs_fsprobe_begin(&p), 0);
	snprintf(p.where, sizeof(p.where), "%s/gfs2/n1-before-cu", DATA_DIR);
	assert_int_equal(pfs_fsprobe_end(&p, c, PFS_FSPROBE_MAX, &n), -ESTALE);
}

/* Where there is nothing to read, the probe says so and counts nothing. */
static void test_no_source_says_why(void **state)
{
	struct pfs_fscounter c[PFS_FSPROBE_MAX];
	struct pfs_fsinfo fs;
	struct pfs_fsprobe p;
	size_t n = 99;

	(void)state;
	memset(&fs, 0, sizeof(fs));
	snprintf(fs.fstype, sizeof(fs.fstype), "EXT4");
	pfs_fsprobe_open(&p, &fs, true);
	assert_int_equal(p.kind, PFS_FSPROBE_NONE);
	assert_string_equal(p.desc, "none: EXT4 keeps no counters pfsbench reads");
	assert_int_equal(pfs_fsprobe_begin(&p), 0);
	assert_int_equal(pfs_fsprobe_end(&p, c, PFS_FSPROBE_MAX, &n), 0);
	assert_int_equal(n, 0);
	/* a GFS2 whose debugfs cannot be read: none, and why */
	snprintf(fs.fstype, sizeof(fs.fstype), "GFS2");
	snprintf(fs.locktable, sizeof(fs.locktable), "no-such-cluster:fs");
	pfs_fsprobe_open(&p, &fs, true);
	assert_int_equal(p.kind, PFS_FSPROBE_NONE);
	assert_non_null(strstr(p.desc, "none: cannot read '/sys/kernel/debug/gfs2/no-such-cluster:fs/sbstats'"));
	/* a GlusterFS mount whose source names no volume */
	snprintf(fs.fstype, sizeof(fs.fstype), "FUSE.GLUSTERFS");
	snprintf(fs.mount_source, sizeof(fs.mount_source), "weird");
	pfs_fsprobe_open(&p, &fs, true);
	assert_string_equal(p.desc, "none: no volume in mount source 'weird'");
	/* a GlusterFS volume seen from a node other than node 0: its profile
	 * is the whole volume's, so this node asks nothing (with no gluster
	 * CLI to be found, asking would have said "none: no profile") */
	snprintf(fs.mount_source, sizeof(fs.mount_source), "host:/vol");
	setenv("PATH", "/nonexistent", 1);
	pfs_fsprobe_open(&p, &fs, false);
	assert_int_equal(p.kind, PFS_FSPROBE_NONE);
	assert_string_equal(p.desc, "the volume's profile, read on node 0 only");
	pfs_fsprobe_open(&p, &fs, true);
	assert_non_null(strstr(p.desc, "none: no profile of volume vol"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gluster_profile_counts_calls_and_bytes),
		cmocka_unit_test(test_gluster_profile_edges),
		cmocka_unit_test(test_gfs2_counters_are_sbstats_deltas),
		cmocka_unit_test(test_no_source_says_why),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
