/* test_cgroup.c: the cgroup of the CPU controller found in /proc/self/cgroup
 * (v1, v2, hybrid), the throttled time read from cpu.stat as v1 and v2 write
 * it, and hostile text in both: no key, no number, huge numbers, no newline,
 * NULs, paths that climb out. */
#include "cmocka_prelude.h"

#include "pfsbench/core/cgroup.h"

#include <errno.h>
#include <limits.h>
#include <string.h>

/* A string literal's bytes without its NUL, as a read returns them. */
#define TEXT(s) (s), sizeof(s) - 1

static void test_find_cpu_v1_v2_and_hybrid(void **state)
{
	static const struct {
		const char *text;
		enum pfs_cgroup_version want;
		const char *path;
	} cases[] = {
		/* Debian's v1: cpu and cpuacct mounted together */
		{ "12:pids:/x\n4:cpu,cpuacct:/pfsbench/r1\n1:name=systemd:/\n", PFS_CGROUP_V1,
		  "/pfsbench/r1" },
		/* cpu alone, after cpuacct and cpuset, which are not it */
		{ "3:cpuset:/a\n2:cpuacct:/b\n1:cpu:/c\n0::/\n", PFS_CGROUP_V1, "/c" },
		/* hybrid: v2's line first, v1 holds the CPU controller */
		{ "0::/user.slice\n5:cpuacct,cpu:/user.slice\n", PFS_CGROUP_V1, "/user.slice" },
		/* unified */
		{ "0::/system.slice/pfsbench.service\n", PFS_CGROUP_V2,
		  "/system.slice/pfsbench.service" },
		{ "0::/", PFS_CGROUP_V2, "/" },               /* no newline */
		{ "0::/a:b\n", PFS_CGROUP_V2, "/a:b" },       /* a colon in a name */
		{ "1:name=systemd:/\n", PFS_CGROUP_NONE, "" }, /* no CPU controller */
		{ "", PFS_CGROUP_NONE, "" },
		{ "garbage\n::\n:cpu\n", PFS_CGROUP_NONE, "" },
		{ "4:cpu:relative\n0::/\n", PFS_CGROUP_NONE, "" },
		{ "4:cpu:/../../outside\n", PFS_CGROUP_NONE, "" }, /* outside the namespace */
		{ "0::/a/./b\n", PFS_CGROUP_NONE, "" },
		{ "0::/a//b\n", PFS_CGROUP_NONE, "" },
		{ "0::/a/\n", PFS_CGROUP_NONE, "" },
		{ "0::/a/..\n", PFS_CGROUP_NONE, "" },
		{ "0::\n", PFS_CGROUP_NONE, "" },
		{ "0::/a..b/.c\n", PFS_CGROUP_V2, "/a..b/.c" }, /* dots inside names are names */
	};
	char path[64];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		path[0] = '\0';
		assert_int_equal(pfs_cgroup_find_cpu(cases[i].text, strlen(cases[i].text), path,
						     sizeof(path)),
				 cases[i].want);
		if (cases[i].want != PFS_CGROUP_NONE)
			assert_string_equal(path, cases[i].path);
	}
}

static void test_find_cpu_bounds(void **state)
{
	char path[8], big[PATH_MAX + 16];

	(void)state;
	/* "/abcdefg" needs 9 bytes */
	assert_int_equal(pfs_cgroup_find_cpu(TEXT("0::/abcdefg\n"), path, sizeof(path)),
			 PFS_CGROUP_NONE);
	assert_int_equal(pfs_cgroup_find_cpu(TEXT("0::/abcdef\n"), path, sizeof(path)),
			 PFS_CGROUP_V2);
	assert_string_equal(path, "/abcdef");
	/* a NUL inside a path; the length, not the NUL, ends the text */
	assert_int_equal(pfs_cgroup_find_cpu(TEXT("0::/a\0b\n"), path, sizeof(path)),
			 PFS_CGROUP_NONE);
	assert_int_equal(pfs_cgroup_find_cpu(TEXT("x\0y\n0::/ab\n"), path, sizeof(path)),
			 PFS_CGROUP_V2);
	/* only len bytes are looked at */
	assert_int_equal(pfs_cgroup_find_cpu("0::/abcdef", 4, path, sizeof(path)), PFS_CGROUP_V2);
	assert_string_equal(path, "/");
	memset(big, 'a', sizeof(big));
	memcpy(big, "0::/", 4);
	assert_int_equal(pfs_cgroup_find_cpu(big, sizeof(big), path, sizeof(path)),
			 PFS_CGROUP_NONE);
}

static const char v1_stat[] = "nr_periods 120\nnr_throttled 97\nthrottled_time 1234567890\n"
			      "nr_bursts 0\nburst_time 0\n";
static const char v2_stat[] = "usage_usec 5000\nuser_usec 3000\nsystem_usec 2000\n"
			      "core_sched.force_idle_usec 0\nnr_periods 120\nnr_throttled 97\n"
			      "throttled_usec 1234567\nnr_bursts 0\nburst_usec 0\n";

static void test_throttled_v1_ns_v2_us(void **state)
{
	uint64_t ns = 0;

	(void)state;
	assert_int_equal(pfs_cgroup_throttled_ns(TEXT(v1_stat), PFS_CGROUP_V1, &ns), 0);
	assert_true(ns == UINT64_C(1234567890));
	assert_int_equal(pfs_cgroup_throttled_ns(TEXT(v2_stat), PFS_CGROUP_V2, &ns), 0);
	assert_true(ns == UINT64_C(1234567000));
	/* each version reads its own key only */
	assert_int_equal(pfs_cgroup_throttled_ns(TEXT(v1_stat), PFS_CGROUP_V2, &ns), -ENOENT);
	assert_int_equal(pfs_cgroup_throttled_ns(TEXT(v2_stat), PFS_CGROUP_V1, &ns), -ENOENT);
	assert_int_equal(pfs_cgroup_throttled_ns(TEXT(v1_stat), PFS_CGROUP_NONE, &ns), -ENOENT);
}

static void test_throttled_hostile(void **state)
{
	static const struct {
		const char *text;
		enum pfs_cgroup_version v;
		int rc;
		uint64_t ns;
	} cases[] = {
		{ "throttled_time 42", PFS_CGROUP_V1, 0, 42 },             /* no newline */
		{ "throttled_usec 42", PFS_CGROUP_V2, 0, 42000 },
		{ "throttled_time 1\nthrottled_time 2\n", PFS_CGROUP_V1, 0, 1 }, /* the first */
		{ "throttled_time 18446744073709551615\n", PFS_CGROUP_V1, 0, UINT64_MAX },
		{ "throttled_time 18446744073709551616\n", PFS_CGROUP_V1, -ERANGE, 0 },
		{ "throttled_time 999999999999999999999999999999\n", PFS_CGROUP_V1, -ERANGE, 0 },
		/* us that would wrap as ns */
		{ "throttled_usec 18446744073709552\n", PFS_CGROUP_V2, -ERANGE, 0 },
		{ "throttled_usec 18446744073709551\n", PFS_CGROUP_V2, 0, UINT64_C(18446744073709551000) },
		{ "", PFS_CGROUP_V1, -ENOENT, 0 },
		{ "nr_periods 1\n", PFS_CGROUP_V1, -ENOENT, 0 },
		{ "throttled_time\n", PFS_CGROUP_V1, -ENOENT, 0 },
		{ "throttled_times 5\n", PFS_CGROUP_V1, -ENOENT, 0 },
		{ "xthrottled_time 5\n", PFS_CGROUP_V1, -ENOENT, 0 },
		{ "throttled_time \n", PFS_CGROUP_V1, -EINVAL, 0 },
		{ "throttled_time -5\n", PFS_CGROUP_V1, -EINVAL, 0 },
		{ "throttled_time 5 6\n", PFS_CGROUP_V1, -EINVAL, 0 },
		{ "throttled_time 5x\n", PFS_CGROUP_V1, -EINVAL, 0 },
		{ "throttled_time 0x10\n", PFS_CGROUP_V1, -EINVAL, 0 },
		{ "throttled_time  5\n", PFS_CGROUP_V1, -EINVAL, 0 },
		{ "throttled_time 5\r\n", PFS_CGROUP_V1, -EINVAL, 0 },
		{ "throttled_time xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n", PFS_CGROUP_V1, -EINVAL, 0 },
		{ "\xff\xfe garbage \x01\n\n\nthrottled_time 7\n", PFS_CGROUP_V1, 0, 7 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t ns = 12345;

		assert_int_equal(pfs_cgroup_throttled_ns(cases[i].text, strlen(cases[i].text),
							 cases[i].v, &ns),
				 cases[i].rc);
		/* a failure leaves the value alone */
		assert_true(ns == (cases[i].rc ? 12345 : cases[i].ns));
	}
}

static void test_throttled_reads_len_bytes_only(void **state)
{
	uint64_t ns = 0;

	(void)state;
	/* a NUL inside the value is not its end */
	assert_int_equal(pfs_cgroup_throttled_ns(TEXT("throttled_time 4\0002\n"), PFS_CGROUP_V1, &ns),
			 -EINVAL);
	/* the text ends at len, in the middle of a later line */
	assert_int_equal(pfs_cgroup_throttled_ns("throttled_time 123456", 17, PFS_CGROUP_V1, &ns), 0);
	assert_true(ns == 12);
	assert_int_equal(pfs_cgroup_throttled_ns("throttled_time 1", 15, PFS_CGROUP_V1, &ns),
			 -EINVAL);
	assert_int_equal(pfs_cgroup_throttled_ns("throttled_tim", 13, PFS_CGROUP_V1, &ns), -ENOENT);
}

/* The meter on this machine, whatever cgroup the test runs in: it opens or
 * says nothing, and reads nothing once closed. */
static void test_meter_reads_or_says_nothing(void **state)
{
	struct pfs_cgroup_meter m;

	(void)state;
	pfs_cgroup_meter_open(&m);
	pfs_cgroup_meter_start(&m);
	if (m.fd < 0)
		assert_false(m.started);
	(void)pfs_cgroup_meter_since(&m);
	pfs_cgroup_meter_close(&m);
	assert_int_equal(m.fd, -1);
	/* closed, it reads nothing */
	assert_true(pfs_cgroup_meter_since(&m) == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_find_cpu_v1_v2_and_hybrid),
		cmocka_unit_test(test_find_cpu_bounds),
		cmocka_unit_test(test_throttled_v1_ns_v2_us),
		cmocka_unit_test(test_throttled_hostile),
		cmocka_unit_test(test_throttled_reads_len_bytes_only),
		cmocka_unit_test(test_meter_reads_or_says_nothing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
