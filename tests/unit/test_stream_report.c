/* test_stream_report.c: the report of pfsbench stream (src/outputs/stream.c),
 * written to memory: dm's line per rank and for all ranks (the seed's
 * example among them), dd's records with a short last request, lmdd's line,
 * the table, iterations given at once (as `pfsbench show` gives them), and
 * one rank printing only the tool's own line. */
#include "cmocka_prelude.h"

#include "pfsbench/outputs/output.h"
#include "pfsbench/plans/stream_opts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct pfs_row row(uint32_t it, const char *node, uint32_t worker, uint64_t start_us,
			  uint64_t us, uint64_t items, uint64_t bytes)
{
	struct pfs_row r;

	memset(&r, 0, sizeof(r));
	pfs_row_set_text(r.test, sizeof(r.test), PFS_STREAM_TEST);
	pfs_row_set_text(r.op, sizeof(r.op), PFS_STREAM_OP_WRITE);
	pfs_row_set_text(r.node, sizeof(r.node), node);
	pfs_row_set_text(r.unit, sizeof(r.unit), "bytes");
	r.iteration = it;
	r.worker = worker;
	r.start_us = start_us;
	r.elapsed_us = us;
	r.items = items;
	r.bytes = bytes;
	return r;
}

/* The report of rows (one block) under opts, as text (free() it). */
static char *report(const struct pfs_stream_opts *opts, uint64_t nranks, const struct pfs_row *rows,
		    size_t n)
{
	struct pfs_run_info ri;
	struct pfs_output o = { .ops = &pfs_output_stream };
	struct pfs_block b = { .rows = rows, .nrows = n };
	char *buf = NULL;
	size_t len = 0;

	memset(&ri, 0, sizeof(ri));
	ri.opts = opts;
	ri.nranks = nranks;
	ri.caches_dropped = true;
	snprintf(ri.fstype, sizeof(ri.fstype), "EXT4");
	snprintf(ri.run_dir, sizeof(ri.run_dir), "/mnt/x/pfsbench.run");
	o.fp = open_memstream(&buf, &len);
	assert_non_null(o.fp);
	assert_int_equal(o.ops->begin(&o, &ri), 0);
	assert_int_equal(o.ops->block(&o, &ri, &b), 0);
	assert_int_equal(o.ops->end(&o, &ri, PFS_RUN_COMPLETE, ""), 0);
	fclose(o.fp);
	return buf;
}

/* text begins with prefix (printed on failure). */
static void assert_begins(const char *text, const char *prefix)
{
	if (strncmp(text, prefix, strlen(prefix)))
		print_error("the report begins:\n%s\nnot:\n%s\n", text, prefix);
	assert_true(!strncmp(text, prefix, strlen(prefix)));
}

static struct pfs_stream_opts opts_of(unsigned format, bool performance)
{
	struct pfs_stream_opts o;

	memset(&o, 0, sizeof(o));
	snprintf(o.output, sizeof(o.output), "/mnt/x");
	o.block = 1 << 20;
	o.size = 2097152;
	o.format = format;
	o.performance = performance;
	o.pattern = PFS_STREAM_NO_PATTERN;
	return o;
}

static const char table_head[] =
	"Test It  Node name     Work TestType Microsecs  Requests   Bytes          MiB/s\n"
	"---- -- -------------- ---- -------- ---------- ---------- -------------- ---------\n";

static void test_one_rank_prints_dms_own_line(void **state)
{
	struct pfs_stream_opts o = opts_of(PFS_STREAM_FMT_DM, true);
	struct pfs_row r = row(1, "lp01", 1, 5000, 190802, 2, 2097152);
	char *text = report(&o, 1, &r, 1), want[1024];

	(void)state;
	snprintf(want, sizeof(want),
		 "10.48 MB/sec (2097152 B / 00:00.190802)\n"
		 "\nEXT4 '/mnt/x': write, a file per worker, requests of 1048576 bytes, "
		 "2097152 bytes per worker\n"
		 "%s"
		 " seq  1 lp01              1 Write        190802          2        2097152     10.48\n"
		 "\nDone.\n",
		 table_head);
	assert_string_equal(text, want);
	free(text);
	/* without -p, dm prints no line: the table only */
	o.performance = false;
	text = report(&o, 1, &r, 1);
	assert_begins(text, "\nEXT4 '/mnt/x'");
	free(text);
}

static void test_each_rank_then_all_ranks(void **state)
{
	struct pfs_stream_opts o = opts_of(PFS_STREAM_FMT_DM, true);
	/* all: 6 GiB from 1.0 s to 62 min 6.5 s after the start */
	struct pfs_row rows[] = {
		row(1, "node1", 1, 1000000, 3725500000u, 3072, 3221225472u),
		row(1, "node2", 1, 1200000, 3700000000u, 3072, 3221225472u),
	};
	char *text = report(&o, 2, rows, 2);

	(void)state;
	assert_begins(text,
		      "node1 1: 0.82 MB/sec (3221225472 B / 62:05.500000)\n"
		      "node2 1: 0.83 MB/sec (3221225472 B / 61:40.000000)\n"
		      "1.65 MB/sec (6442450944 B / 62:05.500000)\n\n");
	assert_non_null(strstr(text, " seq  1 node2             1 Write    3700000000       3072     3221225472      0.83\n"));
	free(text);
}

static void test_dd_and_lmdd_lines(void **state)
{
	struct pfs_stream_opts o = opts_of(PFS_STREAM_FMT_DD, false);
	/* 2.5 MiB in requests of 1 MiB: 2 whole, 1 short */
	struct pfs_row rows[] = {
		row(1, "a", 1, 0, 1000000, 3, 2621440),
		row(1, "a", 2, 0, 2000000, 3, 2621440),
	};
	char *text = report(&o, 2, rows, 2);

	(void)state;
	assert_begins(text, "a 1: 2+1 records in\na 1: 2+1 records out\n"
		      "a 1: 2621440 bytes (2.6 MB, 2.5 MiB) copied, 1 s, 2.6 MB/s\n"
		      "a 2: 2+1 records in\na 2: 2+1 records out\n"
		      "a 2: 2621440 bytes (2.6 MB, 2.5 MiB) copied, 2 s, 1.3 MB/s\n"
		      "4+2 records in\n4+2 records out\n"
		      "5242880 bytes (5.2 MB, 5.0 MiB) copied, 2 s, 2.6 MB/s\n\n");
	free(text);
	o.format = PFS_STREAM_FMT_LMDD;
	text = report(&o, 2, rows, 2);
	assert_begins(text, "a 1: 2.6214 MB in 1.0000 secs, 2.6214 MB/sec\n"
		      "a 2: 2.6214 MB in 2.0000 secs, 1.3107 MB/sec\n"
		      "5.2429 MB in 2.0000 secs, 2.6214 MB/sec\n\n");
	free(text);
}

/* `pfsbench show` hands over every iteration in one block: each still gets
 * its own lines, and the table lists them all. */
static void test_iterations_in_one_block(void **state)
{
	struct pfs_stream_opts o = opts_of(PFS_STREAM_FMT_DM, true);
	struct pfs_row rows[] = {
		row(1, "a", 1, 0, 1000000, 2, 2097152),
		row(2, "a", 1, 3000000, 500000, 2, 2097152),
	};
	char *text = report(&o, 1, rows, 2);

	(void)state;
	assert_begins(text, "2.00 MB/sec (2097152 B / 00:01.000000)\n"
		      "4.00 MB/sec (2097152 B / 00:00.500000)\n\n");
	assert_non_null(strstr(text, " seq  2 a "));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_rank_prints_dms_own_line),
		cmocka_unit_test(test_each_rank_then_all_ranks),
		cmocka_unit_test(test_dd_and_lmdd_lines),
		cmocka_unit_test(test_iterations_in_one_block),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
