/* test_table.c: the create_unlink_perf report. The golden test feeds the
 * formatter the seed sample's measured numbers (test, iteration, node,
 * worker, op, microseconds, files) and expects the seed's report back byte
 * for byte, header, derived columns and all. */
#include "cmocka_prelude.h"

#include "pfsbench/core/topology.h"
#include "pfsbench/outputs/output.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *read_golden(size_t *len)
{
	FILE *f = fopen(GOLDEN_DIR "/create_unlink_perf.txt", "r");
	char *buf;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	*len = (size_t)ftell(f);
	rewind(f);
	buf = calloc(1, *len + 1);
	assert_true(fread(buf, 1, *len, f) == *len);
	fclose(f);
	return buf;
}

/* The measured inputs of each table row of the golden file. */
static size_t golden_rows(const char *text, struct pfs_row *rows, size_t cap)
{
	const char *line = strstr(text, "---- --");
	size_t n = 0;

	line = strchr(line, '\n') + 1;
	while (*line == ' ' && n < cap) {
		struct pfs_row *r = &rows[n++];

		memset(r, 0, sizeof(*r));
		assert_int_equal(sscanf(line, " %7s %" SCNu32 " %63s %" SCNu32 " %15s %" SCNu64
					      " %" SCNu64,
					r->test, &r->iteration, r->node, &r->worker, r->op,
					&r->elapsed_us, &r->items),
				 7);
		line = strchr(line, '\n') + 1;
	}
	return n;
}

static void test_seed_sample_byte_for_byte(void **state)
{
	static const struct pfs_node nodes[] = {
		{ .name = "gfs-02-lp01", .addr = "10.16.145.43", .nworkers = 1, .leader_rank = 0, .mem_bytes = 0 }, { .name = "gfs-02-lp02", .addr = "10.16.145.44", .nworkers = 1, .leader_rank = 1, .mem_bytes = 0 },
		{ .name = "gfs-02-lp03", .addr = "10.16.145.45", .nworkers = 1, .leader_rank = 2, .mem_bytes = 0 }, { .name = "gfs-02-lp04", .addr = "10.16.145.46", .nworkers = 1, .leader_rank = 3, .mem_bytes = 0 },
		{ .name = "gfs-02-lp05", .addr = "10.16.145.47", .nworkers = 1, .leader_rank = 4, .mem_bytes = 0 },
	};
	struct pfs_run_info ri = { .dir = "/mnt/gfs2", .fstype = "GFS2", .nnodes = 5,
				   .nodes = nodes, .workers_min = 1, .workers_max = 1,
				   .caches_dropped = true };
	struct pfs_row rows[200];
	size_t glen, olen = 0, n;
	char *golden = read_golden(&glen), *out = NULL;
	struct pfs_output o = { .ops = &pfs_output_table };

	(void)state;
	n = golden_rows(golden, rows, 200);
	assert_int_equal(n, 140); /* 5 tests x 2 iterations x 14 rows */
	o.fp = open_memstream(&out, &olen);
	assert_int_equal(o.ops->begin(&o, &ri), 0);
	/* one block per (test, iteration), as the engine hands them over */
	for (size_t i = 0; i < n; i += 14)
		assert_int_equal(o.ops->block(&o, &ri, &(struct pfs_block){ .rows = rows + i, .nrows = 14 }), 0);
	assert_int_equal(o.ops->end(&o, &ri, PFS_RUN_COMPLETE, ""), 0);
	fclose(o.fp);
	assert_int_equal(olen, glen);
	assert_string_equal(out, golden);
	free(out);
	free(golden);
}

static char *render(const struct pfs_run_info *ri, const struct pfs_row *rows, size_t n,
		    enum pfs_run_status st)
{
	struct pfs_output o = { .ops = &pfs_output_table };
	char *out = NULL;
	size_t len = 0;

	o.fp = open_memstream(&out, &len);
	o.ops->begin(&o, ri);
	o.ops->block(&o, ri, &(struct pfs_block){ .rows = rows, .nrows = n });
	o.ops->end(&o, ri, st, "x");
	fclose(o.fp);
	return out;
}

static void test_long_node_names_widen_not_cut(void **state)
{
	static const struct pfs_node nodes[] = { { .name = "compute-node-0123", .addr = "-", .nworkers = 2, .leader_rank = 0, .mem_bytes = 0 } };
	struct pfs_run_info ri = { .dir = "/d", .fstype = "TMPFS", .nnodes = 1, .nodes = nodes,
				   .workers_min = 2, .workers_max = 2, .caches_dropped = true };
	struct pfs_row r = { .test = "pa", .op = "Unlink", .node = "compute-node-0123",
			     .iteration = 1, .worker = 2, .elapsed_us = 900, .items = 1000 };
	char *out = render(&ri, &r, 1, PFS_RUN_COMPLETE);

	(void)state;
	assert_non_null(strstr(out, "Testing with 1 nodes, 2 workers per node: \n"));
	assert_non_null(strstr(out, "\n pa   1 compute-node-0123    2 Unlink          900   1000"
				    "      0   1111111\n"));
	free(out);
}

static void test_uneven_workers_and_aborted_run(void **state)
{
	static const struct pfs_node nodes[] = { { .name = "a", .addr = "10.0.0.1", .nworkers = 1, .leader_rank = 0, .mem_bytes = 0 }, { .name = "b", .addr = "10.0.0.2", .nworkers = 3, .leader_rank = 1, .mem_bytes = 0 } };
	struct pfs_run_info ri = { .dir = "/d", .fstype = "EXT4", .nnodes = 2, .nodes = nodes,
				   .workers_min = 1, .workers_max = 3, .caches_dropped = false,
				   .caches_note = "caches were not dropped: Permission denied" };
	char *out = render(&ri, NULL, 0, PFS_RUN_ABORTED);

	(void)state;
	assert_string_equal(out, "EXT4 mount point: /d\n"
				 "Testing with 2 nodes, 1 to 3 workers per node: \n"
				 " a 10.0.0.1\n b 10.0.0.2\n\n"
				 "Test It  Node name     Work TestType Microsecs  Files  us/fil files/sec\n"
				 "---- -- -------------- ---- -------- ---------- ------ ------ ---------\n"
				 "\nNote: caches were not dropped: Permission denied.\nAborted.\n");
	free(out);
}

/* A capped show: the first rows' lines as the whole report prints them,
 * then one line saying how many are left out and what prints them, then
 * the table's ending (its notes) in full. */
static void test_row_budget_prints_the_first_rows_then_says_so(void **state)
{
	static const struct pfs_node nodes[] = { { .name = "n1", .addr = "-", .nworkers = 1, .leader_rank = 0, .mem_bytes = 0 } };
	struct pfs_run_info ri = { .dir = "/d", .fstype = "TMPFS", .nnodes = 1, .nodes = nodes,
				   .workers_min = 1, .workers_max = 1, .caches_dropped = true };
	struct pfs_row rows[5];
	struct pfs_row_budget budget = { .lines_max = 2, .path = "r.h5" };
	struct pfs_output o = { .ops = &pfs_output_table, .budget = &budget };
	const char *note = "... 3 more row lines not printed (show prints the first 2): pfsbench show "
			   "--all 'r.h5' prints them all, pfsbench export 'r.h5' --csv every row's "
			   "fields\n\nStonewall:";
	char *out = NULL, *all = NULL, *cut;
	size_t len = 0;

	(void)state;
	for (size_t i = 0; i < 5; i++)
		rows[i] = (struct pfs_row){ .test = "pa", .op = "Create", .node = "n1", .iteration = 1,
					    .worker = (uint32_t)i + 1, .elapsed_us = 1000, .items = 10,
					    .stonewall_items = i == 4 ? 7 : 0, .stonewall_us = 5 };
	o.fp = open_memstream(&out, &len);
	o.ops->begin(&o, &ri);
	o.ops->block(&o, &ri, &(struct pfs_block){ .rows = rows, .nrows = 3 });
	o.ops->block(&o, &ri, &(struct pfs_block){ .rows = rows + 3, .nrows = 2 });
	o.ops->end(&o, &ri, PFS_RUN_COMPLETE, "");
	fclose(o.fp);
	assert_int_equal(budget.printed, 2);
	assert_int_equal(budget.left_out, 3);
	all = render(&ri, rows, 5, PFS_RUN_COMPLETE);
	/* up to the third row's line, the whole report's text; then the note */
	cut = strstr(all, "    3 Create");
	assert_non_null(cut);
	while (cut > all && cut[-1] != '\n')
		cut--;
	assert_memory_equal(out, all, (size_t)(cut - all));
	assert_true(!strncmp(out + (cut - all), note, strlen(note)));
	assert_non_null(strstr(out, " pa 1 n1 5 Create: 7 files"));
	assert_null(strstr(out, "    3 Create"));
	free(out);
	free(all);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seed_sample_byte_for_byte),
		cmocka_unit_test(test_long_node_names_widen_not_cut),
		cmocka_unit_test(test_uneven_workers_and_aborted_run),
		cmocka_unit_test(test_row_budget_prints_the_first_rows_then_says_so),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
