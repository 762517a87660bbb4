/* test_fdtree.c: the tree report, written to memory and compared byte for
 * byte: fdtree's words, rates of all ranks together, times that do not
 * round a fast phase to 0, the per-node table. */
#include "cmocka_prelude.h"

#include "pfsbench/outputs/output.h"
#include "pfsbench/plans/tree_plan.h"

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HEAD "pfsbench-" PACKAGE_VERSION " tree: starting at /scratch/pfsbench.run/\n"

struct report {
	char *text;
	size_t len;
	FILE *fp;
	struct pfs_output out;
	struct pfs_run_info ri;
	struct pfs_tree_opts opts;
};

static void report_open(struct report *r, uint64_t l, uint64_t d, uint64_t f, uint64_t s,
			unsigned nranks, unsigned nnodes)
{
	memset(r, 0, sizeof(*r));
	r->fp = open_memstream(&r->text, &r->len);
	assert_non_null(r->fp);
	r->out = (struct pfs_output){ .ops = &pfs_output_fdtree, .fp = r->fp };
	r->opts.levels = l;
	r->opts.fanout = d;
	r->opts.files = f;
	r->opts.blocks = s;
	r->opts.common.iterations = 1;
	r->ri.opts = &r->opts;
	snprintf(r->ri.run_dir, sizeof(r->ri.run_dir), "/scratch/pfsbench.run");
	r->ri.nranks = nranks;
	r->ri.nnodes = nnodes;
	r->ri.caches_dropped = true;
	snprintf(r->ri.start_time, sizeof(r->ri.start_time), "2011-03-13T05:45:31Z");
}

static void report_check(struct report *r, const char *want)
{
	fclose(r->fp);
	assert_string_equal(r->text, want);
	free(r->text);
}

static struct pfs_row row(const char *op, const char *node, uint32_t worker, uint32_t step,
			  uint64_t start_us, uint64_t elapsed_us, uint64_t files, uint64_t bytes)
{
	struct pfs_row r;

	memset(&r, 0, sizeof(r));
	pfs_row_set_text(r.test, sizeof(r.test), "tree");
	pfs_row_set_text(r.op, sizeof(r.op), op);
	pfs_row_set_text(r.node, sizeof(r.node), node);
	r.iteration = 1;
	r.worker = worker;
	r.step = step;
	r.start_us = start_us;
	r.elapsed_us = elapsed_us;
	r.items = files;
	r.bytes = bytes;
	return r;
}

/* The seed's plan, as fdtree words it, and the run begins there. */
static void test_begin_words_the_plan_as_fdtree(void **state)
{
	struct report r;

	(void)state;
	report_open(&r, 10, 3, 4, 1, 1, 1);
	assert_int_equal(pfs_output_fdtree.begin(&r.out, &r.ri), 0);
	report_check(&r, HEAD
		     "        one tree per worker, in <node>.<worker>/LEVEL0/: 1 worker on 1 node\n"
		     "        creating/deleting 10 directory levels with 3 directories at each level\n"
		     "        for a total of 88573 directories\n"
		     "        with 4 files of size 4KiB per directory\n"
		     "        for a total of 354292 files and 1417168KiB\n");
}

/* Two nodes, one worker each: a phase spans the earliest start to the
 * latest end of its rows, and its rate counts the items of both. */
static void test_full_run_aggregates_all_ranks(void **state)
{
	/* l 1, d 2, f 3, s 1: 3 directories, 9 files, 36 KiB a tree. */
	const struct pfs_row rows[] = {
		row("Mkdir", "nA", 1, 0, 0, 500000, 3, 0),
		row("Mkdir", "nB", 1, 0, 250000, 500000, 3, 0),
		row("Create", "nA", 1, 1, 1000000, 2000000, 9, 36864),
		row("Create", "nB", 1, 1, 1000000, 3000000, 9, 36864),
		row("Unlink", "nA", 1, 2, 4500000, 1000, 9, 0),
		row("Unlink", "nB", 1, 2, 4500000, 1000, 9, 0),
		row("Rmdir", "nA", 1, 3, 5000000, 3, 3, 0),
		row("Rmdir", "nB", 1, 3, 5000000, 2, 3, 0),
	};
	struct report r;

	(void)state;
	report_open(&r, 1, 2, 3, 1, 2, 2);
	assert_int_equal(pfs_output_fdtree.begin(&r.out, &r.ri), 0);
	assert_int_equal(pfs_output_fdtree.block(&r.out, &r.ri, &(struct pfs_block){ .rows = rows, .nrows = 8 }), 0);
	assert_int_equal(pfs_output_fdtree.end(&r.out, &r.ri, PFS_RUN_COMPLETE, ""), 0);
	report_check(&r, HEAD
		     "        one tree per worker, in <node>.<worker>/LEVEL0/: 2 workers on 2 nodes\n"
		     "        creating/deleting 1 directory levels with 2 directories at each level\n"
		     "        for a total of 3 directories\n"
		     "        with 3 files of size 4KiB per directory\n"
		     "        for a total of 9 files and 36KiB\n"
		     "        on all 2 workers: 6 directories, 18 files and 72KiB\n"
		     "Sun Mar 13 05:45:31 UTC 2011\n"
		     "Sun Mar 13 05:45:31 UTC 2011\n"
		     "DIRECTORY CREATE TIME IN, OUT, TOTAL = 0.000000, 0.750000, 0.750000\n"
		     "        Directory creates per second =  8\n"
		     "Sun Mar 13 05:45:32 UTC 2011\n"
		     "Sun Mar 13 05:45:35 UTC 2011\n"
		     "FILE CREATE TIME IN, OUT, TOTAL      = 1.000000, 4.000000, 3.000000\n"
		     "        File creates per second      =  6\n"
		     "        KiB per second               =  24\n"
		     "Sun Mar 13 05:45:35 UTC 2011\n"
		     "Sun Mar 13 05:45:35 UTC 2011\n"
		     "FILE REMOVE TIME IN, OUT, TOTAL      = 4.500000, 4.501000, 0.001000\n"
		     "        File removals per second     =  18000\n"
		     "Sun Mar 13 05:45:36 UTC 2011\n"
		     "Sun Mar 13 05:45:36 UTC 2011\n"
		     "DIRECTORY REMOVE TIME IN, OUT, TOTAL = 5.000000, 5.000003, 0.000003\n"
		     "        Directory removals per second =  2000000\n"
		     "\n"
		     "Test It  Node name     Work TestType Microsecs  Files  us/fil files/sec\n"
		     "---- -- -------------- ---- -------- ---------- ------ ------ ---------\n"
		     "tree  1 nA                1 Mkdir        500000      3 166666         6\n"
		     "tree  1 nB                1 Mkdir        500000      3 166666         6\n"
		     "tree  1 nA                1 Create      2000000      9 222222         4\n"
		     "tree  1 nB                1 Create      3000000      9 333333         3\n"
		     "tree  1 nA                1 Unlink         1000      9    111      9009\n"
		     "tree  1 nB                1 Unlink         1000      9    111      9009\n"
		     "tree  1 nA                1 Rmdir             3      3      1   1000000\n"
		     "tree  1 nB                1 Rmdir             2      3      0   1500000\n"
		     "\n"
		     "Done.\n");
}

/* -R's report has only its two phases; a -C run says where its trees stay;
 * a run without dropped caches says so. */
static void test_partial_runs(void **state)
{
	const struct pfs_row rm[] = {
		row("Unlink", "nA", 1, 0, 10, 20, 9, 0),
		row("Rmdir", "nA", 1, 1, 40, 10, 3, 0),
	};
	struct report r;

	(void)state;
	report_open(&r, 1, 2, 3, 1, 1, 1);
	r.opts.remove_only = true;
	assert_int_equal(pfs_output_fdtree.block(&r.out, &r.ri, &(struct pfs_block){ .rows = rm, .nrows = 2 }), 0);
	report_check(&r, "Sun Mar 13 05:45:31 UTC 2011\n"
			 "Sun Mar 13 05:45:31 UTC 2011\n"
			 "FILE REMOVE TIME IN, OUT, TOTAL      = 0.000010, 0.000030, 0.000020\n"
			 "        File removals per second     =  450000\n"
			 "Sun Mar 13 05:45:31 UTC 2011\n"
			 "Sun Mar 13 05:45:31 UTC 2011\n"
			 "DIRECTORY REMOVE TIME IN, OUT, TOTAL = 0.000040, 0.000050, 0.000010\n"
			 "        Directory removals per second =  300000\n"
			 "\n"
			 "Test It  Node name     Work TestType Microsecs  Files  us/fil files/sec\n"
			 "---- -- -------------- ---- -------- ---------- ------ ------ ---------\n"
			 "tree  1 nA                1 Unlink           20      9      2    500000\n"
			 "tree  1 nA                1 Rmdir            10      3      3    333333\n");

	report_open(&r, 1, 2, 3, 1, 1, 1);
	r.opts.create_only = true;
	r.ri.caches_dropped = false;
	snprintf(r.ri.caches_note, sizeof(r.ri.caches_note), "caches were not dropped: test");
	assert_int_equal(pfs_output_fdtree.end(&r.out, &r.ri, PFS_RUN_COMPLETE, ""), 0);
	report_check(&r, "\nThe trees stay in /scratch/pfsbench.run/ for 'pfsbench tree -R' with "
			 "the same -o, -l, -d, -f and -s.\n"
			 "\n"
			 "Note: caches were not dropped: test.\n"
			 "Done.\n");

	report_open(&r, 1, 2, 3, 1, 1, 1);
	r.opts.create_only = true;
	assert_int_equal(pfs_output_fdtree.end(&r.out, &r.ri, PFS_RUN_ABORTED, "failed"), 0);
	report_check(&r, "\nAborted.\n");
}

/* show hands over all iterations at once: each is reported on its own, with
 * its own phases and table, as the run printed them block by block. */
static void test_iterations_each_on_their_own(void **state)
{
	struct pfs_row rows[] = {
		row("Mkdir", "nA", 1, 0, 0, 10, 3, 0),
		row("Mkdir", "nA", 1, 0, 100, 20, 3, 0),
	};
	struct report r;
	const char *p;

	(void)state;
	rows[1].iteration = 2;
	report_open(&r, 1, 2, 3, 1, 1, 1);
	r.opts.common.iterations = 2;
	assert_int_equal(pfs_output_fdtree.block(&r.out, &r.ri, &(struct pfs_block){ .rows = rows, .nrows = 2 }), 0);
	fflush(r.fp);
	p = strstr(r.text, "ITERATION 1 OF 2\n");
	assert_non_null(p);
	assert_non_null(strstr(p, "TOTAL = 0.000000, 0.000010, 0.000010\n"));
	p = strstr(p, "ITERATION 2 OF 2\n");
	assert_non_null(p);
	assert_non_null(strstr(p, "TOTAL = 0.000100, 0.000120, 0.000020\n"));
	assert_non_null(strstr(p, "tree  2 nA"));
	assert_null(strstr(p, "tree  1 nA"));
	fclose(r.fp);
	free(r.text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_begin_words_the_plan_as_fdtree),
		cmocka_unit_test(test_full_run_aggregates_all_ranks),
		cmocka_unit_test(test_partial_runs),
		cmocka_unit_test(test_iterations_each_on_their_own),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
