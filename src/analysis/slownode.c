/* slownode.c: slow nodes, imbalance and waiting from a run's rows; the
 * definitions are in include/pfsbench/analysis/slownode.h and docs/methodology.md.
 * Rows are copied into small records and sorted twice: by (test,
 * iteration, step, rank) for the ranks' starts, ends and delays, and by
 * (test, op, iteration, step, node, rank) for the nodes' rates and the
 * ranks' imbalance. Test and op names are numbered by the row index
 * (core/rowindex.h), by sorting, not by searching, so a file with many
 * names costs n log n. */
#include "pfsbench/analysis/slownode.h"
#include "pfsbench/analysis/robust.h"
#include "pfsbench/core/rowindex.h"
#include "pfsbench/core/topology.h"
#include "pfsbench/core/util.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A row, reduced to what the analysis needs. */
struct ent {
	uint32_t pair, test; /* numbers of its (test, op) and its test, in order of first row */
	uint32_t iteration, step, node, rank;
	uint64_t start_us, elapsed_us, amount;
	uint64_t cpu_wait_us; /* of elapsed_us, waiting for a CPU held by other work */
	uint64_t sig; /* its step's kind: the ops in it and how many nodes ran them */
};

/* A rank in a step: its earliest start and its start + the time of all its
 * rows there (uc's two rows each hold part of the op). */
struct rank_step {
	uint32_t test, iteration, step, node;
	uint64_t start_us, end_us, sig;
};

/* One node's value in a group: its log rate in a (test, op) and iteration,
 * or its delay in a kind of step. */
struct cell {
	uint32_t node;
	double v;
};

/* A node's deviation from the other nodes in one group, or their spread. */
struct node_value {
	uint32_t node, pair; /* pair: for rates; 0 for delays and spreads */
	double v;
};

/* ---- the other nodes ------------------------------------------------------------ */

static int cmp_cell(const void *pa, const void *pb)
{
	const struct cell *a = pa, *b = pb;

	return (a->v > b->v) - (a->v < b->v);
}

/* The median of sorted v[0..n] without its element at index skip. */
static double median_without(const double *v, size_t n, size_t skip)
{
	size_t m = n - 1;
#define AT(j) v[(j) + ((j) >= skip)]
	return m % 2 ? AT(m / 2) : (AT(m / 2 - 1) + AT(m / 2)) / 2;
#undef AT
}

/* For n >= 3 cells of distinct nodes: each one's deviation from the median
 * of the other nodes, dev, and the others' spread, mad: their pairwise
 * spread for up to PFS_SLOW_PAIRWISE_MAX of them (core/oddone.h), else
 * their MAD around that median. Sorts c by value; dev and mad follow that order. The median of all
 * values but one takes at most 3 values (the removed one is below, at or
 * above the middle), so each has its deviations sorted once and a cell's
 * MAD is their median without its own: n log n, not n^2, for thousands of
 * nodes. scratch: 5 n doubles. */
static void leave_one_out(struct cell *c, size_t n, double *dev, double *mad, double *scratch)
{
	double *vals = scratch, refs[4];
	size_t nrefs = 0;

	qsort(c, n, sizeof(*c), cmp_cell);
	for (size_t j = 0; j < n; j++)
		vals[j] = c[j].v;
	for (size_t p = 0; p < n; p++) {
		double ref = median_without(vals, n, p), own = fabs(vals[p] - ref), *d;
		size_t k = 0, lo = 0, hi = n;

		while (k < nrefs && refs[k] != ref)
			k++;
		d = scratch + (k + 1 < 4 ? k + 1 : 4) * n;
		if (k == nrefs) {
			/* A fourth value cannot happen; were it to, slot 4 is
			 * rebuilt for it each time. */
			if (nrefs < 3)
				refs[nrefs++] = ref;
			for (size_t j = 0; j < n; j++)
				d[j] = fabs(vals[j] - ref);
			qsort(d, n, sizeof(*d), pfs_double_cmp);
		}
		/* Its own deviation is in d (the same expression): find it. */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (d[mid] < own)
				lo = mid + 1;
			else
				hi = mid;
		}
		dev[p] = vals[p] - ref;
		/* Few others: their pairwise spread, not their MAD (oddone.h) */
		mad[p] = n - 1 <= PFS_SLOW_PAIRWISE_MAX ? pfs_oddone_pairwise(vals, n, p)
							: median_without(d, n, lo < n ? lo : n - 1);
	}
}

/* Scratch for the groups, sized once for the largest. */
struct scratch {
	struct cell *cells;         /* nrows */
	double *dev, *mad;          /* nrows */
	double *work;               /* 5 nrows */
	double *node_amount, *node_wall; /* nnodes */
	double *node_steps_us;      /* nnodes: a node's steps' time in one (test, op) */
	uint32_t *node_nsteps;      /* nnodes: and how many steps */
	uint32_t *touched, *stamp;  /* nnodes */
	double *walls, *imbs, *vals; /* nrows */
};

static void scratch_free(struct scratch *s)
{
	free(s->cells);
	free(s->dev);
	free(s->mad);
	free(s->work);
	free(s->node_amount);
	free(s->node_wall);
	free(s->node_steps_us);
	free(s->node_nsteps);
	free(s->touched);
	free(s->stamp);
	free(s->walls);
	free(s->imbs);
	free(s->vals);
}

static int scratch_alloc(struct scratch *s, size_t nrows, unsigned nnodes)
{
	size_t r = nrows ? nrows : 1, nn = nnodes ? nnodes : 1;

	s->cells = malloc(r * sizeof(*s->cells));
	s->dev = malloc(r * sizeof(double));
	s->mad = malloc(r * sizeof(double));
	s->work = malloc(5 * r * sizeof(double));
	s->node_amount = calloc(nn, sizeof(double));
	s->node_wall = calloc(nn, sizeof(double));
	s->node_steps_us = calloc(nn, sizeof(double));
	s->node_nsteps = calloc(nn, sizeof(uint32_t));
	s->touched = malloc(nn * sizeof(uint32_t));
	s->stamp = calloc(nn, sizeof(uint32_t));
	s->walls = malloc(r * sizeof(double));
	s->imbs = malloc(r * sizeof(double));
	s->vals = malloc(r * sizeof(double));
	return s->cells && s->dev && s->mad && s->work && s->node_amount && s->node_wall &&
		       s->node_steps_us && s->node_nsteps && s->touched && s->stamp && s->walls && s->imbs && s->vals
		       ? 0
		       : -ENOMEM;
}

/* A growing list of node values. */
struct values {
	struct node_value *v;
	size_t n, cap;
};

static int values_add(struct values *l, uint32_t node, uint32_t pair, double v)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 256;
		struct node_value *nv = realloc(l->v, cap * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		l->v = nv;
		l->cap = cap;
	}
	l->v[l->n++] = (struct node_value){ node, pair, v };
	return 0;
}

static int cmp_node_value(const void *pa, const void *pb)
{
	const struct node_value *a = pa, *b = pb;

	if (a->node != b->node)
		return a->node < b->node ? -1 : 1;
	return (a->pair > b->pair) - (a->pair < b->pair);
}

/* Each node's deviations from the others in the group of cells, and their
 * spreads, onto devs and mads; fewer than 3 nodes say nothing. */
static int judge_group(struct cell *c, size_t n, uint32_t pair, struct scratch *s,
		       struct values *devs, struct values *mads)
{
	if (n < PFS_SLOW_MIN_NODES)
		return 0;
	leave_one_out(c, n, s->dev, s->mad, s->work);
	for (size_t i = 0; i < n; i++)
		if (values_add(devs, c[i].node, pair, s->dev[i]) ||
		    values_add(mads, c[i].node, 0, s->mad[i]))
			return -ENOMEM;
	return 0;
}

/* Each node's median spread (over all its groups) into spread[node]. */
static void node_spreads(struct values *mads, double *spread, unsigned nnodes, double *tmp)
{
	for (unsigned n = 0; n < nnodes; n++)
		spread[n] = NAN;
	pfs_sort(mads->v, mads->n, sizeof(*mads->v), cmp_node_value);
	for (size_t i = 0; i < mads->n;) {
		size_t j = i;

		for (; j < mads->n && mads->v[j].node == mads->v[i].node; j++)
			tmp[j - i] = mads->v[j].v;
		spread[mads->v[i].node] = pfs_median(tmp, j - i);
		i = j;
	}
}

/* ---- ranks in steps: kinds of step, delays and waiting ---------------------------- */

static int cmp_by_step(const void *pa, const void *pb)
{
	const struct ent *a = pa, *b = pb;

	if (a->test != b->test)
		return a->test < b->test ? -1 : 1;
	if (a->iteration != b->iteration)
		return a->iteration < b->iteration ? -1 : 1;
	if (a->step != b->step)
		return a->step < b->step ? -1 : 1;
	return (a->rank > b->rank) - (a->rank < b->rank);
}

static bool same_step_ent(const struct ent *a, const struct ent *b)
{
	return a->test == b->test && a->iteration == b->iteration && a->step == b->step;
}

static int cmp_u32(const void *pa, const void *pb)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;

	return (a > b) - (a < b);
}

#define SIG_OPS 16

/* The kind of each step, on its entries (sorted by step): FNV-1a of its
 * distinct (test, op)s, in order, and of how many nodes ran them. Steps of
 * one kind are alike for every node that runs one; in create-unlink's ua a
 * node unlinks beside another's creates, except the last, which unlinks
 * alone: those are two kinds. */
static void step_kinds(struct ent *e, size_t n, uint32_t *stamp)
{
	uint32_t seq = 0;

	for (size_t i = 0; i < n;) {
		uint32_t ops[SIG_OPS], nops = 0, nodes = 0;
		uint64_t h = 1469598103934665603ull;
		size_t j = i;

		seq++;
		for (; j < n && same_step_ent(&e[j], &e[i]); j++) {
			bool have = false;

			for (uint32_t k = 0; k < nops && !have; k++)
				have = ops[k] == e[j].pair;
			if (!have && nops < SIG_OPS)
				ops[nops++] = e[j].pair;
			if (stamp[e[j].node] != seq) {
				stamp[e[j].node] = seq;
				nodes++;
			}
		}
		qsort(ops, nops, sizeof(*ops), cmp_u32);
		for (uint32_t k = 0; k <= nops; k++) {
			uint32_t v = k < nops ? ops[k] : UINT32_MAX - nodes;

			for (int b = 0; b < 4; b++) {
				h ^= (v >> (8 * b)) & 0xff;
				h *= 1099511628211ull;
			}
		}
		for (size_t k = i; k < j; k++)
			e[k].sig = h;
		i = j;
	}
}

/* One record per rank and step, from entries sorted by step. */
static size_t rank_steps(const struct ent *e, size_t n, struct rank_step *rs)
{
	size_t m = 0;

	for (size_t i = 0; i < n;) {
		size_t j = i;
		uint64_t start = UINT64_MAX, busy = 0;

		for (; j < n && same_step_ent(&e[j], &e[i]) && e[j].rank == e[i].rank; j++) {
			start = e[j].start_us < start ? e[j].start_us : start;
			busy += e[j].elapsed_us;
		}
		rs[m++] = (struct rank_step){ e[i].test, e[i].iteration, e[i].step, e[i].node,
					      start, start + busy, e[i].sig };
		i = j;
	}
	return m;
}

static bool same_step(const struct rank_step *a, const struct rank_step *b)
{
	return a->test == b->test && a->iteration == b->iteration && a->step == b->step;
}

/* A node's start in a step: its earliest rank's. */
struct start {
	uint32_t node;
	double us;
};

/* Waiting per test; and in each step in which PFS_SLOW_MIN_NODES nodes or
 * more worked, each node's start against the others' (onto devs, their
 * spread onto mads). rs is sorted by step. All nodes of a step left the
 * same barrier, so a node that starts later than the others left it
 * later. With fewer nodes at once (se) there is nothing to set a start
 * against: the end of the step before is no help, since a node that
 * reached the barrier late delays everyone's start alike. */
static int steps_pass(const struct rank_step *rs, size_t m, struct pfs_analysis *a,
		      struct scratch *s, struct values *devs, struct values *mads)
{
	for (size_t i = 0; i < m;) {
		size_t j = i, ncells = 0;
		uint64_t end = 0;

		for (; j < m && same_step(&rs[j], &rs[i]); j++)
			end = rs[j].end_us > end ? rs[j].end_us : end;
		for (size_t k = i; k < j; k++) {
			a->tests[rs[k].test].wait_us += (double)(end - rs[k].end_us);
			a->tests[rs[k].test].busy_us += (double)(end - rs[k].start_us);
			if (s->stamp[rs[k].node] != (uint32_t)(i + 1)) {
				s->stamp[rs[k].node] = (uint32_t)(i + 1);
				s->node_amount[rs[k].node] = INFINITY;
				s->touched[ncells++] = rs[k].node;
			}
			if ((double)rs[k].start_us < s->node_amount[rs[k].node])
				s->node_amount[rs[k].node] = (double)rs[k].start_us;
		}
		for (size_t c = 0; c < ncells; c++) {
			s->cells[c] = (struct cell){ s->touched[c], s->node_amount[s->touched[c]] };
			s->node_amount[s->touched[c]] = 0;
		}
		if (judge_group(s->cells, ncells, 0, s, devs, mads))
			return -ENOMEM;
		i = j;
	}
	return 0;
}

/* Each node's spread, and the deviations sorted by node (and pair): what
 * both judgements start from. NULL when out of memory; free() it. */
static double *spreads_and_sorted(struct values *devs, struct values *mads, unsigned nnodes,
				  double *tmp)
{
	double *spread = malloc((nnodes ? nnodes : 1) * sizeof(*spread));

	if (!spread)
		return NULL;
	node_spreads(mads, spread, nnodes, tmp);
	pfs_sort(devs->v, devs->n, sizeof(*devs->v), cmp_node_value);
	return spread;
}

/* Lateness: a node's median start against the others' over the steps,
 * judged against its median spread. */
static int judge_starts(struct values *devs, struct values *mads, struct pfs_analysis *a,
			struct scratch *s)
{
	double *spread = spreads_and_sorted(devs, mads, a->nnodes, s->vals);

	if (!spread)
		return -ENOMEM;
	for (size_t i = 0; i < devs->n;) {
		size_t j = i;
		struct pfs_node_verdict *v = &a->nodes[devs->v[i].node];
		double bar = PFS_SLOW_K * spread[devs->v[i].node];

		for (; j < devs->n && devs->v[j].node == devs->v[i].node; j++)
			s->vals[j - i] = devs->v[j].v;
		v->delays = j - i;
		v->late_us = pfs_median(s->vals, j - i);
		v->late = a->compared && v->late_us > (bar > PFS_LATE_MIN_US ? bar : PFS_LATE_MIN_US);
		i = j;
	}
	free(spread);
	return 0;
}

/* ---- nodes' rates per (test, op) ----------------------------------------------- */

static int cmp_by_pair(const void *pa, const void *pb)
{
	const struct ent *a = pa, *b = pb;

	if (a->pair != b->pair)
		return a->pair < b->pair ? -1 : 1;
	if (a->iteration != b->iteration)
		return a->iteration < b->iteration ? -1 : 1;
	if (a->step != b->step)
		return a->step < b->step ? -1 : 1;
	if (a->node != b->node)
		return a->node < b->node ? -1 : 1;
	return (a->rank > b->rank) - (a->rank < b->rank);
}

/* The imbalance of the step e[i..j): fastest rank / slowest, or 0 with
 * fewer than 2 ranks. */
static double step_imbalance(const struct ent *e, size_t i, size_t j)
{
	double lo = INFINITY, hi = 0;
	unsigned ranks = 0;

	while (i < j) {
		size_t k = i;
		uint64_t amount = 0, us = 0;
		double r;

		for (; k < j && e[k].rank == e[i].rank && e[k].node == e[i].node; k++) {
			amount += e[k].amount;
			us += e[k].elapsed_us;
		}
		r = pfs_rate_per_s(amount, us);
		lo = r < lo ? r : lo;
		hi = r > hi ? r : hi;
		ranks++;
		i = k;
	}
	return ranks >= 2 && lo > 0 ? hi / lo : 0;
}

/* The entries e[0..n) of one (test, op) numbered pair: its imbalance and
 * step time into b; when its steps are all of one kind and long enough,
 * each node's deviation from the others in every iteration onto devs, and
 * the others' spread onto mads. */
/* Of l's values from mark on, keeps those of nodes whose steps in the
 * (test, op) last PFS_SHORT_STEP_US or more on average. */
static void keep_long(struct values *l, size_t mark, const struct scratch *s)
{
	size_t k = mark;

	for (size_t i = mark; i < l->n; i++) {
		uint32_t nd = l->v[i].node;

		if (s->node_nsteps[nd] &&
		    s->node_steps_us[nd] / s->node_nsteps[nd] >= PFS_SHORT_STEP_US)
			l->v[k++] = l->v[i];
	}
	l->n = k;
}

/* The words of pfs_balance.not_judged name these. */
_Static_assert(PFS_SLOW_MIN_NODES == 3 && PFS_SHORT_STEP_US == 10000,
	       "pair_pass's reasons name the limits");

static int pair_pass(const struct ent *e, size_t n, uint32_t pair, struct pfs_analysis *a,
		     struct pfs_balance *b, struct scratch *s, struct values *devs,
		     struct values *mads)
{
	size_t nwalls = 0, nimbs = 0, mark_devs = devs->n, mark_mads = mads->n;
	bool one_kind = true;

	for (size_t i = 0; i < n;) {
		size_t it_end = i, ntouched = 0, ncells = 0;

		while (it_end < n && e[it_end].iteration == e[i].iteration)
			it_end++;
		for (size_t st = i; st < it_end;) {
			size_t st_end = st;

			while (st_end < it_end && e[st_end].step == e[st].step)
				st_end++;
			one_kind &= e[st].sig == e[0].sig;
			s->imbs[nimbs] = step_imbalance(e, st, st_end);
			nimbs += s->imbs[nimbs] > 0;
			for (size_t k = st; k < st_end;) {
				size_t kn = k;
				uint64_t lo = UINT64_MAX, hi = 0, amount = 0;
				uint32_t node = e[k].node;

				/* Each rank's end less what it waited for a CPU
				 * held by other work: the host's load, not the node. */
				for (; kn < st_end && e[kn].node == node; kn++) {
					uint64_t end = e[kn].start_us + e[kn].elapsed_us -
						       e[kn].cpu_wait_us;

					lo = e[kn].start_us < lo ? e[kn].start_us : lo;
					hi = end > hi ? end : hi;
					amount += e[kn].amount;
				}
				if (s->stamp[node] != pair + 1) {
					s->stamp[node] = pair + 1;
					s->touched[ntouched++] = node;
				}
				s->node_amount[node] += (double)amount;
				s->node_wall[node] += (double)(hi - lo);
				s->node_steps_us[node] += (double)(hi - lo);
				s->node_nsteps[node]++;
				s->walls[nwalls++] = (double)(hi - lo);
				k = kn;
			}
			st = st_end;
		}
		/* Each node's log rate in this iteration. */
		for (size_t t = 0; t < ntouched; t++) {
			uint32_t nd = s->touched[t];

			if (s->node_amount[nd] > 0)
				s->cells[ncells++] = (struct cell){
					nd, log(s->node_amount[nd] * 1e6 /
						(s->node_wall[nd] > 0 ? s->node_wall[nd] : 1))
				};
			s->node_amount[nd] = s->node_wall[nd] = 0;
			s->stamp[nd] = 0;
		}
		if (judge_group(s->cells, ncells, pair, s, devs, mads))
			return -ENOMEM;
		i = it_end;
	}
	b->imbalance = nimbs ? pfs_median(s->imbs, nimbs) : 0;
	b->step_us = nwalls ? pfs_u64_sat(pfs_median(s->walls, nwalls)) : 0;
	/* Steps too short to time say nothing; but a node whose own steps
	 * last long enough (one slow node, alone in se) is judged all the
	 * same, and only such nodes. */
	if (b->step_us < PFS_SHORT_STEP_US) {
		keep_long(devs, mark_devs, s);
		keep_long(mads, mark_mads, s);
	}
	b->judged = a->compared && one_kind && devs->n > mark_devs;
	b->not_judged = b->judged			 ? NULL
			: !a->compared			 ? "fewer than 3 nodes"
			: !one_kind			 ? "steps of different kinds"
			: b->step_us < PFS_SHORT_STEP_US ? "steps under 10 ms"
							 : "fewer than 3 nodes a step";
	if (!b->judged) { /* what it said does not count */
		devs->n = mark_devs;
		mads->n = mark_mads;
	}
	memset(s->node_steps_us, 0, a->nnodes * sizeof(*s->node_steps_us));
	memset(s->node_nsteps, 0, a->nnodes * sizeof(*s->node_nsteps));
	return 0;
}

static int add_slow_op(struct pfs_node_verdict *v, const struct pfs_balance *b, double factor)
{
	struct pfs_slow_op *ops = realloc(v->ops, (v->nops + 1) * sizeof(*ops));

	if (!ops)
		return -ENOMEM;
	v->ops = ops;
	memcpy(ops[v->nops].test, b->test, sizeof(b->test));
	memcpy(ops[v->nops].op, b->op, sizeof(b->op));
	ops[v->nops++].factor = factor;
	return 0;
}

/* A node is slow in a (test, op) when it is below the others by more than
 * max(k x its spread, 10 %) in every iteration; by how much is the median. */
static int judge_rates(struct values *devs, struct values *mads, struct pfs_analysis *a,
		       struct scratch *s)
{
	double *spread = spreads_and_sorted(devs, mads, a->nnodes, s->vals);

	if (!spread)
		return -ENOMEM;
	for (size_t i = 0; i < devs->n;) {
		size_t j = i;
		double worst = -INFINITY;

		for (; j < devs->n && devs->v[j].node == devs->v[i].node &&
		       devs->v[j].pair == devs->v[i].pair;
		     j++) {
			s->vals[j - i] = devs->v[j].v;
			worst = devs->v[j].v > worst ? devs->v[j].v : worst;
		}
		if (pfs_oddone_slow(worst, spread[devs->v[i].node]) &&
		    add_slow_op(&a->nodes[devs->v[i].node], &a->ops[devs->v[i].pair],
				exp(-pfs_median(s->vals, j - i)))) {
			free(spread);
			return -ENOMEM;
		}
		i = j;
	}
	free(spread);
	return 0;
}

/* ---- the analysis ------------------------------------------------------------------- */

static int cmp_slow_op(const void *pa, const void *pb)
{
	const struct pfs_slow_op *a = pa, *b = pb;

	return (a->factor < b->factor) - (a->factor > b->factor);
}

/* The entries of the rows, with their tests and (test, op)s numbered in
 * order of first row and named in a. */
static int build_entries(const struct pfs_row *rows, size_t nrows, struct pfs_analysis *a,
			 struct ent *e)
{
	static const enum pfs_row_field by_pair[] = { PFS_ROW_TEST, PFS_ROW_OP, PFS_ROW_END },
					by_test[] = { PFS_ROW_TEST, PFS_ROW_END };
	size_t *pair = malloc((nrows ? nrows : 1) * sizeof(*pair));
	size_t *test = malloc((nrows ? nrows : 1) * sizeof(*test));
	size_t *first = malloc((nrows ? nrows : 1) * sizeof(*first));
	int rc = -ENOMEM;

	if (!pair || !test || !first)
		goto out;
	if (pfs_row_number(rows, nrows, by_pair, NULL, pair, first, &a->nops))
		goto out;
	a->ops = calloc(a->nops ? a->nops : 1, sizeof(*a->ops));
	if (!a->ops)
		goto out;
	for (size_t k = 0; k < a->nops; k++) {
		pfs_row_set_text(a->ops[k].test, sizeof(a->ops[k].test), rows[first[k]].test);
		pfs_row_set_text(a->ops[k].op, sizeof(a->ops[k].op), rows[first[k]].op);
	}
	if (pfs_row_number(rows, nrows, by_test, NULL, test, first, &a->ntests))
		goto out;
	a->tests = calloc(a->ntests ? a->ntests : 1, sizeof(*a->tests));
	if (!a->tests)
		goto out;
	for (size_t k = 0; k < a->ntests; k++)
		pfs_row_set_text(a->tests[k].test, sizeof(a->tests[k].test), rows[first[k]].test);
	for (size_t i = 0; i < nrows; i++) {
		const struct pfs_row *r = &rows[i];

		uint64_t waited = pfs_row_cpu_wait_us(r);

		e[i] = (struct ent){ (uint32_t)pair[i], (uint32_t)test[i], r->iteration, r->step, r->node_index, r->rank,
				     r->start_us, r->elapsed_us,
				     pfs_unit_amount(pfs_row_unit(r), r->items, r->bytes), waited, 0 };
		if (r->node_index < a->nnodes) {
			a->nodes[r->node_index].cpu_wait_us += (double)waited;
			a->nodes[r->node_index].ops_us += (double)r->elapsed_us;
		}
	}
	rc = 0;
out:
	free(pair);
	free(test);
	free(first);
	return rc;
}

int pfs_analyze(const struct pfs_row *rows, size_t nrows, const struct pfs_node *nodes,
		unsigned nnodes, struct pfs_analysis *out)
{
	size_t nr = nrows ? nrows : 1;
	struct ent *e = malloc(nr * sizeof(*e));
	struct rank_step *rs = malloc(nr * sizeof(*rs));
	struct values devs = { 0 }, mads = { 0 }, late = { 0 }, spreads = { 0 };
	struct scratch s = { 0 };
	size_t m;
	uint32_t iterations = 0;
	int rc = -ENOMEM;

	memset(out, 0, sizeof(*out));
	out->nnodes = nnodes;
	out->compared = nnodes >= PFS_SLOW_MIN_NODES;
	out->nodes = calloc(nnodes ? nnodes : 1, sizeof(*out->nodes));
	if (!e || !rs || !out->nodes || scratch_alloc(&s, nrows, nnodes))
		goto out;
	for (size_t i = 0; i < nrows; i++)
		iterations = rows[i].iteration > iterations ? rows[i].iteration : iterations;
	for (unsigned n = 0; n < nnodes; n++) {
		pfs_row_set_text(out->nodes[n].name, sizeof(out->nodes[n].name), nodes[n].name);
		out->nodes[n].min_ops =
			iterations > 1 ? PFS_SLOW_MIN_OPS : PFS_SLOW_MIN_OPS_ONE_ITERATION;
	}
	if (build_entries(rows, nrows, out, e))
		goto out;

	qsort(e, nrows, sizeof(*e), cmp_by_step);
	step_kinds(e, nrows, s.stamp);
	memset(s.stamp, 0, (nnodes ? nnodes : 1) * sizeof(*s.stamp));
	m = rank_steps(e, nrows, rs);
	if (steps_pass(rs, m, out, &s, &late, &spreads) || judge_starts(&late, &spreads, out, &s))
		goto out;
	memset(s.stamp, 0, (nnodes ? nnodes : 1) * sizeof(*s.stamp));
	for (size_t t = 0; t < out->ntests; t++) {
		out->wait_us += out->tests[t].wait_us;
		out->busy_us += out->tests[t].busy_us;
	}

	qsort(e, nrows, sizeof(*e), cmp_by_pair);
	for (size_t i = 0; i < nrows;) {
		size_t j = i;

		while (j < nrows && e[j].pair == e[i].pair)
			j++;
		if (pair_pass(e + i, j - i, e[i].pair, out, &out->ops[e[i].pair], &s, &devs, &mads))
			goto out;
		i = j;
	}
	if (judge_rates(&devs, &mads, out, &s))
		goto out;
	for (unsigned n = 0; n < nnodes; n++)
		pfs_sort(out->nodes[n].ops, out->nodes[n].nops, sizeof(*out->nodes[n].ops), cmp_slow_op);
	rc = 0;
out:
	free(e);
	free(rs);
	free(devs.v);
	free(mads.v);
	free(late.v);
	free(spreads.v);
	scratch_free(&s);
	if (rc)
		pfs_analysis_free(out);
	return rc;
}

void pfs_analysis_free(struct pfs_analysis *a)
{
	for (unsigned n = 0; a->nodes && n < a->nnodes; n++)
		free(a->nodes[n].ops);
	free(a->nodes);
	free(a->ops);
	free(a->tests);
	memset(a, 0, sizeof(*a));
}

/* ---- words ---------------------------------------------------------------------------- */

bool pfs_node_is_slow(const struct pfs_node_verdict *v)
{
	return v->nops >= (v->min_ops ? v->min_ops : PFS_SLOW_MIN_OPS) || v->late;
}

#define DESCRIBE_OPS 4 /* slow ops named on a node's line; the rest are counted */

/* "3.9x", "12x"; "stalled" for a node that did nothing. */
static void factor_text(char *buf, size_t len, double f)
{
	if (isinf(f))
		snprintf(buf, len, "stalled");
	else
		snprintf(buf, len, f < 10 ? "%.1fx" : "%.0fx", f);
}

int pfs_slow_describe(char *buf, size_t len, const struct pfs_node_verdict *v)
{
	size_t at = 0;
	char f[32];

#define PUT(...)                                                                     \
	do {                                                                         \
		int w_ = snprintf(buf + at, at < len ? len - at : 0, __VA_ARGS__);   \
		at += w_ > 0 ? (size_t)w_ : 0;                                       \
	} while (0)
	if (!len)
		return -ENAMETOOLONG;
	buf[0] = 0;
	PUT("%s:", v->name);
	for (size_t i = 0; i < v->nops && i < DESCRIBE_OPS; i++) {
		factor_text(f, sizeof(f), v->ops[i].factor);
		PUT("%s %s %s %s", i ? "," : "", v->ops[i].test, v->ops[i].op, f);
	}
	if (v->nops > DESCRIBE_OPS)
		PUT(" and %zu more op%s", v->nops - DESCRIBE_OPS, v->nops - DESCRIBE_OPS > 1 ? "s" : "");
	if (v->nops)
		PUT(" slower than the median node");
	if (v->late)
		PUT("%s leaves barriers %.*f ms late", v->nops ? ";" : "", v->late_us < 10000 ? 1 : 0,
		    v->late_us / 1000);
	if (v->late && !v->nops)
		PUT(", its rows within the spread of the nodes");
#undef PUT
	return at < len ? 0 : -ENAMETOOLONG;
}

/* Seconds with three decimals, 13 characters (the waiting table's
 * header says so). */
static void print_s(FILE *out, double us)
{
	fprintf(out, " %10.3f s", us / 1e6);
}

/* Names in the analysis come from the file: each is printed through
 * pfs_printable, so none ends a line or talks to the terminal. */
#define SAFE(buf, s) pfs_printable(buf, sizeof(buf), s)

/* Under the slow nodes, the (test, op)s whose steps were too short to
 * judge a node by: a slow node there is not named, so the reader is told
 * where the judgement was withheld, not only what was found. */
static void not_judged_line(FILE *out, const struct pfs_analysis *a)
{
	char test[PFS_PRINTABLE_SIZE(PFS_TEST_NAME_MAX)], op[PFS_PRINTABLE_SIZE(PFS_OP_NAME_MAX)];
	bool any = false;

	for (size_t i = 0; a->compared && i < a->nops; i++) {
		const struct pfs_balance *b = &a->ops[i];

		if (b->judged || b->step_us >= PFS_SHORT_STEP_US)
			continue;
		fprintf(out, "%s %s %s", any ? "," : "Not judged, steps under 10 ms:",
			SAFE(test, b->test), SAFE(op, b->op));
		any = true;
	}
	if (any)
		fputc('\n', out);
}

/* A test's cell in the tables below: a name of up to 3 letters one space
 * in, as in the run's report, a longer one (bonnie) from the line's start. */
static const char *test_cell(char *buf, size_t len, const char *name)
{
	char test[PFS_PRINTABLE_SIZE(PFS_TEST_NAME_MAX)];

	SAFE(test, name);
	snprintf(buf, len, "%s%s", strlen(test) > 3 ? "" : " ", test);
	return buf;
}

/* The width of the test column: "Test", or a longer name, so that the
 * columns after it stay under their headers. */
static int test_width(const struct pfs_analysis *a)
{
	char cell[PFS_PRINTABLE_SIZE(PFS_TEST_NAME_MAX) + 1];
	int w = 4;

	for (size_t i = 0; i < a->nops; i++)
		if ((int)strlen(test_cell(cell, sizeof(cell), a->ops[i].test)) > w)
			w = (int)strlen(cell);
	return w;
}

/* One row per (test, op): its imbalance, its step, and whether its nodes
 * were judged, and if not why, on the row itself. */
static void print_imbalance(FILE *out, const struct pfs_analysis *a)
{
	char test[PFS_PRINTABLE_SIZE(PFS_TEST_NAME_MAX) + 1], op[PFS_PRINTABLE_SIZE(PFS_OP_NAME_MAX)];
	int tw = test_width(a), ow = 8;

	for (size_t i = 0; i < a->nops; i++)
		if ((int)strlen(SAFE(op, a->ops[i].op)) > ow)
			ow = (int)strlen(op);
	fprintf(out,
		"\nImbalance: the fastest rank's rate / the slowest's in a step, median over the "
		"steps;\nstep: the median time of a node's step, less its waits for a CPU held by "
		"other work.\n'!' marks steps too short to measure.\n"
		"%-*s %-*s  imbalance       step    slow nodes\n",
		tw, "Test", ow, "TestType");
	for (size_t i = 0; i < a->nops; i++) {
		const struct pfs_balance *b = &a->ops[i];
		char imb[32] = "-";

		if (b->imbalance > 0)
			snprintf(imb, sizeof(imb), "%.2fx", b->imbalance);
		fprintf(out, "%-*s %-*s %10s %7.1f ms %s  %s%s\n", tw,
			test_cell(test, sizeof(test), b->test), ow,
			SAFE(op, b->op), imb, (double)b->step_us / 1000,
			b->step_us < PFS_SHORT_STEP_US ? "!" : " ",
			b->judged ? "judged" : "not judged: ", b->not_judged ? b->not_judged : "");
	}
}

static void print_waiting(FILE *out, const struct pfs_analysis *a)
{
	char test[PFS_PRINTABLE_SIZE(PFS_TEST_NAME_MAX) + 1];
	int tw = test_width(a);

	fprintf(out, "\nWaiting: time ranks spent at the end of a step waiting for its last rank, "
		     "of the time\nthey spent in steps.\n%-*s%13s%13s%8s\n",
		tw, "Test", "waiting", "in steps", "share");
	for (size_t t = 0; t <= a->ntests; t++) {
		double w = t < a->ntests ? a->tests[t].wait_us : a->wait_us;
		double b = t < a->ntests ? a->tests[t].busy_us : a->busy_us;

		fprintf(out, "%-*s", tw,
			test_cell(test, sizeof(test), t < a->ntests ? a->tests[t].test : "all"));
		print_s(out, w);
		print_s(out, b);
		fprintf(out, " %5.1f %%\n", b > 0 ? 100 * w / b : 0.0);
	}
}


int pfs_analysis_print(FILE *out, const struct pfs_analysis *a)
{
	char line[1024], safe[PFS_PRINTABLE_SIZE(sizeof(line))];
	char name[PFS_PRINTABLE_SIZE(PFS_NODE_NAME_MAX)], test[PFS_PRINTABLE_SIZE(PFS_TEST_NAME_MAX)];
	char op[PFS_PRINTABLE_SIZE(PFS_OP_NAME_MAX)];
	bool any = false;

	fputs("Slow nodes (docs/methodology.md):", out);
	if (!a->compared)
		fprintf(out, " not judged: it takes %u nodes or more to tell the odd one, this run "
			     "has %u.\n",
			PFS_SLOW_MIN_NODES, a->nnodes);
	for (unsigned n = 0; a->compared && n < a->nnodes; n++)
		if (pfs_node_is_slow(&a->nodes[n])) {
			pfs_slow_describe(line, sizeof(line), &a->nodes[n]);
			fprintf(out, "\n %s", SAFE(safe, line));
			any = true;
		}
	if (a->compared)
		fputs(any ? "\n" : " none.\n", out);
	/* Slower in too few (test, op)s: said, not named. */
	any = false;
	for (unsigned n = 0; a->compared && n < a->nnodes; n++) {
		const struct pfs_node_verdict *v = &a->nodes[n];

		if (pfs_node_is_slow(v) || !v->nops)
			continue;
		if (!any)
			fputs(v->min_ops > PFS_SLOW_MIN_OPS
				      ? "Slower in under 3 (test, op)s of one iteration, not named:"
				      : "Slower in one (test, op) only, not named:",
			      out);
		for (size_t k = 0; k < v->nops; k++) {
			factor_text(line, sizeof(line), v->ops[k].factor);
			fprintf(out, "%s %s %s %s %s", any ? "," : "", SAFE(name, v->name),
				SAFE(test, v->ops[k].test), SAFE(op, v->ops[k].op), line);
			any = true;
		}
	}
	if (any)
		fputc('\n', out);
	/* Waits for a CPU are left out of the rates: say whose were large. */
	unsigned busy = 0;
	for (unsigned n = 0; a->compared && n < a->nnodes; n++) {
		const struct pfs_node_verdict *v = &a->nodes[n];

		if (v->cpu_wait_us < PFS_BUSY_MIN_US || v->cpu_wait_us < PFS_BUSY_SHARE * v->ops_us)
			continue;
		fprintf(out, "%s %s %.0f %%", busy++ ? "," : "Waited for a CPU held by other work (left "
							  "out of the rates):",
			SAFE(name, v->name), 100 * v->cpu_wait_us / v->ops_us);
	}
	if (busy)
		fprintf(out, " of %s time in ops\n", busy > 1 ? "their" : "its");

	not_judged_line(out, a);
	print_imbalance(out, a);
	print_waiting(out, a);
	return ferror(out) ? -1 : 0;
}
#undef SAFE
