/* test_plotscript.c: gnuplot scripts, written to memory. Names from a
 * results file reach the script only through pfs_plot_safe: hostile node,
 * test and op names (quotes, newlines, gnuplot's system(), a data block's
 * end marker, macros) leave no unbalanced quote and no line of their own;
 * bad picture names are refused; a slow node's bars are red with show
 * --analyze's words for the factor; the heatmap of the seed's perf_matrix
 * blanks the cells that were not run; the comparison places each run's
 * rate side by side, with compare's interval on the rate's scale; every
 * picture's heading (title, subtitle, a line per mark) and a withheld
 * judgement hatched and labelled. */
#include "cmocka_prelude.h"

#include "pfsbench/formats/matrixfmt.h"
#include "pfsbench/pictures/plotscript.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_safe_names(void **state)
{
	static const char *const cases[][2] = {
		{ "node01.example.com", "node01.example.com" },
		{ "gfs-p8-02-lp01", "gfs-p8-02-lp01" },
		{ "n'1", "n?1" },
		{ "a\"b\nc", "a?b?c" },
		{ "@x$y`z\\", "?x?y?z?" },
		{ "<script>&", "?script??" },
		{ "caf\xc3\xa9", "caf??" },
		{ "", "" },
		{ "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOP", "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH..." },
	};
	char buf[PFS_PLOT_LABEL_MAX], tiny[4];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		pfs_plot_safe(buf, sizeof(buf), cases[i][0]);
		assert_string_equal(buf, cases[i][1]);
	}
	pfs_plot_safe(tiny, sizeof(tiny), "abcdef");
	assert_string_equal(tiny, "abc");
}

/* Every line of the script has balanced quotes, and no line is a name. */
static void assert_script_safe(const char *script, const char *const *hostile, size_t n)
{
	for (const char *p = script; *p;) {
		size_t len = strcspn(p, "\n"), dq = 0, sq = 0;

		for (size_t i = 0; i < len; i++) {
			dq += p[i] == '"';
			sq += p[i] == '\'';
		}
		if (dq % 2 || sq % 2)
			fail_msg("unbalanced quotes: %.*s", (int)len, p);
		p += len + (p[len] == '\n');
	}
	for (size_t i = 0; i < n; i++)
		if (strstr(script, hostile[i]))
			fail_msg("the script holds '%s'", hostile[i]);
}

static const char *const hostile[] = {
	"x\" ; system(\"touch /tmp/pfsbench-pwned\") ; \"",
	"EOD",
	"@evil",
	"y'\nset output '/etc/passwd",
};

static void test_timeline_and_rates_hostile_names(void **state)
{
	struct pfs_plot_lane lanes[2] = { { 0, 1, "" }, { 1, 1, "" } };
	struct pfs_plot_bar bars[2];
	struct pfs_plot_rate rates[2];
	struct pfs_plot_flag late = { .node_index = 1, .op = "" };
	struct pfs_plot_script s;
	const char *const bad[] = { "system(\"", "'/etc/passwd", "\nEOD\"", "@evil" };
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	(void)state;
	snprintf(lanes[0].node, sizeof(lanes[0].node), "%s", hostile[0]);
	snprintf(lanes[1].node, sizeof(lanes[1].node), "%s", hostile[3]);
	memset(bars, 0, sizeof(bars));
	memset(rates, 0, sizeof(rates));
	for (int i = 0; i < 2; i++) {
		snprintf(bars[i].test, sizeof(bars[i].test), "%s", hostile[1]);
		snprintf(bars[i].op, sizeof(bars[i].op), "%s", hostile[2]);
		bars[i].lane = (size_t)i;
		bars[i].start_us = 10;
		bars[i].end_us = 20 + 10 * (uint64_t)i;
		bars[i].step_end_us = 30;
		snprintf(rates[i].test, sizeof(rates[i].test), "%s", "se");
		snprintf(rates[i].op, sizeof(rates[i].op), "%s", hostile[2]);
		rates[i].lane = (size_t)i;
		rates[i].rate = 100 + i;
		rates[i].slow = i ? 3.9 : 0;
	}
	assert_non_null(fp);
	assert_int_equal(pfs_plot_script_begin(&s, fp, PFS_PLOT_SVG | PFS_PLOT_PNG), 0);
	assert_int_equal(pfs_plot_timeline_script(&s, "timeline", "c", lanes, 2, bars, 2, &late, 1), 0);
	assert_int_equal(pfs_plot_rates_script(&s, "rates", "c", lanes, 2, rates, 2), 0);
	assert_int_equal(pfs_plot_rates_script(&s, "../x", "c", lanes, 2, rates, 2), -EINVAL);
	assert_int_equal(pfs_plot_rates_script(&s, "Rates", "c", lanes, 2, rates, 2), -EINVAL);
	assert_int_equal(pfs_plot_rates_script(&s, "", "c", lanes, 2, rates, 2), -EINVAL);
	assert_int_equal(fclose(fp), 0);
	assert_int_equal(s.npics, 2);
	assert_string_equal(s.pics[0].name, "timeline");
	assert_script_safe(buf, bad, sizeof(bad) / sizeof(bad[0]));
	/* Both formats, both pictures, and what the pictures say. */
	assert_non_null(strstr(buf, "set output 'timeline.svg'"));
	assert_non_null(strstr(buf, "set output 'timeline.png'"));
	assert_non_null(strstr(buf, "set output 'rates.svg'"));
	assert_non_null(strstr(buf, "title 'barrier wait'"));
	assert_non_null(strstr(buf, "\"x? ? system(?touch /tmp/pfsbench-pwned?) ? ? w1\" 0"));
	assert_non_null(strstr(buf, " w1 (late)\" 1"));
	assert_non_null(strstr(buf, "x slower"));
	/* The wait of lane 0: from its end, 20 us, to the step's, 30 us. */
	assert_non_null(strstr(buf, "0.000020 0.000030 0\n"));
	free(buf);
	pfs_plot_script_free(&s);
}

/* Flagged bars: red, with show --analyze's words for the factor (one
 * decimal below 10x, none from 10x, "stalled" for a node that stopped);
 * an infinite factor is written as a number gnuplot reads. */
static void test_rates_flags(void **state)
{
	struct pfs_plot_lane lanes[4] = { { 0, 1, "n1" }, { 1, 1, "n2" }, { 2, 1, "n3" },
					  { 3, 1, "n4" } };
	struct pfs_plot_rate rates[4];
	static const double slow[4] = { 0, 3.94, 12.3, INFINITY };
	struct pfs_plot_script s;
	char *buf = NULL, line[64];
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	(void)state;
	memset(rates, 0, sizeof(rates));
	for (int i = 0; i < 4; i++) {
		snprintf(rates[i].test, sizeof(rates[i].test), "pa");
		snprintf(rates[i].op, sizeof(rates[i].op), "Create");
		rates[i].lane = (size_t)i;
		rates[i].rate = 1000 - 100 * i;
		rates[i].slow = slow[i];
	}
	assert_non_null(fp);
	assert_int_equal(pfs_plot_script_begin(&s, fp, PFS_PLOT_SVG), 0);
	assert_int_equal(pfs_plot_rates_script(&s, "rates", "c", lanes, 4, rates, 4), 0);
	assert_int_equal(fclose(fp), 0);
	assert_non_null(strstr(buf, "0 1000 2062260 0\n")); /* not flagged: its node's colour */
	snprintf(line, sizeof(line), "1 900 %u 3.94\n", 0xd62728u);
	assert_non_null(strstr(buf, line));
	snprintf(line, sizeof(line), "2 800 %u 12.3\n", 0xd62728u);
	assert_non_null(strstr(buf, line));
	snprintf(line, sizeof(line), "3 700 %u 1e+300\n", 0xd62728u);
	assert_non_null(strstr(buf, line));
	assert_non_null(strstr(buf, "($4>=1e+300?'stalled':sprintf($4<10?'%.1fx slower':'%.0fx "
				    "slower',$4))"));
	free(buf);
	pfs_plot_script_free(&s);
}

static void test_heatmap_of_the_seed(void **state)
{
	struct pfs_matrix m;
	struct pfs_plot_script s;
	char err[128], *buf = NULL, line[64];
	size_t len = 0, nan = 0;
	FILE *in = fopen(DATA_DIR "/perf_matrix/read.txt", "r"), *fp = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(in);
	pfs_matrixfmt_init_perf(&m);
	assert_int_equal(pfs_matrixfmt_read(in, &m, err, sizeof(err)), 0);
	fclose(in);
	assert_int_equal(pfs_plot_script_begin(&s, fp, PFS_PLOT_PNG), 0);
	assert_int_equal(pfs_plot_heatmap_script(&s, "matrix", "c", &m), 0);
	assert_int_equal(fclose(fp), 0);
	/* 1 MiB moved in requests of 2 MiB and 4 MiB: not run. */
	assert_non_null(strstr(buf, "\n11 0 NaN\n12 0 NaN\n"));
	assert_non_null(strstr(buf, "'4MiB' 12"));
	assert_non_null(strstr(buf, "'1GiB' 10"));
	for (const char *p = buf; (p = strstr(p, " NaN\n")); p++)
		nan++;
	/* Requests over transfers: 2 of the 1 MiB row, 1 of the 2 MiB row. */
	assert_int_equal(nan, 3);
	assert_null(strstr(buf, ".svg"));
	snprintf(line, sizeof(line), "0 0 %.9g\n", m.mibps[0][0]);
	assert_non_null(strstr(buf, line));
	free(buf);
	pfs_plot_script_free(&s);
}

/* Three runs of two lines, against the first: run 2 is half as fast in
 * line 0 (100 -> 50 files/s), with compare's interval of the ratio [0.4,
 * 0.625] and called out, and as fast in line 1 (10 files/s) without an
 * interval; run 3 lacks line 0 and is 4x in line 1.
 * Each run's rate sits in its slot of the line (width 0.8 / 3 runs), with
 * the base's rate beside it, so the whisker is the base's rate x the
 * ratio's bounds; the y axis is the rates' range widened 4x each way, and
 * bounds beyond it are clipped with a triangle. */
static void test_compare_intervals(void **state)
{
	static const char *const labels[] = { "a.h5", "b\"c.h5", "d.h5" };
	static const char *const want[] = {
		"$d0_0 << EOD\n-0.266667 100 100 1 NaN NaN 0\n0.733333 10 10 1 NaN NaN 0\nEOD\n",
		"$d0_1 << EOD\n0.000000 50 100 0.5 0.4 0.625 1\n1.000000 10 10 1 NaN NaN 0\nEOD\n",
		"$d0_2 << EOD\n1.266667 40 10 4 NaN NaN 0\nEOD\n",
		"cmp_lo = 2.5\ncmp_hi = 400\n",
		"set yrange [cmp_lo:cmp_hi]",
		/* The whiskers: the base's rate x the bounds, clipped to the axis,
		 * a triangle where clipped. */
		"$d0_1 using 1:2:(cmp_clip($3*$5)):(cmp_clip($3*$6)) with yerrorbars",
		"$d0_2 using 1:($3*$6>cmp_hi?cmp_hi:NaN) with points pt 9",
		"$d0_2 using 1:($3*$5<cmp_lo?cmp_lo:NaN) with points pt 11",
		/* The call-out test is a comparison: gnuplot's ?: wants an integer. */
		"($7>0?",
		"set ylabel \"files/s (log scale)\"",
		"title \"a.h5\"",
		"title \"b?c.h5\"",
		"\"se Create\" 0, \"pa Unlink\" 1",
	};
	struct pfs_plot_script s;
	struct pfs_plot_cmp c;
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(fp);
	assert_int_equal(pfs_plot_cmp_init(&c, 2, 3), 0);
	snprintf(c.lines[0].test, sizeof(c.lines[0].test), "se");
	snprintf(c.lines[0].op, sizeof(c.lines[0].op), "Create");
	snprintf(c.lines[1].test, sizeof(c.lines[1].test), "pa");
	snprintf(c.lines[1].op, sizeof(c.lines[1].op), "Unlink");
	c.cells[0] = (struct pfs_plot_cmp_cell){ .present = true, .rate = 100, .ratio = 1 };
	c.cells[1] = (struct pfs_plot_cmp_cell){ .present = true, .rate = 50, .ratio = 0.5,
						 .interval = true, .low = 0.4, .high = 0.625,
						 .called_out = true };
	c.cells[3] = (struct pfs_plot_cmp_cell){ .present = true, .rate = 10, .ratio = 1 };
	c.cells[4] = (struct pfs_plot_cmp_cell){ .present = true, .rate = 10, .ratio = 1 };
	c.cells[5] = (struct pfs_plot_cmp_cell){ .present = true, .rate = 40, .ratio = 4 };
	assert_int_equal(pfs_plot_script_begin(&s, fp, PFS_PLOT_SVG), 0);
	assert_int_equal(pfs_plot_compare_script(&s, "compare", "c", &c, labels), 0);
	c.nruns = 1;
	assert_int_equal(pfs_plot_compare_script(&s, "compare", "c", &c, labels), -EINVAL);
	assert_int_equal(fclose(fp), 0);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		if (!strstr(buf, want[i]))
			fail_msg("the script lacks '%s'", want[i]);
	/* Whiskers for the runs after the first only. */
	assert_null(strstr(buf, "$d0_0 using 1:2:(cmp_clip"));
	assert_script_safe(buf, labels, 0);
	free(buf);
	pfs_plot_script_free(&s);

	/* Lines of different units: each op's tic says its unit. A base
	 * rate of 0 (compare's ratio 0): no bar for it, and the others' bars
	 * without a ratio or whisker. */
	c.nruns = 3;
	c.lines[1].unit = PFS_UNIT_BYTES;
	c.cells[3].rate = 0;
	c.cells[3].ratio = c.cells[4].ratio = c.cells[5].ratio = 0;
	buf = NULL;
	fp = open_memstream(&buf, &len);
	assert_non_null(fp);
	assert_int_equal(pfs_plot_script_begin(&s, fp, PFS_PLOT_PNG), 0);
	assert_int_equal(pfs_plot_compare_script(&s, "compare", "c", &c, labels), 0);
	assert_int_equal(fclose(fp), 0);
	assert_non_null(strstr(buf, "\"se Create (files/s)\" 0, \"pa Unlink (MiB/s)\" 1"));
	assert_non_null(strstr(buf, "set ylabel \"rate per second, unit by each op (log scale)\""));
	assert_non_null(strstr(buf, "$d0_0 << EOD\n-0.266667 100 100 1 NaN NaN 0\nEOD\n"));
	assert_non_null(strstr(buf, "\n1.000000 10 NaN NaN NaN NaN 0\nEOD\n"));
	assert_non_null(strstr(buf, "$d0_2 << EOD\n1.266667 40 NaN NaN NaN NaN 0\nEOD\n"));
	pfs_plot_cmp_free(&c);
	free(buf);
	pfs_plot_script_free(&s);
}

static void test_size_text(void **state)
{
	char b[32];

	(void)state;
	pfs_plot_size_text(b, sizeof(b), 1024);
	assert_string_equal(b, "1KiB");
	pfs_plot_size_text(b, sizeof(b), 4u << 20);
	assert_string_equal(b, "4MiB");
	pfs_plot_size_text(b, sizeof(b), 1000);
	assert_string_equal(b, "1000B");
	pfs_plot_size_text(b, sizeof(b), 3ull << 30);
	assert_string_equal(b, "3GiB");
}

/* The heading inside a picture: the workload heads the title, the
 * subtitle is what pfs_plot_script_about was told (its quotes and
 * newlines made '?', not cut at a label's length), and a (test, op) the
 * analysis withheld its judgement of is hatched, says why in its panel,
 * and the heading explains the hatching; a judged one is solid. */
static void test_heading_and_withheld(void **state)
{
	struct pfs_plot_lane lanes[2] = { { 0, 1, "n1" }, { 1, 1, "n2" } };
	struct pfs_plot_rate rates[2] = {
		{ .test = "se", .op = "Write", .unit = PFS_UNIT_FILES, .group = 0, .lane = 0,
		  .rate = 100, .withheld = PFS_PLOT_TOO_SHORT },
		{ .test = "se", .op = "Create", .unit = PFS_UNIT_FILES, .group = 1, .lane = 1,
		  .rate = 90 },
	};
	const char *const bad[] = { "set output 'y'" };
	struct pfs_plot_script s;
	char *buf = NULL, about[200];
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	(void)state;
	/* longer than a label, with a quote and a newline of a hostile label */
	snprintf(about, sizeof(about), "%s: TMPFS on /dev/shm/a-mount-point-of-some-length, 3 nodes "
		 "x 1 worker, 2026-11-30T23:30:21Z", "x\"\nset output 'y'");
	assert_non_null(fp);
	assert_int_equal(pfs_plot_script_begin(&s, fp, PFS_PLOT_SVG), 0);
	pfs_plot_script_about(&s, "create-unlink", about);
	assert_int_equal(pfs_plot_rates_script(&s, "rates", "c", lanes, 2, rates, 2), 0);
	assert_int_equal(fclose(fp), 0);
	assert_script_safe(buf, bad, 1);
	assert_non_null(strstr(buf, "set multiplot layout 1,2 title \"create-unlink: the rate of each "
				    "op per node and worker (files/s)\\nx??set output ?y?: TMPFS on "
				    "/dev/shm/a-mount-point-of-some-length, 3 nodes x 1 worker, "
				    "2026-11-30T23:30:21Z\\nhatched, not judged: steps < 10 ms"));
	/* the withheld panel first: its label and hatching, then the judged
	 * one without either */
	assert_non_null(strstr(buf, "set label 1 \"not judged: steps < 10 ms\""));
	assert_non_null(strstr(buf, "with boxes lc rgb variable fs pattern 4 border notitle"));
	assert_non_null(strstr(buf, "unset label 1\nset title \"se Create\""));
	assert_non_null(strstr(buf, "with boxes lc rgb variable notitle"));
	/* no red: no line explains it */
	assert_null(strstr(buf, "red, Nx slower"));
	/* two narrow panels (520 pixels) widened for the subtitle's 107
	 * characters, so that no line of the heading is cut */
	{
		const char *size = strstr(buf, "set terminal svg size ");
		unsigned w = 0, h = 0;

		assert_non_null(size);
		assert_int_equal(sscanf(size, "set terminal svg size %u,%u", &w, &h), 2);
		assert_true(w >= 107 * 7);
	}
	pfs_plot_script_free(&s);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_safe_names),
		cmocka_unit_test(test_timeline_and_rates_hostile_names),
		cmocka_unit_test(test_rates_flags),
		cmocka_unit_test(test_heading_and_withheld),
		cmocka_unit_test(test_heatmap_of_the_seed),
		cmocka_unit_test(test_compare_intervals),
		cmocka_unit_test(test_size_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
