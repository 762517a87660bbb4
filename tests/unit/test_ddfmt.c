/* test_ddfmt.c: dm's, dd's and lmdd's summary lines and dm's numbers.
 * The dd golden test replays GNU dd 9.1 output captured on the development
 * machine (tests/data/dd, made by capture.sh): from each capture's own
 * records, bytes and printed time it formats the lines again and expects
 * the capture back byte for byte. A capture with a pinned clock knows dd's
 * elapsed nanoseconds exactly; a real run's capture only knows the time dd
 * printed, rounded to six digits, so every nanosecond count that dd would
 * have printed that way is tried, and every one must give the capture. */
#include "cmocka_prelude.h"

#include "pfsbench/formats/ddfmt.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- dm ------------------------------------------------------------------ */

static void test_dm_line_of_the_seed(void **state)
{
	char buf[PFS_DDFMT_MAX];

	(void)state;
	/* drbd-dm-throughput.txt: "-b 1M -s 2M" */
	assert_int_equal(pfs_ddfmt_format_dm(buf, sizeof(buf), 2097152, 190802), 0);
	assert_string_equal(buf, "10.48 MB/sec (2097152 B / 00:00.190802)\n");
}

static void test_dm_line_sizes_past_4gib_and_times_past_an_hour(void **state)
{
	static const struct {
		uint64_t bytes, us;
		const char *want;
	} cases[] = {
		{ 5368709120u, 12500000, "409.60 MB/sec (5368709120 B / 00:12.500000)\n" },
		{ 1ull << 40, 3725500000u, "281.46 MB/sec (1099511627776 B / 62:05.500000)\n" },
		{ 1ull << 40, 3600000000u, "291.27 MB/sec (1099511627776 B / 60:00.000000)\n" },
		/* no hours field: minutes just grow */
		{ 1ull << 40, 360000250000u, "2.91 MB/sec (1099511627776 B / 6000:00.250000)\n" },
		{ UINT64_MAX, 1000000, "17592186044416.00 MB/sec (18446744073709551615 B / 00:01.000000)\n" },
		{ 0, 59999999, "0.00 MB/sec (0 B / 00:59.999999)\n" },
		{ 1, 1, "0.95 MB/sec (1 B / 00:00.000001)\n" },
	};
	char buf[PFS_DDFMT_MAX];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(pfs_ddfmt_format_dm(buf, sizeof(buf), cases[i].bytes, cases[i].us), 0);
		assert_string_equal(buf, cases[i].want);
	}
}

static void test_dm_line_zero_time_divides_as_dm(void **state)
{
	char buf[PFS_DDFMT_MAX];

	(void)state;
	assert_int_equal(pfs_ddfmt_format_dm(buf, sizeof(buf), 1, 0), 0);
	assert_string_equal(buf, "inf MB/sec (1 B / 00:00.000000)\n");
	/* 0/0: the platform's NaN, "-nan" on x86-64, as dm prints it */
	assert_int_equal(pfs_ddfmt_format_dm(buf, sizeof(buf), 0, 0), 0);
	assert_non_null(strstr(buf, "nan MB/sec (0 B / 00:00.000000)\n"));
}

static void test_dm_line_reports_a_short_buffer(void **state)
{
	char buf[16];

	(void)state;
	assert_int_equal(pfs_ddfmt_format_dm(buf, sizeof(buf), 2097152, 190802), -ENAMETOOLONG);
}

static void test_dm_numbers_take_dms_suffixes_and_bases(void **state)
{
	static const struct {
		const char *in;
		uint64_t want;
	} ok[] = {
		{ "0", 0 }, { "65536", 65536 }, { "1s", 512 }, { "1S", 512 }, { "4k", 4096 },
		{ "4K", 4096 }, { "1m", 1 << 20 }, { "1M", 1 << 20 }, { "1g", 1 << 30 },
		{ "1G", 1 << 30 }, { "500M", 500u << 20 }, { "7G", 7ull << 30 }, { "378G", 378ull << 30 },
		/* strtol base 0: hex and octal, as in dm's "-a 0xff" */
		{ "0xff", 255 }, { "0XFF", 255 }, { "0x10", 16 }, { "0x1k", 1024 }, { "010", 8 },
		{ "0k", 0 }, { "00", 0 },
		{ "9223372036854775807", INT64_MAX }, { "8589934591g", 8589934591ull << 30 },
		{ "0x7fffffffffffffff", INT64_MAX },
	};
	uint64_t v;
	char err[128];

	(void)state;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		v = 1;
		assert_int_equal(pfs_ddfmt_parse_dm_number(ok[i].in, &v, err, sizeof(err)), 0);
		assert_true(v == ok[i].want);
	}
}

static void test_dm_numbers_refuse_garbage_with_dms_words(void **state)
{
	static const char *const bad[] = {
		"", "k", "x", "-1", "+1", " 1", "1 ", "1t", "1T", "1kb", "4kk", "1.5m", "1e3",
		"08", "0x", "0xg", "0x ", "1\n", "12345678901234567890z",
	};
	char err[128], want[128];
	uint64_t v = 7;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(pfs_ddfmt_parse_dm_number(bad[i], &v, err, sizeof(err)), -EINVAL);
		snprintf(want, sizeof(want), "%s is not a valid number", bad[i]);
		if (!strchr(bad[i], '\n'))
			assert_string_equal(err, want);
	}
	assert_string_equal(err, "12345678901234567890z is not a valid number");
	assert_true(v == 7);
	assert_int_equal(pfs_ddfmt_parse_dm_number("1\n", &v, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "1? is not a valid number");
	assert_int_equal(pfs_ddfmt_parse_dm_number(NULL, &v, err, sizeof(err)), -EINVAL);
	assert_int_equal(pfs_ddfmt_parse_dm_number("1t", &v, NULL, 0), -EINVAL);
}

static void test_dm_numbers_out_of_range(void **state)
{
	static const char *const big[] = {
		"9223372036854775808", "8589934592g", "0x8000000000000000", "99999999999999999999999",
		"18014398509481984s",
	};
	char err[128], want[128];
	uint64_t v = 7;

	(void)state;
	for (size_t i = 0; i < sizeof(big) / sizeof(big[0]); i++) {
		assert_int_equal(pfs_ddfmt_parse_dm_number(big[i], &v, err, sizeof(err)), -ERANGE);
		snprintf(want, sizeof(want), "%s is out of range", big[i]);
		assert_string_equal(err, want);
	}
	assert_true(v == 7);
}

static void test_dm_number_errors_stay_short_and_printable(void **state)
{
	char huge[10000], err[128], tiny[8];
	uint64_t v;

	(void)state;
	memset(huge, '7', sizeof(huge) - 2);
	huge[sizeof(huge) - 2] = 'q';
	huge[sizeof(huge) - 1] = '\0';
	assert_int_equal(pfs_ddfmt_parse_dm_number(huge, &v, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "7777777777777777777777777777777777777777... is not a valid number");
	huge[0] = '\x1b';
	assert_int_equal(pfs_ddfmt_parse_dm_number(huge, &v, err, sizeof(err)), -EINVAL);
	assert_true(err[0] == '?');
	/* a message cut by a small buffer is still a string */
	assert_int_equal(pfs_ddfmt_parse_dm_number("zzz", &v, tiny, sizeof(tiny)), -EINVAL);
	assert_string_equal(tiny, "zzz is ");
}

/* ---- lmdd ---------------------------------------------------------------- */

static void test_lmdd_line(void **state)
{
	static const struct {
		uint64_t bytes, us;
		const char *want;
	} cases[] = {
		{ 1048576, 1000000, "1.0486 MB in 1.0000 secs, 1.0486 MB/sec\n" },
		{ 104857600, 2500000, "104.8576 MB in 2.5000 secs, 41.9430 MB/sec\n" },
		{ 5368709120u, 7123456, "5368.7091 MB in 7.1235 secs, 753.6664 MB/sec\n" },
		{ 1, 0, "0.0000 MB in 0.0000 secs, inf MB/sec\n" },
	};
	char buf[PFS_DDFMT_MAX];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(pfs_ddfmt_format_lmdd(buf, sizeof(buf), cases[i].bytes, cases[i].us), 0);
		assert_string_equal(buf, cases[i].want);
	}
	assert_int_equal(pfs_ddfmt_format_lmdd(buf, 20, 1048576, 1000000), -ENAMETOOLONG);
}

/* ---- dd ------------------------------------------------------------------ */

static void test_dd_records_lines(void **state)
{
	struct pfs_ddfmt_records r = { 12, 43, 12, 43, 0 };
	char buf[PFS_DDFMT_MAX];

	(void)state;
	assert_int_equal(pfs_ddfmt_format_dd_records(buf, sizeof(buf), &r), 0);
	assert_string_equal(buf, "12+43 records in\n12+43 records out\n");
	r.truncated = 1;
	assert_int_equal(pfs_ddfmt_format_dd_records(buf, sizeof(buf), &r), 0);
	assert_string_equal(buf, "12+43 records in\n12+43 records out\n1 truncated record\n");
	r.truncated = 2;
	assert_int_equal(pfs_ddfmt_format_dd_records(buf, sizeof(buf), &r), 0);
	assert_string_equal(buf, "12+43 records in\n12+43 records out\n2 truncated records\n");
	r.in_full = (uint64_t)INT64_MAX + 1;
	assert_int_equal(pfs_ddfmt_format_dd_records(buf, sizeof(buf), &r), -ERANGE);
	r.in_full = 1;
	assert_int_equal(pfs_ddfmt_format_dd_records(buf, 40, &r), -ENAMETOOLONG);
}

static void test_dd_copied_line_edges(void **state)
{
	char buf[PFS_DDFMT_MAX];

	(void)state;
	/* the longest line there is fits PFS_DDFMT_MAX */
	assert_int_equal(pfs_ddfmt_format_dd_copied(buf, sizeof(buf), INT64_MAX, 7), 0);
	assert_string_equal(buf, "9223372036854775807 bytes (9.2 EB, 8.0 EiB) copied, 7e-09 s, "
				 "1318 YB/s\n");
	assert_int_equal(pfs_ddfmt_format_dd_copied(buf, sizeof(buf), INT64_MAX, INT64_MAX), 0);
	assert_string_equal(buf, "9223372036854775807 bytes (9.2 EB, 8.0 EiB) copied, "
				 "9.22337e+09 s, 1.0 GB/s\n");
	assert_int_equal(pfs_ddfmt_format_dd_copied(buf, sizeof(buf), (uint64_t)INT64_MAX + 1, 1),
			 -ERANGE);
	assert_int_equal(pfs_ddfmt_format_dd_copied(buf, sizeof(buf), 1, (uint64_t)INT64_MAX + 1),
			 -ERANGE);
	assert_int_equal(pfs_ddfmt_format_dd_copied(buf, 30, 1048576, 1000), -ENAMETOOLONG);
	/* 999.95 MB rounds up into the next unit */
	assert_int_equal(pfs_ddfmt_format_dd_copied(buf, sizeof(buf), 999950000, 1000000000), 0);
	assert_string_equal(buf, "999950000 bytes (1.0 GB, 954 MiB) copied, 1 s, 1.0 GB/s\n");
	assert_int_equal(pfs_ddfmt_format_dd_copied(buf, sizeof(buf), 1048575, 1000000000), 0);
	assert_string_equal(buf, "1048575 bytes (1.0 MB, 1.0 MiB) copied, 1 s, 1.0 MB/s\n");
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = calloc(1, 4096);
	size_t n;

	assert_non_null(f);
	assert_non_null(buf);
	n = fread(buf, 1, 4095, f);
	assert_true(feof(f));
	fclose(f);
	buf[n] = '\0';
	return buf;
}

/* What a capture says: its record counts, bytes and the time as dd
 * printed it. */
struct capture {
	struct pfs_ddfmt_records rec;
	uint64_t bytes;
	char secs[32];
};

static void parse_capture(const char *text, struct capture *c)
{
	const char *line = text, *p, *q;
	int n = -1;

	memset(c, 0, sizeof(*c));
	assert_int_equal(sscanf(line, "%" SCNu64 "+%" SCNu64 " records in\n%" SCNu64 "+%" SCNu64
				      " records out\n%n",
				&c->rec.in_full, &c->rec.in_partial, &c->rec.out_full,
				&c->rec.out_partial, &n),
			 4);
	assert_true(n > 0);
	line += n;
	if (strstr(line, "truncated record")) {
		assert_int_equal(sscanf(line, "%" SCNu64, &c->rec.truncated), 1);
		line = strchr(line, '\n') + 1;
	}
	assert_int_equal(sscanf(line, "%" SCNu64, &c->bytes), 1);
	p = strstr(line, " copied, ");
	assert_non_null(p);
	p += strlen(" copied, ");
	q = strstr(p, " s, ");
	assert_non_null(q);
	assert_true((size_t)(q - p) < sizeof(c->secs));
	memcpy(c->secs, p, (size_t)(q - p));
}

static void format_capture(const struct capture *c, uint64_t ns, char *out, size_t len)
{
	size_t used;

	assert_int_equal(pfs_ddfmt_format_dd_records(out, len, &c->rec), 0);
	used = strlen(out);
	assert_int_equal(pfs_ddfmt_format_dd_copied(out + used, len - used, c->bytes, ns), 0);
}

/* dd's time: %g of ns / 10^9 */
static double printed_secs(uint64_t ns)
{
	char s[32];

	snprintf(s, sizeof(s), "%g", (double)ns / 1e9);
	return strtod(s, NULL);
}

/* The nanosecond counts that dd prints as secs: an interval, since the
 * printed time never decreases as the time grows. */
static void ns_interval(const char *secs, uint64_t *lo, uint64_t *hi)
{
	double t = strtod(secs, NULL);
	uint64_t mid = (uint64_t)(t * 1e9 + 0.5), a, b;

	assert_true(printed_secs(mid) == t);
	for (a = 0, b = mid; a < b;) { /* the first ns printed as t */
		uint64_t m = a + (b - a) / 2;

		if (printed_secs(m) < t)
			a = m + 1;
		else
			b = m;
	}
	*lo = a;
	for (a = mid, b = 2 * mid + 1000000; a < b;) { /* the last */
		uint64_t m = a + (b - a + 1) / 2;

		if (printed_secs(m) > t)
			b = m - 1;
		else
			a = m;
	}
	*hi = a;
}

static void test_dd_lines_match_captured_gnu_dd(void **state)
{
	FILE *index = fopen(DATA_DIR "/dd/index.txt", "r");
	char line[1024], name[128], ns_text[32], path[512], out[2 * PFS_DDFMT_MAX];
	unsigned pinned = 0, real = 0;
	uint64_t tried = 0;

	(void)state;
	assert_non_null(index);
	while (fgets(line, sizeof(line), index)) {
		struct capture c;
		char *text;

		assert_int_equal(sscanf(line, "%127s %31s", name, ns_text), 2);
		snprintf(path, sizeof(path), DATA_DIR "/dd/%s.txt", name);
		text = slurp(path);
		parse_capture(text, &c);
		if (strcmp(ns_text, "-")) {
			/* pinned clock: dd's elapsed time is known exactly */
			format_capture(&c, strtoull(ns_text, NULL, 10), out, sizeof(out));
			if (strcmp(out, text))
				fail_msg("%s: got\n%swant\n%s", name, out, text);
			pinned++;
		} else {
			uint64_t lo, hi;

			ns_interval(c.secs, &lo, &hi);
			assert_true(hi - lo < 100000000); /* keep the loop short */
			for (uint64_t ns = lo; ns <= hi; ns++) {
				format_capture(&c, ns, out, sizeof(out));
				if (strcmp(out, text))
					fail_msg("%s at %" PRIu64 " ns (dd printed %s s, %" PRIu64
						 "..%" PRIu64 " ns): got\n%swant\n%s",
						 name, ns, c.secs, lo, hi, out, text);
			}
			tried += hi - lo + 1;
			real++;
		}
		free(text);
	}
	fclose(index);
	print_message("dd captures: %u pinned, %u real (%" PRIu64 " ns values tried)\n", pinned,
		      real, tried);
	assert_true(pinned >= 10 && real >= 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dm_line_of_the_seed),
		cmocka_unit_test(test_dm_line_sizes_past_4gib_and_times_past_an_hour),
		cmocka_unit_test(test_dm_line_zero_time_divides_as_dm),
		cmocka_unit_test(test_dm_line_reports_a_short_buffer),
		cmocka_unit_test(test_dm_numbers_take_dms_suffixes_and_bases),
		cmocka_unit_test(test_dm_numbers_refuse_garbage_with_dms_words),
		cmocka_unit_test(test_dm_numbers_out_of_range),
		cmocka_unit_test(test_dm_number_errors_stay_short_and_printable),
		cmocka_unit_test(test_lmdd_line),
		cmocka_unit_test(test_dd_records_lines),
		cmocka_unit_test(test_dd_copied_line_edges),
		cmocka_unit_test(test_dd_lines_match_captured_gnu_dd),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
