/* test_matrix_plan.c: pfsbench matrix as data (src/plans/matrix_plan.c). What it
 * protects: the size lists and their refusals; the plan's steps (step 0,
 * then passes over the cells, a cell whose request exceeds its transfer
 * never run); the outlier rule applied to rows on the seed's kind of data
 * (iter=5 around the seed's write matrix, outliers where a run was hit,
 * repetitions that only wobble), which must give back the seed's matrix
 * byte for byte; the marks read back; noise; incomplete repetitions; the
 * slowest node against the median; rows that do not fit the plan. */
#include "cmocka_prelude.h"

#include "pfsbench/formats/matrixfmt.h"
#include "pfsbench/plans/matrix_plan.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void opts_of(struct pfs_matrix_opts *o, const char *req, const char *xfer, uint64_t iter)
{
	memset(o, 0, sizeof(*o));
	snprintf(o->req, sizeof(o->req), "%s", req);
	snprintf(o->xfer, sizeof(o->xfer), "%s", xfer);
	o->iter = iter;
}

static void test_size_lists(void **state)
{
	static const struct {
		const char *list;
		unsigned n;
		uint64_t first, last;
	} good[] = {
		{"1k..4m", 13, 1024, 4u << 20},    {"1m..1g", 11, 1u << 20, 1u << 30},
		{"4096", 1, 4096, 4096},           {"4k,64k,1m", 3, 4096, 1u << 20},
		{"3k..12k,1m", 4, 3072, 1u << 20}, {"512,1k..2k", 3, 512, 2048},
		{"64k..64k", 1, 65536, 65536},
	};
	static const struct {
		const char *list;
		const char *msg;
	} bad[] = {
		{"", "no sizes"},
		{"4k,,8k", "an empty item in '4k,,8k'"},
		{"4k,", "'4k,' ends with a comma"},
		{",4k", "an empty item in ',4k'"},
		{"3k..8k", "'3k..8k': 8k is not 3k times a power of two"},
		{"8k..4k", "'8k..4k' runs backwards"},
		{"64k,4k", "sizes must increase: 4k comes after 65536 bytes"},
		{"4k,4k", "sizes must increase: 4k comes after 4096 bytes"},
		{"0", "'0' is no size (4096, 64k, 1m, 1g)"},
		{"4x", "'4x' is no size (4096, 64k, 1m, 1g)"},
		{"-4k", "'-4k' is no size (4096, 64k, 1m, 1g)"},
		{"..4k", "'' is no size (4096, 64k, 1m, 1g)"},
		{"2g", "2g is larger than 1073741824 bytes"},
		{"99999999999999999999", "99999999999999999999 is larger than 1073741824 bytes"},
		{"0123456789012345678901234567890123456789012345678901234567890",
		 "'01234567890123456789...' is no size"},
	};
	uint64_t sizes[PFS_MATRIXFMT_MAX];
	unsigned n;
	char err[160];

	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		assert_int_equal(
			pfs_matrix_sizes_parse(good[i].list, 1u << 30, sizes, &n, err, sizeof(err)),
			0);
		assert_int_equal(n, good[i].n);
		assert_true(sizes[0] == good[i].first && sizes[n - 1] == good[i].last);
		for (unsigned k = 1; k < n; k++)
			assert_true(sizes[k] > sizes[k - 1]);
	}
	assert_int_equal(
		pfs_matrix_sizes_parse("1..1t", (uint64_t)1 << 40, sizes, &n, err, sizeof(err)),
		-EINVAL);
	assert_string_equal(err, "more than 32 sizes");
	assert_int_equal(pfs_matrix_sizes_parse("3k..12k", 1u << 30, sizes, &n, err, sizeof(err)),
			 0);
	assert_true(n == 3 && sizes[1] == 6144);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(
			pfs_matrix_sizes_parse(bad[i].list, 1u << 30, sizes, &n, err, sizeof(err)),
			-EINVAL);
		assert_string_equal(err, bad[i].msg);
	}
}

static void test_plan_of_perf_matrix_defaults(void **state)
{
	struct pfs_matrix_opts o;
	struct pfs_matrix_plan p;
	struct pfs_matrix perf;
	unsigned row, col, rep;
	char err[160];

	(void)state;
	opts_of(&o, PFS_MATRIX_REQ_DEFAULT, PFS_MATRIX_XFER_DEFAULT, 5);
	assert_int_equal(pfs_matrix_plan_init(&p, &o, err, sizeof(err)), 0);
	pfs_matrixfmt_init_perf(&perf);
	assert_int_equal(p.sizes.rows, perf.rows);
	assert_int_equal(p.sizes.cols, perf.cols);
	assert_memory_equal(p.sizes.xfer_bytes, perf.xfer_bytes, perf.rows * sizeof(uint64_t));
	assert_memory_equal(p.sizes.req_bytes, perf.req_bytes, perf.cols * sizeof(uint64_t));
	/* 2 MiB and 4 MiB requests of 1 MiB, and 4 MiB of 2 MiB, are not run */
	assert_int_equal(p.ncells, 11 * 13 - 3);
	assert_int_equal(pfs_matrix_plan_steps(&p), 1 + 140 * 5);
	assert_true(p.span == 1u << 30 && p.req_max == 4u << 20);
	assert_false(pfs_matrix_plan_cell(&p, 0, &row, &col, &rep));
	assert_false(pfs_matrix_plan_cell(&p, 701, &row, &col, &rep));
	/* passes over the matrix: rows in order, columns in order within */
	assert_true(pfs_matrix_plan_cell(&p, 1, &row, &col, &rep));
	assert_true(row == 0 && col == 0 && rep == 0);
	assert_true(pfs_matrix_plan_cell(&p, 11, &row, &col, &rep));
	assert_true(row == 0 && col == 10 && rep == 0);
	assert_true(pfs_matrix_plan_cell(&p, 12, &row, &col, &rep));
	assert_true(row == 1 && col == 0 && rep == 0); /* 1 MiB's last two skipped */
	assert_true(pfs_matrix_plan_cell(&p, 23, &row, &col, &rep));
	assert_true(row == 1 && col == 11 && rep == 0);
	assert_true(pfs_matrix_plan_cell(&p, 24, &row, &col, &rep));
	assert_true(row == 2 && col == 0 && rep == 0);
	assert_true(pfs_matrix_plan_cell(&p, 140, &row, &col, &rep));
	assert_true(row == 10 && col == 12 && rep == 0);
	assert_true(pfs_matrix_plan_cell(&p, 141, &row, &col, &rep));
	assert_true(row == 0 && col == 0 && rep == 1);
	assert_true(pfs_matrix_plan_cell(&p, 700, &row, &col, &rep));
	assert_true(row == 10 && col == 12 && rep == 4);
	/* no step runs a cell whose request exceeds its transfer */
	for (uint64_t s = 1; s < pfs_matrix_plan_steps(&p); s++) {
		assert_true(pfs_matrix_plan_cell(&p, s, &row, &col, &rep));
		assert_true(p.sizes.req_bytes[col] <= p.sizes.xfer_bytes[row]);
	}
}

static void test_plan_refusals(void **state)
{
	struct pfs_matrix_opts o;
	struct pfs_matrix_plan p;
	char err[160];

	(void)state;
	opts_of(&o, "1m..4m", "64k..512k", 1);
	assert_int_equal(pfs_matrix_plan_init(&p, &o, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "no cell to run: every request size (--req) is larger than every "
				 "transfer size (--xfer)");
	opts_of(&o, "2g", "4g", 1);
	assert_int_equal(pfs_matrix_plan_init(&p, &o, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--req: 2g is larger than 1073741824 bytes");
	opts_of(&o, "4k", "2t", 1);
	assert_int_equal(pfs_matrix_plan_init(&p, &o, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--xfer: 2t is larger than 1099511627776 bytes");
	opts_of(&o, "4k", "1m", 1001);
	assert_int_equal(pfs_matrix_plan_init(&p, &o, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "-i/--iter must be 1 to 1000");
}

/* ---- rows ----------------------------------------------------------------------------- */

struct rows {
	struct pfs_row *r;
	size_t n, cap;
};

static struct pfs_row *add_row(struct rows *rs, const struct pfs_matrix_plan *p, uint64_t step,
			       uint32_t rank, uint32_t node, uint64_t start_us, uint64_t elapsed_us)
{
	unsigned row = 0, col = 0, rep;
	struct pfs_row *r;

	if (rs->n == rs->cap) {
		rs->cap = rs->cap ? rs->cap * 2 : 64;
		rs->r = realloc(rs->r, rs->cap * sizeof(*rs->r));
		assert_non_null(rs->r);
	}
	r = &rs->r[rs->n++];
	memset(r, 0, sizeof(*r));
	(void)pfs_matrix_plan_cell(p, step, &row, &col, &rep);
	strcpy(r->test, PFS_MATRIX_TEST);
	strcpy(r->op, PFS_MATRIX_OP_WRITE);
	strcpy(r->unit, "bytes");
	r->iteration = 1;
	r->step = (uint32_t)step;
	r->rank = rank;
	r->node_index = node;
	r->worker = 1;
	r->start_us = start_us;
	r->elapsed_us = elapsed_us;
	r->bytes = p->sizes.xfer_bytes[row];
	r->items = (r->bytes + p->sizes.req_bytes[col] - 1) / p->sizes.req_bytes[col];
	return r;
}

/* Two ranks on one node moving 2 x transfer bytes in span_us: the
 * repetition's rate is 2 x transfer / 2^20 / (span_us / 10^6). */
static void add_rep(struct rows *rs, const struct pfs_matrix_plan *p, uint64_t step,
		    uint64_t span_us)
{
	uint64_t t0 = step * 10000000u;

	add_row(rs, p, step, 0, 0, t0, span_us);
	add_row(rs, p, step, 1, 0, t0 + 7, span_us - 7);
}

static double rep_rate(const struct pfs_matrix_plan *p, unsigned row, uint64_t span_us)
{
	return 2.0 * (double)p->sizes.xfer_bytes[row] / 1048576 / ((double)span_us / 1e6);
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = malloc(65536);

	assert_non_null(f);
	assert_non_null(buf);
	*len = fread(buf, 1, 65536, f);
	fclose(f);
	return buf;
}

/* iter=5 around the seed's write matrix (cmirror-perf_matrix.txt, 5
 * iterations): in most cells one repetition was hit by something else (a
 * third of the rate), in every seventh all five only wobble by 1 %. The
 * rule must discard the hit ones and the wobbling extremes, and the kept
 * repetitions must give the seed's matrix back, byte for byte. */
static void test_outlier_rule_gives_back_the_seeds_matrix(void **state)
{
	struct pfs_matrix seed, printed;
	struct pfs_matrix_opts o;
	struct pfs_matrix_plan p;
	struct pfs_matrix_result *res = malloc(sizeof(*res));
	struct rows rs = {NULL, 0, 0};
	char err[256] = "", *want, *text = NULL;
	size_t want_len, text_len = 0;
	unsigned discarded = 0, expect_discarded = 0;
	FILE *f;

	(void)state;
	assert_non_null(res);
	opts_of(&o, PFS_MATRIX_REQ_DEFAULT, PFS_MATRIX_XFER_DEFAULT, 5);
	assert_int_equal(pfs_matrix_plan_init(&p, &o, err, sizeof(err)), 0);
	pfs_matrixfmt_init_perf(&seed);
	want = slurp(DATA_DIR "/perf_matrix/write.txt", &want_len);
	assert_int_equal(pfs_matrixfmt_parse(want, want_len, &seed, err, sizeof(err)), 0);
	for (unsigned rep = 0; rep < 5; rep++)
		for (unsigned cell = 0; cell < p.ncells; cell++) {
			unsigned r = p.cell_row[cell], c = p.cell_col[cell];
			double v = seed.mibps[r][c], x = v;

			if (cell % 7 == 0)
				x = v * (rep == 0 ? 0.99 : rep == 4 ? 1.01 : 1.0);
			else if (rep == cell % 5)
				x = v / 3; /* hit: mean 13v/15, sd 4v/15; it is 8v/15 off */
			/* the span that gives rate x, to the microsecond */
			add_rep(&rs, &p, 1 + rep * p.ncells + cell,
				(uint64_t)llround(2.0 * (double)p.sizes.xfer_bytes[r] / 1048576 /
						  x * 1e6));
		}
	for (unsigned cell = 0; cell < p.ncells; cell++)
		expect_discarded +=
			2; /* the hit one's two rows, or the two extremes' one each x 2 */
	for (unsigned cell = 0; cell < p.ncells; cell++)
		expect_discarded += cell % 7 == 0 ? 2 : 0;
	assert_int_equal(
		pfs_matrix_judge(&p, PFS_MATRIX_OP_WRITE, rs.r, rs.n, 2, 1, err, sizeof(err)), 0);
	for (size_t i = 0; i < rs.n; i++)
		discarded += rs.r[i].discarded;
	assert_int_equal(discarded, expect_discarded);
	assert_int_equal(
		pfs_matrix_reduce(&p, PFS_MATRIX_OP_WRITE, rs.r, rs.n, 2, 1, res, err, sizeof(err)),
		0);
	assert_int_equal(res->reps_measured, 5 * 140);
	assert_int_equal(res->reps_discarded, expect_discarded / 2);
	assert_int_equal(res->cells_missing, 0);
	printed = res->m;
	f = open_memstream(&text, &text_len);
	assert_int_equal(pfs_matrixfmt_print(f, &printed), 0);
	fclose(f);
	assert_int_equal(text_len, want_len);
	assert_memory_equal(text, want, want_len);
	/* the cells that were never run are 0.00, as perf_matrix printed them */
	assert_true(res->m.mibps[0][11] == 0 && res->m.mibps[0][12] == 0 &&
		    res->m.mibps[1][12] == 0);
	assert_true(res->cell[0][12].reps == 0);
	/* noise counts the discarded ones: a hit cell's is large, a wobbling one's 0.7 % */
	assert_true(res->cell[0][1].noise > 0.3);
	assert_true(fabs(res->cell[0][0].noise - sqrt(0.0002 / 4)) < 1e-4);
	assert_true(res->cell[0][0].slow_ratio < 0); /* one node */
	free(text);
	free(want);
	free(rs.r);
	free(res);
}

static void test_marks_are_read_back_and_incomplete_reps_never_count(void **state)
{
	struct pfs_matrix_opts o;
	struct pfs_matrix_plan p;
	struct pfs_matrix_result res;
	struct rows rs = {NULL, 0, 0};
	const uint64_t spans[] = {100000, 100000, 101000, 99000};
	char err[256] = "";

	(void)state;
	opts_of(&o, "64k", "1m", 5);
	assert_int_equal(pfs_matrix_plan_init(&p, &o, err, sizeof(err)), 0);
	for (unsigned rep = 0; rep < 4; rep++)
		add_rep(&rs, &p, 1 + rep, spans[rep]);
	/* the fifth: one rank's row only (the run stopped in it) */
	add_row(&rs, &p, 5, 0, 0, 50000000, 1000);
	assert_int_equal(
		pfs_matrix_judge(&p, PFS_MATRIX_OP_WRITE, rs.r, rs.n, 2, 1, err, sizeof(err)), 0);
	/* mean 20.0000..., sd 0.14: 101000 and 99000 are beyond one */
	assert_true(!rs.r[0].discarded && !rs.r[3].discarded);
	assert_true(rs.r[4].discarded && rs.r[5].discarded && rs.r[6].discarded &&
		    rs.r[7].discarded);
	assert_true(rs.r[8].discarded); /* not measured: never counts */
	assert_int_equal(pfs_matrix_reduce(&p, PFS_MATRIX_OP_WRITE, rs.r, rs.n, 2, 1, &res, err,
					   sizeof(err)),
			 0);
	assert_true(res.cell[0][0].reps == 4 && res.cell[0][0].kept == 2);
	assert_true(fabs(res.m.mibps[0][0] - rep_rate(&p, 0, 100000)) < 1e-9);
	/* the marks are the file's: unmark one, and it counts */
	rs.r[4].discarded = rs.r[5].discarded = 0;
	assert_int_equal(pfs_matrix_reduce(&p, PFS_MATRIX_OP_WRITE, rs.r, rs.n, 2, 1, &res, err,
					   sizeof(err)),
			 0);
	assert_true(res.cell[0][0].kept == 3);
	assert_true(fabs(res.m.mibps[0][0] -
			 (2 * rep_rate(&p, 0, 100000) + rep_rate(&p, 0, 101000)) / 3) < 1e-9);
	/* a cell whose every repetition is missing is 0 and counted missing */
	rs.n = 0;
	assert_int_equal(pfs_matrix_judge(&p, PFS_MATRIX_OP_WRITE, rs.r, 0, 2, 1, err, sizeof(err)),
			 0);
	assert_int_equal(
		pfs_matrix_reduce(&p, PFS_MATRIX_OP_WRITE, rs.r, 0, 2, 1, &res, err, sizeof(err)),
		0);
	assert_true(res.cells_missing == 1 && res.m.mibps[0][0] == 0 && res.cell[0][0].noise < 0);
	free(rs.r);
}

static void test_one_and_two_repetitions_are_kept(void **state)
{
	struct pfs_matrix_opts o;
	struct pfs_matrix_plan p;
	struct rows rs = {NULL, 0, 0};
	char err[256] = "";

	(void)state;
	opts_of(&o, "64k", "1m", 2);
	assert_int_equal(pfs_matrix_plan_init(&p, &o, err, sizeof(err)), 0);
	add_rep(&rs, &p, 1, 100000);
	add_rep(&rs, &p, 2, 300000);
	assert_int_equal(
		pfs_matrix_judge(&p, PFS_MATRIX_OP_WRITE, rs.r, rs.n, 2, 1, err, sizeof(err)), 0);
	for (size_t i = 0; i < rs.n; i++)
		assert_false(rs.r[i].discarded);
	opts_of(&o, "64k", "1m", 1);
	assert_int_equal(pfs_matrix_plan_init(&p, &o, err, sizeof(err)), 0);
	rs.n = 2;
	rs.r[0].discarded = rs.r[1].discarded = 1;
	assert_int_equal(
		pfs_matrix_judge(&p, PFS_MATRIX_OP_WRITE, rs.r, rs.n, 2, 1, err, sizeof(err)), 0);
	assert_false(rs.r[0].discarded || rs.r[1].discarded);
	free(rs.r);
}

/* A cell whose request exceeds its transfer is not in the plan, prints
 * 0.00 on perf_matrix's lines and "-" in the labelled matrix. */
static void test_cells_whose_request_exceeds_the_transfer(void **state)
{
	struct pfs_matrix_opts o;
	struct pfs_matrix_plan p;
	struct pfs_matrix_result res;
	struct rows rs = {NULL, 0, 0};
	char err[256] = "", *text = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	opts_of(&o, "256k..1m", "256k,512k", 1);
	assert_int_equal(pfs_matrix_plan_init(&p, &o, err, sizeof(err)), 0);
	assert_int_equal(p.ncells, 3); /* 256k of 256k; 256k and 512k of 512k */
	for (unsigned cell = 0; cell < p.ncells; cell++)
		add_rep(&rs, &p, 1 + cell, 10000);
	assert_int_equal(pfs_matrix_reduce(&p, PFS_MATRIX_OP_WRITE, rs.r, rs.n, 2, 1, &res, err,
					   sizeof(err)),
			 0);
	assert_true(res.cells_run == 3 && res.cells_missing == 0);
	f = open_memstream(&text, &len);
	assert_int_equal(pfs_matrixfmt_print(f, &res.m), 0);
	fputc('\n', f);
	assert_int_equal(pfs_matrixfmt_print_labelled(f, &res.m), 0);
	fclose(f);
	assert_string_equal(text, " 50.00 0.00 0.00\n"
				  " 100.00 100.00 0.00\n"
				  "\n"
				  "MiB/s by transfer size (rows) and request size (columns)\n"
				  "        256KiB  512KiB  1MiB\n"
				  "256KiB   50.00       -     -\n"
				  "512KiB  100.00  100.00     -\n");
	free(text);
	free(rs.r);
}

static void test_slowest_node_against_the_median(void **state)
{
	struct pfs_matrix_opts o;
	struct pfs_matrix_plan p;
	struct pfs_matrix_result res;
	struct rows rs = {NULL, 0, 0};
	char err[256] = "";

	(void)state;
	opts_of(&o, "64k", "1m", 1);
	assert_int_equal(pfs_matrix_plan_init(&p, &o, err, sizeof(err)), 0);
	/* 3 nodes of one rank: 100, 125 and 200 ms for 1 MiB */
	add_row(&rs, &p, 1, 0, 0, 1000, 100000);
	add_row(&rs, &p, 1, 1, 1, 1000, 200000);
	add_row(&rs, &p, 1, 2, 2, 1000, 125000);
	assert_int_equal(pfs_matrix_reduce(&p, PFS_MATRIX_OP_WRITE, rs.r, rs.n, 3, 3, &res, err,
					   sizeof(err)),
			 0);
	/* 5, 10, 8 MiB/s: slowest 5 over the median 8; all: 3 MiB in 0.2 s */
	assert_int_equal(res.cell[0][0].slow_node, 1);
	assert_true(fabs(res.cell[0][0].slow_ratio - 5.0 / 8.0) < 1e-12);
	assert_true(fabs(res.m.mibps[0][0] - 15.0) < 1e-12);
	/* 2 nodes: the median is the mean of the two */
	rs.n = 2;
	assert_int_equal(pfs_matrix_reduce(&p, PFS_MATRIX_OP_WRITE, rs.r, rs.n, 2, 2, &res, err,
					   sizeof(err)),
			 0);
	assert_true(fabs(res.cell[0][0].slow_ratio - 5.0 / 7.5) < 1e-12);
	free(rs.r);
}

/* Rows come from files anyone may have written: each must fit the plan. */
static void test_rows_that_do_not_fit_the_plan(void **state)
{
	struct pfs_matrix_opts o;
	struct pfs_matrix_plan p;
	struct pfs_matrix_result res;
	struct rows rs = {NULL, 0, 0};
	char err[256] = "";
	struct pfs_row *r;

	(void)state;
	opts_of(&o, "64k", "1m", 1);
	assert_int_equal(pfs_matrix_plan_init(&p, &o, err, sizeof(err)), 0);
#define REFUSED(msg)                                                                               \
	do {                                                                                       \
		assert_int_equal(pfs_matrix_reduce(&p, PFS_MATRIX_OP_WRITE, rs.r, rs.n, 2, 1,      \
						   &res, err, sizeof(err)),                        \
				 -EINVAL);                                                         \
		assert_string_equal(err, msg);                                                     \
		assert_int_equal(pfs_matrix_judge(&p, PFS_MATRIX_OP_WRITE, rs.r, rs.n, 2, 1, err,  \
						  sizeof(err)),                                    \
				 -EINVAL);                                                         \
		rs.n = 0;                                                                          \
	} while (0)
	r = add_row(&rs, &p, 1, 0, 0, 0, 10);
	r->bytes--;
	REFUSED("row 1: 1048575 bytes in 16 requests, but its cell moves 1048576 bytes in requests of "
		"65536");
	add_row(&rs, &p, 2, 0, 0, 0, 10);
	REFUSED("row 1: step 2 is no cell of the plan's 2 steps");
	add_row(&rs, &p, 0, 0, 0, 0, 10);
	REFUSED("row 1: step 0 is no cell of the plan's 2 steps");
	add_row(&rs, &p, 1, 2, 0, 0, 10);
	REFUSED("row 1: rank 2 on node 0 is not in the run (2 ranks, 1 node)");
	add_row(&rs, &p, 1, 0, 1, 0, 10);
	REFUSED("row 1: rank 0 on node 1 is not in the run (2 ranks, 1 node)");
	add_row(&rs, &p, 1, 0, 0, 0, 10);
	add_row(&rs, &p, 1, 0, 0, 0, 10);
	REFUSED("rank 0 has two rows in step 1");
	add_row(&rs, &p, 1, 0, 0, 0, 10);
	r = add_row(&rs, &p, 1, 1, 0, 0, 10);
	r->iteration = 2;
	REFUSED("row 2: iteration 2 after 1: one matrix is one iteration");
	r = add_row(&rs, &p, 1, 0, 0, 0, 10);
	memcpy(r->op, "Readxxxxxxxxxxxxxxxx", sizeof(r->op)); /* no NUL */
	REFUSED("row 1: op 'Readxxxxxxxxxxxx', not Write");
	r = add_row(&rs, &p, 1, 0, 0, 0, 10);
	strcpy(r->unit, "files");
	REFUSED("row 1: unit 'files', not bytes");
#undef REFUSED
	free(rs.r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_size_lists),
		cmocka_unit_test(test_plan_of_perf_matrix_defaults),
		cmocka_unit_test(test_plan_refusals),
		cmocka_unit_test(test_outlier_rule_gives_back_the_seeds_matrix),
		cmocka_unit_test(test_marks_are_read_back_and_incomplete_reps_never_count),
		cmocka_unit_test(test_one_and_two_repetitions_are_kept),
		cmocka_unit_test(test_cells_whose_request_exceeds_the_transfer),
		cmocka_unit_test(test_slowest_node_against_the_median),
		cmocka_unit_test(test_rows_that_do_not_fit_the_plan),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
