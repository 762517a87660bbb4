/* test_hdparmfmt.c: hdparm -Tt's timing lines, and the odd-one-out rule
 * (core/oddone.h) the hdparm report names a node by. The lines' figures
 * are the GlusterFS seed's (../shared/seeds/glusterfs-bonnie-dd.txt), each
 * given the time that its MB and rate imply (the web page collapsed
 * hdparm's runs of spaces: the widths here are hdparm's printf's), and
 * hdparm 9.65's own output on a loop device of the development machine. */
#include "cmocka_prelude.h"

#include "pfsbench/core/oddone.h"
#include "pfsbench/formats/hdparmfmt.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>

#define MIB (1024ull * 1024)

static void test_lines_of_the_seed_and_of_hdparm(void **state)
{
	static const struct {
		enum pfs_hdparm_timing which;
		uint64_t mb, us;
		const char *want;
	} cases[] = {
		{ PFS_HDPARM_CACHED, 13936, 1995160,
		  " Timing cached reads:   13936 MB in  2.00 seconds = 6984.90 MB/sec\n" },
		{ PFS_HDPARM_BUFFERED, 188, 3011370,
		  " Timing buffered disk reads: 188 MB in  3.01 seconds =  62.43 MB/sec\n" },
		{ PFS_HDPARM_CACHED, 2280, 2001826,
		  " Timing cached reads:   2280 MB in  2.00 seconds = 1138.96 MB/sec\n" },
		{ PFS_HDPARM_BUFFERED, 108, 3023400,
		  " Timing buffered disk reads: 108 MB in  3.02 seconds =  35.72 MB/sec\n" },
		/* hdparm -Tt on a 256 MiB loop device: the disk's end before 3 s */
		{ PFS_HDPARM_BUFFERED, 256, 401663,
		  " Timing buffered disk reads: 256 MB in  0.40 seconds = 637.35 MB/sec\n" },
		/* %3u pads, %5.2f and %6.2f widen */
		{ PFS_HDPARM_BUFFERED, 4, 3500000,
		  " Timing buffered disk reads:   4 MB in  3.50 seconds =   1.14 MB/sec\n" },
		{ PFS_HDPARM_CACHED, 2, 123456789,
		  " Timing cached reads:     2 MB in 123.46 seconds =  16.59 kB/sec\n" },
	};
	char buf[PFS_HDPARMFMT_MAX];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(pfs_hdparmfmt_format(buf, sizeof(buf), cases[i].which,
						      cases[i].mb * MIB, cases[i].us), 0);
		assert_string_equal(buf, cases[i].want);
	}
}

/* Below 1 MB/sec each line has its own test: the cached line's MB <
 * seconds, the buffered line's MB / seconds <= 1. */
static void test_kb_per_sec_by_each_lines_test(void **state)
{
	char buf[PFS_HDPARMFMT_MAX];

	(void)state;
	pfs_hdparmfmt_format(buf, sizeof(buf), PFS_HDPARM_CACHED, 2 * MIB, 2000000);
	assert_string_equal(buf, " Timing cached reads:     2 MB in  2.00 seconds =   1.00 MB/sec\n");
	pfs_hdparmfmt_format(buf, sizeof(buf), PFS_HDPARM_BUFFERED, 2 * MIB, 2000000);
	assert_string_equal(buf,
			    " Timing buffered disk reads:   2 MB in  2.00 seconds = 1024.00 kB/sec\n");
	pfs_hdparmfmt_format(buf, sizeof(buf), PFS_HDPARM_BUFFERED, 2 * MIB, 1999999);
	assert_string_equal(buf, " Timing buffered disk reads:   2 MB in  2.00 seconds =   1.00 MB/sec\n");
	pfs_hdparmfmt_format(buf, sizeof(buf), PFS_HDPARM_CACHED, 2 * MIB, 3000000);
	assert_string_equal(buf, " Timing cached reads:     2 MB in  3.00 seconds = 682.67 kB/sec\n");
}

static void test_refuses_zero_time_and_short_buffer(void **state)
{
	char buf[PFS_HDPARMFMT_MAX];

	(void)state;
	assert_int_equal(pfs_hdparmfmt_format(buf, sizeof(buf), PFS_HDPARM_CACHED, MIB, 0), -EINVAL);
	assert_int_not_equal(pfs_hdparmfmt_format(buf, 10, PFS_HDPARM_CACHED, MIB, 1000000), 0);
}

/* The others' median and spread leave the value itself out; slow only
 * below both k spreads and 10 %. The spread of 3 others: the median of
 * their 3 pairwise differences (2 %, 2.02 %, 4.02 % on the log scale) /
 * sqrt 2, not their MAD (the smaller gap to the middle one, 1.98 %). */
static void test_odd_one_out(void **state)
{
	double v[] = { log(100), log(102), log(98), log(30) }, scratch[4], ref, mad;

	(void)state;
	pfs_oddone_others(v, 4, 3, scratch, &ref, &mad);
	assert_true(fabs(ref - log(100)) < 1e-12);
	assert_true(fabs(mad - (log(100) - log(98)) / sqrt(2)) < 1e-12);
	assert_true(pfs_oddone_slow(v[3] - ref, mad));
	pfs_oddone_others(v, 4, 0, scratch, &ref, &mad);
	assert_false(pfs_oddone_slow(v[0] - ref, mad));
	/* 5 % below, no spread at all: under the 10 % floor */
	assert_false(pfs_oddone_slow(log(0.95), 0));
	assert_true(pfs_oddone_slow(log(0.85), 0));
	/* 20 % below where the others spread by 10 %: within 5 spreads */
	assert_false(pfs_oddone_slow(log(0.8), log(1.1)));
}

/* The pairwise spread worked by hand: 2 values, 3, one left out, all of
 * them kept (skip past the end), and none outside 2..PFS_SLOW_PAIRWISE_MAX. */
static void test_pairwise_spread(void **state)
{
	double v[] = { 0.0, 0.1, 0.4, 5.0 }, many[PFS_SLOW_PAIRWISE_MAX + 1] = { 0 };

	(void)state;
	/* {0, 0.1}: 0.1 / sqrt 2 */
	assert_true(fabs(pfs_oddone_pairwise(v, 2, 2) - 0.1 / sqrt(2)) < 1e-12);
	/* {0, 0.1, 0.4} (5.0 left out): differences 0.1, 0.3, 0.4 */
	assert_true(fabs(pfs_oddone_pairwise(v, 4, 3) - 0.3 / sqrt(2)) < 1e-12);
	/* {0.1, 0.4, 5.0} (0 left out): 0.3, 4.6, 4.9 */
	assert_true(fabs(pfs_oddone_pairwise(v, 4, 0) - 4.6 / sqrt(2)) < 1e-12);
	/* all 4: 0.1 0.3 0.4 4.6 4.9 5.0, median (0.4 + 4.6) / 2 */
	assert_true(fabs(pfs_oddone_pairwise(v, 4, 4) - 2.5 / sqrt(2)) < 1e-12);
	assert_true(isnan(pfs_oddone_pairwise(v, 2, 0)));
	assert_true(isnan(pfs_oddone_pairwise(many, PFS_SLOW_PAIRWISE_MAX + 1, PFS_SLOW_PAIRWISE_MAX + 1)));
	assert_false(isnan(pfs_oddone_pairwise(many, PFS_SLOW_PAIRWISE_MAX + 1, 0)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines_of_the_seed_and_of_hdparm),
		cmocka_unit_test(test_kb_per_sec_by_each_lines_test),
		cmocka_unit_test(test_refuses_zero_time_and_short_buffer),
		cmocka_unit_test(test_odd_one_out),
		cmocka_unit_test(test_pairwise_spread),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
