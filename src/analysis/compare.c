/* compare.c: the statistics of `pfsbench compare` (its report and command
 * are in src/commands/compare_report.c): each (test, op) of a run reduced to its
 * rate, its noise and each node's time; the runs of a side reduced to one
 * sample each; the verdict on one side against another, judged on the log
 * of the ratio of their rates, Holm's correction over a comparison's
 * lines, and the words for it. The definitions are in
 * include/pfsbench/analysis/compare.h and docs/compare.md. */
#include "pfsbench/analysis/compare.h"
#include "pfsbench/analysis/latency.h"
#include "pfsbench/analysis/robust.h"
#include "pfsbench/archive/archive.h"
#include "pfsbench/core/rowindex.h"
#include "pfsbench/core/topology.h"
#include "pfsbench/core/util.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A row reduced to what the rates need; key: its line, its (test, op) in
 * order of first row. */
struct cmp_ent {
	uint32_t key, iteration, step, node;
	uint64_t start_us, end_us, amount; /* items, or bytes for a bytes row */
	uint64_t wait_us;                  /* the rank's wait for a CPU held by others */
	uint64_t cpu_us;
};

/* A node's figures in one iteration of one (test, op): its time in the op,
 * the part of it off its ranks' work, and their waits (struct
 * pfs_cmp_line). */
struct node_iter {
	uint32_t node;
	double us, off_us, wait_us;
};

static int cmp_node_iters(const void *pa, const void *pb)
{
	const struct node_iter *a = pa, *b = pb;

	return (a->node > b->node) - (a->node < b->node);
}

/* Depth of grouping: key, iteration, step, node. */
static bool same(const struct cmp_ent *a, const struct cmp_ent *b, int depth)
{
	return a->key == b->key && (depth < 2 || a->iteration == b->iteration) &&
	       (depth < 3 || a->step == b->step) && (depth < 4 || a->node == b->node);
}

/* Scratch for one (test, op), sized for the whole run. */
struct cmp_scratch {
	double *iter_rates, *walls, *waits, *cpu;        /* nrows */
	double *iter_us, *iter_off, *offs, *iter_wait;    /* nrows */
	size_t *slot;                                      /* nnodes: a node's in ni */
	struct node_iter *ni;                              /* nrows */
	unsigned nnodes;
};

/* The mean and variance of the logs of v[0..n) (of its positive values). */
static void log_mean_var(const double *v, size_t n, double *mean, double *var, unsigned *m)
{
	double sum = 0, ss = 0;
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (v[i] > 0) {
			sum += log(v[i]);
			k++;
		}
	*m = (unsigned)k;
	*mean = k ? sum / (double)k : 0;
	for (size_t i = 0; i < n; i++)
		if (v[i] > 0)
			ss += (log(v[i]) - *mean) * (log(v[i]) - *mean);
	*var = k >= 2 ? ss / (double)(k - 1) : -1;
}

/* The SD of the logs of the positive values of v (-1 for fewer than 2);
 * how many there were in *m. */
static double log_sd(const double *v, size_t n, unsigned *m)
{
	double mean, var;

	log_mean_var(v, n, &mean, &var, m);
	return var >= 0 ? sqrt(var) : -1;
}

/* Each node's medians over the iterations of ni[0..n): into the line. */
static void node_medians(struct pfs_cmp_line *line, struct node_iter *ni, size_t n,
			 struct cmp_scratch *s)
{
	qsort(ni, n, sizeof(*ni), cmp_node_iters);
	for (size_t i = 0; i < n;) {
		size_t j = i, k = 0;

		for (; j < n && ni[j].node == ni[i].node; j++, k++) {
			s->walls[k] = ni[j].us;
			s->offs[k] = ni[j].off_us;
			s->waits[k] = ni[j].wait_us;
		}
		if (ni[i].node < s->nnodes) {
			line->node_us[ni[i].node] = pfs_median(s->walls, k);
			line->node_off_us[ni[i].node] = pfs_median(s->offs, k);
			line->node_wait_us[ni[i].node] = pfs_median(s->waits, k);
		}
		i = j;
	}
}

/* One (test, op): its iterations, steps and nodes, starting at e[*i]. */
static void stats_key(const struct cmp_ent *e, size_t n, size_t *i, struct pfs_cmp_line *line,
		      struct cmp_scratch *s)
{
	size_t first = *i, niter = 0, nwalls = 0, nni = 0, ncpu = 0;

	while (*i < n && same(&e[*i], &e[first], 1)) {
		size_t it0 = *i;
		double amount = 0, us = 0, cpu = 0, off = 0, waited = 0;

		memset(s->slot, 0xff, s->nnodes * sizeof(*s->slot));
		while (*i < n && same(&e[*i], &e[it0], 2)) {
			size_t st0 = *i;
			uint64_t lo = UINT64_MAX, hi = 0, wait = 0, work = 0;

			while (*i < n && same(&e[*i], &e[st0], 3)) {
				size_t nd0 = *i, *k = &s->slot[e[*i].node];
				uint64_t nlo = UINT64_MAX, nhi = 0, namount = 0, nwait = 0, nwork = 0;

				for (; *i < n && same(&e[*i], &e[nd0], 4); (*i)++) {
					/* the rank's work: its time in the op less its wait */
					uint64_t work_us = e[*i].end_us - e[*i].start_us - e[*i].wait_us;

					nlo = e[*i].start_us < nlo ? e[*i].start_us : nlo;
					nhi = e[*i].end_us > nhi ? e[*i].end_us : nhi;
					namount += e[*i].amount;
					nwait = e[*i].wait_us > nwait ? e[*i].wait_us : nwait;
					nwork = work_us > nwork ? work_us : nwork;
					cpu += (double)e[*i].cpu_us;
				}
				/* The node's time in this iteration, and the part of
				 * it off its longest-working rank's work. */
				if (*k == SIZE_MAX) {
					*k = nni;
					s->ni[nni++] = (struct node_iter){ e[nd0].node, 0, 0, 0 };
				}
				s->ni[*k].us += (double)(nhi - nlo);
				s->ni[*k].off_us += (double)(nhi - nlo > nwork ? nhi - nlo - nwork : 0);
				s->ni[*k].wait_us += (double)nwait;
				lo = nlo < lo ? nlo : lo;
				hi = nhi > hi ? nhi : hi;
				amount += (double)namount;
				wait = nwait > wait ? nwait : wait;
				work = nwork > work ? nwork : work;
			}
			us += (double)(hi - lo);
			off += (double)(hi - lo > work ? hi - lo - work : 0);
			waited += (double)wait;
			s->waits[nwalls] = (double)wait;
			s->walls[nwalls++] = (double)(hi - lo);
		}
		s->iter_us[niter] = us;
		s->iter_off[niter] = off;
		s->iter_wait[niter] = waited;
		/* A zero wall time counts as one microsecond, as in the table. */
		s->iter_rates[niter++] = amount * 1e6 / (us > 0 ? us : 1);
		if (cpu > 0 && amount > 0)
			s->cpu[ncpu++] = cpu / (amount / pfs_unit_scale(line->unit));
	}
	line->iterations = (unsigned)niter;
	line->step_us = pfs_u64_sat(pfs_median(s->walls, nwalls));
	line->wait_us = pfs_u64_sat(pfs_median(s->waits, nwalls));
	/* The iterations' spread; one iteration has none (its nodes' rates
	 * are not replicates of the run's: a slow node is the change, not
	 * noise). */
	line->noise = log_sd(s->iter_rates, niter, &line->replicates);
	line->cpu_noise = ncpu == niter ? log_sd(s->cpu, ncpu, &(unsigned){ 0 }) : -1;
	line->cpu_per_item = ncpu == niter ? pfs_median(s->cpu, ncpu) : 0;
	line->rate = pfs_median(s->iter_rates, niter);
	line->op_us = pfs_median(s->iter_us, niter);
	line->op_off_us = pfs_median(s->iter_off, niter);
	line->op_wait_us = pfs_median(s->iter_wait, niter);
	node_medians(line, s->ni, nni, s);
}

static void free_lines(struct pfs_cmp_run *run)
{
	for (size_t k = 0; run->lines && k < run->n; k++) {
		free(run->lines[k].node_us);
		free(run->lines[k].node_off_us);
		free(run->lines[k].node_wait_us);
	}
}

int pfs_compare_stats(const struct pfs_archive *a, struct pfs_cmp_run *out)
{
	static const enum pfs_row_field by_line[] = { PFS_ROW_TEST, PFS_ROW_OP, PFS_ROW_END },
					by_node[] = { PFS_ROW_TEST,	 PFS_ROW_OP,   PFS_ROW_ITERATION,
						      PFS_ROW_STEP,	 PFS_ROW_NODE, PFS_ROW_END };
	size_t nr = a->nrows ? a->nrows : 1, nn = a->nnodes ? a->nnodes : 1;
	struct cmp_ent *e = malloc(nr * sizeof(*e));
	size_t *key = malloc(nr * sizeof(*key)), *idx = malloc(nr * sizeof(*idx));
	struct cmp_scratch s = {
		malloc(nr * sizeof(double)), malloc(nr * sizeof(double)), malloc(nr * sizeof(double)),
		malloc(nr * sizeof(double)), malloc(nr * sizeof(double)), malloc(nr * sizeof(double)),
		malloc(nr * sizeof(double)), malloc(nr * sizeof(double)),
		malloc(nn * sizeof(size_t)),
		malloc(nr * sizeof(struct node_iter)), a->nnodes,
	};
	struct pfs_lat_summary *lat = NULL;
	size_t nlat = 0;
	int rc = -ENOMEM;

	memset(out, 0, sizeof(*out));
	out->lines = malloc(nr * sizeof(*out->lines));
	out->nnodes = a->nnodes;
	out->nodes = a->nodes;
	if (!e || !key || !idx || !s.iter_rates || !s.walls || !s.waits || !s.cpu || !s.iter_us || !s.iter_off || !s.offs || !s.iter_wait || !s.slot || !s.ni || !out->lines)
		goto out;
	/* The lines in order of first row; idx holds their first rows, then
	 * the rows grouped by line, iteration, step and node. */
	if (pfs_row_number(a->rows, a->nrows, by_line, NULL, key, idx, &out->n))
		goto out;
	for (size_t k = 0; k < out->n; k++) {
		const struct pfs_row *r = &a->rows[idx[k]];

		memset(&out->lines[k], 0, sizeof(out->lines[k]));
		out->lines[k].unit = pfs_row_unit(r);
		pfs_row_set_text(out->lines[k].test, sizeof(out->lines[k].test), r->test);
		pfs_row_set_text(out->lines[k].op, sizeof(out->lines[k].op), r->op);
	}
	for (size_t i = 0; i < a->nrows; i++)
		idx[i] = i;
	pfs_row_sort(a->rows, idx, a->nrows, by_node);
	for (size_t i = 0; i < a->nrows; i++) {
		const struct pfs_row *r = &a->rows[idx[i]];

		e[i] = (struct cmp_ent){ (uint32_t)key[idx[i]], r->iteration, r->step, r->node_index,
					 r->start_us, r->start_us + r->elapsed_us,
					 pfs_unit_amount(pfs_row_unit(r), r->items, r->bytes),
					 pfs_row_cpu_wait_us(r), r->cpu_us };
	}
	for (size_t k = 0; k < out->n; k++) {
		out->lines[k].node_us = calloc(nn, sizeof(double));
		out->lines[k].node_off_us = calloc(nn, sizeof(double));
		out->lines[k].node_wait_us = calloc(nn, sizeof(double));
		if (!out->lines[k].node_us || !out->lines[k].node_off_us || !out->lines[k].node_wait_us)
			goto out;
	}
	for (size_t i = 0; i < a->nrows;)
		stats_key(e, a->nrows, &i, &out->lines[e[i].key], &s);
	/* Latency beside the rate, where the run recorded it. */
	if (pfs_lat_groups(a->rows, a->nrows, a->lat, a->nlat, PFS_LAT_BY_OP, &lat, &nlat)) {
		rc = -EINVAL;
		goto out;
	}
	for (size_t k = 0; k < out->n; k++) {
		const struct pfs_lat_summary *ls =
			pfs_lat_find(lat, nlat, out->lines[k].test, out->lines[k].op);

		out->lines[k].p99_ns = ls ? ls->p99_ns : 0;
	}
	rc = 0;
out:
	free(e);
	free(key);
	free(idx);
	free(s.iter_rates);
	free(s.walls);
	free(s.waits);
	free(s.cpu);
	free(s.iter_us);
	free(s.iter_off);
	free(s.offs);
	free(s.iter_wait);
	free(s.slot);
	free(s.ni);
	free(lat);
	if (rc)
		pfs_compare_run_free(out);
	return rc;
}

void pfs_compare_run_free(struct pfs_cmp_run *run)
{
	free_lines(run);
	free(run->lines);
	run->lines = NULL;
	run->n = 0;
}

const struct pfs_cmp_line *pfs_compare_find(const struct pfs_cmp_run *run, const char *test,
					    const char *op)
{
	for (size_t i = 0; i < run->n; i++)
		if (!strcmp(run->lines[i].test, test) && !strcmp(run->lines[i].op, op))
			return &run->lines[i];
	return NULL;
}

/* ---- a side's sample ----------------------------------------------------------------- */

/* The squared standard error of a run's log rate, the median of n
 * replicates whose logs have standard deviation sd: sd^2 / n, times pi / 2
 * (the efficiency of a median against a mean) from 3 replicates on; the
 * median of 1 or 2 is their mean. */
static double se2_of(double sd, unsigned n)
{
	double c2 = n >= 3 ? M_PI / 2 : 1;

	return c2 * sd * sd / (n ? n : 1);
}


void pfs_compare_cell(const struct pfs_cmp_line *const *lines, size_t n, struct pfs_cmp_cell *c)
{
	double rates[n ? n : 1], cpus[n ? n : 1], steps[n ? n : 1], p99s[n ? n : 1], var;
	unsigned m, mc;

	memset(c, 0, sizeof(*c));
	c->iterations = UINT32_MAX;
	for (size_t i = 0; i < n; i++) {
		rates[i] = lines[i]->rate;
		cpus[i] = lines[i]->cpu_per_item;
		steps[i] = (double)lines[i]->step_us;
		p99s[i] = (double)lines[i]->p99_ns;
		c->iterations = lines[i]->iterations < c->iterations ? lines[i]->iterations
								      : c->iterations;
	}
	c->step_us = n ? pfs_u64_sat(pfs_median(steps, n)) : 0;
	c->p99_ns = n ? pfs_u64_sat(pfs_median(p99s, n)) : 0;
	log_mean_var(rates, n, &c->mlog, &var, &m);
	c->runs = m;
	c->rate = m ? exp(c->mlog) : 0;
	log_mean_var(cpus, n, &c->cpu_mlog, &c->cpu_var, &mc);
	c->has_cpu = mc == n && n;
	c->c2 = 1;
	if (m >= 2) {
		/* Runs as replicates: their spread holds all that moves. */
		c->noise = sqrt(var);
		c->s2 = var;
		c->nrep = m;
		c->df = m - 1;
		c->cpu_var = c->has_cpu ? c->cpu_var / mc : -1;
		c->cpu_df = mc - 1;
		return;
	}
	c->noise = m ? lines[0]->noise : -1;
	/* One run: its own noise, and the floor for what moves between runs. */
	c->s2 = m && lines[0]->noise >= 0 ? lines[0]->noise * lines[0]->noise : -1;
	c->nrep = m ? lines[0]->replicates : 0;
	c->c2 = c->nrep >= 3 ? M_PI / 2 : 1;
	c->df = c->nrep > 1 ? c->nrep - 1 : 0;
	c->floor2 = PFS_CMP_RUN_FLOOR * PFS_CMP_RUN_FLOOR;
	if (c->has_cpu && lines[0]->cpu_noise >= 0) {
		/* No floor: CPU time per item moves far less between runs than
		 * wall time, and what it says is a note, not a verdict. */
		c->cpu_var = se2_of(lines[0]->cpu_noise, lines[0]->iterations);
		c->cpu_df = lines[0]->iterations - 1;
	} else {
		c->cpu_var = -1;
	}
}

/* Whether a cell's s2 goes into its side's pool: lines whose steps last
 * PFS_SHORT_STEP_US or more, when the side has any (shorter steps are
 * timing noise, '!', and would make every line look as noisy). */
static bool pooled(const struct pfs_cmp_cell *c, bool any_long)
{
	return c->s2 >= 0 && c->df > 0 && (!any_long || c->step_us >= PFS_SHORT_STEP_US);
}

void pfs_compare_moderate(struct pfs_cmp_cell *const *cells, size_t n)
{
	double sum = 0, dfs = 0;
	bool any_long = false;

	for (size_t i = 0; i < n; i++)
		any_long |= cells[i]->s2 >= 0 && cells[i]->df > 0 &&
			    cells[i]->step_us >= PFS_SHORT_STEP_US;
	for (size_t i = 0; i < n; i++)
		if (pooled(cells[i], any_long)) {
			sum += cells[i]->df * cells[i]->s2;
			dfs += cells[i]->df;
		}
	for (size_t i = 0; i < n; i++) {
		struct pfs_cmp_cell *c = cells[i];
		bool in = pooled(c, any_long);
		double own = c->s2 >= 0 && c->df > 0 ? c->df : 0;
		double others = dfs - (in ? own : 0);
		double d0 = others < PFS_CMP_PRIOR_DF ? others : PFS_CMP_PRIOR_DF;
		double prior = (sum - (in ? own * c->s2 : 0)) / others;

		if (!(d0 > 0) || c->nrep == 0)
			continue;
		/* The others' pooled variance, with the weight of d0 replicates. */
		c->s2 = (d0 * prior + (own > 0 ? own * c->s2 : 0)) / (d0 + own);
		c->df = own + d0;
	}
}

/* A cell's variance of its mean log rate, and its estimated part; -1: unknown. */
static double cell_var(const struct pfs_cmp_cell *c, double *estimated)
{
	/* One run without iterations' noise: the floor alone, known. */
	*estimated = c->s2 >= 0 && c->nrep ? c->c2 * c->s2 / c->nrep : c->floor2 > 0 ? 0 : -1;
	return *estimated >= 0 ? *estimated + c->floor2 : -1;
}

/* Satterthwaite's share of a variance in the df of a sum of them: its
 * estimated part squared over that part's df (the floor is known). */
static double df_term(double estimated, double df)
{
	return df > 0 ? estimated * estimated / df : 0;
}

/* log r, its SE and df from two samples' (mean, var, estimated part of
 * var, df); false without an interval. One unknown variance borrows the
 * other's. */
static bool log_ratio(double ma, double va, double wa, double dfa, double mb, double vb,
		      double wb, double dfb, double *d, double *se, double *df)
{
	double ta, tb;

	*d = mb - ma;
	if (va < 0 && vb < 0)
		return false;
	if (va < 0) {
		va = vb;
		wa = wb;
		dfa = dfb;
	} else if (vb < 0) {
		vb = va;
		wb = wa;
		dfb = dfa;
	}
	ta = df_term(wa, dfa);
	tb = df_term(wb, dfb);
	*se = sqrt(va + vb);
	*df = ta + tb > 0 ? (va + vb) * (va + vb) / (ta + tb) : 1e9;
	return true;
}

void pfs_compare_estimate(const struct pfs_cmp_cell *a, const struct pfs_cmp_cell *b,
			  double margin, struct pfs_cmp_verdict *v)
{
	double d, m = log1p(margin);

	memset(v, 0, sizeof(*v));
	v->p = 1;
	if (!(a->rate > 0) || !(b->rate > 0))
		return;
	double wa, wb, va = cell_var(a, &wa), vb = cell_var(b, &wb);

	v->interval = log_ratio(a->mlog, va, wa, a->df, b->mlog, vb, wb, b->df, &d, &v->se, &v->df);
	v->ratio = v->low = v->high = exp(d);
	if (a->has_cpu && b->has_cpu)
		v->cpu_ratio = exp(b->cpu_mlog - a->cpu_mlog);
	if (!v->interval)
		return;
	/* Two-sided, as the interval: beyond the margin at level p exactly
	 * when the interval at 1 - p reaches the margin. */
	if (!(v->se > 0))
		v->p = fabs(d) > m ? 0 : 1;
	else if (fabs(d) > m)
		v->p = 2 * (1 - pfs_t_cdf((fabs(d) - m) / v->se, v->df));
}

void pfs_compare_decide(struct pfs_cmp_verdict *v, double alpha, double margin)
{
	double d = log(v->ratio), m = log1p(margin), t = 0;

	v->level = alpha;
	if (!v->interval)
		return;
	if (v->se > 0) {
		t = pfs_t_quantile(1 - alpha / 2, v->df);
		v->low = exp(d - t * v->se);
		v->high = exp(d + t * v->se);
		/* Called out 80 % of the time: the margin, t, and the 80th percentile. */
		v->detectable = exp(m + (t + pfs_t_quantile(0.8, v->df)) * v->se);
	} else {
		v->detectable = exp(m);
	}
	v->beyond = v->low > exp(m) || v->high < exp(-m);
	/* short: too small to measure, the time's move or, where the ranks'
	 * waits did not move 10 ms either, the work's; busy: the work moved
	 * under 10 ms and the waits 10 ms or more. */
	v->unresolved = v->beyond && (v->moved_us < PFS_CMP_RESOLVE_US ||
				      (v->moved_us - v->waited_us < PFS_CMP_RESOLVE_US &&
				       v->waits_us < PFS_CMP_RESOLVE_US));
	v->busy = v->beyond && !v->unresolved && v->moved_us - v->waited_us < PFS_CMP_RESOLVE_US;
	v->called_out = v->beyond && !v->unresolved && !v->busy;
}

struct ranked {
	double p;
	size_t i;
};

static int cmp_ranked(const void *pa, const void *pb)
{
	const struct ranked *a = pa, *b = pb;

	return (a->p > b->p) - (a->p < b->p);
}

void pfs_compare_holm(const double *p, size_t n, double alpha, double *level)
{
	struct ranked *r = malloc((n ? n : 1) * sizeof(*r));
	bool stopped = false;
	double at = alpha;

	if (!r) { /* Bonferroni needs no order, and is never less strict */
		for (size_t i = 0; i < n; i++)
			level[i] = alpha / (double)n;
		return;
	}
	for (size_t i = 0; i < n; i++)
		r[i] = (struct ranked){ p[i], i };
	qsort(r, n, sizeof(*r), cmp_ranked);
	/* The k-th smallest is judged at alpha / (n - k); from the first that
	 * fails, every one after it at that same level. */
	for (size_t k = 0; k < n; k++) {
		if (!stopped) {
			at = alpha / (double)(n - k);
			stopped = !(r[k].p <= at);
		}
		level[r[k].i] = at;
	}
	free(r);
}

/* ---- a table of sides ----------------------------------------------------------------- */

/* Node nd of run a's index in run b, by name; -1 when b does not have it. */
static long node_in(const struct pfs_cmp_run *a, unsigned nd, const struct pfs_cmp_run *b)
{
	if (nd < b->nnodes && !strcmp(a->nodes[nd].name, b->nodes[nd].name))
		return nd;
	for (unsigned k = 0; k < b->nnodes; k++)
		if (!strcmp(a->nodes[nd].name, b->nodes[k].name))
			return k;
	return -1;
}

/* A line's figures (struct pfs_cmp_line). */
enum figure { TIME, OFF_WORK, WAITS };

/* One figure of a run's line, of the run's node at, or of the whole op
 * when at < 0. */
static double figure(const struct pfs_cmp_line *l, long at, enum figure f)
{
	if (at < 0)
		return f == TIME ? l->op_us : f == OFF_WORK ? l->op_off_us : l->op_wait_us;
	return f == TIME ? l->node_us[at] : f == OFF_WORK ? l->node_off_us[at] : l->node_wait_us[at];
}

/* A side's median over its runs (lines[r] their lines, NULL where a run
 * lacks it) of node nd of ref's figure, or the whole op's for nd < 0. */
static double side_median(const struct pfs_cmp_run *ref, long nd, const struct pfs_cmp_run *runs,
			  const struct pfs_cmp_line *const *lines, size_t n, enum figure f,
			  double *scratch)
{
	size_t k = 0;

	for (size_t r = 0; r < n; r++) {
		long at = nd < 0 ? -1 : node_in(ref, (unsigned)nd, &runs[r]);

		if (lines[r] && (nd < 0 || at >= 0))
			scratch[k++] = figure(lines[r], at, f);
	}
	return k ? pfs_median(scratch, k) : NAN;
}

/* A node's figures in one comparison: its time in the op, the part of it
 * off its ranks' work, and their waits, each side's median over its runs,
 * b less a; NAN where a side has no run with the node. */
struct node_move {
	double dt_us, doff_us, dwait_us;
};

/* How much the change moved a node's time in the op, or the whole op's
 * time, in its own way, at most; and how much of that the ranks' work
 * moved (what a longer time off it, waiting for a CPU held by others or
 * starting late, leaves unexplained), at most; how much the ranks' waits
 * for a CPU moved, at most; and the longest of those times on either
 * side. The node whose move is
 * over half of all the nodes' moves is named. Each node's own move (ref's
 * nodes) into nm. */
static void moved(const struct pfs_cmp_run *a, size_t na, const struct pfs_cmp_run *b, size_t nb,
		  const char *test, const char *op, bool slower, struct pfs_cmp_verdict *v,
		  struct node_move *nm)
{
	double scratch[(na > nb ? na : nb) + 1], most = 0, net = 0, node_most = 0, all = 0, waits = 0;
	double longest = NAN;
	const struct pfs_cmp_line *la[na ? na : 1], *lb[nb ? nb : 1];
	const struct pfs_cmp_run *ref = &b[0];
	long at = -1;

	for (size_t r = 0; r < na; r++)
		la[r] = pfs_compare_find(&a[r], test, op);
	for (size_t r = 0; r < nb; r++)
		lb[r] = pfs_compare_find(&b[r], test, op);
	/* Each node, then the whole op (nd = -1): in se the sum of the nodes'
	 * turns, each of which may have moved by less than the rule while
	 * together they moved more. */
	for (long k = 0; k <= (long)ref->nnodes; k++) {
		long nd = k < (long)ref->nnodes ? k : -1;
		double ta = side_median(ref, nd, a, la, na, TIME, scratch);
		double tb = side_median(ref, nd, b, lb, nb, TIME, scratch);
		double oa = side_median(ref, nd, a, la, na, OFF_WORK, scratch);
		double ob = side_median(ref, nd, b, lb, nb, OFF_WORK, scratch);
		double wa = side_median(ref, nd, a, la, na, WAITS, scratch);
		double wb = side_median(ref, nd, b, lb, nb, WAITS, scratch);
		double m = slower ? tb - ta : ta - tb, w = slower ? ob - oa : oa - ob;
		double dw = slower ? wb - wa : wa - wb;

		if (nd >= 0)
			nm[nd] = (struct node_move){ tb - ta, ob - oa, wb - wa };
		longest = fmax(longest, fmax(ta, tb)); /* fmax leaves a NAN out */
		if (isnan(m))
			continue;
		if (nd >= 0) {
			all += m > 0 ? m : 0;
			if (m > node_most) {
				node_most = m;
				at = nd;
			}
		}
		most = m > most ? m : most;
		waits = dw > waits ? dw : waits;
		m -= w > 0 ? w : 0;
		net = m > net ? m : net;
	}
	v->node = at >= 0 && ref->nnodes >= 2 && node_most > all / 2 ? ref->nodes[at].name : NULL;
	v->moved_us = most;
	v->waited_us = most - net;
	v->waits_us = waits;
	v->longest_us = longest;
}

/* A side's sample of node nd (ref's) in (test, op): its rate in the op, 1
 * / its time in it (median over a run's iterations), one sample a run, as
 * pfs_compare_cell takes a line's. Without an interval (s2 < 0) unless
 * every run has the node and there are 2 or more. */
static void node_cell(const struct pfs_cmp_run *ref, unsigned nd, const struct pfs_cmp_run *runs,
		      const struct pfs_cmp_line *const *lines, size_t n, struct pfs_cmp_cell *c)
{
	double rates[n ? n : 1], times[n ? n : 1], var;
	unsigned m;

	memset(c, 0, sizeof(*c));
	c->s2 = -1;
	c->c2 = 1;
	for (size_t r = 0; r < n; r++) {
		long at = node_in(ref, nd, &runs[r]);

		times[r] = lines[r] && at >= 0 ? lines[r]->node_us[at] : 0;
		rates[r] = times[r] > 0 ? 1e6 / times[r] : 0;
	}
	log_mean_var(rates, n, &c->mlog, &var, &m);
	if (m < 2 || m < n)
		return;
	c->rate = exp(c->mlog);
	c->runs = m;
	c->noise = sqrt(var);
	c->s2 = var;
	c->nrep = m;
	c->df = m - 1;
	/* The node's own time in the op decides whether its noise is pooled
	 * with the long ones' (pfs_compare_moderate). */
	c->step_us = pfs_u64_sat(pfs_median(times, n));
}

void pfs_compare_table_free(struct pfs_cmp_table *t)
{
	free(t->base);
	free(t->cells);
	free(t->v);
	memset(t, 0, sizeof(*t));
}

/* The first run's lines that every run has, into t->base. */
static void shared_lines(const struct pfs_cmp_run *runs, size_t n, struct pfs_cmp_table *t)
{
	t->nlines = t->unshared = 0;
	for (size_t i = 0; i < runs[0].n; i++) {
		const struct pfs_cmp_line *base = &runs[0].lines[i];
		bool every = true;

		for (size_t r = 1; r < n && every; r++)
			every = pfs_compare_find(&runs[r], base->test, base->op) != NULL;
		if (every)
			t->base[t->nlines++] = base;
		else
			t->unshared++;
	}
	for (size_t r = 1; r < n; r++)
		for (size_t i = 0; i < runs[r].n; i++)
			t->unshared += pfs_compare_find(&runs[0], runs[r].lines[i].test,
							runs[r].lines[i].op) == NULL;
}

/* Whether the CPU time per item moved beyond the margin, its interval
 * taken at the line's level: a slower machine (or a costlier code path),
 * not a slower filesystem, when the rate moved with it. */
static void cpu_change(const struct pfs_cmp_cell *a, const struct pfs_cmp_cell *b, double margin,
		       struct pfs_cmp_verdict *v)
{
	double d, se, df, t, m = log1p(margin);

	if (!(v->cpu_ratio > 0) || !log_ratio(a->cpu_mlog, a->cpu_var, a->cpu_var, a->cpu_df,
					      b->cpu_mlog, b->cpu_var, b->cpu_var, b->cpu_df, &d,
					      &se, &df))
		return;
	t = se > 0 ? pfs_t_quantile(1 - v->level / 2, df) : 0;
	/* Beyond the margin, the way that makes the rate slower where it is,
	 * and 3/4 of the change or more on a log scale: the change is the
	 * CPU's (a filesystem that makes the ranks wait costs them CPU too, in
	 * wake-ups, but not as much as it costs them time). */
	v->cpu_changed = (d - t * se > m || d + t * se < -m) && d * log(v->ratio) < 0 &&
			 fabs(d) >= 0.75 * fabs(log(v->ratio));
}

/* The surest node's verdict nv at level alpha, with the 10 ms rules on its
 * own move (mv) in its own way; where it is called out and the op's change
 * is not, the line is, by the node, which it names. */
static void judge_node(struct pfs_cmp_verdict *v, struct pfs_cmp_verdict *nv,
		       const struct node_move *mv, const char *name, double alpha, double margin)
{
	bool slower = nv->ratio < 1;
	double dt = slower ? mv->dt_us : -mv->dt_us, dw = slower ? mv->doff_us : -mv->doff_us;
	double dwait = slower ? mv->dwait_us : -mv->dwait_us;

	nv->moved_us = dt > 0 ? dt : 0;
	nv->waited_us = dw > 0 ? (dw < nv->moved_us ? dw : nv->moved_us) : 0;
	nv->waits_us = dwait > 0 ? dwait : 0;
	pfs_compare_decide(nv, alpha, margin);
	v->node_low = nv->low;
	v->node_high = nv->high;
	v->node_level = alpha;
	if (v->called_out || !nv->called_out)
		return;
	v->called_out = v->by_node = true;
	v->busy = false; /* the op's waits may excuse it; the node's own did not */
	v->node = name;
}

/* The nodes of side s's first run in every line, each side's cells of
 * them (their noise drawn toward the side's other nodes'), for side 0
 * into na, side s into nb: nlines x nnodes each. */
static int node_cells(const struct pfs_cmp_run *runs, const size_t *first, const size_t *side_runs,
		      size_t s, const struct pfs_cmp_table *t, struct pfs_cmp_cell *na,
		      struct pfs_cmp_cell *nb)
{
	const struct pfs_cmp_run *ref = &runs[first[s]];
	size_t nn = ref->nnodes, nmax = side_runs[0] > side_runs[s] ? side_runs[0] : side_runs[s];
	const struct pfs_cmp_line **la = malloc((nmax ? nmax : 1) * sizeof(*la));
	struct pfs_cmp_cell **col = malloc((t->nlines * nn > 0 ? t->nlines * nn : 1) * sizeof(*col));

	if (!la || !col) {
		free(la);
		free(col);
		return -ENOMEM;
	}
	for (size_t side = 0; side < 2; side++) {
		size_t f = first[side ? s : 0], n = side_runs[side ? s : 0];
		struct pfs_cmp_cell *c = side ? nb : na;

		for (size_t l = 0; l < t->nlines; l++) {
			for (size_t r = 0; r < n; r++)
				la[r] = pfs_compare_find(&runs[f + r], t->base[l]->test, t->base[l]->op);
			for (size_t k = 0; k < nn; k++)
				node_cell(ref, (unsigned)k, &runs[f], la, n, &c[l * nn + k]);
		}
		for (size_t i = 0; i < t->nlines * nn; i++)
			col[i] = &c[i];
		pfs_compare_moderate(col, t->nlines * nn);
	}
	free(la);
	free(col);
	return 0;
}

/* The node of a line whose own change is the surest (the smallest p), its
 * estimate into nv; how many nodes had an interval. */
static unsigned surest_node(const struct pfs_cmp_cell *na, const struct pfs_cmp_cell *nb, size_t nn,
			    double margin, size_t *best, struct pfs_cmp_verdict *nv)
{
	unsigned judged = 0;

	for (size_t k = 0; k < nn; k++) {
		struct pfs_cmp_verdict e;

		pfs_compare_estimate(&na[k], &nb[k], margin, &e);
		if (!e.interval)
			continue;
		if (!judged++ || e.p < nv->p) {
			*nv = e;
			*best = k;
		}
	}
	return judged;
}

/* Is the line in its side's family: judged (an interval, or a node's), and
 * able to be called out at all? Where the whole op and every node's time
 * in it last under PFS_CMP_RESOLVE_US on both sides, none can move by that
 * much, so no p-value could call it out: counting it would only make the
 * lines that can be called out judged at a stricter level
 * (docs/compare.md, "Holm's correction"). */
static bool in_family(const struct pfs_cmp_verdict *v)
{
	return (v->interval || pfs_cmp_node_judged(v)) && !(v->longest_us < PFS_CMP_RESOLVE_US);
}

/* Side s against side 0: each line's estimate and moves, its nodes', the
 * family's levels (Holm), and each line's verdict. p and level: scratch of
 * nlines. */
static int judge_side(const struct pfs_cmp_run *runs, const size_t *first, const size_t *side_runs,
		      size_t s, double margin, struct pfs_cmp_table *t, double *p, double *level)
{
	const struct pfs_cmp_run *ref = &runs[first[s]];
	size_t nn = ref->nnodes, cells = t->nlines * nn > 0 ? t->nlines * nn : 1, m = 0;
	double strictest;
	struct pfs_cmp_cell *na = calloc(cells, sizeof(*na)), *nb = calloc(cells, sizeof(*nb));
	struct node_move *nm = calloc(cells, sizeof(*nm));
	struct pfs_cmp_verdict *nv = calloc(t->nlines ? t->nlines : 1, sizeof(*nv));
	size_t *best = calloc(t->nlines ? t->nlines : 1, sizeof(*best));
	int rc = -ENOMEM;

	if (!na || !nb || !nm || !nv || !best || node_cells(runs, first, side_runs, s, t, na, nb))
		goto out;
	for (size_t l = 0; l < t->nlines; l++) {
		struct pfs_cmp_verdict *v = &t->v[l * t->nsides + s];

		pfs_compare_estimate(&t->cells[l * t->nsides], &t->cells[l * t->nsides + s], margin,
				     v);
		moved(&runs[first[0]], side_runs[0], ref, side_runs[s], t->base[l]->test,
		      t->base[l]->op, v->ratio < 1, v, &nm[l * nn]);
		v->nodes_judged = surest_node(&na[l * nn], &nb[l * nn], nn, margin, &best[l], &nv[l]);
		if (pfs_cmp_node_judged(v)) {
			/* Bonferroni's within the line, weighted: the op's share
			 * of its error, and the nodes' equal shares of the rest. */
			v->node_ratio = nv[l].ratio;
			v->node_p = fmin(1, nv[l].p * v->nodes_judged / (1 - PFS_CMP_OP_SHARE));
		}
		if (in_family(v))
			p[m++] = pfs_cmp_node_judged(v)
					 ? fmin(v->interval ? fmin(1, v->p / PFS_CMP_OP_SHARE) : 1, v->node_p)
					 : v->p;
	}
	pfs_compare_holm(p, m, PFS_CMP_ALPHA, level);
	/* A line out of the family has its interval at the family's strictest
	 * level, Bonferroni's. */
	strictest = m ? PFS_CMP_ALPHA / (double)m : PFS_CMP_ALPHA;
	m = 0;
	for (size_t l = 0; l < t->nlines; l++) {
		struct pfs_cmp_verdict *v = &t->v[l * t->nsides + s];
		double at = in_family(v)				? level[m++]
			    : v->interval || pfs_cmp_node_judged(v) ? strictest
								    : PFS_CMP_ALPHA;

		pfs_compare_decide(v, pfs_cmp_node_judged(v) ? at * PFS_CMP_OP_SHARE : at, margin);
		if (pfs_cmp_node_judged(v))
			judge_node(v, &nv[l], &nm[l * nn + best[l]], ref->nodes[best[l]].name,
				   at * (1 - PFS_CMP_OP_SHARE) / v->nodes_judged, margin);
		cpu_change(&t->cells[l * t->nsides], &t->cells[l * t->nsides + s], margin, v);
	}
	rc = 0;
out:
	free(na);
	free(nb);
	free(nm);
	free(nv);
	free(best);
	return rc;
}

int pfs_compare_table(const struct pfs_cmp_run *runs, const size_t *side_runs, size_t nsides,
		      double margin, struct pfs_cmp_table *t)
{
	size_t nruns = 0, first[nsides ? nsides : 1];
	const struct pfs_cmp_line **lines;
	struct pfs_cmp_cell **col;
	double *p, *level;
	int rc = 0;

	memset(t, 0, sizeof(*t));
	for (size_t s = 0; s < nsides; s++) {
		first[s] = nruns;
		nruns += side_runs[s];
	}
	t->nsides = nsides;
	t->margin = margin;
	t->base = malloc((runs[0].n ? runs[0].n : 1) * sizeof(*t->base));
	lines = malloc((nruns ? nruns : 1) * sizeof(*lines));
	p = malloc((runs[0].n ? runs[0].n : 1) * sizeof(*p));
	level = malloc((runs[0].n ? runs[0].n : 1) * sizeof(*level));
	col = malloc((runs[0].n ? runs[0].n : 1) * sizeof(*col));
	t->cells = calloc((runs[0].n ? runs[0].n : 1) * nsides, sizeof(*t->cells));
	t->v = calloc((runs[0].n ? runs[0].n : 1) * nsides, sizeof(*t->v));
	if (!t->base || !lines || !p || !level || !col || !t->cells || !t->v) {
		free(lines);
		free(col);
		free(p);
		free(level);
		pfs_compare_table_free(t);
		return -ENOMEM;
	}
	shared_lines(runs, nruns, t);
	for (size_t l = 0; l < t->nlines; l++)
		for (size_t s = 0; s < nsides; s++) {
			for (size_t r = 0; r < side_runs[s]; r++)
				lines[r] = pfs_compare_find(&runs[first[s] + r], t->base[l]->test,
							    t->base[l]->op);
			pfs_compare_cell(lines, side_runs[s], &t->cells[l * nsides + s]);
		}
	for (size_t s = 0; s < nsides; s++) {
		for (size_t l = 0; l < t->nlines; l++)
			col[l] = &t->cells[l * nsides + s];
		pfs_compare_moderate(col, t->nlines);
	}
	/* Each side after the first against the first: a family of its own. */
	for (size_t s = 1; s < nsides && !rc; s++)
		rc = judge_side(runs, first, side_runs, s, margin, t, p, level);
	free(lines);
	free(col);
	free(p);
	free(level);
	if (rc)
		pfs_compare_table_free(t);
	return rc;
}

/* ---- words ---------------------------------------------------------------------------- */

const char *pfs_compare_factor_text(char *buf, size_t len, double f)
{
	if (!(f < 999999.5)) {
		snprintf(buf, len, ">1000000");
	} else if (f >= 999.5) { /* two significant figures: 4085 is 4100 */
		double unit = pow(10, floor(log10(f)) - 1);

		snprintf(buf, len, "%.0f", round(f / unit) * unit);
	} else {
		snprintf(buf, len, f < 9.995 ? "%.2f" : f < 99.95 ? "%.1f" : "%.0f", f);
	}
	return buf;
}

const char *pfs_compare_ratio_text(char *buf, size_t len, double ratio)
{
	char f[32];

	if (!(ratio > 0) || isinf(ratio)) {
		snprintf(buf, len, "-");
		return buf;
	}
	if (fabs(log(ratio)) < log(1.005)) {
		snprintf(buf, len, "no change");
		return buf;
	}
	pfs_compare_factor_text(f, sizeof(f), ratio < 1 ? 1 / ratio : ratio);
	snprintf(buf, len, "%sx %s", f, ratio < 1 ? "slower" : "faster");
	return buf;
}

const char *pfs_compare_interval_text(char *buf, size_t len, const struct pfs_cmp_verdict *v)
{
	bool slower = v->ratio < 1;
	/* The bounds as factors in the change's own way: the near one may be
	 * the other way. */
	double near = slower ? 1 / v->high : v->low, far = slower ? 1 / v->low : v->high;
	char a[32], b[32];

	if (!v->interval || !(v->ratio > 0)) {
		snprintf(buf, len, "-");
		return buf;
	}
	pfs_compare_factor_text(b, sizeof(b), far);
	if (near >= 1) {
		pfs_compare_factor_text(a, sizeof(a), near);
		snprintf(buf, len, "%sx to %sx", a, b);
	} else {
		pfs_compare_factor_text(a, sizeof(a), 1 / near);
		snprintf(buf, len, "%sx %s to %sx %s", a, slower ? "faster" : "slower", b,
			 slower ? "slower" : "faster");
	}
	return buf;
}

const char *pfs_compare_word(const struct pfs_cmp_verdict *v)
{
	return !(v->ratio > 0)   ? ""
	       : !v->interval   ? "few"
	       : v->unresolved  ? "short"
	       : v->busy        ? "busy"
	       : !v->called_out ? ""
	       : (v->by_node ? v->node_ratio : v->ratio) < 1 ? "SLOWER"
						   : "FASTER";
}

const char *pfs_compare_text(char *buf, size_t len, const struct pfs_cmp_verdict *v,
			     double margin)
{
	char change[48], iv[96], det[32];

	pfs_compare_ratio_text(change, sizeof(change), v->ratio);
	if (!(v->ratio > 0)) {
		snprintf(buf, len, "-");
	} else if (!v->interval) {
		snprintf(buf, len, "%s, too few runs to judge", change);
	} else if (v->by_node) {
		struct pfs_cmp_verdict n = { .ratio = v->node_ratio, .low = v->node_low,
					     .high = v->node_high, .interval = true };
		char nchange[48], niv[96];

		snprintf(buf, len, "%s (%s), %s on %s (%s)%s", change,
			 pfs_compare_interval_text(iv, sizeof(iv), v),
			 pfs_compare_ratio_text(nchange, sizeof(nchange), v->node_ratio), v->node,
			 pfs_compare_interval_text(niv, sizeof(niv), &n),
			 v->cpu_changed ? ", CPU per item too" : "");
	} else if (v->beyond) {
		snprintf(buf, len, "%s (%s)%s%s%s", change,
			 pfs_compare_interval_text(iv, sizeof(iv), v),
			 v->node && v->called_out ? " on " : "", v->node && v->called_out ? v->node : "", v->cpu_changed ? ", CPU per item too" : "");
	} else if (v->low <= 1 && v->high >= 1) {
		pfs_compare_factor_text(det, sizeof(det), v->detectable);
		if (fabs(log(v->ratio)) <= log1p(margin))
			snprintf(buf, len, "no change (could detect >= %sx)", det);
		else
			snprintf(buf, len, "%s, in the noise (could detect >= %sx)", change, det);
	} else {
		snprintf(buf, len, "%s (%s), not surely over %.0f %%", change,
			 pfs_compare_interval_text(iv, sizeof(iv), v), 100 * margin);
	}
	return buf;
}
