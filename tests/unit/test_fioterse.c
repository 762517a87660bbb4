/* test_fioterse.c: fio's terse line, version 3 (src/formats/fioterse.c).
 * What it protects: 121 fields, as fio 3.33 prints for a job without disk
 * statistics; the direction not moved all zeros with the percentile list
 * kept; fio's integer arithmetic of KiB/s, IOPS and ms; latencies in us
 * from the histogram (min, max exact); fio's 20 percentile slots; the
 * depth's bucket; the latency buckets summing to 100 %. A real fio line
 * is compared field by field in tests/stream/random.sh. */
#include "cmocka_prelude.h"

#include "pfsbench/core/histogram.h"
#include "pfsbench/formats/fioterse.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The fields of line, split at ';' (the newline cut), into f[]. */
static size_t fields(char *line, char **f, size_t max)
{
	size_t n = 0;

	line[strcspn(line, "\n")] = 0;
	for (char *p = line; n < max; p = strchr(p, ';') + 1) {
		f[n++] = p;
		if (!strchr(p, ';'))
			break;
	}
	for (size_t i = 0; i + 1 < n; i++)
		f[i + 1][-1] = 0;
	return n;
}

/* Fields by fio's 1-based numbers (docs/formats.md). */
struct field_want {
	int field;
	const char *text;
};

static void test_a_write_line(void **state)
{
	static const struct field_want want[] = {
		{ 1, "3" }, { 2, "pfsbench-x" }, { 3, "n1.1" },
		/* read: nothing, the percentile list kept with zeros */
		{ 6, "0" }, { 18, "1.000000%=0" }, { 35, "0%=0" },
		/* write: 4000 KiB, (1000 x bytes / 250 ms) / 1024, 1000 x 1000 / 250 */
		{ 47, "4000" }, { 48, "16000" }, { 49, "4000" }, { 50, "250" },
		{ 51, "0" },                      /* no submission latency */
		{ 55, "3" }, { 56, "1500" },      /* clat min and max, us */
		{ 65, "50.000000%=3" }, { 71, "99.000000%=3" }, { 72, "99.500000%=1500" },
		{ 76, "0%=0" }, { 79, "3" },      /* the unused slots; lat min */
		{ 88, "50.000000%" }, { 89, "0.000000%" }, /* CPU: half the time */
		{ 93, "0.0%" }, { 97, "100.0%" }, /* depth 16: the fifth bucket */
		/* 3 us in [2, 4) us; 1.5 ms in [1, 2) ms */
		{ 101, "99.00%" }, { 110, "1.00%" },
	};
	static struct pfs_hist h;
	char line[PFS_FIOTERSE_MAX], *f[200];
	struct pfs_fioterse t = { .version = "pfsbench-x", .jobname = "n1.1", .write = 1,
				  .bytes = 4096 * 1000, .ios = 1000, .elapsed_us = 250000,
				  .cpu_us = 125000, .depth = 16, .lat = &h };
	double sum = 0;

	(void)state;
	pfs_hist_init(&h);
	for (int i = 0; i < 1000; i++)
		pfs_hist_add(&h, i < 990 ? 3000 : 1500000); /* 3 us, and 1 % at 1.5 ms */
	assert_int_equal(pfs_fioterse_format(line, sizeof(line), &t), 0);
	assert_int_equal(fields(line, f, 200), 121);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		assert_string_equal(f[want[i].field - 1], want[i].text);
	for (int i = 99; i < 121; i++)
		sum += strtod(f[i], NULL);
	assert_true(sum > 99.99 && sum < 100.01);
}

static void test_no_latency_and_a_short_buffer(void **state)
{
	static const struct field_want want[] = {
		{ 6, "0" }, { 7, "0" }, { 9, "0" }, { 93, "100.0%" },
	};
	char line[PFS_FIOTERSE_MAX], *f[200];
	struct pfs_fioterse t = { .version = "v", .jobname = "j", .bytes = 512, .ios = 1,
				  .elapsed_us = 999, .depth = 1 };

	(void)state;
	assert_int_equal(pfs_fioterse_format(line, sizeof(line), &t), 0);
	assert_int_equal(fields(line, f, 200), 121);
	/* under 1 ms: fio's runtime 0, so no rate; depth 1 */
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		assert_string_equal(f[want[i].field - 1], want[i].text);
	assert_int_equal(pfs_fioterse_format(line, 40, &t), -ENAMETOOLONG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_write_line),
		cmocka_unit_test(test_no_latency_and_a_short_buffer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
