/* matrix_plan.c: pfsbench matrix as data (include/pfsbench/plans/matrix_plan.h):
 * size lists, the plan's steps, and a test iteration's rows reduced to
 * perf_matrix's matrix, with the outlier rule's verdicts. Every row may
 * come from a hostile file (compare reads any): each is checked against
 * the plan before it counts. */
#include "pfsbench/plans/matrix_plan.h"
#include "pfsbench/core/rowindex.h"
#include "pfsbench/core/util.h"
#include "pfsbench/plans/request.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- size lists ------------------------------------------------------------------ */

enum { ITEM_MAX = 48 };

/* One size of a list: 1 to max bytes. */
static int one_size(const char *text, uint64_t max, uint64_t *v, char *err, size_t errlen)
{
	int rc = pfs_parse_size(text, v);

	if (rc == -ERANGE || (!rc && *v > max))
		return pfs_refuse(err, errlen, -EINVAL, "%s is larger than %" PRIu64 " bytes", text,
				  max);
	if (rc || !*v)
		return pfs_refuse(err, errlen, -EINVAL, "'%s' is no size (4096, 64k, 1m, 1g)",
				  text);
	return 0;
}

static int add_size(uint64_t *sizes, unsigned *n, uint64_t v, const char *text, char *err,
		    size_t errlen)
{
	if (*n == PFS_MATRIXFMT_MAX)
		return pfs_refuse(err, errlen, -EINVAL, "more than %d sizes", PFS_MATRIXFMT_MAX);
	if (*n && v <= sizes[*n - 1])
		return pfs_refuse(err, errlen, -EINVAL,
				  "sizes must increase: %s comes after %" PRIu64 " bytes", text,
				  sizes[*n - 1]);
	sizes[(*n)++] = v;
	return 0;
}

int pfs_matrix_sizes_parse(const char *list, uint64_t max, uint64_t *sizes, unsigned *n, char *err,
			   size_t errlen)
{
	const char *p = list;

	*n = 0;
	if (!*list)
		return pfs_refuse(err, errlen, -EINVAL, "no sizes");
	for (;;) {
		size_t len = strcspn(p, ",");
		char item[ITEM_MAX], *dots;
		uint64_t a, b;

		if (!len)
			return pfs_refuse(err, errlen, -EINVAL, "an empty item in '%s'", list);
		if (len >= sizeof(item))
			return pfs_refuse(err, errlen, -EINVAL, "'%.20s...' is no size", p);
		memcpy(item, p, len);
		item[len] = 0;
		dots = strstr(item, "..");
		if (!dots) {
			if (one_size(item, max, &a, err, errlen) ||
			    add_size(sizes, n, a, item, err, errlen))
				return -EINVAL;
		} else {
			*dots = 0;
			if (one_size(item, max, &a, err, errlen) ||
			    one_size(dots + 2, max, &b, err, errlen))
				return -EINVAL;
			if (b < a)
				return pfs_refuse(err, errlen, -EINVAL, "'%s..%s' runs backwards",
						  item, dots + 2);
			/* A, 2A, 4A, ... up to B, which must be one of them: the
			 * sizes below max never overflow when doubled. */
			for (uint64_t v = a; v <= b; v *= 2) {
				if (add_size(sizes, n, v, item, err, errlen))
					return -EINVAL;
				if (v < b && v * 2 > b)
					return pfs_refuse(
						err, errlen, -EINVAL,
						"'%s..%s': %s is not %s times a power of two", item,
						dots + 2, dots + 2, item);
			}
		}
		p += len;
		if (!*p)
			return 0;
		if (!*++p)
			return pfs_refuse(err, errlen, -EINVAL, "'%s' ends with a comma", list);
	}
}

/* ---- the plan ---------------------------------------------------------------------- */

int pfs_matrix_plan_init(struct pfs_matrix_plan *p, const struct pfs_matrix_opts *o, char *err,
			 size_t errlen)
{
	char why[160];

	memset(p, 0, sizeof(*p));
	if (pfs_matrix_sizes_parse(o->req, PFS_SEQIO_REQ_MAX, p->sizes.req_bytes, &p->sizes.cols,
				   why, sizeof(why)))
		return pfs_refuse(err, errlen, -EINVAL, "--req: %s", why);
	if (pfs_matrix_sizes_parse(o->xfer, PFS_MATRIX_XFER_MAX, p->sizes.xfer_bytes,
				   &p->sizes.rows, why, sizeof(why)))
		return pfs_refuse(err, errlen, -EINVAL, "--xfer: %s", why);
	if (!o->iter || o->iter > PFS_MATRIX_ITER_MAX)
		return pfs_refuse(err, errlen, -EINVAL, "-i/--iter must be 1 to %u",
				  PFS_MATRIX_ITER_MAX);
	p->reps = (unsigned)o->iter;
	for (unsigned r = 0; r < p->sizes.rows; r++)
		for (unsigned c = 0; c < p->sizes.cols; c++)
			if (p->sizes.req_bytes[c] <= p->sizes.xfer_bytes[r]) {
				p->cell_row[p->ncells] = (unsigned char)r;
				p->cell_col[p->ncells++] = (unsigned char)c;
			}
	if (!p->ncells)
		return pfs_refuse(err, errlen, -EINVAL,
				  "no cell to run: every request size (--req) is larger than "
				  "every transfer size (--xfer)");
	p->span = p->sizes.xfer_bytes[p->sizes.rows - 1];
	p->req_max = p->sizes.req_bytes[p->sizes.cols - 1];
	return 0;
}

size_t pfs_matrix_plan_steps(const struct pfs_matrix_plan *p)
{
	return PFS_MATRIX_FIRST_CELL_STEP + (size_t)p->ncells * p->reps;
}

bool pfs_matrix_plan_cell(const struct pfs_matrix_plan *p, uint64_t step, unsigned *row,
			  unsigned *col, unsigned *rep)
{
	uint64_t k;

	if (step < PFS_MATRIX_FIRST_CELL_STEP || step >= pfs_matrix_plan_steps(p))
		return false;
	k = step - PFS_MATRIX_FIRST_CELL_STEP;
	*rep = (unsigned)(k / p->ncells);
	*row = p->cell_row[k % p->ncells];
	*col = p->cell_col[k % p->ncells];
	return true;
}

/* ---- rows to the matrix ---------------------------------------------------------------- */

/* A row's place, in the order of step, node and rank (by_place). */
struct place {
	uint32_t step, node, rank;
	size_t row;
};

static const enum pfs_row_field by_place[] = { PFS_ROW_STEP, PFS_ROW_NODE, PFS_ROW_RANK,
					       PFS_ROW_END };

/* What a step's rows say, once checked. */
struct step_stat {
	size_t first, count; /* its rows in the sorted places */
	bool discarded;      /* one of its rows is marked */
	double mibps;        /* all ranks' bytes over their span */
};

struct measured {
	struct place *places;
	struct step_stat *steps; /* by step */
	size_t nsteps;
};

static void measured_free(struct measured *m)
{
	free(m->places);
	free(m->steps);
}

/* A fixed-size text field of a row, which a hostile file need not end. */
#define TEXT(field) (int)strnlen((field), sizeof(field)), (field)

/* Checks one row against the plan. */
static int check_row(const struct pfs_matrix_plan *p, const char *op, const struct pfs_row *r,
		     size_t i, const struct pfs_row *first, unsigned nranks, unsigned nnodes,
		     char *err, size_t errlen)
{
	unsigned row, col, rep;
	uint64_t xfer, req;

	if (strnlen(r->op, sizeof(r->op)) != strlen(op) || strncmp(r->op, op, sizeof(r->op)))
		return pfs_refuse(err, errlen, -EINVAL, "row %zu: op '%.*s', not %s", i + 1,
				  TEXT(r->op), op);
	if (strncmp(r->unit, "bytes", sizeof(r->unit)))
		return pfs_refuse(err, errlen, -EINVAL, "row %zu: unit '%.*s', not bytes", i + 1,
				  TEXT(r->unit));
	if (r->iteration != first->iteration)
		return pfs_refuse(err, errlen, -EINVAL,
				  "row %zu: iteration %" PRIu32 " after %" PRIu32
				  ": one matrix is one iteration",
				  i + 1, r->iteration, first->iteration);
	if (!pfs_matrix_plan_cell(p, r->step, &row, &col, &rep))
		return pfs_refuse(err, errlen, -EINVAL,
				  "row %zu: step %" PRIu32 " is no cell of the plan's %zu steps",
				  i + 1, r->step, pfs_matrix_plan_steps(p));
	if (r->rank >= nranks || r->node_index >= nnodes)
		return pfs_refuse(err, errlen, -EINVAL,
				  "row %zu: rank %" PRIu32 " on node %" PRIu32 " is not in the "
				  "run (%u rank%s, %u node%s)",
				  i + 1, r->rank, r->node_index, nranks, nranks == 1 ? "" : "s",
				  nnodes, nnodes == 1 ? "" : "s");
	xfer = p->sizes.xfer_bytes[row];
	req = p->sizes.req_bytes[col];
	/* Every cell moves exactly its bytes: a stream is whole or failed,
	 * in ceil(transfer / request) requests (pfs_seqio_requests; not
	 * called, so that this pure module links without the engine). */
	if (r->bytes != xfer || r->items != xfer / req + (xfer % req != 0))
		return pfs_refuse(err, errlen, -EINVAL,
				  "row %zu: %" PRIu64 " bytes in %" PRIu64 " requests, but its "
				  "cell moves %" PRIu64 " bytes in requests of %" PRIu64,
				  i + 1, r->bytes, r->items, xfer, req);
	return 0;
}

/* Checks every row, sorts them by step, node and rank, and measures each
 * step. */
static int measure(const struct pfs_matrix_plan *p, const char *op, const struct pfs_row *rows,
		   size_t n, unsigned nranks, unsigned nnodes, struct measured *m, char *err,
		   size_t errlen)
{
	size_t *order;
	int rc;

	memset(m, 0, sizeof(*m));
	m->nsteps = pfs_matrix_plan_steps(p);
	m->places = malloc((n ? n : 1) * sizeof(*m->places));
	m->steps = calloc(m->nsteps, sizeof(*m->steps));
	order = malloc((n ? n : 1) * sizeof(*order));
	if (!m->places || !m->steps || !order) {
		free(order);
		measured_free(m);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		rc = check_row(p, op, &rows[i], i, &rows[0], nranks, nnodes, err, errlen);
		if (rc) {
			free(order);
			measured_free(m);
			return rc;
		}
		order[i] = i;
	}
	pfs_row_sort(rows, order, n, by_place);
	for (size_t i = 0; i < n; i++) {
		const struct pfs_row *r = &rows[order[i]];

		m->places[i] = (struct place){ r->step, r->node_index, r->rank, order[i] };
	}
	free(order);
	for (size_t i = 0; i < n;) {
		struct step_stat *st = &m->steps[m->places[i].step];
		struct pfs_span span;

		pfs_span_init(&span);
		st->first = i;
		for (; i < n && m->places[i].step == m->places[st->first].step; i++) {
			const struct pfs_row *r = &rows[m->places[i].row];

			if (i > st->first && m->places[i].rank == m->places[i - 1].rank) {
				measured_free(m);
				return pfs_refuse(err, errlen, -EINVAL,
						  "rank %" PRIu32 " has two rows in step %" PRIu32,
						  r->rank, r->step);
			}
			pfs_span_add(&span, r);
			st->discarded |= r->discarded != 0;
		}
		st->count = i - st->first;
		/* rate = bytes of all ranks / (latest end - earliest start) */
		st->mibps = pfs_rate_display(PFS_UNIT_BYTES, pfs_span_rate(&span, PFS_UNIT_BYTES));
	}
	return 0;
}

static uint64_t step_of(const struct pfs_matrix_plan *p, unsigned cell, unsigned rep)
{
	return PFS_MATRIX_FIRST_CELL_STEP + (uint64_t)rep * p->ncells + cell;
}

int pfs_matrix_judge(const struct pfs_matrix_plan *p, const char *op, struct pfs_row *rows,
		     size_t n, unsigned nranks, unsigned nnodes, char *err, size_t errlen)
{
	struct measured m;
	double *rates = malloc(p->reps * sizeof(*rates));
	bool *kept = malloc(p->reps * sizeof(*kept)), *keep_step = NULL;
	int rc = -ENOMEM;

	if (!rates || !kept)
		goto out;
	rc = measure(p, op, rows, n, nranks, nnodes, &m, err, errlen);
	if (rc)
		goto out;
	keep_step = calloc(m.nsteps, sizeof(*keep_step));
	if (!keep_step) {
		rc = -ENOMEM;
		measured_free(&m);
		goto out;
	}
	for (unsigned cell = 0; cell < p->ncells; cell++) {
		struct pfs_matrixfmt_runs runs;
		size_t nmeasured = 0, k = 0;

		for (unsigned rep = 0; rep < p->reps; rep++) {
			const struct step_stat *st = &m.steps[step_of(p, cell, rep)];

			if (st->count == nranks)
				rates[nmeasured++] = st->mibps;
		}
		if (!nmeasured || pfs_matrixfmt_average_runs(rates, nmeasured, kept, &runs))
			continue; /* nothing measured: every row it has is discarded */
		for (unsigned rep = 0; rep < p->reps; rep++) {
			uint64_t s = step_of(p, cell, rep);

			if (m.steps[s].count == nranks)
				keep_step[s] = kept[k++];
		}
	}
	for (size_t i = 0; i < n; i++)
		rows[i].discarded = !keep_step[rows[i].step];
	measured_free(&m);
out:
	free(rates);
	free(kept);
	free(keep_step);
	return rc;
}

/* The node rates of one cell's kept repetitions (sum and count per node in
 * node_sum, node_n), and the slowest node against the median one. */
static void node_ratio(const struct pfs_matrix_plan *p, const struct measured *m,
		       const struct pfs_row *rows, unsigned cell, unsigned nranks, unsigned nnodes,
		       double *node_sum, unsigned *node_n, double *sorted,
		       struct pfs_matrix_cell *c)
{
	unsigned used = 0, slow = 0;
	double median;

	memset(node_sum, 0, nnodes * sizeof(*node_sum));
	memset(node_n, 0, nnodes * sizeof(*node_n));
	for (unsigned rep = 0; rep < p->reps; rep++) {
		const struct step_stat *st = &m->steps[step_of(p, cell, rep)];

		if (st->count != nranks || st->discarded)
			continue;
		for (size_t i = st->first; i < st->first + st->count;) {
			uint32_t node = m->places[i].node;
			struct pfs_span span;

			pfs_span_init(&span);
			for (; i < st->first + st->count && m->places[i].node == node; i++)
				pfs_span_add(&span, &rows[m->places[i].row]);
			node_sum[node] += pfs_rate_display(PFS_UNIT_BYTES,
							   pfs_span_rate(&span, PFS_UNIT_BYTES));
			node_n[node]++;
		}
	}
	c->slow_ratio = -1;
	for (unsigned nd = 0; nd < nnodes; nd++) {
		if (!node_n[nd])
			continue;
		node_sum[nd] /= node_n[nd];
		if (!used || node_sum[nd] < node_sum[slow])
			slow = nd;
		sorted[used++] = node_sum[nd];
	}
	if (used < 2)
		return;
	median = pfs_median(sorted, used);
	c->slow_node = slow;
	c->slow_ratio = median > 0 ? node_sum[slow] / median : -1;
}

int pfs_matrix_reduce(const struct pfs_matrix_plan *p, const char *op, const struct pfs_row *rows,
		      size_t n, unsigned nranks, unsigned nnodes, struct pfs_matrix_result *out,
		      char *err, size_t errlen)
{
	double *node_sum = calloc(nnodes ? nnodes : 1, sizeof(double));
	double *sorted = calloc(nnodes ? nnodes : 1, sizeof(double));
	unsigned *node_n = calloc(nnodes ? nnodes : 1, sizeof(unsigned));
	struct measured m;
	int rc = -ENOMEM;

	memset(out, 0, sizeof(*out));
	out->m = p->sizes;
	out->nnodes = nnodes;
	out->cells_run = p->ncells;
	if (!node_sum || !sorted || !node_n)
		goto out;
	rc = measure(p, op, rows, n, nranks, nnodes, &m, err, errlen);
	if (rc)
		goto out;
	for (unsigned cell = 0; cell < p->ncells; cell++) {
		unsigned r = p->cell_row[cell], c = p->cell_col[cell];
		struct pfs_matrix_cell *pc = &out->cell[r][c];
		double kept_sum = 0, logs = 0, squares = 0, mean;

		for (unsigned rep = 0; rep < p->reps; rep++) {
			const struct step_stat *st = &m.steps[step_of(p, cell, rep)];

			if (st->count != nranks)
				continue;
			pc->reps++;
			logs += log(st->mibps); /* > 0: bytes over at least 1 us */
			if (!st->discarded) {
				pc->kept++;
				kept_sum += st->mibps;
			}
		}
		/* value = mean of the kept repetitions, what perf_matrix printed */
		out->m.mibps[r][c] = pc->kept ? kept_sum / pc->kept : 0;
		out->reps_measured += pc->reps;
		out->reps_discarded += pc->reps - pc->kept;
		out->cells_missing += !pc->reps;
		/* noise = sample standard deviation of the logs, all measured */
		mean = pc->reps ? logs / pc->reps : 0;
		for (unsigned rep = 0; rep < p->reps && pc->reps > 1; rep++) {
			const struct step_stat *st = &m.steps[step_of(p, cell, rep)];

			if (st->count == nranks)
				squares += (log(st->mibps) - mean) * (log(st->mibps) - mean);
		}
		pc->noise = pc->reps > 1 ? sqrt(squares / (pc->reps - 1)) : -1;
		node_ratio(p, &m, rows, cell, nranks, nnodes, node_sum, node_n, sorted, pc);
	}
	measured_free(&m);
out:
	free(node_sum);
	free(sorted);
	free(node_n);
	return rc;
}
