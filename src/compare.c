/* compare.c: the statistics of `pfsbench compare` (its report and command
 * are in src/compare_report.c): each (test, op) of a run reduced to its
 * rate, its replicates and their noise, and the verdict on one run against
 * another, judged on the log of the ratio of their rates. The definitions
 * are in include/pfsbench/compare.h and docs/compare.md. */
#include "pfsbench/compare.h"
#include "pfsbench/archive.h"
#include "pfsbench/latency.h"
#include "pfsbench/robust.h"
#include "pfsbench/util.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A row reduced to what the rates need, sortable by group. */
struct cmp_ent {
	uint32_t key, iteration, step, node;
	uint64_t start_us, end_us, amount; /* items, or bytes for a bytes row */
	uint64_t wait_us;                  /* the rank's wait for a CPU in the op */
};

static int cmp_ents(const void *pa, const void *pb)
{
	const struct cmp_ent *a = pa, *b = pb;

	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	if (a->iteration != b->iteration)
		return a->iteration < b->iteration ? -1 : 1;
	if (a->step != b->step)
		return a->step < b->step ? -1 : 1;
	return (a->node > b->node) - (a->node < b->node);
}

/* Depth of grouping: key, iteration, step, node. */
static bool same(const struct cmp_ent *a, const struct cmp_ent *b, int depth)
{
	return a->key == b->key && (depth < 2 || a->iteration == b->iteration) &&
	       (depth < 3 || a->step == b->step) && (depth < 4 || a->node == b->node);
}

static uint32_t key_of(struct pfs_cmp_run *run, const struct pfs_row *r)
{
	uint32_t k;

	for (k = 0; k < run->n; k++)
		if (!strcmp(run->lines[k].test, r->test) && !strcmp(run->lines[k].op, r->op))
			return k;
	memset(&run->lines[k], 0, sizeof(run->lines[k]));
	run->lines[k].unit = pfs_row_unit(r);
	pfs_row_set_text(run->lines[k].test, sizeof(run->lines[k].test), r->test);
	pfs_row_set_text(run->lines[k].op, sizeof(run->lines[k].op), r->op);
	run->n++;
	return k;
}

/* Scratch for one (test, op), sized for the whole run. */
struct cmp_scratch {
	double *iter_rates, *walls, *waits, *logs; /* nrows */
	double *node_amount, *node_us;     /* nnodes */
	unsigned nnodes;
};

/* The noise of a line: the SD of the logs of its positive replicates. */
static void set_noise(struct pfs_cmp_line *line, const double *reps, size_t n, bool nodes,
		      double *logs)
{
	size_t m = 0;

	for (size_t i = 0; i < n; i++)
		if (reps[i] > 0)
			logs[m++] = log(reps[i]);
	line->replicates = (unsigned)m;
	line->node_replicates = nodes;
	line->noise = pfs_sample_sd(logs, m);
}

/* One (test, op): its iterations, steps and nodes, starting at e[*i]. */
static void stats_key(const struct cmp_ent *e, size_t n, size_t *i, struct pfs_cmp_line *line,
		      struct cmp_scratch *s)
{
	size_t first = *i, niter = 0, nwalls = 0;

	while (*i < n && same(&e[*i], &e[first], 1)) {
		size_t it0 = *i;
		double amount = 0, us = 0;

		/* Each iteration's nodes: kept when it turns out to be the only one. */
		memset(s->node_amount, 0, s->nnodes * sizeof(*s->node_amount));
		memset(s->node_us, 0, s->nnodes * sizeof(*s->node_us));
		while (*i < n && same(&e[*i], &e[it0], 2)) {
			size_t st0 = *i;
			uint64_t lo = UINT64_MAX, hi = 0, wait = 0;

			while (*i < n && same(&e[*i], &e[st0], 3)) {
				size_t nd0 = *i;
				uint64_t nlo = UINT64_MAX, nhi = 0, namount = 0;

				for (; *i < n && same(&e[*i], &e[nd0], 4); (*i)++) {
					nlo = e[*i].start_us < nlo ? e[*i].start_us : nlo;
					nhi = e[*i].end_us > nhi ? e[*i].end_us : nhi;
					namount += e[*i].amount;
					wait = e[*i].wait_us > wait ? e[*i].wait_us : wait;
				}
				s->node_amount[e[nd0].node] += (double)namount;
				s->node_us[e[nd0].node] += (double)(nhi - nlo);
				lo = nlo < lo ? nlo : lo;
				hi = nhi > hi ? nhi : hi;
				amount += (double)namount;
			}
			us += (double)(hi - lo);
			s->waits[nwalls] = (double)wait;
			s->walls[nwalls++] = (double)(hi - lo);
		}
		/* A zero wall time counts as one microsecond, as in the table. */
		s->iter_rates[niter++] = amount * 1e6 / (us > 0 ? us : 1);
	}
	line->iterations = (unsigned)niter;
	line->step_us = pfs_u64_sat(pfs_median(s->walls, nwalls));
	line->wait_us = pfs_u64_sat(pfs_median(s->waits, nwalls));
	if (niter >= 2) {
		set_noise(line, s->iter_rates, niter, false, s->logs);
	} else {
		size_t nn = 0;

		/* One iteration: its nodes' rates stand in for replicates. */
		for (unsigned nd = 0; nd < s->nnodes; nd++)
			if (s->node_amount[nd] > 0)
				s->walls[nn++] = s->node_amount[nd] * 1e6 /
						 (s->node_us[nd] > 0 ? s->node_us[nd] : 1);
		set_noise(line, s->walls, nn, true, s->logs);
	}
	line->rate = pfs_median(s->iter_rates, niter);
}

int pfs_compare_stats(const struct pfs_archive *a, struct pfs_cmp_run *out)
{
	size_t nr = a->nrows ? a->nrows : 1, nn = a->nnodes ? a->nnodes : 1;
	struct cmp_ent *e = malloc(nr * sizeof(*e));
	struct cmp_scratch s = {
		malloc(nr * sizeof(double)), malloc(nr * sizeof(double)), malloc(nr * sizeof(double)),
		malloc(nr * sizeof(double)), malloc(nn * sizeof(double)), malloc(nn * sizeof(double)),
		a->nnodes,
	};
	struct pfs_lat_summary *lat = NULL;
	size_t nlat = 0;
	int rc = -ENOMEM;

	out->n = 0;
	out->lines = malloc(nr * sizeof(*out->lines));
	if (!e || !s.iter_rates || !s.walls || !s.waits || !s.logs || !s.node_amount || !s.node_us ||
	    !out->lines)
		goto out;
	for (size_t i = 0; i < a->nrows; i++) {
		const struct pfs_row *r = &a->rows[i];

		e[i] = (struct cmp_ent){ key_of(out, r), r->iteration, r->step, r->node_index,
					 r->start_us, r->start_us + r->elapsed_us,
					 pfs_unit_amount(pfs_row_unit(r), r->items, r->bytes),
					 r->wait_us };
	}
	qsort(e, a->nrows, sizeof(*e), cmp_ents);
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
	free(s.iter_rates);
	free(s.walls);
	free(s.waits);
	free(s.logs);
	free(s.node_amount);
	free(s.node_us);
	free(lat);
	if (rc)
		pfs_compare_run_free(out);
	return rc;
}

void pfs_compare_run_free(struct pfs_cmp_run *run)
{
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

size_t pfs_compare_shared(const struct pfs_cmp_run *st, size_t n,
			  const struct pfs_cmp_line **shared, size_t *unshared)
{
	size_t nshared = 0;

	*unshared = 0;
	for (size_t i = 0; i < st[0].n; i++) {
		const struct pfs_cmp_line *base = &st[0].lines[i];
		bool every = true;

		for (size_t r = 1; r < n && every; r++)
			every = pfs_compare_find(&st[r], base->test, base->op) != NULL;
		if (every)
			shared[nshared++] = base;
		else
			(*unshared)++;
	}
	for (size_t r = 1; r < n; r++)
		for (size_t i = 0; i < st[r].n; i++)
			*unshared += pfs_compare_find(&st[0], st[r].lines[i].test,
						      st[r].lines[i].op) == NULL;
	return nshared;
}

double pfs_compare_alpha(size_t nshared)
{
	/* Bonferroni: the table's lines share the family-wise error. */
	return PFS_CMP_ALPHA / (double)(nshared ? nshared : 1);
}

/* ---- the verdict ----------------------------------------------------------------- */

/* The squared standard error of a run's log rate, the median of n
 * replicates whose logs have standard deviation sd: sd^2 / n, times pi / 2
 * (the efficiency of a median against a mean) from 3 replicates on; the
 * median of 1 or 2 is their mean. */
static double se2_of(double sd, unsigned n)
{
	double c2 = n >= 3 ? M_PI / 2 : 1;

	return c2 * sd * sd / (n ? n : 1);
}

/* The time a change of log ratio d is, on steps like a's and b's: the
 * longer step's time x (1 - 1 / R), R = exp(|d|). For two runs of one plan
 * that is how much shorter the faster run's steps were. */
static double moved_us(const struct pfs_cmp_line *a, const struct pfs_cmp_line *b, double d)
{
	double longer = (double)(a->step_us > b->step_us ? a->step_us : b->step_us);

	return longer * (1 - exp(-fabs(d)));
}

/* How much longer the slower run's ranks waited for a CPU a step than the
 * faster run's (0 when they waited less, or did not record it). */
static double waited_more_us(const struct pfs_cmp_line *a, const struct pfs_cmp_line *b, double d)
{
	const struct pfs_cmp_line *slow = d < 0 ? b : a, *fast = d < 0 ? a : b;

	return slow->wait_us > fast->wait_us ? (double)(slow->wait_us - fast->wait_us) : 0;
}

/* The verdict once the interval is known: beyond the noise (the interval
 * excludes 1) and the floor, a change of at least PFS_CMP_RESOLVE_US in a
 * step's time, and as much again beyond what the slower run's longer waits
 * for a CPU account for. */
static void decide(struct pfs_cmp_verdict *v, bool beyond_noise, double d)
{
	bool loud = beyond_noise && fabs(d) > log(PFS_CMP_FLOOR);

	v->unresolved = loud && v->moved_us < PFS_CMP_RESOLVE_US;
	v->busy = loud && !v->unresolved && v->moved_us - v->waited_us < PFS_CMP_RESOLVE_US;
	v->called_out = loud && !v->unresolved && !v->busy;
}

void pfs_compare_judge(const struct pfs_cmp_line *a, const struct pfs_cmp_line *b, double alpha,
		       struct pfs_cmp_verdict *v)
{
	double d, sa, sb, va, vb, se, df = 0, t, na, nb;
	bool borrowed = false;

	memset(v, 0, sizeof(*v));
	if (!(a->rate > 0) || !(b->rate > 0))
		return;
	d = log(b->rate / a->rate);
	v->ratio = v->low = v->high = exp(d);
	v->moved_us = moved_us(a, b, d);
	v->waited_us = waited_more_us(a, b, d);
	sa = a->noise;
	sb = b->noise;
	na = a->replicates;
	nb = b->replicates;
	/* A run that could not measure its noise (one iteration on one node)
	 * is taken to be as noisy as the other, with one replicate; the one
	 * estimate of noise then has the other's degrees of freedom. */
	if (sa < 0 && sb < 0)
		return;
	if (sa < 0 || sb < 0) {
		borrowed = true;
		df = (sa < 0 ? nb : na) - 1;
		if (sa < 0) {
			sa = sb;
			na = 1;
		} else {
			sb = sa;
			nb = 1;
		}
	}
	va = se2_of(sa, (unsigned)na);
	vb = se2_of(sb, (unsigned)nb);
	se = sqrt(va + vb);
	v->interval = true;
	if (!(se > 0)) { /* replicates without any spread: the interval is the ratio */
		decide(v, true, d);
		return;
	}
	if (!borrowed) /* Welch-Satterthwaite */
		df = (va + vb) * (va + vb) / (va * va / (na - 1) + vb * vb / (nb - 1));
	t = pfs_t_quantile(1 - alpha / 2, df);
	v->low = exp(d - t * se);
	v->high = exp(d + t * se);
	decide(v, v->low > 1 || v->high < 1, d);
}

/* A factor as it reads best: 0.0032, 0.74, 1.25, 12.3, 318; past 99999,
 * ">99999". */
static void factor_text(char *buf, size_t len, double f)
{
	if (f >= 99999.5)
		snprintf(buf, len, ">99999");
	else
		snprintf(buf, len, f < 0.995 ? "%.2g" : f < 9.995 ? "%.2f" : f < 99.95 ? "%.1f" : "%.0f",
			 f);
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
	factor_text(f, sizeof(f), ratio < 1 ? 1 / ratio : ratio);
	snprintf(buf, len, "%sx %s", f, ratio < 1 ? "slower" : "faster");
	return buf;
}

const char *pfs_compare_interval_text(char *buf, size_t len, const struct pfs_cmp_verdict *v)
{
	char lo[32], hi[32];
	bool slower = v->ratio < 1;

	if (!v->interval) {
		snprintf(buf, len, "-");
		return buf;
	}
	/* In the change's own direction: for a slowdown, 1 / ratio. */
	factor_text(lo, sizeof(lo), slower ? 1 / v->high : v->low);
	factor_text(hi, sizeof(hi), slower ? 1 / v->low : v->high);
	snprintf(buf, len, "(%s-%s)", lo, hi);
	return buf;
}
