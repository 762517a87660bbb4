/* test_html.c: the report's HTML pieces, written to memory: escaping of
 * what a results file says, base64 against RFC 4648's test vectors, a
 * figure's data URI, and a page that loads nothing from anywhere. */
#include "cmocka_prelude.h"

#include "pfsbench/pictures/html.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *capture_text(const char *in)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	assert_non_null(fp);
	pfs_html_text(fp, in);
	fclose(fp);
	return buf;
}

static void test_text_escaped(void **state)
{
	static const char *const cases[][2] = {
		{ "plain", "plain" },
		{ "<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;" },
		{ "a & \"b\" 'c'", "a &amp; &quot;b&quot; &#39;c&#39;" },
		{ "two\nlines\ttab", "two\nlines\ttab" },
		{ "bell\a\x1b[31m", "bell&#xfffd;&#xfffd;[31m" },
		{ "caf\xc3\xa9", "caf\xc3\xa9" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = capture_text(cases[i][0]);

		assert_string_equal(got, cases[i][1]);
		free(got);
	}
}

static void test_base64_rfc4648(void **state)
{
	static const char *const cases[][2] = {
		{ "", "" },         { "f", "Zg==" },         { "fo", "Zm8=" },
		{ "foo", "Zm9v" },  { "foob", "Zm9vYg==" },  { "fooba", "Zm9vYmE=" },
		{ "foobar", "Zm9vYmFy" },
	};
	static const unsigned char high[] = { 0xff, 0xfe, 0x00 };

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *fp = open_memstream(&buf, &len);

		pfs_base64(fp, cases[i][0], strlen(cases[i][0]));
		fclose(fp);
		assert_string_equal(buf, cases[i][1]);
		free(buf);
	}
	{
		char *buf = NULL;
		size_t len = 0;
		FILE *fp = open_memstream(&buf, &len);

		pfs_base64(fp, high, sizeof(high));
		fclose(fp);
		assert_string_equal(buf, "//4A");
		free(buf);
	}
}

static void test_page_and_figure(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	(void)state;
	pfs_html_begin(fp, "run <1>");
	pfs_html_figure(fp, "image/svg+xml", "<svg/>", 6, "node \"x\"");
	pfs_html_pre(fp, "a < b");
	pfs_html_end(fp);
	fclose(fp);
	assert_non_null(strstr(buf, "<title>run &lt;1&gt;</title>"));
	assert_non_null(strstr(buf, "default-src 'none'; img-src data:"));
	assert_non_null(strstr(buf, "name=\"viewport\" content=\"width=device-width"));
	assert_non_null(strstr(buf, "<img src=\"data:image/svg+xml;base64,PHN2Zy8+\" alt=\"node &quot;x&quot;\">"));
	assert_non_null(strstr(buf, "<figcaption>node &quot;x&quot;</figcaption>"));
	assert_non_null(strstr(buf, "<pre>a &lt; b</pre>"));
	/* Nothing from anywhere else. */
	assert_null(strstr(buf, "://"));
	assert_null(strstr(buf, "<script"));
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text_escaped),
		cmocka_unit_test(test_base64_rfc4648),
		cmocka_unit_test(test_page_and_figure),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
