/* test_bonniefmt.c: bonnie++'s formats. Golden files (tests/data/bonnie,
 * see its README): each CSV line, read and written again, gives back
 * bonnie++'s own text tables and CSV line byte for byte, for the seed's
 * bonnie++ 1.96 runs and for Debian's bonnie++ 2.00a run on this machine.
 * Then the rules one by one at their edges (+++++, blanks, huge rates,
 * latency units, k/m/g, name cutting, size columns), and hostile lines,
 * each refused with a message naming the field. */
#include "cmocka_prelude.h"

#include "pfsbench/formats/bonniefmt.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* n commas, for CSV lines of mostly empty fields */
#define C5 ",,,,,"
#define COMMAS(n) COMMAS_##n
#define COMMAS_5 C5
#define COMMAS_14 C5 C5 ",,,,"
#define COMMAS_15 C5 C5 C5
#define COMMAS_17 C5 C5 C5 ",,"
#define COMMAS_19 C5 C5 C5 ",,,,"
#define COMMAS_22 C5 C5 C5 C5 ",,"
#define COMMAS_41 C5 C5 C5 C5 C5 C5 C5 C5 ","
#define COMMAS_45 C5 C5 C5 C5 C5 C5 C5 C5 C5

static char *read_data(const char *file)
{
	char path[512];
	FILE *f;
	char *buf;
	long len;

	snprintf(path, sizeof(path), "%s/%s", BONNIE_DATA_DIR, file);
	f = fopen(path, "r");
	if (!f)
		fail_msg("cannot open '%s'", path);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	len = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)len + 1);
	assert_non_null(buf);
	assert_true(fread(buf, 1, (size_t)len, f) == (size_t)len);
	fclose(f);
	return buf;
}

/* r printed to memory: its text tables with flags, or its CSV line. */
static char *printed(const struct pfs_bonnie_result *r, bool csv, unsigned flags)
{
	char *out = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&out, &len);

	assert_non_null(fp);
	if (csv)
		assert_int_equal(pfs_bonnie_print_csv(fp, r), 0);
	else
		assert_int_equal(pfs_bonnie_print_text(fp, r, flags), 0);
	fclose(fp);
	return out;
}

static char *text_of(const struct pfs_bonnie_result *r, unsigned flags)
{
	return printed(r, false, flags);
}

static char *csv_of(const struct pfs_bonnie_result *r)
{
	return printed(r, true, 0);
}

static void parse_ok(const char *line, struct pfs_bonnie_result *r)
{
	char err[256];

	if (pfs_bonnie_parse_csv(line, r, err, sizeof(err)))
		fail_msg("refused %s: %s", line, err);
}

/* ---- golden files ----------------------------------------------------------- */

static const struct golden {
	const char *text, *csv;
	unsigned flags;
	/* A hand edit in the seed's table that its CSV line does not have:
	 * the seed's text, and what bonnie++ printed there. */
	const char *edited, *printed;
	/* -s SIZE:CHUNK of the run, which 2.00a's text shows and its CSV
	 * line drops; 0 when default */
	uint32_t io_chunk_bytes;
} goldens[] = {
	/* the seed's two runs with their CSV line; in test 4 the poster's
	 * edit of the host name left a dot in the file table only */
	{ "1.96-seed-test3.txt", "1.96-seed-test3.csv", 0, NULL, NULL, 0 },
	{ "1.96-seed-test4.txt", "1.96-seed-test4.csv", 0, "\nvserverdev.         -Create--",
	  "\nvserverdev          -Create--", 0 },
	/* the seed's tables without one: the line is rebuilt from the table;
	 * test 2's tables name two machines, the I/O one is kept */
	{ "1.96-seed-node0.txt", "1.96-seed-node0.csv", 0, NULL, NULL, 0 },
	{ "1.96-seed-node1-node2.txt", "1.96-seed-node1-node2.csv", 0, NULL, NULL, 0 },
	{ "1.96-seed-test1.txt", "1.96-seed-test1.csv", 0, NULL, NULL, 0 },
	{ "1.96-seed-test2.txt", "1.96-seed-test2.csv", 0, "\ndev.                -Create--",
	  "\nvserverdev.world    -Create--", 0 },
	{ "1.96-seed-test5.txt", "1.96-seed-test5.csv", 0, NULL, NULL, 0 },
	{ "1.96-seed-test6.txt", "1.96-seed-test6.csv", 0, NULL, NULL, 0 },
	/* Debian's bonnie++ 2.00a on tmpfs here, text from -q's stderr */
	{ "2.00a-tmpfs.txt", "2.00a-tmpfs.csv", PFS_BONNIE_TEXT_FILE_COUNT_BUG, NULL, NULL, 0 },
	{ "2.00a-tmpfs-3g.txt", "2.00a-tmpfs-3g.csv", PFS_BONNIE_TEXT_FILE_COUNT_BUG, NULL, NULL,
	  0 },
	{ "2.00a-options.txt", "2.00a-options.csv", PFS_BONNIE_TEXT_FILE_COUNT_BUG, NULL, NULL,
	  4096 },
	{ "2.00a-links-no-io.txt", "2.00a-links-no-io.csv", PFS_BONNIE_TEXT_FILE_COUNT_BUG, NULL,
	  NULL, 0 },
	{ "2.00a-procs-no-files.txt", "2.00a-procs-no-files.csv",
	  PFS_BONNIE_TEXT_FILE_COUNT_BUG, NULL, NULL, 4096 },
};

/* The seed was copied from a MediaWiki page, whose French spacing turned
 * the space before each "%CP" into a no-break space (UTF-8 C2 A0). The
 * golden files keep the seed's bytes; this undoes exactly that change and
 * nothing else, and says how many it undid. */
static size_t unwiki(char *s)
{
	size_t n = 0;
	char *p;

	while ((p = strstr(s, "\xc2\xa0"))) {
		assert_true(p[2] == '%');
		*p = ' ';
		memmove(p + 1, p + 2, strlen(p + 2) + 1);
		n++;
	}
	return n;
}

static void test_golden_csv_gives_back_text_and_csv(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(goldens) / sizeof(goldens[0]); i++) {
		char *want_text = read_data(goldens[i].text), *line = read_data(goldens[i].csv);
		struct pfs_bonnie_result r;
		char *text, *csv;

		/* 12 %CP headings in each seed table, none in a captured one */
		assert_int_equal(unwiki(want_text), strncmp(goldens[i].text, "1.96-", 5) ? 0 : 12);
		if (goldens[i].edited) {
			char *p = strstr(want_text, goldens[i].edited);

			assert_non_null(p);
			assert_int_equal(strlen(goldens[i].edited), strlen(goldens[i].printed));
			memcpy(p, goldens[i].printed, strlen(goldens[i].printed));
			assert_null(strstr(p + 1, goldens[i].edited));
		}
		parse_ok(line, &r);
		if (goldens[i].io_chunk_bytes)
			r.io_chunk_bytes = goldens[i].io_chunk_bytes;
		text = text_of(&r, goldens[i].flags);
		csv = csv_of(&r);
		if (strcmp(text, want_text))
			fail_msg("%s:\n--- want\n%s--- got\n%s", goldens[i].text, want_text, text);
		if (strcmp(csv, line))
			fail_msg("%s:\n--- want\n%s--- got\n%s", goldens[i].csv, line, csv);
		free(text);
		free(csv);
		free(line);
		free(want_text);
	}
}

/* The parts of the tables, printed one after the other (and bonnie++'s
 * last newline when there is no file table), are the tables: for every
 * golden result. */
static void test_parts_make_the_tables(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(goldens) / sizeof(goldens[0]); i++) {
		char *line = read_data(goldens[i].csv), *whole, *parts = NULL;
		size_t len = 0;
		struct pfs_bonnie_result r;
		FILE *fp = open_memstream(&parts, &len);

		assert_non_null(fp);
		parse_ok(line, &r);
		if (r.file_size_mib) {
			assert_int_equal(pfs_bonnie_print_part(fp, &r, PFS_BONNIE_IO_HEAD, 0), 0);
			assert_int_equal(pfs_bonnie_print_part(fp, &r, PFS_BONNIE_IO_LINES,
							       goldens[i].flags), 0);
		}
		if (r.num_files_x1024) {
			assert_int_equal(pfs_bonnie_print_part(fp, &r, PFS_BONNIE_FILE_HEAD, 0), 0);
			assert_int_equal(pfs_bonnie_print_part(fp, &r, PFS_BONNIE_FILE_LINES,
							       goldens[i].flags), 0);
		} else {
			fputc('\n', fp);
		}
		fclose(fp);
		whole = text_of(&r, goldens[i].flags);
		if (strcmp(parts, whole))
			fail_msg("%s:\n--- whole\n%s--- parts\n%s", goldens[i].csv, whole, parts);
		free(whole);
		free(parts);
		free(line);
	}
}

/* A node's lines under another result's table: the I/O line names it by
 * itself, the file line, where bonnie++ puts the file count, takes the
 * name with PFS_BONNIE_TEXT_NAMED_LINE, cut to 19 columns. */
static void test_named_file_line(void **state)
{
	struct pfs_bonnie_result r;
	char *out = NULL;
	size_t len = 0;
	FILE *fp;

	(void)state;
	pfs_bonnie_init(&r);
	snprintf(r.name, sizeof(r.name), "a-rather-long-node-name.example.org");
	r.num_files_x1024 = 16;
	r.test[PFS_BONNIE_SEQ_CREATE].state = PFS_BONNIE_TOO_FAST;
	r.test[PFS_BONNIE_SEQ_CREATE].latency_ns = 1500000;
	fp = open_memstream(&out, &len);
	assert_non_null(fp);
	assert_int_equal(pfs_bonnie_print_part(fp, &r, PFS_BONNIE_FILE_LINES, 0), 0);
	assert_int_equal(pfs_bonnie_print_part(fp, &r, PFS_BONNIE_FILE_LINES,
					       PFS_BONNIE_TEXT_NAMED_LINE), 0);
	fclose(fp);
#define BLANK5 "                                                  " /* 5 blank figures */
	assert_string_equal(out, "                 16 +++++ +++" BLANK5 "\n"
				 "Latency              1500us" BLANK5 "\n"
				 "a-rather-long-node- +++++ +++" BLANK5 "\n"
				 "Latency              1500us" BLANK5 "\n");
#undef BLANK5
	free(out);
	/* no part without its section, nor a part that is none */
	pfs_bonnie_init(&r);
	fp = open_memstream(&out, &len);
	assert_non_null(fp);
	assert_int_equal(pfs_bonnie_print_part(fp, &r, (enum pfs_bonnie_part)9, 0), -EINVAL);
	fclose(fp);
	free(out);
}

/* Each test's name is bonnie++'s CSV header's, and finds the test back. */
static void test_test_names(void **state)
{
	(void)state;
	for (int t = 0; t < PFS_BONNIE_TESTS; t++)
		assert_int_equal(pfs_bonnie_test_find(pfs_bonnie_test_names[t]), t);
	assert_null(pfs_bonnie_test_names[PFS_BONNIE_TESTS]);
	assert_string_equal(pfs_bonnie_test_names[PFS_BONNIE_SEEKS], "seeks");
	assert_string_equal(pfs_bonnie_test_names[PFS_BONNIE_RAN_DEL], "ran_del");
	assert_int_equal(pfs_bonnie_test_find("Seeks"), -EINVAL);
	assert_int_equal(pfs_bonnie_test_find(""), -EINVAL);
	assert_int_equal(pfs_bonnie_test_find(NULL), -EINVAL);
}

/* Without -q bonnie++ writes both to stdout: tables, then the line. */
static void test_golden_stdout_is_text_then_csv(void **state)
{
	char *want = read_data("2.00a-tmpfs-stdout.txt"), *line, *text, *csv, *last;
	struct pfs_bonnie_result r;

	(void)state;
	/* the last line is the CSV line, the rest the tables */
	last = want + strlen(want) - 1;
	assert_true(*last == '\n');
	while (last > want && last[-1] != '\n')
		last--;
	line = strdup(last);
	*last = '\0';
	parse_ok(line, &r);
	text = text_of(&r, PFS_BONNIE_TEXT_FILE_COUNT_BUG);
	assert_string_equal(text, want);
	csv = csv_of(&r);
	assert_string_equal(csv, line);
	free(line);
	free(text);
	free(csv);
	free(want);
}

/* What the parser makes of the seed's test 3, field by field. */
static void test_parse_seed_fields(void **state)
{
	char *line = read_data("1.96-seed-test3.csv");
	struct pfs_bonnie_result r;

	(void)state;
	parse_ok(line, &r);
	assert_int_equal(r.format, PFS_BONNIE_FORMAT_1_96);
	assert_string_equal(r.version, "1.96");
	assert_string_equal(r.name, "dev");
	assert_int_equal(r.concurrency, 1);
	assert_string_equal(r.seed, "1270216200");
	assert_int_equal(r.file_size_mib, 1024);
	assert_int_equal(r.io_chunk_bytes, 8192);
	assert_int_equal(r.num_files_x1024, 16);
	assert_int_equal(r.num_dirs, 1);
	assert_int_equal(r.test[PFS_BONNIE_PUTC].state, PFS_BONNIE_MEASURED);
	assert_true(r.test[PFS_BONNIE_GET_BLOCK].rate == 114444.0);
	assert_int_equal(r.test[PFS_BONNIE_GET_BLOCK].cpu_pct, 9);
	assert_true(fabs(r.test[PFS_BONNIE_SEEKS].rate - 820.2) < 1e-9);
	assert_int_equal(r.test[PFS_BONNIE_PUTC].latency_ns, 181000000u);
	assert_int_equal(r.test[PFS_BONNIE_GET_BLOCK].latency_ns, 1734000u);
	assert_int_equal(r.test[PFS_BONNIE_RAN_DEL].latency_ns, 403000000u);
	free(line);

	line = read_data("2.00a-options.csv");
	parse_ok(line, &r);
	assert_int_equal(r.format, PFS_BONNIE_FORMAT_1_98);
	assert_string_equal(r.version, "2.00a");
	assert_int_equal(r.concurrency, 2);
	assert_int_equal(r.seeks, 1000);
	assert_int_equal(r.seek_procs, 10);
	/* 2.00a drops the chunk size from the line (the text has 4k) */
	assert_int_equal(r.io_chunk_bytes, 8192);
	assert_int_equal(r.max_bytes, 4096);
	assert_int_equal(r.min_bytes, 512);
	assert_int_equal(r.num_dirs, 3);
	assert_int_equal(r.test[PFS_BONNIE_PUTC].state, PFS_BONNIE_NOT_RUN);
	assert_int_equal(r.test[PFS_BONNIE_PUTC].latency_ns, 0);
	assert_int_equal(r.test[PFS_BONNIE_PUT_BLOCK].state, PFS_BONNIE_TOO_FAST);
	assert_int_equal(r.test[PFS_BONNIE_PUT_BLOCK].latency_ns, 257000u);
	free(line);
}

/* Every line the parser accepts is one the printer writes back as is:
 * each field of the golden lines is swapped for values bonnie++ writes
 * somewhere, and whatever is accepted must print back unchanged. */
static void test_every_accepted_line_prints_back(void **state)
{
	static const char *const values[] = {
		"",	"0",	 "1",	 "2",	  "16",	     "+++++",	 "+++",	  "1000.0", "999.9",
		"1000", "974.0", "1234", "0us",	  "99ms",    "99s",	 "100s",  "99999us", "link",
		"symlink", "4k", "1m",	 "512",	  "1G",	     "64M",	 "1.96",  "1.97",   "1.98",
		"8192", "8k",	 "99999ms", "100000us", "5ms", "012",	 "x",	  "-1",	    "0M",
	};
	const char *files[] = { "1.96-seed-test3.csv", "2.00a-options.csv", "2.00a-links-no-io.csv",
				"2.00a-tmpfs-3g.csv" };
	unsigned accepted = 0, refused = 0;

	(void)state;
	for (size_t fi = 0; fi < sizeof(files) / sizeof(files[0]); fi++) {
		char *line = read_data(files[fi]);
		size_t nfields = 1;

		for (const char *p = line; *p; p++)
			nfields += *p == ',';
		for (size_t k = 0; k < nfields; k++) {
			for (size_t v = 0; v < sizeof(values) / sizeof(values[0]); v++) {
				char mutated[2048], err[256];
				const char *p = line, *end;
				struct pfs_bonnie_result r;
				size_t n = 0;

				for (size_t j = 0; j < k; j++)
					p = strchr(p, ',') + 1;
				end = p + strcspn(p, ",\n");
				n = (size_t)snprintf(mutated, sizeof(mutated), "%.*s%s%s",
						     (int)(p - line), line, values[v], end);
				assert_true(n < sizeof(mutated));
				if (pfs_bonnie_parse_csv(mutated, &r, err, sizeof(err))) {
					assert_true(err[0] != '\0');
					refused++;
					continue;
				}
				{
					char *back = csv_of(&r);

					if (strcmp(back, mutated))
						fail_msg("field %zu = '%s' accepted, printed back"
							 " as\n%sinstead of\n%s",
							 k + 1, values[v], back, mutated);
					free(back);
				}
				accepted++;
			}
		}
		free(line);
	}
	assert_true(accepted > 100);
	assert_true(refused > 1000);
}

/* ---- hostile and malformed lines ------------------------------------------------ */

/* bonnie++ 2.00a's line of tests/data/bonnie/2.00a-options.csv. */
#define LINE98                                                                                 \
	"1.98,2.00a,pfsbench-test,2,1796077931,64M,,1000,10,,,+++++,+++,+++++,+++,,,+++++,+++," \
	"+++++,+++,1,4096,512,,3,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,"  \
	",257us,144us,,85us,150us,98us,99us,55us,62us,344us,180us"
#define LINE96                                                                                \
	"1.96,1.96,dev,1,1270216200,1G,,50,33,48255,3,1207,0,73,22,114444,9,820.2,5,16,,,,,582," \
	"2,2811,3,615,1,566,2,3365,3,419,0,181ms,215ms,261ms,115ms,1734us,684ms,192ms,3348us,"  \
	"204ms,137ms,2276us,403ms"

/* base with its fields first .. first + count - 1 (from 1) replaced by
 * text, which may hold commas; a first of 0 gives text alone. */
static void with_fields(char *buf, size_t len, const char *base, int first, int count,
			const char *text)
{
	const char *from = base, *to;

	if (!first) {
		snprintf(buf, len, "%s", text);
		return;
	}
	for (int i = 1; i < first; i++)
		from = strchr(from, ',') + 1;
	to = from;
	for (int i = 0; i < count && to; i++) {
		to = strchr(to, ',');
		to = to ? to + 1 : NULL;
	}
	assert_true((size_t)snprintf(buf, len, "%.*s%s%s%s", (int)(from - base), base, text,
				     to ? "," : "", to ? to : "") < len);
}

static void test_refuses_hostile_lines(void **state)
{
	static char big[6000], longname[300];
	static const struct {
		const char *base;
		int first, count; /* fields replaced; 0: the line is text */
		const char *text, *why;
	} cases[] = {
		{ LINE98, 0, 0, "", "field 1 (format_version): not 1.96, 1.97 or 1.98" },
		{ LINE98, 0, 0, "pfsbench-test,64M,488,79", "field 1 (format_version)" },
		{ LINE98, 1, 1, "1.99",
		  "field 1 (format_version): not 1.96, 1.97 or 1.98 (bonnie++ 1.96 and later): '1.99'" },
		{ LINE98, 0, 0, "format_version,bonnie_version,name", "a header line" },
		{ LINE98, 0, 0, "1.98,2.00a,x,1,2", "5 fields where a 1.98 line has 50" },
		{ LINE98, 50, 1, ",", "more than 50 fields" },
		{ LINE98, 41, 10, "", "41 fields where a 1.98 line has 50" },
		{ LINE98, 1, 1, "1.97", "50 fields where a 1.97 line has 48" },
		{ LINE96, 1, 1, "1.98", "48 fields where a 1.98 line has 50" },
		{ LINE98, 0, 0, big, "line longer than 4096 bytes" },
		{ LINE98, 3, 1, longname, "field 3 (name): too long" },
		{ LINE98, 3, 1, "pfs\tbench", "control character 0x09 at byte 15" },
		{ LINE98, 3, 1, "\033[2J", "control character 0x1b at byte 12" },
		{ LINE98, 3, 1, "x\r", "control character 0x0d at byte 13" },
		{ LINE98, 50, 1, "180us\n\n", "control character 0x0a" },
		{ LINE98, 2, 1, "", "field 2 (bonnie_version): empty" },
		{ LINE98, 2, 1, "2.00a-with-a-long-tail", "field 2 (bonnie_version): too long" },
		{ LINE98, 4, 1, "0", "field 4 (concurrency): too small: '0'" },
		{ LINE98, 4, 1, "02", "field 4 (concurrency): not a whole number as bonnie++ writes it: '02'" },
		{ LINE98, 4, 1, "+2", "field 4 (concurrency): not a whole number" },
		{ LINE98, 4, 1, "99999999999", "field 4 (concurrency): too large" },
		{ LINE98, 5, 1, longname, "field 5 (seed): too long" },
		{ LINE98, 6, 1, "64G0", "field 6 (file_size): not a size as bonnie++ writes it: '64G0'" },
		{ LINE98, 6, 1, "1024M", "field 6 (file_size): not a size as bonnie++ writes it" },
		{ LINE98, 6, 1, "64m", "field 6 (file_size): not a size" },
		{ LINE98, 6, 1, "64", "field 6 (file_size): not a size" },
		{ LINE98, 6, 1, "G", "field 6 (file_size): not a size" },
		{ LINE98, 6, 1, "0M", "field 6 (file_size): zero while I/O figures follow" },
		{ LINE98, 6, 1, "", "field 6 (file_size): empty while I/O figures follow" },
		{ LINE98, 6, 1, "99999999999999999999G", "field 6 (file_size): not a size" },
		{ LINE98, 6, 1, "18014398509481984G", "field 6 (file_size): not a size" },
		{ LINE98, 7, 1, "4k", "field 7 (io_chunk_size): bonnie++ 1.98 on leave it empty" },
		{ LINE98, 8, 1, "-1000", "field 8 (seeks): not a whole number" },
		{ LINE98, 9, 1, "", "field 9 (seek_proc_count): not a whole number" },
		{ LINE98, 10, 2, "12x,5", "field 10 (putc): not a whole number as bonnie++ writes it: '12x'" },
		{ LINE98, 10, 2, "-5,5", "field 10 (putc): not a whole number" },
		{ LINE98, 10, 2, "1.5,5", "field 10 (putc): not a whole number" },
		{ LINE98, 10, 2, "99999999999999999,5", "field 10 (putc): too large" },
		{ LINE98, 10, 2, ",5", "field 11 (putc_cpu): a %CPU without a rate" },
		{ LINE98, 10, 2, "12,", "field 11 (putc_cpu): a rate without its %CPU" },
		{ LINE98, 10, 2, "12,+++", "field 11 (putc_cpu): a rate without its %CPU" },
		{ LINE98, 10, 2, "12,-1", "field 11 (putc_cpu): not a whole number" },
		{ LINE98, 10, 2, "12,4294967296", "field 11 (putc_cpu): too large" },
		{ LINE98, 12, 2, "+++++,12", "field 13 (put_block_cpu): not '+++' after a '+++++' rate" },
		{ LINE98, 12, 2, "+++++,", "field 13 (put_block_cpu): not '+++' after a '+++++' rate" },
		{ LINE98, 12, 2, "++++,+++", "field 12 (put_block): not a whole number" },
		{ LINE98, 20, 2, "1234.5,3",
		  "field 20 (seeks): not a seek rate as bonnie++ writes it: '1234.5'" },
		{ LINE98, 20, 2, "974,3", "field 20 (seeks): not a seek rate" },
		{ LINE98, 20, 2, "97.45,3", "field 20 (seeks): not a seek rate" },
		{ LINE98, 20, 2, ".5,3", "field 20 (seeks): not a seek rate" },
		{ LINE98, 20, 2, "5.,3", "field 20 (seeks): not a seek rate" },
		{ LINE98, 20, 2, "1000.5,3", "field 20 (seeks): not a seek rate" },
		{ LINE98, 20, 2, "1e3,3", "field 20 (seeks): not a seek rate" },
		{ LINE98, 22, 1, "0", "field 22 (num_files): too small: '0'" },
		{ LINE98, 22, 1, "2097152", "field 22 (num_files): too large" },
		{ LINE98, 22, 1, "", "field 22 (num_files): not a whole number" },
		{ LINE98, 23, 1, "0", "field 23 (max_size): too small: '0'" },
		{ LINE98, 23, 1, "2147483648", "field 23 (max_size): too large" },
		{ LINE98, 23, 1, "links", "field 23 (max_size): not a whole number" },
		{ LINE98, 23, 2, "link,5", "field 24 (min_size): bonnie++ writes no min_size here: '5'" },
		{ LINE98, 23, 2, ",5", "field 24 (min_size): bonnie++ writes no min_size here" },
		{ LINE98, 25, 1, "4k", "field 25 (file_chunk_size): bonnie++ leaves it empty" },
		{ LINE98, 26, 1, "1", "field 26 (num_dirs): too small: '1'" },
		{ LINE98, 40, 1, "5ms",
		  "field 40 (put_block_latency): not a latency as bonnie++ writes it: '5ms'" },
		{ LINE98, 40, 1, "100000us", "field 40 (put_block_latency): not a latency" },
		{ LINE98, 40, 1, "12", "field 40 (put_block_latency): not a latency" },
		{ LINE98, 40, 1, "12 us", "field 40 (put_block_latency): not a latency" },
		{ LINE98, 40, 1, "us", "field 40 (put_block_latency): not a latency" },
		{ LINE98, 40, 1, "012us", "field 40 (put_block_latency): not a latency" },
		{ LINE98, 40, 1, "12h", "field 40 (put_block_latency): not a latency" },
		{ LINE98, 40, 1, "98s", "field 40 (put_block_latency): not a latency" },
		{ LINE98, 50, 1, "99999999999999999999s", "field 50 (ran_del_latency): not a latency" },
		{ LINE96, 7, 1, "8k", "field 7 (io_chunk_size): bonnie++ leaves the default empty: '8k'" },
		{ LINE96, 7, 1, "3x", "field 7 (io_chunk_size): not a size" },
		{ LINE96, 7, 1, "4K", "field 7 (io_chunk_size): not a size" },
		{ LINE96, 7, 1, "4096", "field 7 (io_chunk_size): not a size" },
		/* 1.96 -s 0 lines are one field short; this one is short with I/O */
		{ LINE96, 7, 2, "", "a 47-field 1.96 line (bonnie++ 1.96 -s 0) has no I/O figures" },
	};
	struct pfs_bonnie_result r, untouched;

	(void)state;
	memset(big, 'a', sizeof(big) - 1);
	memcpy(big, "1.98,", 5);
	memset(longname, 'n', sizeof(longname) - 1);
	memset(&untouched, 0x5a, sizeof(untouched));
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char line[8192], err[256] = "unset";

		with_fields(line, sizeof(line), cases[i].base, cases[i].first, cases[i].count,
			    cases[i].text);
		memcpy(&r, &untouched, sizeof(r));
		if (pfs_bonnie_parse_csv(line, &r, err, sizeof(err)) != -EINVAL)
			fail_msg("case %zu accepted: %s", i, line);
		if (!strstr(err, cases[i].why))
			fail_msg("case %zu: message '%s' lacks '%s'", i, err, cases[i].why);
		/* a refused line leaves the result alone */
		assert_memory_equal(&r, &untouched, sizeof(r));
	}
	assert_int_equal(pfs_bonnie_parse_csv(NULL, &r, NULL, 0), -EINVAL);
	{
		char err[8];

		/* a short message buffer gets a cut, terminated message */
		assert_int_equal(pfs_bonnie_parse_csv("x", &r, err, sizeof(err)), -EINVAL);
		assert_int_equal(strlen(err), 7);
	}
}

/* Line ends bonnie++ lines may carry when pasted, and a header line. */
static void test_line_ends_and_header(void **state)
{
	struct pfs_bonnie_result r;

	(void)state;
	parse_ok(LINE98, &r);
	parse_ok(LINE98 "\n", &r);
	parse_ok(LINE98 "\r\n", &r);
	assert_int_equal(pfs_bonnie_parse_csv(LINE98 "\n\n", &r, NULL, 0), -EINVAL);
	assert_true(pfs_bonnie_csv_is_header("format_version,bonnie_version,name,concurrency"));
	assert_false(pfs_bonnie_csv_is_header(LINE98));
	assert_false(pfs_bonnie_csv_is_header(NULL));
}

/* ---- the rules at their edges ------------------------------------------------------ */

/* A 1.98 result with no tests, machine "m", seed "s". */
static void result_1_98(struct pfs_bonnie_result *r)
{
	pfs_bonnie_init(r);
	assert_int_equal(pfs_bonnie_set_version(r, "2.00a"), 0);
	strcpy(r->name, "m");
	strcpy(r->seed, "s");
}


/* Line n (from 1) of text, without its newline. */
static const char *line_of(const char *text, int n, char *buf, size_t len)
{
	for (int i = 1; i < n && text; i++) {
		text = strchr(text, '\n');
		text = text ? text + 1 : NULL;
	}
	assert_non_null(text);
	snprintf(buf, len, "%.*s", (int)strcspn(text, "\n"), text);
	return buf;
}

/* Field k (from 1) of a CSV line. */
static const char *field_of(const char *line, int k, char *buf, size_t len)
{
	for (int i = 1; i < k && line; i++) {
		line = strchr(line, ',');
		line = line ? line + 1 : NULL;
	}
	assert_non_null(line);
	snprintf(buf, len, "%.*s", (int)strcspn(line, ",\n"), line);
	return buf;
}

/* Latency units: us up to 0.099999 s, ms up to 99.999999 s, s beyond;
 * bonnie++'s own floating point gives "0us", "99ms" and "99s". Each
 * prints the same read back. */
static void test_latency_units(void **state)
{
	static const struct {
		uint64_t ns;
		const char *text;
	} cases[] = {
		{ 0, "" },
		{ 1, "0us" },
		{ 999, "0us" },
		{ 1000, "1us" },
		{ 99999000, "99999us" },
		{ 99999001, "99ms" },
		{ 99999999, "99ms" },
		{ 100000000, "100ms" },
		{ 99999999000, "99999ms" },
		{ 99999999001, "99s" },
		{ 100000000000, "100s" },
		{ UINT64_MAX, "18446744073s" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pfs_bonnie_result r, back;
		char want[128], got[128], *csv, *text, *again;

		result_1_98(&r);
		r.file_size_mib = 64;
		r.test[PFS_BONNIE_PUTC].latency_ns = cases[i].ns;
		r.test[PFS_BONNIE_SEQ_DEL].latency_ns = cases[i].ns;
		csv = csv_of(&r);
		assert_string_equal(field_of(csv, 39, got, sizeof(got)), cases[i].text);
		assert_string_equal(field_of(csv, 47, got, sizeof(got)), cases[i].text);
		text = text_of(&r, 0);
		snprintf(want, sizeof(want), "Latency           %9s%50s", cases[i].text, "");
		assert_string_equal(line_of(text, 5, got, sizeof(got)), want);
		parse_ok(csv, &back);
		again = csv_of(&back);
		assert_string_equal(again, csv);
		free(again);
		free(text);
		free(csv);
	}
}

/* The line of one I/O test, all others blank: name, size and figures. */
static char *io_line(enum pfs_bonnie_format format, int t, enum pfs_bonnie_state st, double rate,
		     char *buf, size_t len)
{
	struct pfs_bonnie_result r;
	char *text;

	result_1_98(&r);
	if (format != PFS_BONNIE_FORMAT_1_98)
		assert_int_equal(pfs_bonnie_set_version(&r, "1.96"), 0);
	r.file_size_mib = 64;
	r.test[t] = (struct pfs_bonnie_figure){ .state = st, .rate = rate, .cpu_pct = 7 };
	text = text_of(&r, 0);
	line_of(text, 4, buf, len);
	free(text);
	return buf;
}

/* 1.98's KiB/s: k below 10000, m (one decimal below 100) below 1000 MiB/s,
 * g with one decimal beyond; the rounding is bonnie++'s. */
static void test_kmg_rates(void **state)
{
	static const struct {
		double kib;
		const char *text;
	} cases[] = {
		{ 0, "    0k" },	  { 9999, " 9999k" },	    { 9999.9, " 9999k" },
		{ 10000, "  9.8m" },	  { 10239, " 10.0m" },	    { 102348, " 99.9m" },
		{ 102349, " 100.0m" },	  { 102400, "  100m" },	    { 1023487, "  999m" },
		{ 1023488, " 1000m" },	  { 1024000, "  1.0g" },    { 4093640, "  3.9g" },
		{ 1e12, " 953674.3g" }, { 1e15, " 953674316.4g" },
	};
	char want[160], got[160];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(want, sizeof(want), "m               64M%10s%s   7%40s", "", cases[i].text,
			 "");
		io_line(PFS_BONNIE_FORMAT_1_98, PFS_BONNIE_PUT_BLOCK, PFS_BONNIE_MEASURED,
			cases[i].kib, got, sizeof(got));
		assert_string_equal(got, want);
	}
}

/* 1.96's K/sec: the integer, wider than its column when it must be. */
static void test_1_96_rates_and_seeks(void **state)
{
	static const struct {
		int t;
		double rate;
		const char *text;
	} cases[] = {
		{ PFS_BONNIE_PUTC, 0, "     0" },
		{ PFS_BONNIE_PUTC, 99999.9, " 99999" },
		{ PFS_BONNIE_PUTC, 100000, " 100000" },
		{ PFS_BONNIE_PUTC, 4000000000.0, " 4000000000" },
		{ PFS_BONNIE_PUTC, 1e15, " 1000000000000000" },
		{ PFS_BONNIE_SEEKS, 0.04, "   0.0" },
		{ PFS_BONNIE_SEEKS, 999.94, " 999.9" },
		{ PFS_BONNIE_SEEKS, 999.95, " 1000.0" },
		{ PFS_BONNIE_SEEKS, 1000, "  1000" },
		{ PFS_BONNIE_SEEKS, 123456.7, " 123457" },
	};
	char want[160], got[160];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		for (int f = PFS_BONNIE_FORMAT_1_96; f <= PFS_BONNIE_FORMAT_1_98; f += 2) {
			if (cases[i].t == PFS_BONNIE_PUTC && f == PFS_BONNIE_FORMAT_1_98)
				continue;
			snprintf(want, sizeof(want), "m               64M%*s%s   7%*s",
				 10 * cases[i].t, "", cases[i].text, 10 * (5 - cases[i].t), "");
			io_line(f, cases[i].t, PFS_BONNIE_MEASURED, cases[i].rate, got,
				sizeof(got));
			assert_string_equal(got, want);
		}
	}
	/* +++++ and blanks are the same in both */
	io_line(PFS_BONNIE_FORMAT_1_96, PFS_BONNIE_REWRITE, PFS_BONNIE_TOO_FAST, 0, got,
		sizeof(got));
	snprintf(want, sizeof(want), "m               64M%20s +++++ +++%30s", "", "");
	assert_string_equal(got, want);
}

/* Seek rates in the CSV line: the same decimals as the text; 1000.0 is a
 * rate just under 1000 and reads back as one. */
static void test_seeks_in_csv(void **state)
{
	static const struct {
		double rate;
		const char *text;
	} cases[] = {
		{ 0.04, "0.0" }, { 820.2, "820.2" }, { 999.94, "999.9" }, { 999.95, "1000.0" },
		{ 1000, "1000" }, { 123456.7, "123457" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pfs_bonnie_result r, back;
		char got[64], *csv, *again;

		result_1_98(&r);
		r.file_size_mib = 64;
		r.test[PFS_BONNIE_SEEKS] = (struct pfs_bonnie_figure){ PFS_BONNIE_MEASURED,
								       cases[i].rate, 3, 0 };
		csv = csv_of(&r);
		assert_string_equal(field_of(csv, 20, got, sizeof(got)), cases[i].text);
		parse_ok(csv, &back);
		assert_true(back.test[PFS_BONNIE_SEEKS].rate < 1000.0 || cases[i].rate >= 1000.0);
		again = csv_of(&back);
		assert_string_equal(again, csv);
		free(again);
		free(csv);
	}
}

/* The I/O line's first column: the name cut to leave room for the size
 * and a space, 19 columns in all; a size of more than 18 stands alone.
 * 1.98 on append chunk, concurrency, seeks and seekers when not default,
 * and lose a one-digit seeker count. */
static void test_name_and_size_columns(void **state)
{
	static const struct {
		enum pfs_bonnie_format format;
		const char *name;
		uint64_t mib;
		uint32_t chunk, conc, seeks, procs;
		const char *desc;
	} cases[] = {
		{ PFS_BONNIE_FORMAT_1_96, "", 1024, 8192, 1, 8192, 5, "                 1G" },
		{ PFS_BONNIE_FORMAT_1_96, "abcdefghijklmnop", 1024, 8192, 1, 8192, 5,
		  "abcdefghijklmnop 1G" },
		{ PFS_BONNIE_FORMAT_1_96, "abcdefghijklmnopqrstuvwxyz", 1024, 8192, 1, 8192, 5,
		  "abcdefghijklmnop 1G" },
		{ PFS_BONNIE_FORMAT_1_96, "abcdefghijklmnopqrstuvwxyz", 1536, 8192, 1, 8192, 5,
		  "abcdefghijklm 1536M" },
		{ PFS_BONNIE_FORMAT_1_96, "stardust.80sretro.com", 2048, 4096, 3, 100, 2,
		  "stardust.80sr 2G:4k" },
		{ PFS_BONNIE_FORMAT_1_96, "n", 1024, 512, 1, 8192, 5, "n            1G:512" },
		{ PFS_BONNIE_FORMAT_1_97, "n", 1024, 1048576, 1, 8192, 5, "n             1G:1m" },
		{ PFS_BONNIE_FORMAT_1_96, "n", 4294967295u, 4294967295u, 1, 8192, 5,
		  "4294967295M:4294967295" },
		{ PFS_BONNIE_FORMAT_1_98, "pfsbench-test", 64, 8192, 1, 8192, 3,
		  "pfsbench-test   64M" },
		{ PFS_BONNIE_FORMAT_1_98, "pfsbench-test", 64, 4096, 1, 8192, 3,
		  "pfsbench-tes 64M:4k" },
		{ PFS_BONNIE_FORMAT_1_98, "pfsbench-test", 64, 4096, 2, 1000, 10,
		  "pf 64M:4k:2:1000:10" },
		{ PFS_BONNIE_FORMAT_1_98, "pfsbench-test", 64, 8192, 1, 8192, 10,
		  "pfsbench- 64M::::10" },
		{ PFS_BONNIE_FORMAT_1_98, "pfsbench-test", 64, 8192, 1, 100, 3,
		  "pfsbench- 64M:::100" },
		{ PFS_BONNIE_FORMAT_1_98, "pfsbench-test", 64, 8192, 2, 8192, 5,
		  "pfsbench-tes 64M::2" },
		{ PFS_BONNIE_FORMAT_1_98, "pfsbench-test", 64, 8192, 1, 8192, 0,
		  "pfsbench-test   64M" },
		{ PFS_BONNIE_FORMAT_1_98, "n", 1024, 8192, 200, 12345, 1000, " 1G::200:12345:1000" },
		{ PFS_BONNIE_FORMAT_1_98, "n", 1024, 8192, 2000, 12345, 1000, "1G::2000:12345:1000" },
		{ PFS_BONNIE_FORMAT_1_98, "n", 1024, 1048576, 4294967295u, 4294967295u, 4294967295u,
		  "1G:1m:4294967295:4294967295:4294967295" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pfs_bonnie_result r;
		char want[160], got[160], *text;

		pfs_bonnie_init(&r);
		r.format = cases[i].format;
		strcpy(r.name, cases[i].name);
		r.file_size_mib = cases[i].mib;
		r.io_chunk_bytes = cases[i].chunk;
		r.concurrency = cases[i].conc;
		r.seeks = cases[i].seeks;
		r.seek_procs = cases[i].procs;
		text = text_of(&r, 0);
		snprintf(want, sizeof(want), "%s%60s", cases[i].desc, "");
		if (strcmp(line_of(text, 4, got, sizeof(got)), want))
			fail_msg("case %zu: got '%s'", i, got);
		free(text);
	}
}

/* 1.96's header rows: Concurrency, and Size:chnk when the chunk is not
 * the default; the CSV line keeps the chunk. */
static void test_1_96_headers(void **state)
{
	struct pfs_bonnie_result r;
	char got[160], *text, *csv;

	(void)state;
	pfs_bonnie_init(&r);
	strcpy(r.name, "n");
	r.concurrency = 12;
	r.file_size_mib = 2048;
	r.io_chunk_bytes = 4096;
	text = text_of(&r, 0);
	assert_string_equal(line_of(text, 1, got, sizeof(got)),
			    "Version  1.96       ------Sequential Output------ --Sequential Input- --Random-");
	assert_string_equal(line_of(text, 2, got, sizeof(got)),
			    "Concurrency  12     -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--");
	assert_string_equal(line_of(text, 3, got, sizeof(got)),
			    "Machine   Size:chnk K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP");
	csv = csv_of(&r);
	assert_string_equal(csv, "1.96,1.96,n,12,,2G,4k" COMMAS(41) "\n");
	free(csv);
	free(text);
}

/* The file table's first columns: the name cut to 19, the header row by
 * what -n set, and NUM[:MAX:MIN|:link|:symlink][/DIRS]; the CSV line
 * writes the directories one field late and never the chunk size. */
static void test_file_columns(void **state)
{
	static const struct {
		int32_t max, min;
		uint32_t dirs;
		const char *head, *desc, *csv;
	} cases[] = {
		{ 0, 0, 1, "              files ", "                 16", "16,,,," },
		{ 0, 0, 0, "              files ", "                 16", "16,,,," },
		{ 0, 0, 2, "              files ", "               16/2", "16,,,,2" },
		{ 4096, 0, 1, "files:max           ", "          16:4096:0", "16,4096,,," },
		{ 4096, 512, 7, "files:max:min       ", "      16:4096:512/7", "16,4096,512,,7" },
		{ PFS_BONNIE_LINKS, 0, 1, "files:max           ", "            16:link", "16,link,,," },
		{ PFS_BONNIE_SYMLINKS, 0, 3, "files:max           ", "       16:symlink/3",
		  "16,symlink,,,3" },
		/* -n 16:-1:5: the header counts the min the line never shows */
		{ PFS_BONNIE_LINKS, 5, 1, "files:max:min       ", "            16:link", "16,link,,," },
		{ 2147483647, 2147483647, 4294967295u, "files:max:min       ",
		  "16:2147483647:2147483647/4294967295", "16,2147483647,2147483647,,4294967295" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pfs_bonnie_result r;
		char want[256], got[256], *text, *csv;

		result_1_98(&r);
		strcpy(r.name, "a-machine-name-longer-than-19");
		r.num_files_x1024 = 16;
		r.max_bytes = cases[i].max;
		r.min_bytes = cases[i].min;
		r.num_dirs = cases[i].dirs;
		r.file_chunk_bytes = 4096;
		r.test[PFS_BONNIE_SEQ_CREATE].latency_ns = 5000;
		text = text_of(&r, 0);
		assert_string_equal(line_of(text, 2, got, sizeof(got)),
				    "a-machine-name-long -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--");
		snprintf(want, sizeof(want),
			 "%s /sec %%CP  /sec %%CP  /sec %%CP  /sec %%CP  /sec %%CP  /sec %%CP",
			 cases[i].head);
		assert_string_equal(line_of(text, 3, got, sizeof(got)), want);
		snprintf(want, sizeof(want), "%s%60s", cases[i].desc, "");
		assert_string_equal(line_of(text, 4, got, sizeof(got)), want);
		assert_string_equal(line_of(text, 5, got, sizeof(got)),
				    "Latency                 5us                                                  ");
		csv = csv_of(&r);
		snprintf(want, sizeof(want), "1.98,2.00a,a-machine-name-longer-than-19,1,s"
			 COMMAS(17) "%s" COMMAS(19) "5us" COMMAS(5) "\n", cases[i].csv);
		assert_string_equal(csv, want);
		free(csv);
		free(text);
	}
}

/* Which tables print: a result without I/O tests has only the file table
 * (1.96 writes its line one field short), one without file tests ends
 * with an empty line, one with neither is a newline. */
static void test_sections(void **state)
{
	struct pfs_bonnie_result r, back;
	char *text, *csv;

	(void)state;
	for (int f = PFS_BONNIE_FORMAT_1_96; f <= PFS_BONNIE_FORMAT_1_98; f++) {
		static const char *const versions[] = { "", "1.96", "1.97", "2.00a" };
		static const char *const want_csv[] = {
			"",
			/* 1.96: 13 I/O fields where 1.97 has 14 */
			"1.96,1.96,m,1,s" COMMAS(14) "1,,,,,+++++,+++" COMMAS(22) "\n",
			"1.97,1.97,m,1,s" COMMAS(15) "1,,,,,+++++,+++" COMMAS(22) "\n",
			"1.98,2.00a,m,1,s" COMMAS(17) "1,,,,,+++++,+++" COMMAS(22) "\n",
		};

		result_1_98(&r);
		assert_int_equal(pfs_bonnie_set_version(&r, versions[f]), 0);
		r.num_files_x1024 = 1;
		r.test[PFS_BONNIE_SEQ_CREATE].state = PFS_BONNIE_TOO_FAST;
		text = text_of(&r, 0);
		assert_int_equal(strncmp(text, "Version ", 8), 0);
		assert_non_null(strstr(text, "------Sequential Create------"));
		assert_null(strstr(text, "------Sequential Output------"));
		assert_string_equal(strchr(text, '\0') - 4, "   \n");
		csv = csv_of(&r);
		assert_string_equal(csv, want_csv[f]);
		parse_ok(csv, &back);
		free(text);
		text = csv_of(&back);
		assert_string_equal(text, csv);
		free(text);
		free(csv);
	}

	result_1_98(&r);
	r.file_size_mib = 64;
	text = text_of(&r, 0);
	assert_null(strstr(text, "Create"));
	assert_string_equal(strchr(text, '\0') - 2, "\n\n");
	free(text);

	result_1_98(&r);
	text = text_of(&r, 0);
	assert_string_equal(text, "\n");
	free(text);
	csv = csv_of(&r);
	assert_string_equal(csv, "1.98,2.00a,m,1,s" COMMAS(45) "\n");
	free(csv);
}

static struct pfs_bonnie_figure measured(double rate)
{
	return (struct pfs_bonnie_figure){ PFS_BONNIE_MEASURED, rate, 0, 0 };
}

/* Debian's 2.00a prints NUM x 1024 where a measured create rate belongs;
 * only with the flag, only in the 1.98 layout, never in the CSV line. */
static void test_file_count_bug(void **state)
{
	struct pfs_bonnie_result r;
	char got[160], *text;

	(void)state;
	result_1_98(&r);
	r.num_files_x1024 = 128;
	r.test[PFS_BONNIE_SEQ_CREATE] = measured(111212.7);
	r.test[PFS_BONNIE_SEQ_CREATE].cpu_pct = 82;
	r.test[PFS_BONNIE_SEQ_STAT].state = PFS_BONNIE_TOO_FAST;
	text = text_of(&r, PFS_BONNIE_TEXT_FILE_COUNT_BUG);
	assert_string_equal(line_of(text, 4, got, sizeof(got)),
			    "                128 131072  82 +++++ +++                                        ");
	free(text);
	text = text_of(&r, 0);
	assert_string_equal(line_of(text, 4, got, sizeof(got)),
			    "                128 111212  82 +++++ +++                                        ");
	free(text);
	assert_int_equal(pfs_bonnie_set_version(&r, "1.96"), 0);
	text = text_of(&r, PFS_BONNIE_TEXT_FILE_COUNT_BUG);
	assert_string_equal(line_of(text, 4, got, sizeof(got)),
			    "                128 111212  82 +++++ +++                                        ");
	free(text);
}

/* Results no CSV line could carry are refused before anything is written. */
static void test_refuses_bad_results(void **state)
{
	struct pfs_bonnie_result good, r;

	(void)state;
	result_1_98(&good);
	good.file_size_mib = 64;
	good.num_files_x1024 = 1;
	for (int i = 0; i < 12; i++) {
		char *out = NULL;
		size_t len = 0;
		FILE *fp;

		r = good;
		switch (i) {
		case 0: strcpy(r.name, "a,b"); break;
		case 1: strcpy(r.name, "a\nb"); break;
		case 2: strcpy(r.seed, "\033[2J"); break;
		case 3: memset(r.version, 'v', sizeof(r.version)); break;
		case 4: r.concurrency = 0; break;
		case 5: r.format = 0; break;
		case 6: r.test[PFS_BONNIE_PUTC] = measured(NAN); break;
		case 7: r.test[PFS_BONNIE_PUTC] = measured(-1); break;
		case 8: r.test[PFS_BONNIE_PUTC] = measured(2e15); break;
		case 9: r.test[PFS_BONNIE_RAN_DEL].state = (enum pfs_bonnie_state)7; break;
		case 10: r.max_bytes = -3; break;
		case 11: r.num_files_x1024 = PFS_BONNIE_NUM_FILES_MAX + 1; break;
		}
		fp = open_memstream(&out, &len);
		assert_int_equal(pfs_bonnie_print_csv(fp, &r), -EINVAL);
		assert_int_equal(pfs_bonnie_print_text(fp, &r, 0), -EINVAL);
		fclose(fp);
		assert_int_equal(len, 0);
		free(out);
	}
	assert_int_equal(pfs_bonnie_print_csv_header(stdout, 0), -EINVAL);
}

static void test_write_errors(void **state)
{
	struct pfs_bonnie_result r;
	FILE *fp = fopen("/dev/full", "w");

	(void)state;
	if (!fp)
		skip();
	result_1_98(&r);
	r.file_size_mib = 64;
	assert_int_equal(pfs_bonnie_print_text(fp, &r, 0), -EIO);
	assert_int_equal(pfs_bonnie_print_csv(fp, &r), -EIO);
	assert_int_equal(pfs_bonnie_print_csv_header(fp, PFS_BONNIE_FORMAT_1_98), -EIO);
	fclose(fp);
}

static void test_versions(void **state)
{
	static const struct {
		const char *version;
		int rc;
		enum pfs_bonnie_format format;
	} cases[] = {
		{ "1.96", 0, PFS_BONNIE_FORMAT_1_96 }, { "1.97", 0, PFS_BONNIE_FORMAT_1_97 },
		{ "1.98", 0, PFS_BONNIE_FORMAT_1_98 }, { "2.00", 0, PFS_BONNIE_FORMAT_1_98 },
		{ "2.00a", 0, PFS_BONNIE_FORMAT_1_98 }, { "1.03e", -EINVAL, 0 },
		{ "2.00b", -EINVAL, 0 },		{ "", -EINVAL, 0 },
		{ NULL, -EINVAL, 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pfs_bonnie_result r;

		pfs_bonnie_init(&r);
		assert_int_equal(pfs_bonnie_set_version(&r, cases[i].version), cases[i].rc);
		if (cases[i].rc)
			continue;
		assert_int_equal(r.format, cases[i].format);
		assert_string_equal(r.version, cases[i].version);
	}
}

/* bonnie++'s rule: blank when elapsed is 0, +++++ under 0.5 s. */
static void test_set_figure(void **state)
{
	struct pfs_bonnie_figure f = { .latency_ns = 42 };

	(void)state;
	assert_int_equal(pfs_bonnie_set_figure(&f, 3072, 0, 0), 0);
	assert_int_equal(f.state, PFS_BONNIE_NOT_RUN);
	assert_int_equal(pfs_bonnie_set_figure(&f, 3072, 499999, 10), 0);
	assert_int_equal(f.state, PFS_BONNIE_TOO_FAST);
	assert_int_equal(pfs_bonnie_set_figure(&f, 3072, 500000, 250000), 0);
	assert_int_equal(f.state, PFS_BONNIE_MEASURED);
	assert_true(f.rate == 6144.0);
	assert_int_equal(f.cpu_pct, 50);
	assert_int_equal(f.latency_ns, 42);
	/* %CPU is cut, not rounded, and may pass 100 with several processes */
	assert_int_equal(pfs_bonnie_set_figure(&f, 1, 3000000, 2999999), 0);
	assert_int_equal(f.cpu_pct, 99);
	assert_int_equal(pfs_bonnie_set_figure(&f, 1, 1000000, 2500000), 0);
	assert_int_equal(f.cpu_pct, 250);
	assert_int_equal(pfs_bonnie_set_figure(&f, 1, 1000000, UINT64_MAX), 0);
	assert_int_equal(f.cpu_pct, UINT32_MAX);
	assert_int_equal(pfs_bonnie_set_figure(&f, -1, 1000000, 0), -EINVAL);
	assert_int_equal(pfs_bonnie_set_figure(&f, NAN, 1000000, 0), -EINVAL);
	assert_int_equal(pfs_bonnie_set_figure(&f, 1e16, 1000000, 0), -EINVAL);
}

/* The header bonnie++ -x prints, each version's own. */
static void test_csv_headers(void **state)
{
	static const char tail[] =
		",file_size,io_chunk_size,putc,putc_cpu,put_block,put_block_cpu,rewrite,rewrite_cpu,"
		"getc,getc_cpu,get_block,get_block_cpu,seeks,seeks_cpu,num_files,max_size,min_size,"
		"num_dirs,file_chunk_size,seq_create,seq_create_cpu,seq_stat,seq_stat_cpu,seq_del,"
		"seq_del_cpu,ran_create,ran_create_cpu,ran_stat,ran_stat_cpu,ran_del,ran_del_cpu,"
		"putc_latency,put_block_latency,rewrite_latency,getc_latency,get_block_latency,"
		"seeks_latency,seq_create_latency,seq_stat_latency,seq_del_latency,ran_create_latency,"
		"ran_stat_latency,ran_del_latency\n";
	char want[1024];

	(void)state;
	for (int f = PFS_BONNIE_FORMAT_1_96; f <= PFS_BONNIE_FORMAT_1_98; f++) {
		char *out = NULL;
		size_t len = 0;
		FILE *fp = open_memstream(&out, &len);

		assert_int_equal(pfs_bonnie_print_csv_header(fp, f), 0);
		fclose(fp);
		snprintf(want, sizeof(want), "format_version,bonnie_version,name%s%s",
			 f == PFS_BONNIE_FORMAT_1_96 ? "" : ",concurrency,seed", tail);
		assert_string_equal(out, want);
		assert_true(pfs_bonnie_csv_is_header(out));
		free(out);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden_csv_gives_back_text_and_csv),
		cmocka_unit_test(test_golden_stdout_is_text_then_csv),
		cmocka_unit_test(test_parts_make_the_tables),
		cmocka_unit_test(test_named_file_line),
		cmocka_unit_test(test_test_names),
		cmocka_unit_test(test_parse_seed_fields),
		cmocka_unit_test(test_every_accepted_line_prints_back),
		cmocka_unit_test(test_refuses_hostile_lines),
		cmocka_unit_test(test_line_ends_and_header),
		cmocka_unit_test(test_latency_units),
		cmocka_unit_test(test_kmg_rates),
		cmocka_unit_test(test_1_96_rates_and_seeks),
		cmocka_unit_test(test_seeks_in_csv),
		cmocka_unit_test(test_name_and_size_columns),
		cmocka_unit_test(test_1_96_headers),
		cmocka_unit_test(test_file_columns),
		cmocka_unit_test(test_sections),
		cmocka_unit_test(test_file_count_bug),
		cmocka_unit_test(test_refuses_bad_results),
		cmocka_unit_test(test_write_errors),
		cmocka_unit_test(test_versions),
		cmocka_unit_test(test_set_figure),
		cmocka_unit_test(test_csv_headers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
