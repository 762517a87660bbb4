/* stream.c: the report of `pfsbench stream`. For each iteration, in the
 * format --format chooses (src/formats/ddfmt.c writes each tool's line
 * exactly):
 *   dm (with -p only, as dm):  one line per rank, "NODE WORKER: " before
 *                              dm's "%.2f MB/sec (%llu B / %02ld:%02ld.%06ld)",
 *                              then the same line for all ranks together;
 *   dd:                        dd's records lines and bytes-copied line, the
 *                              same way;
 *   lmdd:                      lmdd's "%.4f MB in %.4f secs, %.4f MB/sec".
 * With one rank only the line for all ranks is printed, so the output is
 * the tool's own. At the end the per-node table, create-unlink's columns
 * with requests, bytes and MiB/s, where a slow client stands out; then the
 * table's notes and "Done." or "Aborted.".
 *
 * All ranks together: bytes of all ranks / (latest end - earliest start),
 * the span of the iteration's rows (pfs_span). dm's progress marks are the
 * workload's (rank 0 prints them as it goes), so `pfsbench show` prints the
 * report without them. */
#include "config.h"

#include "pfsbench/core/histogram.h"
#include "pfsbench/core/oddone.h"
#include "pfsbench/core/rowindex.h"
#include "pfsbench/core/util.h"
#include "pfsbench/formats/ddfmt.h"
#include "pfsbench/formats/fioterse.h"
#include "pfsbench/formats/hdparmfmt.h"
#include "pfsbench/outputs/output.h"
#include "pfsbench/plans/stream_opts.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A row's latency percentiles (--pattern random's table), from its
 * histogram's cells in the block. */
struct row_lat {
	uint64_t p50_ns, p99_ns;
};

/* The rows of every iteration, for the table at the end, and their
 * latencies. */
struct stream_report {
	struct pfs_row *rows;
	struct row_lat *lat;
	size_t n, cap;
};

/* A block's cells by row (a counting sort): row r's are cell[start[r]]
 * to cell[start[r + 1] - 1], and one histogram (h, empty between rows)
 * to add them in. Each row's histogram then costs its own cells, not a
 * look at all the block's and 36 KB cleared: rows x cells made `show` of
 * a long random run's file take hours (1e6 rows, 7e7 cells). */
struct row_cells {
	size_t *start; /* nrows + 2 */
	size_t *cell;  /* nlat */
	struct pfs_hist *h;
};

static void row_cells_free(struct row_cells *x)
{
	free(x->start);
	free(x->cell);
	free(x->h);
}

static int row_cells_index(const struct pfs_block *b, struct row_cells *x)
{
	x->start = calloc(b->nrows + 2, sizeof(*x->start));
	x->cell = malloc((b->nlat ? b->nlat : 1) * sizeof(*x->cell));
	x->h = malloc(sizeof(*x->h));
	if (!x->start || !x->cell || !x->h) {
		row_cells_free(x);
		return -ENOMEM;
	}
	pfs_hist_init(x->h);
	for (size_t c = 0; c < b->nlat; c++)
		if (b->lat[c].row < b->nrows)
			x->start[b->lat[c].row + 2]++;
	for (size_t r = 0; r < b->nrows; r++)
		x->start[r + 2] += x->start[r + 1];
	for (size_t c = 0; c < b->nlat; c++)
		if (b->lat[c].row < b->nrows)
			x->cell[x->start[b->lat[c].row + 1]++] = c;
	return 0;
}

/* Row r's latency histogram in x->h, from its cells and the row's exact
 * min and max (include/pfsbench/core/histogram.h); row_done empties it. */
static const struct pfs_hist *row_hist(const struct pfs_block *b, struct row_cells *x, size_t r)
{
	struct pfs_hist *h = x->h;

	for (size_t k = x->start[r]; k < x->start[r + 1]; k++) {
		const struct pfs_lat_cell *c = &b->lat[x->cell[k]];

		if (c->bucket < PFS_HIST_BUCKETS) {
			h->counts[c->bucket] += c->count;
			h->n += c->count;
		}
	}
	if (h->n) {
		h->min_ns = b->rows[r].lat_min_ns;
		h->max_ns = b->rows[r].lat_max_ns;
	}
	return h;
}

static void row_done(const struct pfs_block *b, struct row_cells *x, size_t r)
{
	for (size_t k = x->start[r]; k < x->start[r + 1]; k++)
		if (b->lat[x->cell[k]].bucket < PFS_HIST_BUCKETS)
			x->h->counts[b->lat[x->cell[k]].bucket] = 0;
	x->h->n = x->h->max_ns = 0;
	x->h->min_ns = UINT64_MAX;
}

/* Each row's p50 and p99 of its requests' latency (0 without any). */
static int row_lats(const struct pfs_block *b, struct row_lat *out)
{
	struct row_cells x;

	if (row_cells_index(b, &x))
		return -ENOMEM;
	for (size_t r = 0; r < b->nrows; r++) {
		const struct pfs_hist *h = row_hist(b, &x, r);

		out[r].p50_ns = h->n ? pfs_hist_percentile(h, 50) : 0;
		out[r].p99_ns = h->n ? pfs_hist_percentile(h, 99) : 0;
		row_done(b, &x, r);
	}
	row_cells_free(&x);
	return 0;
}

static int keep_rows(struct pfs_output *o, const struct pfs_block *b, bool random)
{
	struct stream_report *sr = o->priv;

	if (!sr) {
		sr = o->priv = calloc(1, sizeof(*sr));
		if (!sr)
			return -ENOMEM;
	}
	/* A step that failed before its first row: no rows yet means no
	 * array yet either, and memcpy must not be given NULL. */
	if (!b->nrows)
		return 0;
	if (sr->n + b->nrows > sr->cap) {
		size_t cap = sr->cap ? sr->cap : 16;
		struct pfs_row *nr;

		while (cap < sr->n + b->nrows)
			cap *= 2;
		struct row_lat *nl;

		nr = realloc(sr->rows, cap * sizeof(*nr));
		if (!nr)
			return -ENOMEM;
		sr->rows = nr;
		nl = realloc(sr->lat, cap * sizeof(*nl));
		if (!nl)
			return -ENOMEM;
		sr->lat = nl;
		sr->cap = cap;
	}
	memcpy(sr->rows + sr->n, b->rows, b->nrows * sizeof(*b->rows));
	if (random && row_lats(b, sr->lat + sr->n))
		return -ENOMEM;
	sr->n += b->nrows;
	return 0;
}

/* Each line of text, with prefix before it. */
static void print_lines(FILE *fp, const char *prefix, const char *text)
{
	while (*text) {
		size_t len = strcspn(text, "\n");

		fprintf(fp, "%s%.*s\n", prefix, (int)len, text);
		text += len + (text[len] == '\n');
	}
}

/* What one summary says: bytes over a time, in requests of which some
 * were short. */
struct summary {
	uint64_t bytes, elapsed_us, full, partial;
};

/* A request is whole but the last (src/workloads/seqio.c completes short
 * transfers), so of a row's requests, bytes / -b are whole. */
static void summary_add(struct summary *s, const struct pfs_row *r, uint64_t block)
{
	uint64_t full = block ? r->bytes / block : 0;

	s->bytes += r->bytes;
	s->full += full;
	s->partial += r->items > full ? r->items - full : 0;
}

static int print_summary(FILE *fp, const char *prefix, const struct summary *s, unsigned format)
{
	char text[2 * PFS_DDFMT_MAX];
	struct pfs_ddfmt_records rec = { s->full, s->partial, s->full, s->partial, 0 };
	size_t used;
	int rc;

	switch ((enum pfs_stream_format)format) {
	case PFS_STREAM_FMT_DD:
		rc = pfs_ddfmt_format_dd_records(text, sizeof(text), &rec);
		used = strlen(text);
		if (!rc)
			rc = pfs_ddfmt_format_dd_copied(text + used, sizeof(text) - used, s->bytes,
							pfs_mul_sat_u64(s->elapsed_us, 1000));
		break;
	case PFS_STREAM_FMT_LMDD:
		rc = pfs_ddfmt_format_lmdd(text, sizeof(text), s->bytes, s->elapsed_us);
		break;
	default:
		rc = pfs_ddfmt_format_dm(text, sizeof(text), s->bytes, s->elapsed_us);
		break;
	}
	if (rc)
		return rc;
	print_lines(fp, prefix, text);
	return 0;
}

/* --format fio: a terse line per rank (a fio job each), named NODE.WORKER,
 * none for all ranks (fio without group_reporting prints none). */
static int print_fio(struct pfs_output *out, const struct pfs_stream_opts *o,
		     const struct pfs_block *b, size_t from, size_t to)
{
	struct row_cells x;
	char line[PFS_FIOTERSE_MAX], job[PFS_PRINTABLE_SIZE(PFS_NODE_NAME_MAX) + 16];
	char node[PFS_PRINTABLE_SIZE(PFS_NODE_NAME_MAX)];
	int rc = 0;

	if (row_cells_index(b, &x))
		return -1;
	for (size_t i = from; !rc && i < to; i++) {
		const struct pfs_row *r = &b->rows[i];
		struct pfs_fioterse t = { .version = "pfsbench-" PACKAGE_VERSION, .jobname = job,
					  .write = !strcmp(r->op, PFS_STREAM_OP_WRITE),
					  .bytes = r->bytes, .ios = r->items,
					  .elapsed_us = r->elapsed_us, .cpu_us = r->cpu_us,
					  .depth = o->access == PFS_STREAM_RANDOM ? o->iodepth : 1,
					  .lat = row_hist(b, &x, i) };

		pfs_printable(node, sizeof(node), r->node);
		/* a ';' would split the job name into two fields */
		for (char *c = node; *c; c++)
			*c = *c == ';' ? '_' : *c;
		snprintf(job, sizeof(job), "%s.%" PRIu32, node, r->worker);
		rc = pfs_output_row(out) ? pfs_fioterse_format(line, sizeof(line), &t) : 1;
		row_done(b, &x, i);
		if (!rc)
			fputs(line, out->fp);
		rc = rc < 0 ? -1 : 0;
	}
	row_cells_free(&x);
	return rc;
}

/* One iteration's lines: each rank's, then all ranks' together. */
static int print_iteration(struct pfs_output *out, const struct pfs_run_info *ri,
			   const struct pfs_stream_opts *o, const struct pfs_row *rows, size_t n)
{
	FILE *fp = out->fp;
	struct summary all = { 0, 0, 0, 0 };
	struct pfs_span span;
	char prefix[PFS_PRINTABLE_SIZE(PFS_NODE_NAME_MAX) + 32];
	char node[PFS_PRINTABLE_SIZE(PFS_NODE_NAME_MAX)];

	if (o->format == PFS_STREAM_FMT_DM && !o->performance)
		return 0;
	pfs_span_init(&span);
	for (size_t i = 0; i < n; i++) {
		struct summary one = { 0, rows[i].elapsed_us, 0, 0 };

		summary_add(&one, &rows[i], o->block);
		summary_add(&all, &rows[i], o->block);
		pfs_span_add(&span, &rows[i]);
		snprintf(prefix, sizeof(prefix), "%s %" PRIu32 ": ",
			 pfs_printable(node, sizeof(node), rows[i].node), rows[i].worker);
		if (ri->nranks > 1 && pfs_output_row(out) && print_summary(fp, prefix, &one, o->format))
			return -1;
	}
	all.elapsed_us = pfs_span_us(&span);
	return print_summary(fp, "", &all, o->format);
}

/* ---- --format hdparm ---------------------------------------------------------- */

/* A row of --format hdparm's, in the order the report needs. */
struct hdparm_ent {
	const struct pfs_row *row;
	double val; /* the log of its rate */
	double dev, mad;
};

/* By iteration, then node, then step (the plan's: Cached before
 * Buffered); and by node, then iteration. The keys of the one row index
 * (core/rowindex.h), so these rows compare as every reader's do. */
static const enum pfs_row_field by_it_node[] = { PFS_ROW_ITERATION, PFS_ROW_NODE, PFS_ROW_STEP,
						 PFS_ROW_END };
static const enum pfs_row_field by_node_it[] = { PFS_ROW_NODE, PFS_ROW_ITERATION, PFS_ROW_END };

static int cmp_it_node(const void *a, const void *b)
{
	return pfs_row_cmp(((const struct hdparm_ent *)a)->row, ((const struct hdparm_ent *)b)->row,
			   by_it_node);
}

static int cmp_node_it(const void *a, const void *b)
{
	return pfs_row_cmp(((const struct hdparm_ent *)a)->row, ((const struct hdparm_ent *)b)->row,
			   by_node_it);
}

/* Each node's pair as hdparm -Tt prints it for one device, "NODE:DEVICE:"
 * where hdparm says "DEVICE:", per iteration, in node order. A row of no
 * time (a damaged file's: hdparm reads at least once) has no rate and no
 * line. e holds the rows of both ops. */
static int hdparm_pairs(FILE *fp, const struct pfs_stream_opts *o, struct hdparm_ent *e, size_t n)
{
	char node[PFS_PRINTABLE_SIZE(PFS_NODE_NAME_MAX)], dev[PFS_PRINTABLE_SIZE(PATH_MAX)];
	char line[PFS_HDPARMFMT_MAX];

	pfs_printable(dev, sizeof(dev), o->input);
	pfs_sort(e, n, sizeof(*e), cmp_it_node);
	for (size_t i = 0; i < n; i++) {
		const struct pfs_row *r = e[i].row;
		int rc;

		if (!i || r->iteration != e[i - 1].row->iteration ||
		    r->node_index != e[i - 1].row->node_index)
			fprintf(fp, "\n%s:%s:\n", pfs_printable(node, sizeof(node), r->node), dev);
		rc = pfs_hdparmfmt_format(line, sizeof(line),
					  strcmp(r->op, PFS_STREAM_OP_CACHED) ? PFS_HDPARM_BUFFERED
									       : PFS_HDPARM_CACHED,
					  r->bytes, r->elapsed_us);
		if (rc && rc != -EINVAL)
			return -1;
		if (!rc)
			fputs(line, fp);
	}
	return 0;
}

/* The odd node out of one op, whose n rows (with a rate) e holds
 * (docs/methodology.md, "hdparm's baseline"): slownode's rule for one
 * (test, op), core/oddone.h: in each iteration a node's log rate against
 * the other nodes' median, their spread there (core/oddone.h); slow when below by
 * more than max(k x its median spread, log 1.10) in every iteration, by
 * exp(-its median deviation). */
static int hdparm_odd(FILE *fp, struct hdparm_ent *e, size_t n, const char *what)
{
	double *one = calloc(n + 1, sizeof(double)), *two = calloc(n + 1, sizeof(double));
	char name[PFS_PRINTABLE_SIZE(PFS_NODE_NAME_MAX)];
	size_t named = 0;
	int rc = -1;

	if (!one || !two)
		goto out;
	if (!n) {
		fprintf(fp, "%s: no odd node out: no node timed it\n", what);
		rc = 0;
		goto out;
	}
	/* each value against the others of its iteration */
	pfs_sort(e, n, sizeof(*e), cmp_it_node);
	for (size_t a = 0, b; a < n; a = b) {
		for (b = a + 1; b < n && e[b].row->iteration == e[a].row->iteration; b++)
			;
		if (b - a < PFS_SLOW_MIN_NODES) {
			fprintf(fp, "%s: no odd node out: %zu node%s, and it takes %u to say which "
				    "one is odd\n", what, b - a, b - a == 1 ? "" : "s", PFS_SLOW_MIN_NODES);
			rc = 0;
			goto out;
		}
		for (size_t i = a; i < b; i++)
			one[i - a] = e[i].val;
		for (size_t i = a; i < b; i++) {
			pfs_oddone_others(one, b - a, i - a, two, &e[i].dev, &e[i].mad);
			e[i].dev = e[i].val - e[i].dev;
		}
	}
	/* each node over its iterations */
	pfs_sort(e, n, sizeof(*e), cmp_node_it);
	for (size_t a = 0, b; a < n; a = b) {
		double worst = -INFINITY;

		for (b = a; b < n && e[b].row->node_index == e[a].row->node_index; b++) {
			one[b - a] = e[b].dev;
			two[b - a] = e[b].mad;
			worst = e[b].dev > worst ? e[b].dev : worst;
		}
		if (!pfs_oddone_slow(worst, pfs_median(two, b - a)))
			continue;
		fprintf(fp, "%s: odd node out: %s, %.2fx slower than the median of the others\n",
			what, pfs_printable(name, sizeof(name), e[a].row->node),
			exp(-pfs_median(one, b - a)));
		named++;
	}
	if (!named)
		fprintf(fp, "%s: no odd node out: every node within max(%.0f spreads, %.0f %%) of "
			    "the others' median\n", what, PFS_SLOW_K, PFS_SLOW_FLOOR * 100);
	rc = 0;
out:
	free(one);
	free(two);
	return rc;
}

/* The rows of op with a rate (all with op NULL) into e; their count. */
static size_t hdparm_pick(struct hdparm_ent *e, const struct pfs_row *rows, size_t n,
			  const char *op)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (!op || (!strcmp(rows[i].op, op) && rows[i].bytes && rows[i].elapsed_us)) {
			e[k].row = &rows[i];
			e[k++].val = op ? log(pfs_rate_per_s(rows[i].bytes, rows[i].elapsed_us)) : 0;
		}
	return k;
}

static int print_hdparm(FILE *fp, const struct pfs_stream_opts *o, const struct pfs_row *rows,
			size_t n)
{
	struct hdparm_ent *e = calloc(n + 1, sizeof(*e));
	int rc = -1;

	if (e && !hdparm_pairs(fp, o, e, hdparm_pick(e, rows, n, NULL))) {
		fputc('\n', fp);
		rc = hdparm_odd(fp, e, hdparm_pick(e, rows, n, PFS_STREAM_OP_CACHED),
				"Timing cached reads") ||
		     hdparm_odd(fp, e, hdparm_pick(e, rows, n, PFS_STREAM_OP_BUFFERED),
				"Timing buffered disk reads");
	}
	free(e);
	return rc ? -1 : 0;
}

static int stream_begin(struct pfs_output *o, const struct pfs_run_info *ri)
{
	/* dm prints nothing before its marks. */
	(void)o;
	(void)ri;
	return 0;
}

static int stream_block(struct pfs_output *o, const struct pfs_run_info *ri,
			const struct pfs_block *b)
{
	const struct pfs_stream_opts *opts = ri->opts;
	const struct pfs_row *rows = b->rows;

	if (keep_rows(o, b, opts->access == PFS_STREAM_RANDOM))
		return -1;
	/* hdparm's pairs come at the end, once both steps' rows are in. */
	if (opts->format == PFS_STREAM_FMT_HDPARM)
		return 0;
	/* `pfsbench show` hands over all iterations at once. */
	for (size_t i = 0, j; i < b->nrows; i = j) {
		for (j = i + 1; j < b->nrows && rows[j].iteration == rows[i].iteration; j++)
			;
		if (opts->format == PFS_STREAM_FMT_FIO ? print_fio(o, opts, b, i, j)
						       : print_iteration(o, ri, opts, rows + i, j - i))
			return -1;
	}
	return fflush(o->fp) ? -1 : 0;
}

/* What was streamed where, above the table. */
static void describe(FILE *fp, const struct pfs_run_info *ri, const struct pfs_stream_opts *o)
{
	bool reading = pfs_stream_reading(o);
	const char *layout = !ri->run_dir[0] ? "one named file or device"
			     : o->shared     ? "one shared file"
					     : "a file per worker";

	char target[PFS_PRINTABLE_SIZE(PATH_MAX)], fstype[PFS_PRINTABLE_SIZE(sizeof(ri->fstype))];

	if (o->format == PFS_STREAM_FMT_HDPARM) {
		fprintf(fp, "\nhdparm -Tt '%s' on worker 1 of each node: reads of %u bytes, "
			    "cached for %u s, buffered for %u s or to the device's end\n",
			pfs_printable(target, sizeof(target), o->input), PFS_HDPARM_BLOCK,
			PFS_HDPARM_CACHED_S, PFS_HDPARM_BUFFERED_S);
		return;
	}
	fprintf(fp, "\n%s '%s': %s, %s, requests of %" PRIu64 " bytes, ",
		pfs_printable(fstype, sizeof(fstype), ri->fstype),
		pfs_printable(target, sizeof(target), pfs_stream_target(o)), reading ? "read" : "write",
		layout, o->block);
	if (o->size)
		fprintf(fp, "%" PRIu64 " bytes per worker", o->size);
	else
		fprintf(fp, "to the end");
	if (o->common.runtime_s)
		fprintf(fp, " or for %" PRIu64 " s", o->common.runtime_s);
	fprintf(fp, "%s%s%s\n", o->direct ? ", O_DIRECT" : "", !reading && o->sync ? ", fsync" : "",
		reading && o->verify ? ", verified" : "");
	if (o->access == PFS_STREAM_RANDOM)
		fprintf(fp, "random order: each block of %" PRIu64 " bytes once, seed %" PRIu64
			    ", %" PRIu64 " in flight (%s)\n",
			o->block, o->seed, o->iodepth, o->iodepth > 1 ? "io_uring" : "pread/pwrite");
}

static void table_row(FILE *fp, const struct pfs_row *r)
{
	char test[PFS_PRINTABLE_SIZE(sizeof(r->test))], node[PFS_PRINTABLE_SIZE(sizeof(r->node))];
	char op[PFS_PRINTABLE_SIZE(sizeof(r->op))];

	pfs_printable(test, sizeof(test), r->test);
	fprintf(fp, "%*s%-3s %2" PRIu32 " %-14s %4" PRIu32 " %-8s %10" PRIu64 " %10" PRIu64
		    " %14" PRIu64 " %9.2f\n",
		strlen(test) > 3 ? 0 : 1, "", test, r->iteration,
		pfs_printable(node, sizeof(node), r->node), r->worker,
		pfs_printable(op, sizeof(op), r->op),
		r->elapsed_us, r->items, r->bytes,
		pfs_rate_display(PFS_UNIT_BYTES, pfs_rate_per_s(r->bytes, r->elapsed_us)));
}

/* --pattern random: IOPS = the row's requests / its time; p50 and p99 of
 * its requests' latencies (submission to completion), in microseconds. */
static void table_row_random(FILE *fp, const struct pfs_row *r, const struct row_lat *l)
{
	char node[PFS_PRINTABLE_SIZE(sizeof(r->node))], op[PFS_PRINTABLE_SIZE(sizeof(r->op))];

	fprintf(fp, "%2" PRIu32 " %-14s %4" PRIu32 " %-8s %10" PRIu64 " %10" PRIu64 " %10.0f %9.2f"
		    " %9.1f %9.1f %9.1f\n",
		r->iteration, pfs_printable(node, sizeof(node), r->node), r->worker,
		pfs_printable(op, sizeof(op), r->op), r->elapsed_us, r->items,
		pfs_rate_per_s(r->items, r->elapsed_us),
		pfs_rate_display(PFS_UNIT_BYTES, pfs_rate_per_s(r->bytes, r->elapsed_us)),
		(double)l->p50_ns / 1e3, (double)l->p99_ns / 1e3, (double)r->lat_max_ns / 1e3);
}

static int stream_end(struct pfs_output *o, const struct pfs_run_info *ri,
		      enum pfs_run_status status, const char *reason)
{
	struct stream_report *sr = o->priv;
	const struct pfs_stream_opts *opts = ri->opts;
	bool random = opts->access == PFS_STREAM_RANDOM;
	int rc;

	if (opts->format == PFS_STREAM_FMT_HDPARM && sr && print_hdparm(o->fp, opts, sr->rows, sr->n))
		return -1;
	describe(o->fp, ri, ri->opts);
	if (random) {
		fputs("It Node name     Work TestType Microsecs  Requests   IOPS       MiB/s     "
		      "p50 us    p99 us    max us\n"
		      "-- -------------- ---- -------- ---------- ---------- ---------- --------- "
		      "--------- --------- ---------\n",
		      o->fp);
		for (size_t i = 0; sr && i < sr->n; i++)
			if (pfs_output_row(o))
				table_row_random(o->fp, &sr->rows[i], &sr->lat[i]);
	} else {
		fputs("Test It  Node name     Work TestType Microsecs  Requests   Bytes          "
		      "MiB/s\n"
		      "---- -- -------------- ---- -------- ---------- ---------- -------------- "
		      "---------\n",
		      o->fp);
		for (size_t i = 0; sr && i < sr->n; i++)
			if (pfs_output_row(o))
				table_row(o->fp, &sr->rows[i]);
	}
	/* The table's own ending: its notes, then "Done." or "Aborted.". */
	o->priv = NULL;
	rc = pfs_output_table.end(o, ri, status, reason);
	if (sr) {
		free(sr->rows);
		free(sr->lat);
		free(sr);
	}
	return rc;
}

const struct pfs_output_ops pfs_output_stream = {
	.name = "stream",
	.begin = stream_begin,
	.block = stream_block,
	.end = stream_end,
};
