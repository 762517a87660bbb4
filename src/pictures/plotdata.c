/* plotdata.c: the arithmetic behind the pictures; definitions in
 * include/pfsbench/pictures/plotdata.h and docs/plot.md. Everything here works on
 * a results file's rows as they are: a damaged file may give odd pictures,
 * never a crash or a negative rate. */
#include "pfsbench/pictures/plotdata.h"
#include "pfsbench/core/histogram.h"
#include "pfsbench/core/rowindex.h"
#include "pfsbench/core/util.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- thinning ---------------------------------------------------------------- */

/* Sort keys: a row's (test, op) as the index of its first row, then the
 * step it belongs to and its node; idx breaks ties, so the order is total
 * and the first of a run of equals is the earliest row. */
struct thin_key {
	size_t group;   /* first row of its (test, op) */
	size_t test;    /* first row of its test */
	uint32_t iteration, step, node_index;
	size_t idx;
};

static uint64_t row_end(const struct pfs_row *r)
{
	return r->start_us + r->elapsed_us < r->start_us ? UINT64_MAX : r->start_us + r->elapsed_us;
}

static bool same_node_step(const struct thin_key *a, const struct thin_key *b)
{
	return a->group == b->group && a->iteration == b->iteration && a->step == b->step &&
	       a->node_index == b->node_index;
}

static int by_step_node(const void *pa, const void *pb)
{
	const struct thin_key *a = pa, *b = pb;

	if (a->group != b->group)
		return a->group < b->group ? -1 : 1;
	if (a->iteration != b->iteration)
		return a->iteration < b->iteration ? -1 : 1;
	if (a->step != b->step)
		return a->step < b->step ? -1 : 1;
	if (a->node_index != b->node_index)
		return a->node_index < b->node_index ? -1 : 1;
	return (a->idx > b->idx) - (a->idx < b->idx);
}

/* Step 1: each row's (test, op) and test as their first rows' indexes;
 * the first rows of the distinct tests and groups, in order. */
static int thin_number(const struct pfs_row *rows, size_t nrows, struct thin_key *k,
		       size_t **tests, size_t *ntests, size_t **groups, size_t *ngroups)
{
	static const enum pfs_row_field by_test[] = { PFS_ROW_TEST, PFS_ROW_END },
					by_test_op[] = { PFS_ROW_TEST, PFS_ROW_OP, PFS_ROW_END };
	size_t *number = malloc((nrows ? nrows : 1) * sizeof(*number));
	int rc = -ENOMEM;

	*tests = malloc((nrows ? nrows : 1) * sizeof(**tests));
	*groups = malloc((nrows ? nrows : 1) * sizeof(**groups));
	*ntests = *ngroups = 0;
	if (!number || !*tests || !*groups)
		goto out;
	if (pfs_row_number(rows, nrows, by_test, NULL, number, *tests, ntests))
		goto out;
	for (size_t i = 0; i < nrows; i++)
		k[i].test = (*tests)[number[i]];
	if (pfs_row_number(rows, nrows, by_test_op, NULL, number, *groups, ngroups))
		goto out;
	for (size_t i = 0; i < nrows; i++)
		k[i].group = (*groups)[number[i]];
	rc = 0;
out:
	free(number);
	return rc;
}

/* Step 2: the kept rows k[0..n) aggregated per (test, op, iteration,
 * step, node) into out, in order of first row. Returns the count. */
static size_t thin_per_node(const struct pfs_row *rows, struct thin_key *k, size_t n,
			    struct pfs_row *out)
{
	size_t m = 0;

	qsort(k, n, sizeof(*k), by_step_node);
	for (size_t i = 0, j; i < n; i = j) {
		struct pfs_row *r = &out[m++];
		uint64_t start = UINT64_MAX, end = 0, items = 0, bytes = 0;

		for (j = i; j < n && same_node_step(&k[i], &k[j]); j++) {
			const struct pfs_row *x = &rows[k[j].idx];

			start = x->start_us < start ? x->start_us : start;
			end = row_end(x) > end ? row_end(x) : end;
			items = items + x->items < items ? UINT64_MAX : items + x->items;
			bytes = bytes + x->bytes < bytes ? UINT64_MAX : bytes + x->bytes;
		}
		*r = rows[k[i].idx];
		r->worker = 0;
		r->rank = r->node_index;
		r->start_us = start;
		r->elapsed_us = end - start;
		r->items = items;
		r->bytes = bytes;
		k[m - 1].idx = k[i].idx; /* its first row, for the order below */
	}
	return m;
}

static int by_idx(const void *pa, const void *pb)
{
	const struct thin_key *a = pa, *b = pb;

	return (a->idx > b->idx) - (a->idx < b->idx);
}

int pfs_plot_thin(const struct pfs_row *rows, size_t nrows, struct pfs_row **out, size_t *nout,
		  struct pfs_plot_thin *t)
{
	struct thin_key *k = calloc(nrows ? nrows : 1, sizeof(*k));
	size_t *tests = NULL, *groups = NULL, n = 0;
	struct pfs_row *o = NULL, *agg = NULL;
	int rc = -ENOMEM;

	memset(t, 0, sizeof(*t));
	t->rows_in = nrows;
	*out = NULL;
	*nout = 0;
	if (!k || thin_number(rows, nrows, k, &tests, &t->tests, &groups, &t->groups))
		goto out;
	for (size_t i = 0; i < nrows; i++)
		if (pfs_size_rank(tests, t->tests, k[i].test) < PFS_PLOT_TESTS_MAX &&
		    pfs_size_rank(groups, t->groups, k[i].group) < PFS_PLOT_GROUPS_MAX) {
			k[n] = k[i];
			k[n].idx = i;
			k[n].iteration = rows[i].iteration;
			k[n].step = rows[i].step;
			k[n].node_index = rows[i].node_index;
			n++;
		}
	o = malloc((n ? n : 1) * sizeof(*o));
	if (!o)
		goto out;
	if (n <= PFS_PLOT_ROWS_MAX) {
		for (size_t i = 0; i < n; i++)
			o[i] = rows[k[i].idx];
	} else {
		t->per_node = true;
		n = thin_per_node(rows, k, n, o);
		/* report order: by each aggregate's first row */
		agg = malloc(n * sizeof(*agg));
		if (!agg)
			goto out;
		for (size_t i = 0; i < n; i++) {
			agg[i] = o[i];
			k[i].group = i; /* where its aggregate is */
		}
		qsort(k, n, sizeof(*k), by_idx);
		if (n > PFS_PLOT_ROWS_MAX) {
			t->rows_cut = n - PFS_PLOT_ROWS_MAX;
			n = PFS_PLOT_ROWS_MAX;
		}
		for (size_t i = 0; i < n; i++)
			o[i] = agg[k[i].group];
	}
	t->rows_out = n;
	*out = o;
	*nout = n;
	o = NULL;
	rc = 0;
out:
	free(k);
	free(tests);
	free(groups);
	free(o);
	free(agg);
	return rc;
}

/* ---- lanes ------------------------------------------------------------------ */

static int lane_cmp(const void *pa, const void *pb)
{
	const struct pfs_plot_lane *a = pa, *b = pb;

	if (a->node_index != b->node_index)
		return a->node_index < b->node_index ? -1 : 1;
	return a->worker < b->worker ? -1 : a->worker > b->worker;
}

int pfs_plot_lanes(const struct pfs_row *rows, size_t nrows, struct pfs_plot_lane **out,
		   size_t *nout)
{
	struct pfs_plot_lane *l = malloc((nrows ? nrows : 1) * sizeof(*l));
	size_t n = 0;

	*out = NULL;
	*nout = 0;
	if (!l)
		return -ENOMEM;
	for (size_t i = 0; i < nrows; i++) {
		l[i].node_index = rows[i].node_index;
		l[i].worker = rows[i].worker;
		pfs_row_set_text(l[i].node, sizeof(l[i].node), rows[i].node);
	}
	qsort(l, nrows, sizeof(*l), lane_cmp);
	for (size_t i = 0; i < nrows; i++)
		if (!n || lane_cmp(&l[n - 1], &l[i]))
			l[n++] = l[i];
	*out = l;
	*nout = n;
	return 0;
}

size_t pfs_plot_lane_of(const struct pfs_plot_lane *lanes, size_t nlanes, uint32_t node_index,
			uint32_t worker)
{
	struct pfs_plot_lane key = { .node_index = node_index, .worker = worker };
	const struct pfs_plot_lane *hit = bsearch(&key, lanes, nlanes, sizeof(*lanes), lane_cmp);

	return hit ? (size_t)(hit - lanes) : nlanes;
}

/* ---- a rank's rows in one step ----------------------------------------------- */

struct rs {
	size_t test;        /* index of the test's first row */
	uint32_t iteration, step, rank, node_index, worker;
	uint64_t start_us, end_us, amount;
	uint64_t busy_end_us; /* start + the sum of its rows' times: the latest the
			       * op can have ended (uc's rows time one kind each) */
	enum pfs_unit unit;
	size_t first;       /* its first row */
	char op[PFS_PLOT_OPS_MAX];
};

static int rs_cmp(const void *pa, const void *pb)
{
	const struct rs *a = pa, *b = pb;

	if (a->test != b->test)
		return a->test < b->test ? -1 : 1;
	if (a->iteration != b->iteration)
		return a->iteration < b->iteration ? -1 : 1;
	if (a->step != b->step)
		return a->step < b->step ? -1 : 1;
	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	return a->first < b->first ? -1 : a->first > b->first;
}

/* Appends "+op" unless op is already in the list. */
static void add_op(char *ops, size_t len, const char *op)
{
	size_t used = strlen(ops), n = strlen(op);

	for (const char *p = ops; *p;) {
		size_t k = strcspn(p, "+");

		if (k == n && !strncmp(p, op, n))
			return;
		p += k + (p[k] == '+');
	}
	if (used + (used > 0) + n + 1 > len)
		return; /* the list is long enough to say what ran */
	if (used)
		ops[used++] = '+';
	memcpy(ops + used, op, n + 1);
}

/* One entry per (test, iteration, step, rank) of the rows, sorted. A
 * rank's amount in a step is the largest of its rows' (uc's two rows count
 * the same items), its unit its first row's. */
static int rank_steps(const struct pfs_row *rows, size_t nrows, struct rs **out, size_t *nout)
{
	static const enum pfs_row_field by_test[] = { PFS_ROW_TEST, PFS_ROW_END };
	struct rs *e = malloc((nrows ? nrows : 1) * sizeof(*e));
	size_t *test = malloc((nrows ? nrows : 1) * sizeof(*test));
	size_t *firsts = malloc((nrows ? nrows : 1) * sizeof(*firsts));
	size_t n = 0, ntests = 0;

	*out = NULL;
	*nout = 0;
	/* The order of tests is the order of their first rows, so pictures
	 * follow the report. */
	if (!e || !test || !firsts ||
	    pfs_row_number(rows, nrows, by_test, NULL, test, firsts, &ntests)) {
		free(e);
		free(test);
		free(firsts);
		return -ENOMEM;
	}
	for (size_t i = 0; i < nrows; i++) {
		const struct pfs_row *r = &rows[i];

		e[i] = (struct rs){ .test = firsts[test[i]], .iteration = r->iteration,
				    .step = r->step, .rank = r->rank, .node_index = r->node_index,
				    .worker = r->worker, .start_us = r->start_us, .end_us = row_end(r),
				    .busy_end_us = row_end(r), .unit = pfs_row_unit(r), .first = i };
		e[i].amount = pfs_unit_amount(e[i].unit, r->items, r->bytes);
		pfs_row_set_text(e[i].op, sizeof(e[i].op), r->op);
	}
	free(test);
	free(firsts);
	qsort(e, nrows, sizeof(*e), rs_cmp);
	for (size_t i = 0; i < nrows; i++) {
		struct rs *last = n ? &e[n - 1] : NULL;

		if (last && last->test == e[i].test && last->iteration == e[i].iteration &&
		    last->step == e[i].step && last->rank == e[i].rank) {
			const struct pfs_row *r = &rows[e[i].first];
			uint64_t amount = pfs_unit_amount(last->unit, r->items, r->bytes);

			last->start_us = e[i].start_us < last->start_us ? e[i].start_us : last->start_us;
			last->end_us = e[i].end_us > last->end_us ? e[i].end_us : last->end_us;
			last->busy_end_us = last->busy_end_us + r->elapsed_us < last->busy_end_us
						    ? UINT64_MAX
						    : last->busy_end_us + r->elapsed_us;
			if (last->busy_end_us < last->end_us)
				last->busy_end_us = last->end_us;
			last->amount = amount > last->amount ? amount : last->amount;
			add_op(last->op, sizeof(last->op), r->op);
		} else {
			e[n++] = e[i];
		}
	}
	*out = e;
	*nout = n;
	return 0;
}

static bool same_step(const struct rs *a, const struct rs *b)
{
	return a->test == b->test && a->iteration == b->iteration && a->step == b->step;
}

/* ---- timeline --------------------------------------------------------------- */

int pfs_plot_timeline(const struct pfs_row *rows, size_t nrows, const struct pfs_plot_lane *lanes,
		      size_t nlanes, struct pfs_plot_bar **out, size_t *nout)
{
	struct pfs_plot_bar *bars;
	struct rs *e;
	size_t n;

	*out = NULL;
	*nout = 0;
	if (rank_steps(rows, nrows, &e, &n))
		return -ENOMEM;
	bars = calloc(n ? n : 1, sizeof(*bars));
	if (!bars) {
		free(e);
		return -ENOMEM;
	}
	for (size_t i = 0, j; i < n; i = j) {
		uint64_t step_end = 0;

		for (j = i; j < n && same_step(&e[i], &e[j]); j++)
			step_end = e[j].end_us > step_end ? e[j].end_us : step_end;
		for (size_t k = i; k < j; k++) {
			struct pfs_plot_bar *b = &bars[k];

			pfs_row_set_text(b->test, sizeof(b->test), rows[e[k].first].test);
			b->iteration = e[k].iteration;
			b->step = e[k].step;
			b->rank = e[k].rank;
			b->lane = pfs_plot_lane_of(lanes, nlanes, e[k].node_index, e[k].worker);
			memcpy(b->op, e[k].op, sizeof(b->op));
			b->start_us = e[k].start_us;
			b->end_us = e[k].end_us;
			b->step_end_us = step_end;
		}
	}
	free(e);
	*out = bars;
	*nout = n;
	return 0;
}

uint64_t pfs_plot_wait_us(const struct pfs_plot_bar *b)
{
	return b->step_end_us > b->end_us ? b->step_end_us - b->end_us : 0;
}

/* ---- rates per node and worker -------------------------------------------- */

int pfs_plot_rates(const struct pfs_row *rows, size_t nrows, const struct pfs_plot_lane *lanes,
		   size_t nlanes, const struct pfs_plot_flag *flags, size_t nflags,
		   struct pfs_plot_rate **out, size_t *nout)
{
	static const enum pfs_row_field by_test_op[] = { PFS_ROW_TEST, PFS_ROW_OP, PFS_ROW_END };
	size_t *group = malloc((nrows ? nrows : 1) * sizeof(*group));
	size_t *first = malloc((nrows ? nrows : 1) * sizeof(*first));
	double *amount = NULL, *us = NULL;
	bool *has = NULL;
	struct pfs_plot_rate *r = NULL;
	size_t ngroups, cells, n = 0;
	int rc = -ENOMEM;

	*out = NULL;
	*nout = 0;
	if (!group || !first || pfs_row_number(rows, nrows, by_test_op, NULL, group, first, &ngroups))
		goto out;
	cells = ngroups * (nlanes ? nlanes : 1);
	amount = calloc(cells ? cells : 1, sizeof(*amount));
	us = calloc(cells ? cells : 1, sizeof(*us));
	has = calloc(cells ? cells : 1, sizeof(*has));
	r = calloc(cells ? cells : 1, sizeof(*r));
	if (!amount || !us || !has || !r)
		goto out;
	for (size_t i = 0; i < nrows; i++) {
		size_t lane = pfs_plot_lane_of(lanes, nlanes, rows[i].node_index, rows[i].worker);
		size_t c = group[i] * nlanes + lane;

		if (lane == nlanes)
			continue;
		amount[c] += (double)pfs_unit_amount(pfs_row_unit(&rows[first[group[i]]]),
						     rows[i].items, rows[i].bytes);
		us[c] += (double)rows[i].elapsed_us;
		has[c] = true;
	}
	for (size_t g = 0; g < ngroups; g++)
		for (size_t l = 0; l < nlanes; l++) {
			size_t c = g * nlanes + l;
			const struct pfs_row *f = &rows[first[g]];
			enum pfs_unit u = pfs_row_unit(f);

			if (!has[c])
				continue; /* this lane did not run the op */
			pfs_row_set_text(r[n].test, sizeof(r[n].test), f->test);
			pfs_row_set_text(r[n].op, sizeof(r[n].op), f->op);
			r[n].unit = u;
			r[n].group = g;
			r[n].lane = l;
			/* A zero time counts as one microsecond (pfs_rate_per_s). */
			r[n].rate = pfs_rate_display(u, amount[c] * 1e6 / (us[c] > 1 ? us[c] : 1));
			for (size_t k = 0; k < nflags; k++) {
				if (strcmp(flags[k].test, f->test) || strcmp(flags[k].op, f->op))
					continue;
				if (flags[k].node_index == PFS_PLOT_ALL_NODES)
					r[n].withheld = flags[k].withheld;
				else if (flags[k].node_index == lanes[l].node_index)
					r[n].slow = flags[k].factor;
			}
			n++;
		}
	*out = r;
	*nout = n;
	r = NULL;
	rc = 0;
out:
	free(group);
	free(first);
	free(amount);
	free(us);
	free(has);
	free(r);
	return rc;
}

/* ---- rate over time ----------------------------------------------------------- */

uint64_t pfs_plot_bin_us(uint64_t span_us)
{
	uint64_t w = span_us / PFS_PLOT_BINS + (span_us % PFS_PLOT_BINS != 0);

	return w > PFS_PLOT_BIN_MIN_US ? w : PFS_PLOT_BIN_MIN_US;
}

static int tick_cmp(const void *pa, const void *pb)
{
	const struct pfs_tick *a = *(const struct pfs_tick *const *)pa;
	const struct pfs_tick *b = *(const struct pfs_tick *const *)pb;
	int c = strcmp(a->test, b->test);

	if (c)
		return c;
	if (a->iteration != b->iteration)
		return a->iteration < b->iteration ? -1 : 1;
	if (a->step != b->step)
		return a->step < b->step ? -1 : 1;
	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	return a->time_us < b->time_us ? -1 : a->time_us > b->time_us;
}

static bool same_tick(const struct pfs_tick *x, const char *test, const struct rs *s)
{
	return !strcmp(x->test, test) && x->iteration == s->iteration && x->step == s->step &&
	       x->rank == s->rank;
}

/* The first of the sorted ticks not before key. */
static size_t lower_bound(const struct pfs_tick *const *tk, size_t n, const struct pfs_tick *key)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t m = lo + (hi - lo) / 2;

		if (tick_cmp(&tk[m], &key) < 0)
			lo = m + 1;
		else
			hi = m;
	}
	return lo;
}

/* Spreads amount, done evenly over [t1, t2], into the node's bins. */
static void spread(const struct pfs_plot_progress *p, double *acc, uint64_t t1, uint64_t t2,
		   double amount)
{
	size_t b1 = (size_t)((t1 - p->t0_us) / p->bin_us), b2 = (size_t)((t2 - p->t0_us) / p->bin_us);

	b1 = b1 < p->nbins ? b1 : p->nbins - 1;
	b2 = b2 < p->nbins ? b2 : p->nbins - 1;
	if (amount <= 0)
		return;
	if (t2 <= t1 || b1 == b2) {
		acc[b1] += amount;
		return;
	}
	for (size_t b = b1; b <= b2; b++) {
		uint64_t lo = p->t0_us + b * p->bin_us, hi = lo + p->bin_us;

		lo = lo > t1 ? lo : t1;
		hi = hi < t2 ? hi : t2;
		if (hi > lo)
			acc[b] += amount * (double)(hi - lo) / (double)(t2 - t1);
	}
}

int pfs_plot_progress(const struct pfs_row *rows, size_t nrows, const struct pfs_tick *ticks,
		      size_t nticks, unsigned nnodes, enum pfs_unit unit,
		      struct pfs_plot_progress *out)
{
	const struct pfs_tick **tk = malloc((nticks ? nticks : 1) * sizeof(*tk));
	uint64_t t0 = UINT64_MAX, t1 = 0;
	bool *active = NULL;
	struct rs *e = NULL;
	size_t n = 0;
	bool any = false;
	int rc = -ENOMEM;

	memset(out, 0, sizeof(*out));
	out->unit = unit;
	out->nnodes = nnodes;
	if (!tk || rank_steps(rows, nrows, &e, &n))
		goto out;
	for (size_t i = 0; i < n; i++) {
		t0 = e[i].start_us < t0 ? e[i].start_us : t0;
		t1 = e[i].busy_end_us > t1 ? e[i].busy_end_us : t1;
		any |= e[i].unit == unit && e[i].node_index < nnodes;
	}
	rc = -ENOENT;
	if (!any)
		goto out;
	rc = -ENOMEM;
	out->t0_us = t0;
	out->bin_us = pfs_plot_bin_us(t1 - t0);
	out->nbins = (size_t)((t1 - t0) / out->bin_us) + 1;
	out->rate = calloc((size_t)nnodes * out->nbins, sizeof(*out->rate));
	active = calloc((size_t)nnodes * out->nbins, sizeof(*active));
	if (!out->rate || !active)
		goto out;
	for (size_t i = 0; i < nticks; i++)
		tk[i] = &ticks[i];
	qsort(tk, nticks, sizeof(*tk), tick_cmp);
	for (size_t i = 0; i < n; i++) {
		const struct rs *s = &e[i];
		const struct pfs_row *r = &rows[s->first];
		struct pfs_tick key = { .iteration = s->iteration, .step = s->step, .rank = s->rank };
		const struct pfs_tick *k = &key;
		double *acc = out->rate + (size_t)s->node_index * out->nbins;
		bool *act = active + (size_t)s->node_index * out->nbins;
		uint64_t t = s->start_us, c = 0, end = s->end_us;
		size_t lo;

		if (s->unit != unit || s->node_index >= nnodes)
			continue;
		/* This rank-step's ticks: the first one not before time 0. */
		pfs_row_set_text(key.test, sizeof(key.test), r->test);
		lo = lower_bound(tk, nticks, k);
		/* uc's rows time each kind of item alone, so the op can end after
		 * its rows say: its last tick is then the later end, up to the
		 * sum of its rows' times. */
		for (size_t j = lo; j < nticks && same_tick(tk[j], r->test, s); j++)
			end = tk[j]->time_us > end ? tk[j]->time_us : end;
		end = end < s->busy_end_us ? end : s->busy_end_us;
		/* The bins the op overlaps (a zero-length op: its start's). */
		for (size_t b = (size_t)((s->start_us - t0) / out->bin_us),
			    z = (size_t)(((end > s->start_us ? end - 1 : end) - t0) / out->bin_us);
		     b <= z && b < out->nbins; b++)
			act[b] = true;
		for (size_t j = lo; j < nticks && same_tick(tk[j], r->test, s); j++) {
			const struct pfs_tick *x = tk[j];
			uint64_t xt, xc;

			xt = x->time_us < t ? t : x->time_us > end ? end : x->time_us;
			xc = pfs_unit_amount(unit, x->items, x->bytes);
			xc = xc < c ? c : xc > s->amount ? s->amount : xc;
			spread(out, acc, t, xt, (double)(xc - c));
			t = xt;
			c = xc;
		}
		spread(out, acc, t, end, (double)(s->amount - c));
	}
	for (size_t i = 0; i < (size_t)nnodes * out->nbins; i++)
		out->rate[i] = active[i] ? pfs_rate_display(unit, out->rate[i] * 1e6 / (double)out->bin_us)
					 : NAN;
	rc = 0;
out:
	if (rc)
		pfs_plot_progress_free(out);
	free(active);
	free(tk);
	free(e);
	return rc;
}

void pfs_plot_progress_free(struct pfs_plot_progress *p)
{
	free(p->rate);
	p->rate = NULL;
	p->nbins = 0;
}

/* ---- latency CDF ------------------------------------------------------------- */

int pfs_plot_cdf(const struct pfs_hist *h, struct pfs_plot_cdf *out)
{
	size_t k = pfs_hist_cells(h, NULL, 0), n = 0;
	struct pfs_hist_cell *cells = malloc((k ? k : 1) * sizeof(*cells));
	uint64_t cum = 0;

	memset(out, 0, sizeof(*out));
	out->x_us = malloc((2 * k + 1) * sizeof(*out->x_us));
	out->y = malloc((2 * k + 1) * sizeof(*out->y));
	if (!cells || !out->x_us || !out->y) {
		free(cells);
		pfs_plot_cdf_free(out);
		return -ENOMEM;
	}
	pfs_hist_cells(h, cells, k);
	for (size_t i = 0; i < k && h->n; i++) {
		uint64_t lo, hi;

		pfs_hist_bucket_range(cells[i].bucket, &lo, &hi);
		lo = lo > h->min_ns ? lo : h->min_ns;
		hi = hi < h->max_ns ? hi : h->max_ns;
		hi = hi > lo ? hi : lo;
		/* Flat over the empty buckets before this one. */
		if (!n || (double)lo / 1000.0 > out->x_us[n - 1]) {
			out->x_us[n] = (double)lo / 1000.0;
			out->y[n++] = (double)cum / (double)h->n;
		}
		cum += cells[i].count;
		out->x_us[n] = (double)hi / 1000.0;
		out->y[n++] = (double)cum / (double)h->n;
	}
	out->n = n;
	free(cells);
	return 0;
}

void pfs_plot_cdf_free(struct pfs_plot_cdf *c)
{
	free(c->x_us);
	free(c->y);
	memset(c, 0, sizeof(*c));
}

/* ---- several runs ----------------------------------------------------------- */

bool pfs_plot_cmp_drawn(const struct pfs_plot_cmp_cell *cell)
{
	return cell->present && cell->rate > 0 && isfinite(cell->rate);
}

int pfs_plot_cmp_init(struct pfs_plot_cmp *c, size_t nlines, size_t nruns)
{
	memset(c, 0, sizeof(*c));
	c->lines = calloc(nlines ? nlines : 1, sizeof(*c->lines));
	c->cells = calloc(nlines * nruns + 1, sizeof(*c->cells));
	if (!c->lines || !c->cells) {
		pfs_plot_cmp_free(c);
		return -ENOMEM;
	}
	c->nlines = nlines;
	c->nruns = nruns;
	return 0;
}

void pfs_plot_cmp_free(struct pfs_plot_cmp *c)
{
	free(c->lines);
	free(c->cells);
	memset(c, 0, sizeof(*c));
}
