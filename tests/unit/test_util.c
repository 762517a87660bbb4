/* test_util.c: the median, number and size parsing, checked formatting, overflow,
 * reading a text file. */
#include "cmocka_prelude.h"

#include "pfsbench/core/util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void test_median(void **state)
{
	double odd[] = { 5, 1, 3 }, even[] = { 4, 1, 3, 2 }, one[] = { 7 };
	double dups[] = { 2, -1, 2, 0.5 }, by[] = { 0.5, -0.25, 0.25 };

	(void)state;
	assert_true(pfs_median(odd, 3) == 3);
	assert_true(odd[0] == 1 && odd[2] == 5); /* sorted in place */
	assert_true(pfs_median(even, 4) == 2.5);
	assert_true(pfs_median(one, 1) == 7);
	assert_true(isnan(pfs_median(one, 0)));
	assert_true(pfs_median(dups, 4) == 1.25);
	/* the order pfs_double_cmp gives, equal values equal */
	pfs_sort(by, 3, sizeof(*by), pfs_double_cmp);
	assert_true(by[0] == -0.25 && by[1] == 0.25 && by[2] == 0.5);
	assert_int_equal(pfs_double_cmp(&by[1], &by[1]), 0);
	assert_true(pfs_double_cmp(&by[0], &by[1]) < 0 && pfs_double_cmp(&by[2], &by[1]) > 0);
}

static void test_parse_u64_accepts_whole_numbers(void **state)
{
	static const struct { const char *in; uint64_t want; } ok[] = {
		{ "0", 0 }, { "1", 1 }, { "50000", 50000 }, { "18446744073709551615", UINT64_MAX },
	};
	uint64_t v;

	(void)state;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		assert_int_equal(pfs_parse_u64(ok[i].in, &v), 0);
		assert_true(v == ok[i].want);
	}
}

static void test_parse_u64_rejects_garbage(void **state)
{
	static const char *const bad[] = { "", "-1", "+1", "1x", "x1", " 1", "1 ", "0x10", "1.5" };
	uint64_t v;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(pfs_parse_u64(bad[i], &v), -EINVAL);
	assert_int_equal(pfs_parse_u64("18446744073709551616", &v), -ERANGE);
	assert_int_equal(pfs_parse_u64(NULL, &v), -EINVAL);
}

static void test_env_count(void **state)
{
	static const char *const ignored[] = { "", "0", "-3", "3x", " 3", "18446744073709551616" };

	(void)state;
	assert_int_equal(unsetenv("PFSBENCH_TEST_COUNT"), 0);
	assert_int_equal(pfs_env_count("PFSBENCH_TEST_COUNT", 7), 7);
	assert_int_equal(setenv("PFSBENCH_TEST_COUNT", "3", 1), 0);
	assert_int_equal(pfs_env_count("PFSBENCH_TEST_COUNT", 7), 3);
	for (size_t i = 0; i < sizeof(ignored) / sizeof(ignored[0]); i++) {
		assert_int_equal(setenv("PFSBENCH_TEST_COUNT", ignored[i], 1), 0);
		assert_int_equal(pfs_env_count("PFSBENCH_TEST_COUNT", 7), 7);
	}
	assert_int_equal(unsetenv("PFSBENCH_TEST_COUNT"), 0);
}

static void test_parse_size_suffixes(void **state)
{
	static const struct { const char *in; uint64_t want; } ok[] = {
		{ "4096", 4096 }, { "4k", 4096 }, { "4K", 4096 }, { "4m", 4u << 20 },
		{ "4M", 4u << 20 }, { "4MiB", 4u << 20 }, { "4MB", 4u << 20 },
		{ "1g", 1u << 30 }, { "2t", 2ull << 40 }, { "0", 0 },
	};
	uint64_t v;

	(void)state;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		assert_int_equal(pfs_parse_size(ok[i].in, &v), 0);
		assert_true(v == ok[i].want);
	}
}

static void test_parse_size_rejects(void **state)
{
	static const char *const bad[] = { "", "m", "4x", "4mm", "4Mib", "4 m", "-4m", "4iB" };
	uint64_t v;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(pfs_parse_size(bad[i], &v), -EINVAL);
	assert_int_equal(pfs_parse_size("17179869184g", &v), -ERANGE);
}

static void test_format_reports_truncation(void **state)
{
	char buf[8];

	(void)state;
	assert_int_equal(pfs_format(buf, sizeof(buf), "%s", "1234567"), 0);
	assert_string_equal(buf, "1234567");
	assert_int_equal(pfs_format(buf, sizeof(buf), "%s", "12345678"), -ENAMETOOLONG);
}

static void test_refuse_and_path_dir(void **state)
{
	char err[8], dir[8];

	(void)state;
	assert_int_equal(pfs_refuse(err, sizeof(err), -EINVAL, "bad %d", 7), -EINVAL);
	assert_string_equal(err, "bad 7");
	/* cut, but said */
	assert_int_equal(pfs_refuse(err, sizeof(err), -EINVAL, "%s", "much too long"), -EINVAL);
	assert_string_equal(err, "much to");
	assert_int_equal(pfs_refuse(NULL, 0, -ENOENT, "x"), -ENOENT);
	assert_int_equal(pfs_path_dir("a", dir, sizeof(dir)), 0);
	assert_string_equal(dir, ".");
	assert_int_equal(pfs_path_dir("/a", dir, sizeof(dir)), 0);
	assert_string_equal(dir, "/");
	assert_int_equal(pfs_path_dir("/dev/sdb", dir, sizeof(dir)), 0);
	assert_string_equal(dir, "/dev");
	assert_int_equal(pfs_path_dir("a/b/c", dir, sizeof(dir)), 0);
	assert_string_equal(dir, "a/b");
	assert_int_equal(pfs_path_dir("abcdefgh/c", dir, sizeof(dir)), -ENAMETOOLONG);
}

static void test_mul_overflow(void **state)
{
	uint64_t v;

	(void)state;
	assert_int_equal(pfs_mul_u64(1ull << 32, 1ull << 31, &v), 0);
	assert_true(v == 1ull << 63);
	assert_int_equal(pfs_mul_u64(1ull << 32, 1ull << 32, &v), -ERANGE);
	assert_int_equal(pfs_mul_u64(0, UINT64_MAX, &v), 0);
	assert_true(v == 0);
	assert_true(pfs_mul_sat_u64(1ull << 32, 1ull << 31) == 1ull << 63);
	assert_true(pfs_mul_sat_u64(1ull << 32, 1ull << 32) == UINT64_MAX);
	assert_true(pfs_mul_sat_u64(UINT64_MAX, 2) == UINT64_MAX);
	assert_true(pfs_mul_sat_u64(0, UINT64_MAX) == 0);
}

static void test_shell_quote_makes_one_word(void **state)
{
	static const struct { const char *in, *want; } cases[] = {
		{ "/tmp/run.h5", "/tmp/run.h5" },
		{ "a b.h5", "'a b.h5'" },
		{ "it's", "'it'\\''s'" },
		{ "", "''" },
		{ "$(rm -rf /)", "'$(rm -rf /)'" },
		{ "x\ny", "'x\ny'" },
	};
	char buf[64];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(pfs_shell_quote(buf, sizeof(buf), cases[i].in), 0);
		assert_string_equal(buf, cases[i].want);
	}
	/* "'ab'" needs 5 bytes with its NUL; "a'b" quoted needs 9. */
	assert_int_equal(pfs_shell_quote(buf, 5, "a b"), -ENAMETOOLONG);
	assert_int_equal(pfs_shell_quote(buf, 6, "a b"), 0);
	assert_int_equal(pfs_shell_quote(buf, 8, "a'b"), -ENAMETOOLONG);
	assert_int_equal(pfs_shell_quote(buf, 9, "a'b"), 0);
	assert_string_equal(buf, "'a'\\''b'");
}

/* A file bigger than the first buffer, read whole; a missing one, -ENOENT. */
static void test_read_text(void **state)
{
	char path[] = "/tmp/pfsbench-util-XXXXXX", *text;
	int fd;
	FILE *f;

	(void)state;
	assert_true((fd = mkstemp(path)) >= 0);
	assert_non_null(f = fdopen(fd, "w"));
	for (int i = 0; i < 3000; i++)
		fprintf(f, "line %04d\n", i);
	fclose(f);
	assert_int_equal(pfs_read_text(path, &text), 0);
	assert_int_equal(strlen(text), 30000);
	assert_memory_equal(text + 29990, "line 2999\n", 10);
	free(text);
	unlink(path);
	assert_int_equal(pfs_read_text(path, &text), -ENOENT);
	assert_null(text);
}

static void test_clock_is_monotonic(void **state)
{
	uint64_t a = pfs_now_us(), b = pfs_now_us();

	(void)state;
	assert_true(b >= a);
}

static void test_errno_names(void **state)
{
	(void)state;
	assert_string_equal(pfs_errno_name(ENOSPC), "ENOSPC");
	assert_string_equal(pfs_errno_name(EIO), "EIO");
	assert_string_equal(pfs_errno_name(EDQUOT), "EDQUOT");
	assert_string_equal(pfs_errno_name(-12345), "unknown errno");
}

static int cmp_never(const void *a, const void *b)
{
	(void)a;
	(void)b;
	fail_msg("an empty list was compared");
	return 0;
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* An empty list's array is NULL (show --analyze on a tree run): nothing
 * reaches qsort, which may not take NULL even for 0 elements. */
static void test_sort_takes_empty_null_lists(void **state)
{
	int v[] = { 3, 1, 2 };

	(void)state;
	pfs_sort(NULL, 0, sizeof(int), cmp_never);
	pfs_sort(v, 3, sizeof(int), cmp_int);
	assert_int_equal(v[0], 1);
	assert_int_equal(v[2], 3);
}

/* A median of a damaged file's times reaches 2^64: saturated, not cast. */
static void test_u64_sat(void **state)
{
	(void)state;
	assert_true(pfs_u64_sat(0x1p64) == UINT64_MAX);
	assert_true(pfs_u64_sat(1.8446744073709552e19) == UINT64_MAX);
	assert_true(pfs_u64_sat(1e300) == UINT64_MAX);
	assert_true(pfs_u64_sat(-1.0) == 0);
	assert_true(pfs_u64_sat(0.0 / 0.0) == 0);
	assert_true(pfs_u64_sat(12345.9) == 12345);
	assert_true(pfs_u64_sat(0x1p63) == UINT64_C(1) << 63);
}

/* pfs_printable: each class of byte, and the cut at the buffer's end. */
static void test_printable_escapes_every_control(void **state)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "gfs-02-lp01", "gfs-02-lp01" },                 /* ordinary: as it is */
		{ "", "" },
		{ "a\033]0;t\007b", "a\\x1b]0;t\\x07b" },         /* C0: ESC, BEL */
		{ "n1\nDone.\tx\r", "n1\\x0aDone.\\x09x\\x0d" }, /* newline, tab, CR */
		{ "\x01\x1f", "\\x01\\x1f" },
		{ "d\x7f", "d\\x7f" },                            /* DEL */
		{ "c\x9b" "2J", "c\\x9b2J" },                     /* C1 as a raw byte */
		{ "\x80\x9f", "\\x80\\x9f" },
		{ "c\xc2\x9b" "2J", "c\\xc2\\x9b2J" },            /* C1 in UTF-8 */
		{ "\xc2\x80\xc2\x9f", "\\xc2\\x80\\xc2\\x9f" },
		{ "\xc2\xa0\xc3\xa9", "\xc2\xa0\xc3\xa9" },       /* U+00A0, e acute: kept */
		{ "\xe2\x82\xac\xf0\x9f\x98\x80", "\xe2\x82\xac\xf0\x9f\x98\x80" }, /* 3, 4 bytes */
		{ "a\\x1b", "a\\x5cx1b" },                        /* a backslash is escaped too */
		{ "\xff\xfe", "\\xff\\xfe" },                     /* never UTF-8 */
		{ "\xc0\xaf", "\\xc0\\xaf" },                     /* overlong '/' */
		{ "\xe0\x80\xaf", "\\xe0\\x80\\xaf" },            /* overlong, 3 bytes */
		{ "\xed\xa0\x80", "\\xed\\xa0\\x80" },            /* a surrogate */
		{ "\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80" },   /* past U+10FFFF */
		{ "\xe2\x82", "\\xe2\\x82" },                     /* cut short at the end */
		{ "\xe2\x82x", "\\xe2\\x82x" },                   /* cut short inside */
		{ "a\xe2\x80\xa8" "b", "a\\xe2\\x80\\xa8b" },      /* U+2028 line separator */
		{ "\xe2\x80\xa9", "\\xe2\\x80\\xa9" },           /* U+2029 paragraph separator */
		{ "n\xe2\x80\xae" "1", "n\\xe2\\x80\\xae1" },      /* U+202E right-to-left override */
		{ "\xe2\x80\xaa\xe2\x80\xac", "\\xe2\\x80\\xaa\\xe2\\x80\\xac" }, /* U+202A, U+202C */
		{ "\xe2\x81\xa6\xe2\x81\xa9", "\\xe2\\x81\\xa6\\xe2\\x81\\xa9" }, /* isolates */
		{ "\xe2\x80\x8e\xe2\x80\x8f", "\\xe2\\x80\\x8e\\xe2\\x80\\x8f" }, /* LRM, RLM */
		{ "\xd8\x9c", "\\xd8\\x9c" },                     /* U+061C Arabic letter mark */
		{ "\xe2\x80\xa7\xe2\x80\xaf\xe2\x81\xa5\xe2\x81\xaa",
		  "\xe2\x80\xa7\xe2\x80\xaf\xe2\x81\xa5\xe2\x81\xaa" }, /* their neighbours: kept */
	};
	char buf[128];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_ptr_equal(pfs_printable(buf, sizeof(buf), cases[i].in), buf);
		assert_string_equal(buf, cases[i].out);
	}
}

static void test_printable_cuts_between_whole_units(void **state)
{
	char buf[16];

	(void)state;
	/* "ab\x1b" needs 7 bytes: in 6 the escape does not fit, whole. */
	assert_string_equal(pfs_printable(buf, 6, "ab\033c"), "ab");
	assert_string_equal(pfs_printable(buf, 7, "ab\033c"), "ab\\x1b");
	assert_string_equal(pfs_printable(buf, 8, "ab\033c"), "ab\\x1bc");
	/* A C1 control in UTF-8 is two escapes, cut as one. */
	for (size_t len = 1; len < 9; len++)
		assert_string_equal(pfs_printable(buf, len, "\xc2\x9b"), "");
	assert_string_equal(pfs_printable(buf, 9, "\xc2\x9b"), "\\xc2\\x9b");
	/* A multi-byte character is never split. */
	assert_string_equal(pfs_printable(buf, 4, "a\xe2\x82\xac"), "a");
	assert_string_equal(pfs_printable(buf, 5, "a\xe2\x82\xac"), "a\xe2\x82\xac");
	/* No room at all: "" and buf untouched by a terminator it has no room for. */
	assert_string_equal(pfs_printable(buf, 1, "abc"), "");
	assert_string_equal(pfs_printable(NULL, 0, "abc"), "");
	/* Every cut of a hostile string is whole escapes and whole characters. */
	static const char hostile[] = "\033]0;t\007\xc2\x9b\xe2\x82\xac\xff\\n";
	char full[PFS_PRINTABLE_SIZE(sizeof(hostile))];

	pfs_printable(full, sizeof(full), hostile);
	for (size_t len = 1; len <= sizeof(full); len++) {
		char cut[sizeof(full)];
		size_t n = strlen(pfs_printable(cut, len, hostile));

		assert_true(n < len);
		assert_memory_equal(cut, full, n); /* a prefix of the whole */
		/* ends at a unit: the next byte of the whole starts one */
		assert_true(!full[n] || full[n] == '\\' || (unsigned char)full[n] < 0x80 ||
			    (unsigned char)full[n] >= 0xc0);
		for (size_t k = 0; k < n; k++)
			assert_true((unsigned char)cut[k] >= 0x20 && cut[k] != 0x7f);
	}
}

static void test_utf8_len(void **state)
{
	(void)state;
	assert_int_equal(pfs_utf8_len("a"), 1);
	assert_int_equal(pfs_utf8_len(""), 1);
	assert_int_equal(pfs_utf8_len("\xc3\xa9"), 2);
	assert_int_equal(pfs_utf8_len("\xe2\x82\xac"), 3);
	assert_int_equal(pfs_utf8_len("\xf0\x9f\x98\x80"), 4);
	assert_int_equal(pfs_utf8_len("\x9b"), 0);
	assert_int_equal(pfs_utf8_len("\xc1\xbf"), 0);
	assert_int_equal(pfs_utf8_len("\xf5\x80\x80\x80"), 0);
	assert_int_equal(pfs_utf8_len("\xc3"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_median),
		cmocka_unit_test(test_parse_u64_accepts_whole_numbers),
		cmocka_unit_test(test_parse_u64_rejects_garbage),
		cmocka_unit_test(test_env_count),
		cmocka_unit_test(test_parse_size_suffixes),
		cmocka_unit_test(test_parse_size_rejects),
		cmocka_unit_test(test_format_reports_truncation),
		cmocka_unit_test(test_refuse_and_path_dir),
		cmocka_unit_test(test_mul_overflow),
		cmocka_unit_test(test_shell_quote_makes_one_word),
		cmocka_unit_test(test_read_text),
		cmocka_unit_test(test_clock_is_monotonic),
		cmocka_unit_test(test_errno_names),
		cmocka_unit_test(test_sort_takes_empty_null_lists),
		cmocka_unit_test(test_u64_sat),
		cmocka_unit_test(test_printable_escapes_every_control),
		cmocka_unit_test(test_printable_cuts_between_whole_units),
		cmocka_unit_test(test_utf8_len),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
