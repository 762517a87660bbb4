/* test_fsstats.c: GFS2's glstats and sbstats summed by glock type, and
 * deltas. The files in tests/data/gfs2 are real: two nodes of
 * tests/gfs2/two-vms.sh (Debian's 6.1 kernel, lock_dlm), before and after
 * one create-unlink run (2 nodes x 1 worker, -f 200 -F 5 -s 64k). Every
 * expected sum below was counted with awk from those files. */
#include "cmocka_prelude.h"

#include "pfsbench/target/fsstats.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef GFS2_DATA_DIR
#error GFS2_DATA_DIR must name tests/data/gfs2
#endif

/* One glock type's expected counts. */
struct want {
	unsigned type;
	int64_t dlm_requests, queued, glocks;
};

/* Checks every type: those in want as given, the others zero. */
static void check_counts(const struct pfs_glock_counts *got, const struct want *want, size_t n)
{
	for (unsigned t = 0; t < PFS_GLOCK_TYPES; t++) {
		struct want w = { t, 0, 0, 0 };

		for (size_t i = 0; i < n; i++)
			if (want[i].type == t)
				w = want[i];
		if (got[t].dlm_requests != w.dlm_requests || got[t].queued != w.queued ||
		    got[t].glocks != w.glocks)
			fail_msg("type %u (%s): got %lld %lld %lld, want %lld %lld %lld", t,
				 pfs_glock_type_name(t), (long long)got[t].dlm_requests,
				 (long long)got[t].queued, (long long)got[t].glocks,
				 (long long)w.dlm_requests, (long long)w.queued, (long long)w.glocks);
	}
}

static void snapshot(const char *name, struct pfs_fsstats *st)
{
	char dir[512];

	snprintf(dir, sizeof(dir), "%s/%s", GFS2_DATA_DIR, name);
	assert_int_equal(pfs_fsstats_snapshot(dir, st), 0);
	assert_int_equal(st->have, PFS_FSSTATS_GLSTATS | PFS_FSSTATS_SBSTATS);
}

static void test_type_names(void **state)
{
	(void)state;
	assert_string_equal(pfs_glock_type_name(0), "reserved");
	assert_string_equal(pfs_glock_type_name(2), "inode");
	assert_string_equal(pfs_glock_type_name(5), "iopen");
	assert_string_equal(pfs_glock_type_name(9), "journal");
	assert_null(pfs_glock_type_name(10));
}

/* glstats: awk '{split($2, a, "[:/]"); n[a[2]]++; d[a[2]] += $7; q[a[2]] += $9}' */
static void test_real_glstats(void **state)
{
	static const struct want n1_after[] = {
		{ 1, 2, 2, 3 }, { 2, 38, 8136, 13 }, { 3, 6, 4039, 6 },
		{ 4, 1, 1, 1 }, { 5, 16, 14, 12 },  { 9, 1, 1, 1 },
	};
	/* n2 unlinked n1's files in ua: their glocks stay cached on n2 */
	static const struct want n2_after[] = {
		{ 1, 2, 2, 3 }, { 2, 235, 8881, 213 }, { 3, 2, 4034, 6 },
		{ 4, 1, 1, 1 }, { 5, 12, 12, 12 },    { 9, 1, 1, 1 },
	};
	struct pfs_fsstats st;

	(void)state;
	snapshot("n1-after-cu", &st);
	check_counts(st.gl, n1_after, sizeof(n1_after) / sizeof(n1_after[0]));
	snapshot("n2-after-cu", &st);
	check_counts(st.gl, n2_after, sizeof(n2_after) / sizeof(n2_after[0]));
}

/* sbstats: awk '$2 == "dlm:" || $2 == "queue:" {s = 0; for (i = 3; i <= NF; i++) s += $i; ...}' */
static void test_real_sbstats(void **state)
{
	static const struct want n1_after[] = {
		{ 1, 5, 3, 0 },	 { 2, 6324, 13035, 0 }, { 3, 6, 4039, 0 },
		{ 4, 1, 1, 0 },	 { 5, 7490, 2839, 0 },  { 9, 4, 2, 0 },
	};
	static const struct want n2_before[] = {
		{ 1, 5, 3, 0 }, { 2, 11, 20, 0 }, { 4, 1, 1, 0 }, { 5, 17, 13, 0 }, { 9, 1, 1, 0 },
	};
	struct pfs_fsstats st;

	(void)state;
	snapshot("n1-after-cu", &st);
	check_counts(st.sb, n1_after, sizeof(n1_after) / sizeof(n1_after[0]));
	snapshot("n2-before-cu", &st);
	check_counts(st.sb, n2_before, sizeof(n2_before) / sizeof(n2_before[0]));
}

/* What create-unlink cost each node: after minus before. */
static void test_real_delta(void **state)
{
	static const struct want n1_sb[] = {
		{ 2, 6308, 13006, 0 }, { 3, 5, 4038, 0 }, { 5, 7472, 2825, 0 },
	};
	static const struct want n1_gl[] = {
		{ 2, 22, 8107, 0 }, { 3, 5, 4038, 0 }, { 5, 4, 2, 0 },
	};
	static const struct want n2_sb[] = {
		{ 2, 5907, 12956, 0 }, { 3, 2, 4034, 0 }, { 5, 7466, 2823, 0 },
	};
	struct pfs_fsstats before, after, d;

	(void)state;
	snapshot("n1-before-cu", &before);
	snapshot("n1-after-cu", &after);
	assert_int_equal(pfs_fsstats_delta(&before, &after, &d), 0);
	assert_int_equal(d.have, PFS_FSSTATS_GLSTATS | PFS_FSSTATS_SBSTATS);
	check_counts(d.sb, n1_sb, sizeof(n1_sb) / sizeof(n1_sb[0]));
	check_counts(d.gl, n1_gl, sizeof(n1_gl) / sizeof(n1_gl[0]));
	snapshot("n2-before-cu", &before);
	snapshot("n2-after-cu", &after);
	assert_int_equal(pfs_fsstats_delta(&before, &after, &d), 0);
	check_counts(d.sb, n2_sb, sizeof(n2_sb) / sizeof(n2_sb[0]));
	/* backwards: the counters went down, as after a new mount */
	assert_int_equal(pfs_fsstats_delta(&after, &before, &d), -ESTALE);
}

/* glstats counts can go down: glocks are freed. Only sbstats must grow. */
static void test_delta_glstats_may_shrink(void **state)
{
	struct pfs_fsstats before, after, d;

	(void)state;
	memset(&before, 0, sizeof(before));
	memset(&after, 0, sizeof(after));
	assert_int_equal(pfs_fsstats_parse_glstats("G: n:2/1 rtt:0/0 rttb:0/0 irt:0/0 dcnt: 4 qcnt: 9\n"
						   "G: n:2/2 rtt:0/0 rttb:0/0 irt:0/0 dcnt: 1 qcnt: 1\n",
						   &before),
			 0);
	assert_int_equal(pfs_fsstats_parse_glstats("G: n:2/2 rtt:0/0 rttb:0/0 irt:0/0 dcnt: 3 qcnt: 2\n",
						   &after),
			 0);
	assert_int_equal(pfs_fsstats_delta(&before, &after, &d), 0);
	assert_int_equal(d.have, PFS_FSSTATS_GLSTATS);
	assert_int_equal(d.gl[2].dlm_requests, -2);
	assert_int_equal(d.gl[2].queued, -8);
	assert_int_equal(d.gl[2].glocks, -1);
	/* only what both snapshots have */
	assert_int_equal(pfs_fsstats_parse_sbstats("inode dlm: 5\n", &after), 0);
	assert_int_equal(pfs_fsstats_delta(&before, &after, &d), 0);
	assert_int_equal(d.have, PFS_FSSTATS_GLSTATS);
	assert_int_equal(d.sb[2].dlm_requests, 0);
}

/* Several CPUs are several columns; averages are not counted; the header
 * and blank lines are skipped; parsing again replaces. */
static void test_sbstats_columns(void **state)
{
	struct pfs_fsstats st;

	(void)state;
	memset(&st, 0, sizeof(st));
	assert_int_equal(pfs_fsstats_parse_sbstats("type            cpu:      0      1\n"
						   "inode          srtt:    100    200\n"
						   "inode           dlm:      3      4\n"
						   "\n"
						   "inode         queue:      5      6\n"
						   "journal         dlm:      1      0\n",
						   &st),
			 0);
	assert_int_equal(st.have, PFS_FSSTATS_SBSTATS);
	assert_int_equal(st.sb[2].dlm_requests, 7);
	assert_int_equal(st.sb[2].queued, 11);
	assert_int_equal(st.sb[9].dlm_requests, 1);
	assert_int_equal(pfs_fsstats_parse_sbstats("", &st), 0);
	assert_int_equal(st.sb[2].dlm_requests, 0);
}

static const struct {
	const char *text;
	int rc;
} bad_glstats[] = {
	{ "G: n:10/1 rtt:0/0 rttb:0/0 irt:0/0 dcnt: 1 qcnt: 1\n", -EPROTO }, /* no such type */
	{ "G: n:2/zz rtt:0/0 rttb:0/0 irt:0/0 dcnt: 1 qcnt: 1\n", -EPROTO },
	{ "G: n:2/1 rtt:0/0 rttb:0/0 irt:0/0 dcnt: 1\n", -EPROTO },	     /* no qcnt */
	{ "G: n:2/1 rtt:0/0 rttb:0/0 irt:0/0 dcnt: -1 qcnt: 1\n", -EPROTO },
	{ "H: n:2/1 dcnt: 1 qcnt: 1\n", -EPROTO },
	{ "G: n:2/1 dcnt: 99999999999999999999 qcnt: 1\n", -ERANGE },
	{ "G: n:2/1 dcnt: 9223372036854775807 qcnt: 1\n"
	  "G: n:2/2 dcnt: 1 qcnt: 1\n", -ERANGE }, /* the sum */
};

static const struct {
	const char *text;
	int rc;
} bad_sbstats[] = {
	{ "bogus dlm: 1\n", -EPROTO },
	{ "inode dlm:\n", -EPROTO },
	{ "inode dlm: x\n", -EPROTO },
	{ "inode\n", -EPROTO },
	{ "type something: 0\n", -EPROTO },
	{ "inode dlm: 18446744073709551615\n", -ERANGE },
};

static void test_bad_input(void **state)
{
	static char long_line[5000];
	struct pfs_fsstats st;

	(void)state;
	memset(long_line, ' ', sizeof(long_line) - 1);
	memset(&st, 0, sizeof(st));
	assert_int_equal(pfs_fsstats_parse_sbstats(long_line, &st), -EPROTO);
	assert_int_equal(st.have, 0);
	for (size_t i = 0; i < sizeof(bad_glstats) / sizeof(bad_glstats[0]); i++) {
		memset(&st, 0, sizeof(st));
		if (pfs_fsstats_parse_glstats(bad_glstats[i].text, &st) != bad_glstats[i].rc)
			fail_msg("glstats %zu: not %d: %s", i, bad_glstats[i].rc, bad_glstats[i].text);
		assert_int_equal(st.have, 0);
	}
	for (size_t i = 0; i < sizeof(bad_sbstats) / sizeof(bad_sbstats[0]); i++) {
		memset(&st, 0, sizeof(st));
		if (pfs_fsstats_parse_sbstats(bad_sbstats[i].text, &st) != bad_sbstats[i].rc)
			fail_msg("sbstats %zu: not %d: %s", i, bad_sbstats[i].rc, bad_sbstats[i].text);
		assert_int_equal(st.have, 0);
	}
}

/* A directory with only sbstats gives sbstats; one with neither, -ENOENT. */
static void test_snapshot_missing_files(void **state)
{
	char dir[] = "/tmp/pfsbench-fsstats-XXXXXX", path[128];
	struct pfs_fsstats st;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(pfs_fsstats_snapshot(dir, &st), -ENOENT);
	assert_int_equal(st.have, 0);
	snprintf(path, sizeof(path), "%s/sbstats", dir);
	assert_non_null(f = fopen(path, "w"));
	fputs("inode dlm: 2\n", f);
	fclose(f);
	assert_int_equal(pfs_fsstats_snapshot(dir, &st), 0);
	assert_int_equal(st.have, PFS_FSSTATS_SBSTATS);
	assert_int_equal(st.sb[2].dlm_requests, 2);
	unlink(path);
	rmdir(dir);
	assert_int_equal(pfs_fsstats_snapshot(dir, &st), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_type_names),
		cmocka_unit_test(test_real_glstats),
		cmocka_unit_test(test_real_sbstats),
		cmocka_unit_test(test_real_delta),
		cmocka_unit_test(test_delta_glstats_may_shrink),
		cmocka_unit_test(test_sbstats_columns),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_snapshot_missing_files),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
