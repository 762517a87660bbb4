/* test_export.c: CSV fields by RFC 4180 and JSON strings, written to memory. */
#include "cmocka_prelude.h"

#include "pfsbench/export.h"

#include <stdio.h>
#include <stdlib.h>

static void check(void (*fn)(FILE *, const char *), const char *in, const char *want)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	assert_non_null(fp);
	fn(fp, in);
	fclose(fp);
	assert_string_equal(buf, want);
	free(buf);
}

static void test_csv_quotes_only_when_needed(void **state)
{
	static const char *const cases[][2] = {
		{ "plain", "plain" },         { "", "" },
		{ "a,b", "\"a,b\"" },         { "say \"hi\"", "\"say \"\"hi\"\"\"" },
		{ "two\nlines", "\"two\nlines\"" }, { "cr\r", "\"cr\r\"" },
		{ "rw,noatime,lockproto=lock_dlm", "\"rw,noatime,lockproto=lock_dlm\"" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		check(pfs_csv_field, cases[i][0], cases[i][1]);
}

static void test_json_escapes_and_keeps_utf8(void **state)
{
	static const char *const cases[][2] = {
		{ "plain", "\"plain\"" },
		{ "", "\"\"" },
		{ "a\"b\\c", "\"a\\\"b\\\\c\"" },
		{ "tab\there\n", "\"tab\\u0009here\\u000a\"" },
		{ "caf\xc3\xa9", "\"caf\xc3\xa9\"" },
		{ "bad\xff", "\"bad\\ufffd\"" },
		{ "cut\xe2\x82", "\"cut\\ufffd\\ufffd\"" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		check(pfs_json_string, cases[i][0], cases[i][1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_csv_quotes_only_when_needed),
		cmocka_unit_test(test_json_escapes_and_keeps_utf8),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
