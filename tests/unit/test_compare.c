/* test_compare.c: compare's verdict, worked by hand. A side of runs (each
 * run one sample) and a side of one run (its iterations, and the floor
 * for what moves between runs); the interval of the ratio (Welch and
 * Satterthwaite's df, the floor's df infinite); the margin and its p;
 * Holm's levels; the draw of each line's noise toward its side's others;
 * per-node time and waits (short, busy); the table of sides; the words:
 * "230x slower (13x to 4100x)", "no change (could detect >= 1.4x)". */
#include "cmocka_prelude.h"

#include "pfsbench/analysis/compare.h"
#include "pfsbench/analysis/robust.h"
#include "pfsbench/archive/archive.h"
#include "pfsbench/core/topology.h"

#include <math.h>
#include <string.h>

static bool near(double a, double b)
{
	return fabs(a - b) <= 1e-9 * fabs(b) + 1e-12;
}

static struct pfs_cmp_line line(double rate, double noise, unsigned iterations)
{
	struct pfs_cmp_line l;

	memset(&l, 0, sizeof(l));
	strcpy(l.test, "pa");
	strcpy(l.op, "Create");
	l.rate = rate;
	l.noise = noise;
	l.replicates = iterations;
	l.iterations = iterations;
	l.step_us = 1000000;
	return l;
}

/* A cell of runs of these rates, each of 3 iterations. */
static struct pfs_cmp_cell cell_of(const double *rates, size_t n)
{
	struct pfs_cmp_line l[8];
	const struct pfs_cmp_line *p[8];
	struct pfs_cmp_cell c;

	for (size_t i = 0; i < n; i++) {
		l[i] = line(rates[i], 0.01, 3);
		p[i] = &l[i];
	}
	pfs_compare_cell(p, n, &c);
	return c;
}

/* 3 runs: their logs' mean and sample variance, df 2, no floor. One run of
 * 3 iterations: its noise as a median's, and the floor. */
static void test_cells(void **state)
{
	const double r3[3] = { 100, 110, 121 };
	struct pfs_cmp_cell c = cell_of(r3, 3);
	struct pfs_cmp_line one = line(200, 0.2, 3), none = line(200, -1, 1);
	const struct pfs_cmp_line *p = &one;
	double m = (log(100) + log(110) + log(121)) / 3, s2 = 0;

	(void)state;
	s2 = (pow(log(100) - m, 2) + pow(log(110) - m, 2) + pow(log(121) - m, 2)) / 2;
	assert_true(near(c.mlog, m) && near(c.rate, exp(m)));
	assert_true(near(c.s2, s2) && c.nrep == 3 && c.df == 2 && c.c2 == 1 && c.floor2 == 0);
	assert_int_equal(c.runs, 3);
	pfs_compare_cell(&p, 1, &c);
	assert_true(near(c.s2, 0.04) && c.nrep == 3 && c.df == 2 && near(c.c2, M_PI / 2));
	assert_true(near(c.floor2, PFS_CMP_RUN_FLOOR * PFS_CMP_RUN_FLOOR));
	/* One iteration: no noise of its own; the floor alone. */
	p = &none;
	pfs_compare_cell(&p, 1, &c);
	assert_true(c.s2 < 0 && c.nrep == 1 && c.floor2 > 0);
}

/* Two sides of 3 runs: d, SE, Welch df, p of beyond the margin, and the
 * interval at a level, by hand. */
static void test_interval_by_hand(void **state)
{
	const double ra[3] = { 100, 105, 95 }, rb[3] = { 50, 55, 48 };
	struct pfs_cmp_cell a = cell_of(ra, 3), b = cell_of(rb, 3);
	struct pfs_cmp_verdict v;
	double d = b.mlog - a.mlog, va = a.s2 / 3, vb = b.s2 / 3, se = sqrt(va + vb);
	double df = (va + vb) * (va + vb) / (va * va / 2 + vb * vb / 2), m = log(1.1), t;

	(void)state;
	pfs_compare_estimate(&a, &b, 0.10, &v);
	assert_true(v.interval && near(v.ratio, exp(d)) && near(v.se, se) && near(v.df, df));
	assert_true(near(v.p, 2 * (1 - pfs_t_cdf((fabs(d) - m) / se, df))));
	v.moved_us = 1e6;
	pfs_compare_decide(&v, 0.01, 0.10);
	t = pfs_t_quantile(1 - 0.005, df);
	assert_true(near(v.low, exp(d - t * se)) && near(v.high, exp(d + t * se)));
	assert_true(near(v.detectable, exp(m + (t + pfs_t_quantile(0.8, df)) * se)));
	assert_true(v.beyond && v.called_out && v.level == 0.01);
	/* The other way: the same, inverted. */
	pfs_compare_estimate(&b, &a, 0.10, &v);
	v.moved_us = 1e6;
	pfs_compare_decide(&v, 0.01, 0.10);
	assert_true(near(v.high, exp(-d + t * se)) && v.called_out);
}

/* One run a side: its iterations' variance and the floor, whose df is
 * infinite in Satterthwaite's sum. */
static void test_one_run_a_side(void **state)
{
	struct pfs_cmp_line la = line(1000, 0.1, 5), lb = line(400, 0.2, 2);
	const struct pfs_cmp_line *pa = &la, *pb = &lb;
	struct pfs_cmp_cell a, b;
	struct pfs_cmp_verdict v;
	double f2 = PFS_CMP_RUN_FLOOR * PFS_CMP_RUN_FLOOR;
	double wa = M_PI / 2 * 0.01 / 5, wb = 0.04 / 2;

	(void)state;
	pfs_compare_cell(&pa, 1, &a);
	pfs_compare_cell(&pb, 1, &b);
	pfs_compare_estimate(&a, &b, 0.10, &v);
	assert_true(near(v.se, sqrt(wa + wb + 2 * f2)));
	assert_true(near(v.df, (wa + wb + 2 * f2) * (wa + wb + 2 * f2) / (wa * wa / 4 + wb * wb / 1)));
	/* Neither with iterations: the floor alone, a z interval. */
	la = line(1000, -1, 1);
	lb = line(400, -1, 1);
	pfs_compare_cell(&pa, 1, &a);
	pfs_compare_cell(&pb, 1, &b);
	pfs_compare_estimate(&a, &b, 0.10, &v);
	assert_true(v.interval && near(v.se, sqrt(2 * f2)) && v.df >= 1e6);
}

/* The margin: a tight change of 5 % is never beyond 10 %; the same at a
 * margin of 2 % is. */
static void test_margin(void **state)
{
	const double ra[3] = { 100, 100.1, 99.9 }, rb[3] = { 95, 95.1, 94.9 };
	struct pfs_cmp_cell a = cell_of(ra, 3), b = cell_of(rb, 3);
	struct pfs_cmp_verdict v;

	(void)state;
	pfs_compare_estimate(&a, &b, 0.10, &v);
	assert_true(v.p == 1);
	v.moved_us = 1e6;
	pfs_compare_decide(&v, 0.05, 0.10);
	assert_true(!v.beyond && !v.called_out && v.low > 0.9 && v.high < 1);
	pfs_compare_estimate(&a, &b, 0.02, &v);
	assert_true(v.p < 0.01);
	v.moved_us = 1e6;
	pfs_compare_decide(&v, 0.05, 0.02);
	assert_true(v.beyond && v.called_out);
}

/* Holm: the smallest p at alpha / n, the next at alpha / (n - 1), ...;
 * from the first that fails, the rest at that level. */
static void test_holm(void **state)
{
	const double p[5] = { 0.3, 0.001, 0.04, 0.011, 0.02 };
	double level[5];

	(void)state;
	pfs_compare_holm(p, 5, 0.05, level);
	assert_true(near(level[1], 0.01));    /* 0.001 <= 0.05/5 */
	assert_true(near(level[3], 0.0125));  /* 0.011 <= 0.05/4 */
	assert_true(near(level[4], 0.05 / 3)); /* 0.02 > 0.0167: stops here */
	assert_true(near(level[2], 0.05 / 3) && near(level[0], 0.05 / 3));
	pfs_compare_holm(p, 0, 0.05, level); /* none: nothing to do */
}

/* Moderation: s2' = (d0 x others' pooled + df x s2) / (d0 + df), d0 the
 * prior's df or the others' if fewer; short lines stay out of the pool. */
static void test_moderate(void **state)
{
	struct pfs_cmp_cell c[3], *p[3] = { &c[0], &c[1], &c[2] };

	(void)state;
	memset(c, 0, sizeof(c));
	for (int i = 0; i < 3; i++) {
		c[i].nrep = 3;
		c[i].df = 2;
		c[i].c2 = 1;
		c[i].step_us = 100000;
	}
	c[0].s2 = 0.01;
	c[1].s2 = 0.04;
	c[2].s2 = 1.0;
	c[2].step_us = 1000; /* short: out of the pool, but drawn toward it */
	pfs_compare_moderate(p, 3);
	/* c[0]: the others in the pool are c[1] alone, 2 df: d0 = 2. */
	assert_true(near(c[0].s2, (2 * 0.04 + 2 * 0.01) / 4) && c[0].df == 4);
	assert_true(near(c[1].s2, (2 * 0.01 + 2 * 0.04) / 4) && c[1].df == 4);
	/* c[2]: the pool is c[0] and c[1], 4 df: d0 = 4, prior 0.025. */
	assert_true(near(c[2].s2, (4 * 0.025 + 2 * 1.0) / 6) && c[2].df == 6);
}

/* short: no node moved 10 ms; busy: its ranks' work (its time less their
 * waits for a CPU) moved under 10 ms. */
static void test_short_and_busy(void **state)
{
	struct pfs_cmp_verdict v = { .ratio = 0.5, .interval = true, .se = 0.05, .df = 20 };

	(void)state;
	v.moved_us = 9000;
	pfs_compare_decide(&v, 0.05, 0.10);
	assert_true(v.beyond && v.unresolved && !v.called_out);
	assert_string_equal(pfs_compare_word(&v), "short");
	v.moved_us = 50000;
	v.waited_us = 45000;
	v.waits_us = 45000;
	pfs_compare_decide(&v, 0.05, 0.10);
	assert_true(v.busy && !v.unresolved && !v.called_out);
	assert_string_equal(pfs_compare_word(&v), "busy");
	/* The work moved 5 ms, and the waits 9 ms: too small to say, short. */
	v.waits_us = 9000;
	pfs_compare_decide(&v, 0.05, 0.10);
	assert_true(v.unresolved && !v.busy && !v.called_out);
	assert_string_equal(pfs_compare_word(&v), "short");
	v.waited_us = 35000;
	pfs_compare_decide(&v, 0.05, 0.10);
	assert_true(v.called_out);
	assert_string_equal(pfs_compare_word(&v), "SLOWER");
}

/* The table matches nodes by name across runs: node "b" is second in run
 * 1 and first in run 2, and its 30 ms more in run 2 is what moved, and it
 * is named; the waits of the same node are what is set against it. Then
 * the op's whole time: moves that no node makes alone. */
static void test_table_nodes_by_name(void **state)
{
	struct pfs_node n1[2], n2[2];
	double us1[2] = { 5000, 10000 }, us2[2] = { 40000, 5000 };
	double w1[2] = { 0, 0 }, w2[2] = { 25000, 0 };
	struct pfs_cmp_line l1 = line(1000, 0.01, 3), l2 = line(250, 0.01, 3);
	struct pfs_cmp_run runs[2] = { { &l1, 1, 2, n1 }, { &l2, 1, 2, n2 } };
	const size_t sides[2] = { 1, 1 };
	struct pfs_cmp_table t;

	(void)state;
	memset(n1, 0, sizeof(n1));
	memset(n2, 0, sizeof(n2));
	strcpy(n1[0].name, "a");
	strcpy(n1[1].name, "b");
	strcpy(n2[0].name, "b");
	strcpy(n2[1].name, "a");
	l1.node_us = us1;
	l1.node_off_us = l1.node_wait_us = w1;
	l2.node_us = us2;
	l2.node_off_us = l2.node_wait_us = w2;
	assert_int_equal(pfs_compare_table(runs, sides, 2, PFS_CMP_MARGIN, &t), 0);
	assert_int_equal(t.nlines, 1);
	assert_true(near(t.v[1].moved_us, 30000));  /* b: 10 ms, then 40 ms */
	assert_true(near(t.v[1].waited_us, 25000)); /* 5 ms beyond b's waits */
	assert_true(t.v[1].beyond && t.v[1].busy && !t.v[1].called_out);
	w2[0] = 0;
	pfs_compare_table_free(&t);
	assert_int_equal(pfs_compare_table(runs, sides, 2, PFS_CMP_MARGIN, &t), 0);
	assert_true(t.v[1].called_out && near(t.v[1].waited_us, 0));
	assert_string_equal(t.v[1].node, "b"); /* all of the move was b's */
	pfs_compare_table_free(&t);
	/* Both nodes 6 ms slower: no node moved 10 ms, but the op's whole
	 * time (the sum of their turns, in se) moved 12 ms; no node is named. */
	us1[0] = us1[1] = 10000;
	us2[0] = us2[1] = 16000;
	l1.op_us = 20000;
	l2.op_us = 32000;
	assert_int_equal(pfs_compare_table(runs, sides, 2, PFS_CMP_MARGIN, &t), 0);
	assert_true(near(t.v[1].moved_us, 12000) && t.v[1].called_out && !t.v[1].node);
	pfs_compare_table_free(&t);
	l2.op_us = 26000; /* the op's time moved 6 ms: short */
	assert_int_equal(pfs_compare_table(runs, sides, 2, PFS_CMP_MARGIN, &t), 0);
	assert_true(near(t.v[1].moved_us, 6000) && t.v[1].unresolved && !t.v[1].called_out);
	pfs_compare_table_free(&t);
}

/* Holm's family is the lines that can be called out: a line whose op and
 * nodes' times last under 10 ms on both sides cannot move by 10 ms, and
 * does not make the others' level stricter. Two lines, one run a side: a
 * long one 2x slower, and a short one (3 ms) unchanged; the long one is
 * judged at 5 %, not at 5 % / 2, and the short one's interval is printed
 * at the family's strictest level. When the short line lasts 12 ms on one
 * side it is in the family, and the long one is judged at 5 % / 2. */
static void test_family_of_lines_that_can_be_called(void **state)
{
	struct pfs_node nodes[1];
	double ua[1] = { 50000 }, ub[1] = { 100000 }, sa[1] = { 3000 }, sb[1] = { 3000 };
	double w[1] = { 0 };
	struct pfs_cmp_line la[2] = { line(1000, 0.02, 3), line(1000, 0.02, 3) };
	struct pfs_cmp_line lb[2] = { line(500, 0.02, 3), line(1000, 0.02, 3) };
	struct pfs_cmp_run runs[2] = { { la, 2, 1, nodes }, { lb, 2, 1, nodes } };
	const size_t sides[2] = { 1, 1 };
	struct pfs_cmp_table t;

	(void)state;
	memset(nodes, 0, sizeof(nodes));
	strcpy(nodes[0].name, "a");
	strcpy(la[1].op, "Write");
	strcpy(lb[1].op, "Write");
	la[0].op_us = ua[0], lb[0].op_us = ub[0], la[1].op_us = sa[0], lb[1].op_us = sb[0];
	la[0].node_us = ua, lb[0].node_us = ub, la[1].node_us = sa, lb[1].node_us = sb;
	la[0].node_off_us = lb[0].node_off_us = la[1].node_off_us = lb[1].node_off_us = w;
	la[0].node_wait_us = lb[0].node_wait_us = la[1].node_wait_us = lb[1].node_wait_us = w;
	assert_int_equal(pfs_compare_table(runs, sides, 2, PFS_CMP_MARGIN, &t), 0);
	assert_int_equal(t.nlines, 2);
	assert_true(near(t.v[1].longest_us, 100000) && near(t.v[3].longest_us, 3000));
	assert_true(t.v[1].called_out && near(t.v[1].level, 0.05));
	assert_true(!t.v[3].called_out && near(t.v[3].level, 0.05));
	pfs_compare_table_free(&t);
	sb[0] = lb[1].op_us = 12000; /* now it could move 10 ms: in the family */
	assert_int_equal(pfs_compare_table(runs, sides, 2, PFS_CMP_MARGIN, &t), 0);
	assert_true(t.v[1].called_out && near(t.v[1].level, 0.025));
	assert_true(near(t.v[3].level, 0.05)); /* the second, judged at 5 % / 1 */
	pfs_compare_table_free(&t);
}

/* Runs of 4 nodes in se, 3 a side; node n3's own time in the op, per run,
 * is f times its others' (20 ms), with 1-3 % of noise, in side b; each
 * line's op time is the sum of the nodes' turns, its rate noisier. */
static void se_runs(struct pfs_cmp_run *runs, struct pfs_cmp_line *l, double (*us)[4],
		    double (*w)[4], struct pfs_node *nodes, double f)
{
	static const double jitter[6] = { 1.00, 1.02, 0.98, 1.01, 0.99, 1.03 };
	/* The op's rate, of every rank's files over the steps' spans, moves
	 * with more than the nodes' own times (the waits between turns). */
	static const double op_jitter[6] = { 1.00, 1.12, 0.90, 1.10, 0.88, 1.00 };

	memset(nodes, 0, 4 * sizeof(*nodes));
	for (unsigned k = 0; k < 4; k++)
		snprintf(nodes[k].name, sizeof(nodes[k].name), "n%u", k + 1);
	for (unsigned r = 0; r < 6; r++) {
		double sum = 0;

		for (unsigned k = 0; k < 4; k++) {
			us[r][k] = 20000 * jitter[(r + k) % 6] * (r >= 3 && k == 2 ? f : 1);
			w[r][k] = 0;
			sum += us[r][k];
		}
		l[r] = line(4 * 12000 / (sum / 1e6) * op_jitter[r], 0.01, 1);
		strcpy(l[r].test, "se");
		strcpy(l[r].op, "Unlink");
		l[r].step_us = 20000;
		l[r].op_us = sum;
		l[r].node_us = us[r];
		l[r].node_off_us = l[r].node_wait_us = w[r];
		runs[r] = (struct pfs_cmp_run){ &l[r], 1, 4, nodes };
	}
}

/* One node 2x slower in se moves the op's rate by 1.25x among 4 nodes,
 * which its interval may not put beyond 10 %; the node's own rate moved
 * 2x, and that calls the line out, by the node, named, the true factor
 * inside the node's interval. The same runs with no slow node: nothing. */
static void test_node_called_out(void **state)
{
	struct pfs_cmp_run runs[6];
	struct pfs_cmp_line l[6];
	struct pfs_node nodes[4];
	double us[6][4], w[6][4];
	const size_t sides[2] = { 3, 3 };
	struct pfs_cmp_table t;
	const struct pfs_cmp_verdict *v;
	char text[200];

	(void)state;
	se_runs(runs, l, us, w, nodes, 2);
	assert_int_equal(pfs_compare_table(runs, sides, 2, PFS_CMP_MARGIN, &t), 0);
	v = &t.v[1];
	assert_true(v->nodes_judged == 4);
	assert_true(v->called_out && v->node && !strcmp(v->node, "n3"));
	assert_true(v->node_ratio < 0.55 && v->node_ratio > 0.45);
	assert_true(v->node_low <= 0.5 && v->node_high >= 0.5);
	/* The op's interval is taken at its share of the line's level. */
	assert_true(near(v->level, v->node_level * 4 * PFS_CMP_OP_SHARE / (1 - PFS_CMP_OP_SHARE)));
	assert_string_equal(pfs_compare_word(v), "SLOWER");
	/* The op's 1.25x is not surely over 10 %: the node calls it out. */
	assert_true(v->by_node && !v->beyond && v->ratio < 1 / 1.1 && v->high > 1 / 1.1);
	pfs_compare_text(text, sizeof(text), v, PFS_CMP_MARGIN);
	assert_non_null(strstr(text, "slower on n3 ("));
	assert_non_null(strstr(text, "2.0"));
	pfs_compare_table_free(&t);

	/* A node whose own move is under 10 ms is short, however sure. */
	se_runs(runs, l, us, w, nodes, 1.4);
	for (unsigned r = 0; r < 6; r++)
		for (unsigned k = 0; k < 4; k++)
			us[r][k] /= 4;
	assert_int_equal(pfs_compare_table(runs, sides, 2, PFS_CMP_MARGIN, &t), 0);
	assert_true(pfs_cmp_node_judged(&t.v[1]) && !t.v[1].called_out);
	pfs_compare_table_free(&t);

	se_runs(runs, l, us, w, nodes, 1);
	assert_int_equal(pfs_compare_table(runs, sides, 2, PFS_CMP_MARGIN, &t), 0);
	assert_true(pfs_cmp_node_judged(&t.v[1]) && !t.v[1].called_out && !t.v[1].by_node);
	pfs_compare_table_free(&t);

	/* One run a side: no node is judged (one run shows no run's spread). */
	se_runs(runs, l, us, w, nodes, 2);
	runs[1] = runs[3];
	assert_int_equal(pfs_compare_table(runs, (const size_t[2]){ 1, 1 }, 2, PFS_CMP_MARGIN, &t),
			 0);
	assert_true(!pfs_cmp_node_judged(&t.v[1]) && !t.v[1].by_node);
	pfs_compare_table_free(&t);
}

/* A run's stats from its rows: two nodes, one iteration of one pa step;
 * node 2's rank waited 30 ms for a CPU, 25 ms of it its cgroup's quota:
 * 5 ms of waiting for a CPU held by others. Each node's time is its span. */
static void test_stats_waits_less_throttling(void **state)
{
	struct pfs_node nodes[2];
	struct pfs_row rows[2];
	struct pfs_archive a;
	struct pfs_cmp_run run;

	(void)state;
	memset(nodes, 0, sizeof(nodes));
	memset(rows, 0, sizeof(rows));
	memset(&a, 0, sizeof(a));
	strcpy(nodes[0].name, "n1");
	strcpy(nodes[1].name, "n2");
	for (unsigned i = 0; i < 2; i++) {
		strcpy(rows[i].test, "pa");
		strcpy(rows[i].op, "Create");
		strcpy(rows[i].unit, "files");
		rows[i].iteration = 1;
		rows[i].node_index = i;
		rows[i].rank = i;
		rows[i].start_us = 1000;
		rows[i].items = 1000;
		rows[i].cpu_us = 20000;
	}
	rows[0].elapsed_us = 20000;
	rows[1].elapsed_us = 50000;
	rows[1].wait_us = 30000;
	rows[1].throttled_us = 25000;
	a.nodes = nodes;
	a.nnodes = 2;
	a.rows = rows;
	a.nrows = 2;
	assert_int_equal(pfs_compare_stats(&a, &run), 0);
	assert_int_equal(run.n, 1);
	assert_true(near(run.lines[0].rate, 2000 * 1e6 / 50000));
	assert_true(near(run.lines[0].node_us[0], 20000) && near(run.lines[0].node_us[1], 50000));
	assert_true(near(run.lines[0].node_off_us[1], 5000) && run.lines[0].node_off_us[0] == 0);
	assert_true(near(run.lines[0].node_wait_us[1], 5000) && run.lines[0].node_wait_us[0] == 0);
	assert_int_equal(run.lines[0].wait_us, 5000);
	assert_true(near(run.lines[0].cpu_per_item, 40000.0 / 2000));
	/* Throttled longer than it waited (it slept while throttled): none. */
	rows[1].throttled_us = 40000;
	pfs_compare_run_free(&run);
	assert_int_equal(pfs_compare_stats(&a, &run), 0);
	assert_true(run.lines[0].node_off_us[1] == 0 && run.lines[0].node_wait_us[1] == 0);
	pfs_compare_run_free(&run);
}

/* Rows of one node's two ranks, pa Create, 3 iterations 100 ms apart,
 * each 20 ms of CPU: rank 0 starts at the barrier and waits wait0 us in
 * its row for a CPU held by others; rank 1 starts late1 us after it and
 * sleeps slept1 us in the op (a slower filesystem keeps a rank off its
 * CPU without a wait for one). */
static void two_ranks(struct pfs_row *rows, uint64_t wait0, uint64_t late1, uint64_t slept1)
{
	memset(rows, 0, 6 * sizeof(*rows));
	for (unsigned i = 0; i < 6; i++) {
		strcpy(rows[i].test, "pa");
		strcpy(rows[i].op, "Create");
		strcpy(rows[i].unit, "files");
		rows[i].iteration = 1 + i / 2;
		rows[i].rank = i % 2;
		rows[i].items = 1000;
		rows[i].cpu_us = 20000;
		rows[i].wait_us = i % 2 ? 0 : wait0;
		rows[i].start_us = 100000 * (i / 2) + (i % 2 ? late1 : 0);
		/* iterations 1 % apart, as a quiet machine's are */
		rows[i].elapsed_us = (20000 + (i % 2 ? slept1 : wait0)) * (100 + i / 2) / 100;
	}
}

/* A node's ranks that start apart: on a busy machine a rank woken from the
 * barrier waits for a CPU before its row's clock starts, and that wait is
 * in no row (tests/mpi/compare-busy.sh's runs: ranks up to 11-14 ms apart
 * under the hogs, 2.8-5.6 ms without them). The node's time is its ranks'
 * span; the part of it off its longest-working rank's work is that rank's
 * waits and the time apart. Side b against a quiet a, one run a side:
 * - rank 0 waits 15 ms, rank 1 starts 30 ms late: the time moved 30 ms,
 *   the work none, the waits 15 ms: busy (the waits alone, set against the
 *   time, left 15 ms: SLOWER until 2026-12-06);
 * - no waits, rank 1 starts 30 ms late: the work did not move, nor the
 *   waits: short, not a busier machine;
 * - rank 1 on time but asleep 30 ms: the same span, all of it work:
 *   SLOWER. */
static void test_stats_ranks_apart(void **state)
{
	struct pfs_node nodes[1];
	struct pfs_row ra[6], rb[6];
	struct pfs_archive a, b;
	struct pfs_cmp_run runs[2];
	struct pfs_cmp_table t;

	(void)state;
	memset(nodes, 0, sizeof(nodes));
	strcpy(nodes[0].name, "n1");
	memset(&a, 0, sizeof(a));
	a.nodes = nodes;
	a.nnodes = 1;
	b = a;
	a.rows = ra;
	b.rows = rb;
	a.nrows = b.nrows = 6;
	two_ranks(ra, 0, 0, 0);
	assert_int_equal(pfs_compare_stats(&a, &runs[0]), 0);

	two_ranks(rb, 15000, 30000, 0);
	assert_int_equal(pfs_compare_stats(&b, &runs[1]), 0);
	/* the median iteration: rank 0 35.35 ms, rank 1 from 30 to 50.2 ms */
	assert_true(near(runs[1].lines[0].node_us[0], 50200));
	assert_true(near(runs[1].lines[0].node_off_us[0], 50200 - 20350));
	assert_true(near(runs[1].lines[0].node_wait_us[0], 15000));
	assert_true(near(runs[1].lines[0].op_off_us, 50200 - 20350) && near(runs[0].lines[0].op_off_us, 0));
	assert_int_equal(pfs_compare_table(runs, (const size_t[2]){ 1, 1 }, 2, PFS_CMP_MARGIN, &t), 0);
	assert_true(t.v[1].beyond && near(t.v[1].moved_us, 30000) && near(t.v[1].waited_us, 29850));
	assert_true(near(t.v[1].waits_us, 15000));
	assert_true(t.v[1].busy && !t.v[1].unresolved && !t.v[1].called_out);
	pfs_compare_table_free(&t);
	pfs_compare_run_free(&runs[1]);

	two_ranks(rb, 0, 30000, 0);
	assert_int_equal(pfs_compare_stats(&b, &runs[1]), 0);
	assert_true(near(runs[1].lines[0].node_off_us[0], 30000));
	assert_int_equal(pfs_compare_table(runs, (const size_t[2]){ 1, 1 }, 2, PFS_CMP_MARGIN, &t), 0);
	assert_true(t.v[1].beyond && t.v[1].unresolved && !t.v[1].busy && !t.v[1].called_out);
	pfs_compare_table_free(&t);
	pfs_compare_run_free(&runs[1]);

	two_ranks(rb, 0, 0, 30000);
	assert_int_equal(pfs_compare_stats(&b, &runs[1]), 0);
	assert_true(near(runs[1].lines[0].node_off_us[0], 0));
	assert_int_equal(pfs_compare_table(runs, (const size_t[2]){ 1, 1 }, 2, PFS_CMP_MARGIN, &t), 0);
	assert_true(t.v[1].called_out && !t.v[1].busy && near(t.v[1].waited_us, 0));
	pfs_compare_table_free(&t);
	pfs_compare_run_free(&runs[0]);
	pfs_compare_run_free(&runs[1]);
}

static void test_zero_rate(void **state)
{
	const double ra[2] = { 0, 0 }, rb[2] = { 100, 110 };
	struct pfs_cmp_cell a = cell_of(ra, 2), b = cell_of(rb, 2);
	struct pfs_cmp_verdict v;
	char buf[64];

	(void)state;
	pfs_compare_estimate(&a, &b, 0.10, &v);
	pfs_compare_decide(&v, 0.05, 0.10);
	assert_true(v.ratio == 0 && !v.interval && !v.called_out);
	assert_string_equal(pfs_compare_ratio_text(buf, sizeof(buf), v.ratio), "-");
	assert_string_equal(pfs_compare_interval_text(buf, sizeof(buf), &v), "-");
	assert_string_equal(pfs_compare_text(buf, sizeof(buf), &v, 0.10), "-");
}

static void test_words(void **state)
{
	static const struct {
		double f;
		const char *text;
	} factors[] = {
		{ 1.254, "1.25" }, { 12.34, "12.3" }, { 230.4, "230" }, { 4085, "4100" },
		{ 26675, "27000" }, { 999.4, "999" }, { 999.6, "1000" }, { 2e6, ">1000000" },
		{ 9.996, "10.0" }, { 1e300, ">1000000" },
	};
	static const struct {
		double ratio;
		const char *text;
	} cases[] = {
		{ 1 / 318.16, "318x slower" }, { 318.16, "318x faster" }, { 1.25, "1.25x faster" },
		{ 0.8, "1.25x slower" },       { 1.004, "no change" },   { 1 / 1.004, "no change" },
		{ 1.006, "1.01x faster" },     { 12.34, "12.3x faster" }, { 1 / 99.96, "100x slower" },
	};
	struct pfs_cmp_verdict v = { .ratio = 1 / 230.0, .low = 1 / 4085.0, .high = 1 / 13.0,
				     .interval = true, .beyond = true, .called_out = true };
	struct pfs_cmp_verdict w = { .ratio = 1 / 1.05, .low = 1 / 1.21, .high = 1.10,
				     .interval = true, .detectable = 1.42 };
	struct pfs_cmp_verdict x = { .ratio = 1 / 5.17, .low = 1 / 30.0, .high = 1.2,
				     .interval = true, .detectable = 25 };
	struct pfs_cmp_verdict y = { .ratio = 12.8 };
	char buf[160];

	(void)state;
	for (size_t i = 0; i < sizeof(factors) / sizeof(factors[0]); i++)
		assert_string_equal(pfs_compare_factor_text(buf, sizeof(buf), factors[i].f),
				    factors[i].text);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_string_equal(pfs_compare_ratio_text(buf, sizeof(buf), cases[i].ratio),
				    cases[i].text);
	assert_string_equal(pfs_compare_interval_text(buf, sizeof(buf), &v), "13.0x to 4100x");
	assert_string_equal(pfs_compare_text(buf, sizeof(buf), &v, 0.10),
			    "230x slower (13.0x to 4100x)");
	assert_string_equal(pfs_compare_word(&v), "SLOWER");
	/* Spanning no change: the near bound is the other way. */
	assert_string_equal(pfs_compare_interval_text(buf, sizeof(buf), &w),
			    "1.10x faster to 1.21x slower");
	assert_string_equal(pfs_compare_text(buf, sizeof(buf), &w, 0.10),
			    "no change (could detect >= 1.42x)");
	assert_string_equal(pfs_compare_text(buf, sizeof(buf), &x, 0.10),
			    "5.17x slower, in the noise (could detect >= 25.0x)");
	assert_string_equal(pfs_compare_text(buf, sizeof(buf), &y, 0.10),
			    "12.8x faster, too few runs to judge");
	assert_string_equal(pfs_compare_word(&y), "few");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cells),
		cmocka_unit_test(test_interval_by_hand),
		cmocka_unit_test(test_one_run_a_side),
		cmocka_unit_test(test_margin),
		cmocka_unit_test(test_holm),
		cmocka_unit_test(test_family_of_lines_that_can_be_called),
		cmocka_unit_test(test_moderate),
		cmocka_unit_test(test_short_and_busy),
		cmocka_unit_test(test_table_nodes_by_name),
		cmocka_unit_test(test_node_called_out),
		cmocka_unit_test(test_stats_waits_less_throttling),
		cmocka_unit_test(test_stats_ranks_apart),
		cmocka_unit_test(test_zero_rate),
		cmocka_unit_test(test_words),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
