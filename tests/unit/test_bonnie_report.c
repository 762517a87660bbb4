/* test_bonnie_report.c: the bonnie workload's report from rows, written to
 * memory: the arithmetic of each figure (work over the rows' span, CPU of
 * all ranks, the slowest item), +++++ under 0.5 s, blanks for tests that
 * did not run, the aggregate's Concurrency and name, each node's lines
 * under the aggregate's, the CSV lines in order, and -x N's header with
 * CSV lines only. */
#include "cmocka_prelude.h"

#include "pfsbench/core/topology.h"
#include "pfsbench/outputs/output.h"
#include "pfsbench/plans/bonnie_plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct report {
	char *text;
	size_t len;
	FILE *fp;
	struct pfs_output out;
	struct pfs_run_info ri;
	struct pfs_bonnie_opts opts;
	struct pfs_node nodes[2];
	struct pfs_row rows[64];
	size_t nrows;
};

/* Node n1 with two workers, node n2 with one: 3 ranks. */
static void report_open(struct report *r, const char *version, uint64_t iterations)
{
	memset(r, 0, sizeof(*r));
	r->fp = open_memstream(&r->text, &r->len);
	assert_non_null(r->fp);
	r->out = (struct pfs_output){ .ops = &pfs_output_bonnie, .fp = r->fp };
	snprintf(r->opts.version, sizeof(r->opts.version), "%s", version);
	snprintf(r->opts.size, sizeof(r->opts.size), "64m");
	snprintf(r->opts.files, sizeof(r->opts.files), "1");
	snprintf(r->opts.ram, sizeof(r->opts.ram), "32");
	r->opts.seed = 42;
	r->opts.common.iterations = iterations;
	snprintf(r->nodes[0].name, sizeof(r->nodes[0].name), "n1");
	r->nodes[0].nworkers = 2;
	snprintf(r->nodes[1].name, sizeof(r->nodes[1].name), "n2");
	r->nodes[1].nworkers = 1;
	r->ri.opts = &r->opts;
	r->ri.nodes = r->nodes;
	r->ri.nnodes = 2;
	r->ri.nranks = 3;
}

static void add(struct report *r, uint32_t it, enum pfs_bonnie_test t, uint32_t node,
		uint32_t worker, uint64_t start_us, uint64_t elapsed_us, uint64_t items,
		uint64_t bytes, uint64_t cpu_us, uint64_t lat_max_ns)
{
	struct pfs_row *row = &r->rows[r->nrows++];

	memset(row, 0, sizeof(*row));
	pfs_row_set_text(row->test, sizeof(row->test), PFS_BONNIE_TEST_NAME);
	pfs_row_set_text(row->op, sizeof(row->op), pfs_bonnie_test_names[t]);
	pfs_row_set_text(row->node, sizeof(row->node), r->nodes[node].name);
	row->iteration = it;
	row->node_index = node;
	row->worker = worker;
	row->step = (uint32_t)t;
	row->start_us = start_us;
	row->elapsed_us = elapsed_us;
	row->items = items;
	row->bytes = bytes;
	row->cpu_us = cpu_us;
	row->lat_count = lat_max_ns ? 1 : 0;
	row->lat_min_ns = lat_max_ns;
	row->lat_max_ns = lat_max_ns;
}

/* One iteration: putc on all three ranks, seeks, a fast seq_create; the
 * other tests did not run. */
static void add_iteration(struct report *r, uint32_t it)
{
	const uint64_t mib3 = 3u << 20;

	/* putc: all ranks 0 to 4.0 s, n1 0 to 2.1 s, n2 0.05 to 4.0 s */
	add(r, it, PFS_BONNIE_PUTC, 0, 1, 0, 2000000, mib3, mib3, 1000000, 5000000);
	add(r, it, PFS_BONNIE_PUTC, 0, 2, 100000, 2000000, mib3, mib3, 1000000, 7000000);
	add(r, it, PFS_BONNIE_PUTC, 1, 1, 50000, 3950000, mib3, mib3, 1000000, 9000000);
	/* seeks: all ranks and n1 0 to 1.5 s, n2 0.2 to 1.0 s */
	add(r, it, PFS_BONNIE_SEEKS, 0, 1, 0, 1000000, 8192, 1, 500000, 30000);
	add(r, it, PFS_BONNIE_SEEKS, 0, 2, 0, 1500000, 8192, 1, 500000, 100000000);
	add(r, it, PFS_BONNIE_SEEKS, 1, 1, 200000, 800000, 8192, 1, 500000, 250000);
	/* seq_create: 0.49 s at most, too fast for bonnie++ */
	add(r, it, PFS_BONNIE_SEQ_CREATE, 0, 1, 0, 490000, 1024, 0, 400000, 999);
	add(r, it, PFS_BONNIE_SEQ_CREATE, 0, 2, 0, 400000, 1024, 0, 400000, 1000);
	add(r, it, PFS_BONNIE_SEQ_CREATE, 1, 1, 0, 300000, 1024, 0, 300000, 100000001000);
}

static void report_run(struct report *r)
{
	struct pfs_block b = { .rows = r->rows, .nrows = r->nrows };

	assert_int_equal(r->out.ops->begin(&r->out, &r->ri), 0);
	assert_int_equal(r->out.ops->block(&r->out, &r->ri, &b), 0);
	assert_int_equal(r->out.ops->end(&r->out, &r->ri, PFS_RUN_COMPLETE, ""), 0);
	fclose(r->fp);
}

/* putc:  all 9216 KiB / 4.0 s = 2304 KiB/s, CPU 3.0 / 4.0 = 75 %;
 *        n1 6144 / 2.1 = 2925.7, 2.0 / 2.1 = 95.2 %; n2 3072 / 3.95 =
 *        777.7, 1.0 / 3.95 = 25.3 %; worst items 9, 7 and 9 ms.
 * seeks: all 24576 / 1.5 = 16384 /s, 1.5 / 1.5 = 100 %; n1 16384 / 1.5
 *        = 10922.7, shown rounded as bonnie++'s %.0f does, 1.0 / 1.5 =
 *        66.7 %; n2 8192 / 0.8 = 10240, 0.5 / 0.8 = 62.5 %; worst items
 *        100 ms (shown 100ms), 100 ms, 250 us.
 * seq_create: 0.49 s or less everywhere: +++++; worst 100.000001 s
 *        (100s), 1 us (1000 ns), 100 s. */
#define CSV_ALL "1.96,1.96,2 nodes,3,42,64M,,2304,75,,,,,,,,,16384,100,1,,,,,+++++,+++," \
		",,,,,,,,,,9000us,,,,,100ms,100s,,,,,\n"
#define CSV_N1 "1.96,1.96,n1,2,42,64M,,2925,95,,,,,,,,,10923,66,1,,,,,+++++,+++," \
	       ",,,,,,,,,,7000us,,,,,100ms,1us,,,,,\n"
#define CSV_N2 "1.96,1.96,n2,1,42,64M,,777,25,,,,,,,,,10240,62,1,,,,,+++++,+++," \
	       ",,,,,,,,,,9000us,,,,,250us,100s,,,,,\n"
#define BLANK "          "
#define BLANK5 BLANK BLANK BLANK BLANK BLANK

static void test_report_1_96(void **state)
{
	struct report r;

	(void)state;
	report_open(&r, "1.96", 1);
	add_iteration(&r, 1);
	report_run(&r);
	assert_string_equal(
		r.text,
		"Version  1.96       ------Sequential Output------ --Sequential Input- --Random-\n"
		"Concurrency   3     -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n"
		"Machine        Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP\n"
		"2 nodes         64M  2304  75" BLANK BLANK BLANK BLANK " 16384 100\n"
		"Latency              9000us" BLANK BLANK BLANK BLANK "     100ms\n"
		"n1              64M  2925  95" BLANK BLANK BLANK BLANK " 10923  66\n"
		"Latency              7000us" BLANK BLANK BLANK BLANK "     100ms\n"
		"n2              64M   777  25" BLANK BLANK BLANK BLANK " 10240  62\n"
		"Latency              9000us" BLANK BLANK BLANK BLANK "     250us\n"
		"Version  1.96       ------Sequential Create------ --------Random Create--------\n"
		"2 nodes             -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--\n"
		"              files  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n"
		"                  1 +++++ +++" BLANK5 "\n"
		"Latency                100s" BLANK5 "\n"
		"n1                  +++++ +++" BLANK5 "\n"
		"Latency                 1us" BLANK5 "\n"
		"n2                  +++++ +++" BLANK5 "\n"
		"Latency                100s" BLANK5 "\n" CSV_ALL CSV_N1 CSV_N2);
	free(r.text);
}

/* The 1.98 layout: concurrency in the size column, k/m/g figures. A
 * name given with -m names the aggregate. */
static void test_report_1_98(void **state)
{
	struct report r;
	char *csv;

	(void)state;
	report_open(&r, "1.98", 1);
	snprintf(r.opts.machine, sizeof(r.opts.machine), "cluster-a");
	add_iteration(&r, 1);
	report_run(&r);
	assert_non_null(strstr(r.text, "Name:Size etc        /sec %CP"));
	assert_non_null(strstr(r.text, "\ncluster-a    64M::3 2304k  75" BLANK BLANK BLANK BLANK
					" 16384 100\n"));
	assert_non_null(strstr(r.text, "\nn1           64M::2 2925k  95"));
	assert_non_null(strstr(r.text, "\nn2              64M  777k  25"));
	csv = strstr(r.text, "1.98,1.98,cluster-a,3,42,64M,,8192,5,2304,75,");
	assert_non_null(csv);
	assert_non_null(strstr(csv, "\n1.98,1.98,n1,2,42,64M,,8192,5,2925,95,"));
	assert_non_null(strstr(csv, "\n1.98,1.98,n2,1,42,64M,,8192,5,777,25,"));
	free(r.text);
}

/* -x 2: the CSV header, then each iteration's lines, no tables. */
static void test_report_repeated(void **state)
{
	struct report r;
	const char *line;

	(void)state;
	report_open(&r, "1.96", 2);
	add_iteration(&r, 1);
	add_iteration(&r, 2);
	report_run(&r);
	assert_int_equal(strncmp(r.text, "format_version,bonnie_version,name,file_size,", 45), 0);
	line = strchr(r.text, '\n') + 1;
	assert_string_equal(line, CSV_ALL CSV_N1 CSV_N2 CSV_ALL CSV_N1 CSV_N2);
	free(r.text);
}

/* A run without I/O tests: the file table, and only its figures in CSV;
 * a node name with a comma is made safe for the CSV. */
static void test_report_files_only(void **state)
{
	struct report r;

	(void)state;
	report_open(&r, "1.96", 1);
	snprintf(r.opts.size, sizeof(r.opts.size), "0");
	snprintf(r.nodes[1].name, sizeof(r.nodes[1].name), "n,2");
	add(&r, 1, PFS_BONNIE_RAN_DEL, 0, 1, 0, 1000000, 1024, 0, 250000, 0);
	add(&r, 1, PFS_BONNIE_RAN_DEL, 1, 1, 0, 2000000, 1024, 0, 250000, 0);
	report_run(&r);
	assert_string_equal(
		r.text,
		"Version  1.96       ------Sequential Create------ --------Random Create--------\n"
		"2 nodes             -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--\n"
		"              files  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n"
		"                  1" BLANK BLANK BLANK BLANK BLANK "  1024  25\n"
		"Latency          " BLANK BLANK BLANK BLANK BLANK BLANK "\n"
		"n1                 " BLANK BLANK BLANK BLANK BLANK "  1024  25\n"
		"Latency          " BLANK BLANK BLANK BLANK BLANK BLANK "\n"
		"n_2                " BLANK BLANK BLANK BLANK BLANK "   512  12\n"
		"Latency          " BLANK BLANK BLANK BLANK BLANK BLANK "\n"
		"1.96,1.96,2 nodes,3,42,,,,,,,,,,,,,,1,,,,,,,,,,,,,,,1024,25,,,,,,,,,,,,\n"
		"1.96,1.96,n1,2,42,,,,,,,,,,,,,,1,,,,,,,,,,,,,,,1024,25,,,,,,,,,,,,\n"
		"1.96,1.96,n_2,1,42,,,,,,,,,,,,,,1,,,,,,,,,,,,,,,512,12,,,,,,,,,,,,\n");
	free(r.text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_report_1_96),
		cmocka_unit_test(test_report_1_98),
		cmocka_unit_test(test_report_repeated),
		cmocka_unit_test(test_report_files_only),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
