/* test_export.c: CSV fields by RFC 4180, with control characters escaped
 * and formulas made text, and JSON strings, written to memory. */
#include "cmocka_prelude.h"

#include "pfsbench/commands/export.h"

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
		{ "two\nlines", "two\\x0alines" }, { "cr\r", "cr\\x0d" },
		{ "rw,noatime,lockproto=lock_dlm", "\"rw,noatime,lockproto=lock_dlm\"" },
		/* no raw ESC or C1 for a terminal or a spreadsheet */
		{ "\033]0;t\007\x9b\xc2\x9b", "\\x1b]0;t\\x07\\x9b\\xc2\\x9b" },
		/* formulas: a quote first, inside the quoted cell */
		{ "=cmd|' /C calc'!A0", "'=cmd|' /C calc'!A0" },
		{ "=HYPERLINK(\"h\",\"x\")", "\"'=HYPERLINK(\"\"h\"\",\"\"x\"\")\"" },
		{ "+1", "'+1" }, { "-x", "'-x" }, { "@x", "'@x" },
		{ "\tx", "'\\x09x" }, { "\rx", "'\\x0dx" },
		{ "a=1", "a=1" }, { "1-2", "1-2" },
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
		{ "\033[2J\x7f", "\"\\u001b[2J\\u007f\"" },
		{ "c1\xc2\x9b\xc2\x80", "\"c1\\u009b\\u0080\"" },
		{ "raw\x9b", "\"raw\\ufffd\"" },
		{ "nbsp\xc2\xa0", "\"nbsp\xc2\xa0\"" },
		{ "ls\xe2\x80\xa8ps\xe2\x80\xa9", "\"ls\\u2028ps\\u2029\"" }, /* separators */
		{ "\xe2\x80\xaeRLO\xe2\x81\xa6\xd8\x9c", "\"\\u202eRLO\\u2066\\u061c\"" }, /* bidi */
		{ "\xe2\x80\xa7\xe2\x80\xaf", "\"\xe2\x80\xa7\xe2\x80\xaf\"" }, /* neighbours kept */
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
