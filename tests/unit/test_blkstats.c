/* test_blkstats.c: a block device's /sys stat and a DRBD 8.4 device's
 * /proc/drbd lines parsed (include/pfsbench/target/fsstats.h), every file
 * read as hostile; counter deltas with gauges and 32-bit wraps; the
 * device under a path found through a /sys/dev/block of the test's own. The
 * stat line is this host's loop device after a run (Linux 6.1, 17 fields);
 * the /proc/drbd text follows drivers/block/drbd/drbd_proc.c of 8.4. */
#include "cmocka_prelude.h"

#include "pfsbench/target/fsprobe.h"
#include "pfsbench/target/fsstats.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static const char real_stat[] =
	"  854792     8193  8087917   205594    56950   320343 16345475   217044        0    94780"
	"   436981       47        0 33570886        2     5077    14340\n";

static void test_stat_real(void **state)
{
	struct pfs_blkstats st;

	(void)state;
	assert_int_equal(pfs_blkstats_parse(real_stat, &st), 0);
	assert_int_equal(st.nfields, 17);
	assert_int_equal(st.v[PFS_BLK_READ_IOS], 854792);
	assert_int_equal(st.v[PFS_BLK_READ_SECTORS], 8087917);
	assert_int_equal(st.v[PFS_BLK_WRITE_SECTORS], 16345475);
	assert_int_equal(st.v[PFS_BLK_IN_FLIGHT], 0);
	assert_int_equal(st.v[PFS_BLK_TIME_IN_QUEUE], 436981);
	assert_int_equal(st.v[PFS_BLK_DISCARD_SECTORS], 33570886);
	assert_int_equal(st.v[PFS_BLK_FLUSH_TICKS], 14340);
	assert_string_equal(pfs_blkstat_name(PFS_BLK_WRITE_SECTORS), "write_sectors");
	assert_string_equal(pfs_blkstat_name(PFS_BLK_FLUSH_TICKS), "flush_ticks_ms");
	assert_null(pfs_blkstat_name(PFS_BLK_FIELDS));
	for (unsigned i = 0; i < PFS_BLK_FIELDS; i++)
		assert_int_equal(pfs_blkstat_is_gauge(i), i == PFS_BLK_IN_FLIGHT);
}

/* Older kernels' 11 and 15 fields; everything else refused. */
static void test_stat_shapes(void **state)
{
	static const struct {
		const char *text;
		int rc;
		unsigned nfields;
	} cases[] = {
		{ "1 2 3 4 5 6 7 8 9 10 11\n", 0, 11 },
		{ "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15", 0, 15 },
		{ "\t1\t2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17  \n", 0, 17 },
		{ "18446744073709551615 2 3 4 5 6 7 8 9 10 11\n", 0, 11 },
		{ "", -EPROTO, 0 },
		{ "\n", -EPROTO, 0 },
		{ "1 2 3 4 5 6 7 8 9 10\n", -EPROTO, 0 },
		{ "1 2 3 4 5 6 7 8 9 10 11 12\n", -EPROTO, 0 },
		{ "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18\n", -EPROTO, 0 },
		{ "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27\n",
		  -EPROTO, 0 },
		{ "18446744073709551616 2 3 4 5 6 7 8 9 10 11\n", -ERANGE, 0 },
		{ "-1 2 3 4 5 6 7 8 9 10 11\n", -EPROTO, 0 },
		{ "1 2 3 4 5 6 7 8 9 10 x11\n", -EPROTO, 0 },
		{ "1 2 3 4 5 6 7 8 9 10 11x\n", -EPROTO, 0 },
		{ "1 2 3 4 5 6 7 8 9 10 11\n1 2 3 4 5 6 7 8 9 10 11\n", -EPROTO, 0 },
		{ "0x1 2 3 4 5 6 7 8 9 10 11\n", -EPROTO, 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pfs_blkstats st;
		int rc = pfs_blkstats_parse(cases[i].text, &st);

		if (rc != cases[i].rc || (!rc && st.nfields != cases[i].nfields))
			fail_msg("case %zu '%s': rc %d fields %u", i, cases[i].text, rc, st.nfields);
	}
}

/* A line longer than the parser's buffer, made of valid numbers. */
static void test_stat_long_line(void **state)
{
	size_t len = 1 << 16;
	char *text = malloc(len + 1);
	struct pfs_blkstats st;

	(void)state;
	assert_non_null(text);
	memset(text, '0', len);
	text[len] = 0;
	assert_int_equal(pfs_blkstats_parse(text, &st), -EPROTO);
	memset(text, ' ', len - 30);
	snprintf(text + len - 30, 30, "1 2 3 4 5 6 7 8 9 10 11");
	assert_int_equal(pfs_blkstats_parse(text, &st), -EPROTO);
	free(text);
}

static const char drbd_text[] =
	"version: 8.4.11 (api:1/proto:86-101)\n"
	"srcversion: 211FB288A383ED945B83420 \n"
	" 0: cs:Connected ro:Primary/Secondary ds:UpToDate/UpToDate C r-----\n"
	"    ns:2048600 nr:0 dw:2048600 dr:4321 al:512 bm:0 lo:0 pe:3 ua:0 ap:2 ep:1 wo:f oos:0\n"
	" 1: cs:SyncSource ro:Primary/Secondary ds:UpToDate/Inconsistent C r-----\n"
	"    ns:1024 nr:0 dw:0 dr:1100 al:8 bm:0 lo:0 pe:0 ua:0 ap:0 ep:1 wo:f oos:523264\n"
	"\t[>....................] sync'ed:  0.3% (511/512)M\n"
	"\tfinish: 0:08:30 speed: 1,024 (1,024) K/sec\n"
	"\n"
	" 3: cs:StandAlone ro:Secondary/Unknown ds:UpToDate/DUnknown   r-----\n"
	"    ns:0 nr:0 dw:16 dr:0 al:1 bm:0 lo:0 pe:0 ua:0 ap:0 ep:1 wo:f oos:16\n"
	" 4: cs:Unconfigured\n";

static void test_drbd_real(void **state)
{
	struct pfs_drbd d;
	char text[128];

	(void)state;
	assert_int_equal(pfs_drbd_parse(drbd_text, 0, &d), 0);
	assert_true(d.configured);
	assert_string_equal(d.cs, "Connected");
	assert_string_equal(d.role, "Primary");
	assert_string_equal(d.peer_role, "Secondary");
	assert_string_equal(d.disk, "UpToDate");
	assert_string_equal(d.peer_disk, "UpToDate");
	assert_int_equal(d.protocol, 'C');
	assert_int_equal(d.have, (1u << PFS_DRBD_FIELDS) - 1);
	assert_int_equal(d.v[PFS_DRBD_NS], 2048600);
	assert_int_equal(d.v[PFS_DRBD_DW], 2048600);
	assert_int_equal(d.v[PFS_DRBD_DR], 4321);
	assert_int_equal(d.v[PFS_DRBD_AL], 512);
	assert_int_equal(d.v[PFS_DRBD_PE], 3);
	assert_int_equal(d.v[PFS_DRBD_AP], 2);
	assert_int_equal(pfs_drbd_state_text(&d, text, sizeof(text)), 0);
	assert_string_equal(text, "cs:Connected ro:Primary/Secondary ds:UpToDate/UpToDate protocol C");

	/* The one after a resync's progress lines. */
	assert_int_equal(pfs_drbd_parse(drbd_text, 1, &d), 0);
	assert_string_equal(d.peer_disk, "Inconsistent");
	assert_int_equal(d.v[PFS_DRBD_OOS], 523264);
	/* No network: no protocol letter. */
	assert_int_equal(pfs_drbd_parse(drbd_text, 3, &d), 0);
	assert_int_equal(d.protocol, ' ');
	assert_int_equal(d.v[PFS_DRBD_DW], 16);
	assert_int_equal(pfs_drbd_state_text(&d, text, sizeof(text)), 0);
	assert_string_equal(text, "cs:StandAlone ro:Secondary/Unknown ds:UpToDate/DUnknown");
	/* Unconfigured: a state, no counters. */
	assert_int_equal(pfs_drbd_parse(drbd_text, 4, &d), 0);
	assert_false(d.configured);
	assert_int_equal(d.have, 0);
	assert_int_equal(pfs_drbd_state_text(&d, text, sizeof(text)), 0);
	assert_string_equal(text, "cs:Unconfigured");
	assert_int_equal(pfs_drbd_parse(drbd_text, 2, &d), -ENOENT);
	assert_int_equal(pfs_drbd_parse("version: 8.4.11 (api:1/proto:86-101)\n", 0, &d), -ENOENT);
	assert_int_equal(pfs_drbd_parse("", 0, &d), -ENOENT);

	assert_string_equal(pfs_drbd_name(PFS_DRBD_NS), "ns_kib");
	assert_string_equal(pfs_drbd_name(PFS_DRBD_OOS), "oos_kib");
	assert_null(pfs_drbd_name(PFS_DRBD_FIELDS));
	assert_false(pfs_drbd_is_gauge(PFS_DRBD_DW));
	assert_true(pfs_drbd_is_gauge(PFS_DRBD_LO));
	assert_true(pfs_drbd_is_gauge(PFS_DRBD_OOS));
	assert_true(pfs_fscounter_is_gauge("blk.in_flight"));
	assert_true(pfs_fscounter_is_gauge("drbd.pe"));
	assert_false(pfs_fscounter_is_gauge("drbd.ns_kib"));
	assert_false(pfs_fscounter_is_gauge("blk.write_sectors"));
	assert_false(pfs_fscounter_is_gauge("in_flight"));
	assert_false(pfs_fscounter_is_gauge("inode.dlm_requests"));
}

#define STATE " 0: cs:Connected ro:Primary/Secondary ds:UpToDate/UpToDate C r-----\n"
#define COUNTERS_HEAD "    ns:1 nr:2 dw:3 dr:4 al:5 bm:6 lo:0 pe:0 ua:0 ap:0 ep:1 wo:f "

static void test_drbd_hostile(void **state)
{
	static const struct {
		const char *text;
		int rc;
	} cases[] = {
		{ STATE COUNTERS_HEAD "oos:0\n", 0 },
		{ STATE, -EPROTO },                            /* no counters line */
		{ STATE "\n", -EPROTO },                       /* an empty one */
		{ STATE "    ns:1 nr:2 dw:3 dr:4 al:5 bm:6 lo:0 pe:0 ua:0 ap:0 ep:1 wo:f\n", -EPROTO },
		{ STATE "    nr:2 dw:3 dr:4 al:5 bm:6 lo:0 pe:0 ua:0 ap:0 ep:1 wo:f oos:0\n", -EPROTO },
		{ STATE "    xns:1 nr:2 dw:3 dr:4 al:5 bm:6 lo:0 pe:0 ua:0 ap:0 ep:1 oos:0\n", -EPROTO },
		{ STATE "    ns:1 nr:2 dw:3 dr:4 al:5 bm:6 lo:-1 pe:0 ua:0 ap:0 ep:1 wo:f oos:0\n",
		  -EPROTO },
		{ STATE "    ns:1x nr:2 dw:3 dr:4 al:5 bm:6 lo:0 pe:0 ua:0 ap:0 ep:1 wo:f oos:0\n",
		  -EPROTO },
		{ STATE COUNTERS_HEAD "oos:18446744073709551616\n", -ERANGE },
		{ STATE COUNTERS_HEAD "oos:18446744073709551615\n", 0 },
		{ " 0: cs:Connected ds:UpToDate/UpToDate C r-----\n" COUNTERS_HEAD "oos:0\n", -EPROTO },
		{ " 0: cs:Connected ro:Primary ds:UpToDate/UpToDate C r-----\n" COUNTERS_HEAD "oos:0\n",
		  -EPROTO },
		{ " 0: cs:Connected ro:Primary/Secondary/X ds:UpToDate/UpToDate C r\n" COUNTERS_HEAD
		  "oos:0\n", -EPROTO },
		{ " 0: cs:Connected ro:Primary/Secondary ds:UpToDate/UpToDate Z r-----\n" COUNTERS_HEAD
		  "oos:0\n", -EPROTO },
		{ " 0: cs:Connected ro:Primary/Secondary ds:UpToDate/UpToDate\n" COUNTERS_HEAD "oos:0\n",
		  -EPROTO },
		{ " 0: cs:ConnectedConnectedConnectedConnected ro:Primary/Secondary ds:UpToDate/UpToDate "
		  "C r-----\n" COUNTERS_HEAD "oos:0\n", -EPROTO },
		{ " 0: cs: ro:Primary/Secondary ds:UpToDate/UpToDate C r-----\n" COUNTERS_HEAD "oos:0\n",
		  -EPROTO },
		{ " 99999999999: cs:Connected\n", -ERANGE },
		{ " 99999999999999999999999: cs:Connected\n", -ERANGE },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pfs_drbd d;
		int rc = pfs_drbd_parse(cases[i].text, 0, &d);

		if (rc != cases[i].rc)
			fail_msg("case %zu: rc %d, want %d: '%s'", i, rc, cases[i].rc, cases[i].text);
	}
}

static void test_drbd_long_line(void **state)
{
	size_t len = 1 << 16;
	char *text = malloc(len + sizeof(STATE) + 8);
	struct pfs_drbd d;

	(void)state;
	assert_non_null(text);
	/* A long line before the device: refused, not skipped past. */
	memset(text, 'x', len);
	strcpy(text + len, "\n" STATE);
	assert_int_equal(pfs_drbd_parse(text, 0, &d), -EPROTO);
	/* A long counters line. */
	strcpy(text, STATE "    ns:1");
	memset(text + strlen(text), '1', len - 200);
	strcpy(text + len - 100, " nr:2\n");
	assert_int_equal(pfs_drbd_parse(text, 0, &d), -EPROTO);
	free(text);
}

static void test_counter_delta(void **state)
{
	uint64_t d = 7;

	(void)state;
	assert_int_equal(pfs_counter_delta(10, 25, false, &d), 0);
	assert_int_equal(d, 15);
	assert_int_equal(pfs_counter_delta(10, 10, false, &d), 0);
	assert_int_equal(d, 0);
	/* A gauge is its value at the end, whichever way it went. */
	assert_int_equal(pfs_counter_delta(30, 4, true, &d), 0);
	assert_int_equal(d, 4);
	/* An unsigned int wrapped: from the top of 32 bits to the bottom. */
	assert_int_equal(pfs_counter_delta(UINT32_MAX - 4, 10, false, &d), 0);
	assert_int_equal(d, 15);
	/* Anything else that went down: reset or replaced. */
	assert_int_equal(pfs_counter_delta(1000, 10, false, &d), -ESTALE);
	assert_int_equal(pfs_counter_delta((uint64_t)1 << 40, 10, false, &d), -ESTALE);
	assert_int_equal(pfs_counter_delta(UINT32_MAX, (uint64_t)1 << 31, false, &d), -ESTALE);
}

/* A /sys/dev/block of the test's own: the device of a file made in it is
 * found by its filesystem's number, a name from the link's last part. */
static void test_blkdev_find(void **state)
{
	char dir[] = "/tmp/test_blkstats.XXXXXX", path[64], link[128];
	char name[64], statp[256], target[192];
	struct stat sb;
	dev_t dev;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(stat(dir, &sb), 0);
	snprintf(path, sizeof(path), "%s/file", dir);
	assert_non_null(f = fopen(path, "w"));
	fclose(f);
	/* Not known: -ENODEV. */
	assert_int_equal(pfs_blkdev_find(path, dir, &dev, name, sizeof(name), statp, sizeof(statp)),
			 -ENODEV);
	assert_int_equal(dev, sb.st_dev);
	snprintf(target, sizeof(target), "%s/devices-virtual-block-loop9", dir);
	assert_int_equal(mkdir(target, 0700), 0);
	snprintf(link, sizeof(link), "%s/%u:%u", dir, major(sb.st_dev), minor(sb.st_dev));
	assert_int_equal(symlink("devices-virtual-block-loop9", link), 0);
	/* A link without a stat file: -ENODEV. */
	assert_int_equal(pfs_blkdev_find(path, dir, &dev, name, sizeof(name), statp, sizeof(statp)),
			 -ENODEV);
	snprintf(statp, sizeof(statp), "%s/stat", target);
	assert_non_null(f = fopen(statp, "w"));
	fputs(real_stat, f);
	fclose(f);
	assert_int_equal(pfs_blkdev_find(path, dir, &dev, name, sizeof(name), statp, sizeof(statp)), 0);
	assert_string_equal(name, "devices-virtual-block-loop9");
	snprintf(target, sizeof(target), "%s/stat", link);
	assert_string_equal(statp, target);
	/* The directory itself: the same device. */
	assert_int_equal(pfs_blkdev_find(dir, dir, &dev, name, sizeof(name), statp, sizeof(statp)), 0);
	assert_int_equal(pfs_blkdev_find("/nonexistent/x", dir, &dev, name, sizeof(name), statp,
					 sizeof(statp)), -ENOENT);
	unlink(target);
	unlink(link);
	snprintf(target, sizeof(target), "%s/devices-virtual-block-loop9", dir);
	rmdir(target);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stat_real),      cmocka_unit_test(test_stat_shapes),
		cmocka_unit_test(test_stat_long_line), cmocka_unit_test(test_drbd_real),
		cmocka_unit_test(test_drbd_hostile),   cmocka_unit_test(test_drbd_long_line),
		cmocka_unit_test(test_counter_delta),  cmocka_unit_test(test_blkdev_find),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
