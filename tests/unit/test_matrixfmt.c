/* test_matrixfmt.c: perf_matrix's matrix, labelled matrix and diff, the
 * reader of old outputs, a cell's rate and the outlier rule.
 *
 * The golden tests use the seed's two matrices (cmirror-perf_matrix.txt,
 * read and write of /dev/vg/linear, iter=5), kept in tests/data/perf_matrix
 * as read.txt and write.txt in perf_matrix's own format: the list archive
 * wrapped each 13-number line at a space, leaving the space at the end of
 * the first piece, so each logical line is the pieces joined. The printer
 * must give those files back byte for byte. seed-diff.txt is the seed's
 * "perf_matrix.pl diff clinear-read.txt clinear-write.txt" exactly as the
 * archive wrapped it (22 pieces); joining each piece that ends in a space
 * with the next gives 11 lines, and our diff of read.txt and write.txt
 * must equal them byte for byte: all 143 cells, "-.--%" included. */
#include "cmocka_prelude.h"

#include "pfsbench/formats/matrixfmt.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf = calloc(1, 8192);

	assert_non_null(f);
	assert_non_null(buf);
	*len = fread(buf, 1, 8191, f);
	assert_true(feof(f));
	fclose(f);
	return buf;
}

static void read_seed(const char *name, struct pfs_matrix *m)
{
	char path[512], err[128];
	FILE *f;

	snprintf(path, sizeof(path), DATA_DIR "/perf_matrix/%s", name);
	f = fopen(path, "r");
	assert_non_null(f);
	pfs_matrixfmt_init_perf(m);
	if (pfs_matrixfmt_read(f, m, err, sizeof(err)))
		fail_msg("%s: %s", name, err);
	fclose(f);
}

/* What a print call wrote. */
struct out {
	char *text;
	size_t len;
	FILE *fp;
};

static void out_open(struct out *o)
{
	o->text = NULL;
	o->fp = open_memstream(&o->text, &o->len);
	assert_non_null(o->fp);
}

static void out_close(struct out *o)
{
	assert_int_equal(fclose(o->fp), 0);
}

static void test_perf_sizes(void **state)
{
	struct pfs_matrix m;

	(void)state;
	pfs_matrixfmt_init_perf(&m);
	assert_int_equal(m.rows, 11);
	assert_int_equal(m.cols, 13);
	assert_true(m.req_bytes[0] == 1024 && m.req_bytes[12] == 4u << 20);
	assert_true(m.xfer_bytes[0] == 1u << 20 && m.xfer_bytes[10] == 1u << 30);
	assert_true(m.mibps[10][12] == 0);
}

static void test_printer_gives_back_the_seeds_matrices(void **state)
{
	static const char *const names[] = { "read.txt", "write.txt" };

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		char path[512], *want;
		size_t want_len;
		struct pfs_matrix m;
		struct out o;

		read_seed(names[i], &m);
		snprintf(path, sizeof(path), DATA_DIR "/perf_matrix/%s", names[i]);
		want = slurp(path, &want_len);
		out_open(&o);
		assert_int_equal(pfs_matrixfmt_print(o.fp, &m), 0);
		out_close(&o);
		assert_int_equal(o.len, want_len);
		assert_memory_equal(o.text, want, want_len);
		free(o.text);
		free(want);
	}
}

static void test_diff_gives_the_seeds_diff(void **state)
{
	struct pfs_matrix a, b;
	char *wrapped, *joined, *w, *j;
	size_t len;
	struct out o;

	(void)state;
	read_seed("read.txt", &a);
	read_seed("write.txt", &b);
	wrapped = slurp(DATA_DIR "/perf_matrix/seed-diff.txt", &len);
	/* undo the archive's wrapping: a piece ending in a space goes on */
	joined = calloc(1, len + 1);
	for (w = wrapped, j = joined; *w; w++) {
		if (*w == '\n' && w > wrapped && w[-1] == ' ')
			continue;
		*j++ = *w;
	}
	out_open(&o);
	assert_int_equal(pfs_matrixfmt_print_diff(o.fp, &a, &b), 0);
	out_close(&o);
	assert_string_equal(o.text, joined);
	/* 11 lines of 13 cells */
	for (j = joined, len = 0; (j = strchr(j, '\n')); j++)
		len++;
	assert_int_equal(len, 11);
	free(o.text);
	free(joined);
	free(wrapped);
}

static void test_cell_whose_request_exceeds_its_transfer_is_0(void **state)
{
	struct pfs_matrix m;
	struct out o;
	double v = -1;

	(void)state;
	assert_int_equal(pfs_matrixfmt_cell_mibps(2u << 20, 1u << 20, 0, 0, &v), 0);
	assert_true(v == 0);
	assert_int_equal(pfs_matrixfmt_cell_mibps(1u << 20, 1u << 20, 1u << 20, 500000000, &v), 0);
	assert_true(v == 2.0);
	/* four ranks moved 4 x 8 MiB in 2 s */
	assert_int_equal(pfs_matrixfmt_cell_mibps(4096, 8u << 20, 32u << 20, 2000000000, &v), 0);
	assert_true(v == 16.0);
	assert_int_equal(pfs_matrixfmt_cell_mibps(0, 1u << 20, 1, 1, &v), -EINVAL);
	assert_int_equal(pfs_matrixfmt_cell_mibps(1024, 0, 1, 1, &v), -EINVAL);
	assert_int_equal(pfs_matrixfmt_cell_mibps(1024, 1024, 1024, 0, &v), -EINVAL);

	/* every cell moved its transfer in 1 s: the 1 MiB row ends in two
	 * 0.00 (2 and 4 MiB requests), the 2 MiB row in one */
	pfs_matrixfmt_init_perf(&m);
	for (unsigned r = 0; r < m.rows; r++)
		for (unsigned c = 0; c < m.cols; c++)
			assert_int_equal(pfs_matrixfmt_cell_mibps(m.req_bytes[c], m.xfer_bytes[r],
								  m.xfer_bytes[r], 1000000000,
								  &m.mibps[r][c]),
					 0);
	out_open(&o);
	assert_int_equal(pfs_matrixfmt_print(o.fp, &m), 0);
	out_close(&o);
	assert_memory_equal(o.text,
			    " 1.00 1.00 1.00 1.00 1.00 1.00 1.00 1.00 1.00 1.00 1.00 0.00 0.00\n"
			    " 2.00 2.00 2.00 2.00 2.00 2.00 2.00 2.00 2.00 2.00 2.00 2.00 0.00\n"
			    " 4.00 4.00 4.00 4.00 4.00 4.00 4.00 4.00 4.00 4.00 4.00 4.00 4.00\n",
			    3 * 66);
	assert_non_null(strstr(o.text, "\n 1024.00 1024.00 "));
	free(o.text);
}

static void test_labelled_matrix(void **state)
{
	struct pfs_matrix m;
	struct out o;

	(void)state;
	memset(&m, 0, sizeof(m));
	m.rows = 2;
	m.cols = 3;
	m.xfer_bytes[0] = 1u << 20;
	m.xfer_bytes[1] = 1u << 30;
	m.req_bytes[0] = 1536;
	m.req_bytes[1] = 1u << 20;
	m.req_bytes[2] = 4u << 20;
	m.mibps[0][0] = 25.244;
	m.mibps[0][1] = 9.5;
	m.mibps[1][0] = 1234.5;
	m.mibps[1][1] = 36.13;
	m.mibps[1][2] = 0;
	out_open(&o);
	assert_int_equal(pfs_matrixfmt_print_labelled(o.fp, &m), 0);
	out_close(&o);
	assert_string_equal(o.text,
			    "MiB/s by transfer size (rows) and request size (columns)\n"
			    "        1536B   1MiB  4MiB\n"
			    "1MiB    25.24   9.50     -\n"
			    "1GiB  1234.50  36.13  0.00\n");
	free(o.text);
	/* the same layout under another title */
	out_open(&o);
	assert_int_equal(pfs_matrixfmt_print_titled(o.fp, &m, "Slowest node / median node"), 0);
	out_close(&o);
	assert_string_equal(o.text,
			    "Slowest node / median node\n"
			    "        1536B   1MiB  4MiB\n"
			    "1MiB    25.24   9.50     -\n"
			    "1GiB  1234.50  36.13  0.00\n");
	free(o.text);

	pfs_matrixfmt_init_perf(&m);
	out_open(&o);
	assert_int_equal(pfs_matrixfmt_print_labelled(o.fp, &m), 0);
	out_close(&o);
	assert_non_null(strstr(o.text, "\n        1KiB  2KiB  4KiB  8KiB  16KiB  32KiB  64KiB  128KiB"
					"  256KiB  512KiB  1MiB  2MiB  4MiB\n"
					"  1MiB  0.00  0.00  0.00  0.00   0.00   0.00   0.00    0.00"
					"    0.00    0.00  0.00     -     -\n"));
	assert_non_null(strstr(o.text, "\n512MiB  0.00"));
	free(o.text);
}

static void test_diff_cells(void **state)
{
	struct pfs_matrix a, b;
	struct out o;

	(void)state;
	memset(&a, 0, sizeof(a));
	a.rows = b.rows = 1;
	a.cols = 5;
	a.mibps[0][0] = 10;
	a.mibps[0][1] = 0;
	a.mibps[0][2] = 10;
	a.mibps[0][3] = 10;
	a.mibps[0][4] = 10;
	b = a;
	b.mibps[0][0] = 15;
	b.mibps[0][1] = 5;     /* before 0: no change to speak of */
	b.mibps[0][2] = 0;     /* after 0: likewise */
	b.mibps[0][3] = 9.9999; /* -0.001 %: printf's "-0.00", as perf_matrix's perl */
	b.mibps[0][4] = 2.5;
	out_open(&o);
	assert_int_equal(pfs_matrixfmt_print_diff(o.fp, &a, &b), 0);
	out_close(&o);
	assert_string_equal(o.text, " 50.00% -.--% -.--% -0.00% -75.00%\n");
	free(o.text);
	/* one cell at a time, the same text; an extreme one whole */
	{
		char cell[400];

		assert_int_equal(pfs_matrixfmt_diff_cell(cell, sizeof(cell), 10, 15), 0);
		assert_string_equal(cell, " 50.00%");
		assert_int_equal(pfs_matrixfmt_diff_cell(cell, sizeof(cell), 0, 15), 0);
		assert_string_equal(cell, " -.--%");
		assert_int_equal(pfs_matrixfmt_diff_cell(cell, 6, 0, 15), -ENAMETOOLONG);
		a.mibps[0][0] = 1;
		b.mibps[0][0] = 1e300;
		out_open(&o);
		assert_int_equal(pfs_matrixfmt_print_diff(o.fp, &a, &b), 0);
		out_close(&o);
		snprintf(cell, sizeof(cell), " %.2f%%", (1e300 - 1) * 100);
		assert_true(strlen(cell) > 300 && !strncmp(o.text, cell, strlen(cell)));
		free(o.text);
	}
}

static void test_printers_refuse_bad_matrices(void **state)
{
	struct pfs_matrix a, b;
	FILE *full;
	struct out o;

	(void)state;
	pfs_matrixfmt_init_perf(&a);
	b = a;
	b.cols = 12;
	out_open(&o);
	assert_int_equal(pfs_matrixfmt_print_diff(o.fp, &a, &b), -EINVAL);
	b = a;
	b.mibps[3][3] = NAN;
	assert_int_equal(pfs_matrixfmt_print_diff(o.fp, &a, &b), -EINVAL);
	assert_int_equal(pfs_matrixfmt_print(o.fp, &b), -EINVAL);
	assert_int_equal(pfs_matrixfmt_print_labelled(o.fp, &b), -EINVAL);
	assert_int_equal(pfs_matrixfmt_round(&b), -EINVAL);
	b.mibps[3][3] = -1;
	assert_int_equal(pfs_matrixfmt_print(o.fp, &b), -EINVAL);
	b.mibps[3][3] = INFINITY;
	assert_int_equal(pfs_matrixfmt_print(o.fp, &b), -EINVAL);
	b = a;
	b.rows = 0;
	assert_int_equal(pfs_matrixfmt_print(o.fp, &b), -EINVAL);
	b.rows = PFS_MATRIXFMT_MAX + 1;
	assert_int_equal(pfs_matrixfmt_print(o.fp, &b), -EINVAL);
	out_close(&o);
	assert_int_equal(o.len, 0); /* nothing half printed */
	free(o.text);

	full = fopen("/dev/full", "w");
	if (full) {
		assert_int_equal(pfs_matrixfmt_print(full, &a), -EIO);
		fclose(full);
	}
}

static void test_round_to_what_perf_matrix_printed(void **state)
{
	struct pfs_matrix m;

	(void)state;
	pfs_matrixfmt_init_perf(&m);
	m.mibps[0][0] = 25.23999;
	m.mibps[0][1] = 1.0 / 3;
	m.mibps[0][2] = 0.004;
	assert_int_equal(pfs_matrixfmt_round(&m), 0);
	assert_true(m.mibps[0][0] == 25.24);
	assert_true(m.mibps[0][1] == 0.33);
	assert_true(m.mibps[0][2] == 0); /* so the diff says -.--% */
}

/* ---- reading old outputs ------------------------------------------------- */

static const char good_line[] = " 1.00 2.00 3.00 4.00 5.00 6.00 7.00 8.00 9.00 10.00 11.00 12.00 13.00\n";

/* n copies of good_line, with line number bad (1-based, 0 for none)
 * replaced by repl. */
static char *lines(unsigned n, unsigned bad, const char *repl)
{
	size_t cap = n * sizeof(good_line) + (repl ? strlen(repl) : 0) + 1;
	char *s = calloc(1, cap);

	assert_non_null(s);
	for (unsigned i = 1; i <= n; i++)
		strcat(s, i == bad ? repl : good_line);
	return s;
}

static void test_reader_accepts_perf_matrix_output(void **state)
{
	struct pfs_matrix m;
	char err[128], *t;

	(void)state;
	pfs_matrixfmt_init_perf(&m);
	t = lines(11, 0, NULL);
	assert_int_equal(pfs_matrixfmt_parse(t, strlen(t), &m, err, sizeof(err)), 0);
	assert_true(m.mibps[10][12] == 13.0 && m.mibps[0][0] == 1.0);
	/* no newline after the last line; tabs; other precisions */
	t[strlen(t) - 1] = '\0';
	t[0] = '\t';
	memcpy(t + 1, "1.5 ", 4);
	assert_int_equal(pfs_matrixfmt_parse(t, strlen(t), &m, err, sizeof(err)), 0);
	assert_true(m.mibps[0][0] == 1.5);
	free(t);
	t = lines(11, 2, "0 1 2 3 4 5 6 7 8 9 10 11 1234567.125\n");
	assert_int_equal(pfs_matrixfmt_parse(t, strlen(t), &m, err, sizeof(err)), 0);
	assert_true(m.mibps[1][12] == 1234567.125);
	free(t);
}

static void test_reader_refuses_anything_else(void **state)
{
	static const struct {
		unsigned n, bad;
		const char *repl, *want;
	} cases[] = {
		{ 10, 0, NULL, "10 lines, want 11" },
		{ 0, 0, NULL, "0 lines, want 11" },
		{ 12, 0, NULL, "line 12: more than 11 lines" },
		{ 11, 3, " 1.00 2.00\n", "line 3: 2 numbers, want 13" },
		{ 11, 3, "\n", "line 3: 0 numbers, want 13" },
		{ 11, 1, " 1 2 3 4 5 6 7 8 9 10 11 12 13 14\n", "line 1: more than 13 numbers" },
		{ 11, 4, " 1 2 3 4 5 6 7 8 9 10 11 12 -13\n", "line 4: '-13' is not a number" },
		{ 11, 4, " 1 2 3 4 5 6 7 8 9 10 11 12 +13\n", "line 4: '+13' is not a number" },
		{ 11, 4, " 1 2 3 4 5 6 7 8 9 10 11 12 1e3\n", "line 4: '1e3' is not a number" },
		{ 11, 4, " 1 2 3 4 5 6 7 8 9 10 11 12 inf\n", "line 4: 'inf' is not a number" },
		{ 11, 4, " 1 2 3 4 5 6 7 8 9 10 11 12 nan\n", "line 4: 'nan' is not a number" },
		{ 11, 4, " 1 2 3 4 5 6 7 8 9 10 11 12 0x1\n", "line 4: '0x1' is not a number" },
		{ 11, 4, " 1 2 3 4 5 6 7 8 9 10 11 12 1,5\n", "line 4: '1,5' is not a number" },
		{ 11, 4, " 1 2 3 4 5 6 7 8 9 10 11 12 1.\n", "line 4: '1.' is not a number" },
		{ 11, 4, " 1 2 3 4 5 6 7 8 9 10 11 12 .5\n", "line 4: '.5' is not a number" },
		{ 11, 4, " 1 2 3 4 5 6 7 8 9 10 11 12 1.2.3\n", "line 4: '1.2.3' is not a number" },
		{ 11, 4, " 1 2 3 4 5 6 7 8 9 10 11 12 13%\n", "line 4: '13%' is not a number" },
		{ 11, 4, " 1 2 3 4 5 6 7 8 9 10 11 12 13\r\n", "line 4: '13?' is not a number" },
		{ 11, 4, " 1 2 3 4 5 6 7 8 9 10 11 12 \x1b[31m13\n", "line 4: '?[31m13' is not a number" },
		{ 11, 5, " 1 2 3 4 5 6 7 8 9 10 11 12 1234567890123456\n",
		  "line 5: '1234567890123456' is not a number" },
		{ 11, 5, " 1 2 3 4 5 6 7 8 9 10 11 12 1.1234567890123456\n",
		  "line 5: '1.1234567890123456' is not a number" },
		{ 11, 6, " 1 2 3 4 5 6 7 8 9 10 11 12 abcdefghijklmnopqrstuvwxyz\n",
		  "line 6: 'abcdefghijklmnopqrst...' is not a number" },
	};
	struct pfs_matrix m;
	char err[128];

	(void)state;
	pfs_matrixfmt_init_perf(&m);
	m.mibps[0][0] = 42;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *t = lines(cases[i].n, cases[i].bad, cases[i].repl);

		err[0] = '\0';
		assert_int_equal(pfs_matrixfmt_parse(t, strlen(t), &m, err, sizeof(err)), -EINVAL);
		assert_string_equal(err, cases[i].want);
		free(t);
	}
	assert_true(m.mibps[0][0] == 42); /* a refused file changes nothing */
}

static void test_reader_survives_hostile_bytes(void **state)
{
	struct pfs_matrix m;
	char err[128], tiny[6], *t;
	size_t len;

	(void)state;
	pfs_matrixfmt_init_perf(&m);
	/* a NUL inside a number */
	t = lines(11, 0, NULL);
	len = strlen(t);
	t[3] = '\0';
	assert_int_equal(pfs_matrixfmt_parse(t, len, &m, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "line 1: '1.?0' is not a number");
	free(t);
	/* one huge line of numbers */
	len = 60000;
	t = malloc(len);
	for (size_t i = 0; i < len; i += 2)
		memcpy(t + i, " 1", 2);
	assert_int_equal(pfs_matrixfmt_parse(t, len, &m, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "line 1: more than 13 numbers");
	free(t);
	/* too much altogether */
	t = calloc(1, PFS_MATRIXFMT_TEXT_MAX + 1);
	memset(t, '\n', PFS_MATRIXFMT_TEXT_MAX + 1);
	assert_int_equal(pfs_matrixfmt_parse(t, PFS_MATRIXFMT_TEXT_MAX + 1, &m, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "more than 65536 bytes: not a perf_matrix output");
	/* a cut message is still a string; no message at all is fine */
	assert_int_equal(pfs_matrixfmt_parse(t, 5, &m, tiny, sizeof(tiny)), -EINVAL);
	assert_string_equal(tiny, "line ");
	assert_int_equal(pfs_matrixfmt_parse(t, 5, &m, NULL, 0), -EINVAL);
	free(t);
	m.rows = 0;
	assert_int_equal(pfs_matrixfmt_parse("1\n", 2, &m, err, sizeof(err)), -EINVAL);
}

static void test_read_stops_at_the_size_limit(void **state)
{
	struct pfs_matrix m;
	char err[128];
	FILE *f = tmpfile();

	(void)state;
	assert_non_null(f);
	for (int i = 0; i < 100000; i++)
		fputc('\n', f);
	rewind(f);
	pfs_matrixfmt_init_perf(&m);
	assert_int_equal(pfs_matrixfmt_read(f, &m, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "more than 65536 bytes: not a perf_matrix output");
	fclose(f);
	f = fopen("/dev/null", "r");
	assert_non_null(f);
	assert_int_equal(pfs_matrixfmt_read(f, &m, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "0 lines, want 11");
	fclose(f);
}

/* ---- the outlier rule ---------------------------------------------------- */

static void test_outlier_rule_on_five_runs_with_one_outlier(void **state)
{
	/* iter=5 of a write cell, one run hit by something else */
	const double runs[] = { 33.10, 33.40, 33.20, 12.00, 33.30 };
	bool kept[5];
	struct pfs_matrixfmt_runs out;

	(void)state;
	assert_int_equal(pfs_matrixfmt_average_runs(runs, 5, kept, &out), 0);
	assert_true(kept[0] && kept[1] && kept[2] && !kept[3] && kept[4]);
	assert_int_equal(out.nkept, 4);
	assert_true(fabs(out.mean_all - 29.0) < 1e-12);
	assert_true(fabs(out.stddev - sqrt(72.26)) < 1e-12);
	assert_true(fabs(out.mean_kept - 33.25) < 1e-12);
}

static void test_outlier_rule_edges(void **state)
{
	bool kept[8];
	struct pfs_matrixfmt_runs out;
	const double one[] = { 9.5 };
	const double two[] = { 10, 20 };
	const double same[] = { 7.25, 7.25, 7.25, 7.25 };
	const double both_ends[] = { 10, 30, 30, 30, 50 };
	/* one of two exactly a deviation away is kept: mean 2, sd 1 */
	const double on_bound[] = { 1, 3 };
	const double zeros[] = { 0, 0, 0 };
	const double bad_nan[] = { 1, NAN };
	const double bad_neg[] = { 1, -1 };

	(void)state;
	assert_int_equal(pfs_matrixfmt_average_runs(one, 1, kept, &out), 0);
	assert_true(kept[0] && out.nkept == 1 && out.mean_kept == 9.5 && out.stddev == 0);

	assert_int_equal(pfs_matrixfmt_average_runs(two, 2, kept, &out), 0);
	assert_true(kept[0] && kept[1] && out.nkept == 2 && out.mean_kept == 15 && out.stddev == 5);

	assert_int_equal(pfs_matrixfmt_average_runs(same, 4, kept, &out), 0);
	assert_true(out.nkept == 4 && out.mean_kept == 7.25 && out.stddev == 0);

	assert_int_equal(pfs_matrixfmt_average_runs(both_ends, 5, kept, &out), 0);
	assert_true(!kept[0] && kept[1] && kept[2] && kept[3] && !kept[4]);
	assert_true(out.nkept == 3 && out.mean_kept == 30);

	assert_int_equal(pfs_matrixfmt_average_runs(on_bound, 2, kept, &out), 0);
	assert_true(kept[0] && kept[1] && out.mean_kept == 2);
	/* ... also when rounding makes one of two a hair further than the
	 * deviation, as it did for half of all pairs of measured rates */
	for (unsigned a = 1; a < 400; a++)
		for (unsigned b = a + 1; b < a + 40; b++) {
			const double pair[] = { 1e6 / a, 1e6 / b };

			assert_int_equal(pfs_matrixfmt_average_runs(pair, 2, kept, &out), 0);
			assert_true(kept[0] && kept[1] && out.nkept == 2);
		}
	/* ... and one 5e-7 past the bound is still discarded: 9, 9, 11, 11
	 * are all one deviation away; moving the last by 1e-6 moves it
	 * 3/4 x 1e-6 from the mean and the deviation only 1/4 x 1e-6 */
	{
		const double edge[] = { 9, 9, 11, 11 }, past[] = { 9, 9, 11, 11 + 1e-6 };

		assert_int_equal(pfs_matrixfmt_average_runs(edge, 4, kept, &out), 0);
		assert_true(out.nkept == 4);
		assert_int_equal(pfs_matrixfmt_average_runs(past, 4, kept, &out), 0);
		assert_true(kept[0] && kept[1] && kept[2] && !kept[3] && out.nkept == 3);
	}

	assert_int_equal(pfs_matrixfmt_average_runs(zeros, 3, NULL, &out), 0);
	assert_true(out.nkept == 3 && out.mean_kept == 0);

	assert_int_equal(pfs_matrixfmt_average_runs(one, 0, kept, &out), -EINVAL);
	assert_int_equal(pfs_matrixfmt_average_runs(bad_nan, 2, kept, &out), -EINVAL);
	assert_int_equal(pfs_matrixfmt_average_runs(bad_neg, 2, kept, &out), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_perf_sizes),
		cmocka_unit_test(test_printer_gives_back_the_seeds_matrices),
		cmocka_unit_test(test_diff_gives_the_seeds_diff),
		cmocka_unit_test(test_cell_whose_request_exceeds_its_transfer_is_0),
		cmocka_unit_test(test_labelled_matrix),
		cmocka_unit_test(test_diff_cells),
		cmocka_unit_test(test_printers_refuse_bad_matrices),
		cmocka_unit_test(test_round_to_what_perf_matrix_printed),
		cmocka_unit_test(test_reader_accepts_perf_matrix_output),
		cmocka_unit_test(test_reader_refuses_anything_else),
		cmocka_unit_test(test_reader_survives_hostile_bytes),
		cmocka_unit_test(test_read_stops_at_the_size_limit),
		cmocka_unit_test(test_outlier_rule_on_five_runs_with_one_outlier),
		cmocka_unit_test(test_outlier_rule_edges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
