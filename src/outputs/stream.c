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
#include "pfsbench/core/util.h"
#include "pfsbench/formats/ddfmt.h"
#include "pfsbench/outputs/output.h"
#include "pfsbench/plans/stream_opts.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* The rows of every iteration, for the table at the end. */
struct stream_report {
	struct pfs_row *rows;
	size_t n, cap;
};

static int keep_rows(struct pfs_output *o, const struct pfs_block *b)
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
		nr = realloc(sr->rows, cap * sizeof(*nr));
		if (!nr)
			return -ENOMEM;
		sr->rows = nr;
		sr->cap = cap;
	}
	memcpy(sr->rows + sr->n, b->rows, b->nrows * sizeof(*b->rows));
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

	if (keep_rows(o, b))
		return -1;
	/* `pfsbench show` hands over all iterations at once. */
	for (size_t i = 0, j; i < b->nrows; i = j) {
		for (j = i + 1; j < b->nrows && rows[j].iteration == rows[i].iteration; j++)
			;
		if (print_iteration(o, ri, opts, rows + i, j - i))
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

static int stream_end(struct pfs_output *o, const struct pfs_run_info *ri,
		      enum pfs_run_status status, const char *reason)
{
	struct stream_report *sr = o->priv;
	int rc;

	describe(o->fp, ri, ri->opts);
	fputs("Test It  Node name     Work TestType Microsecs  Requests   Bytes          MiB/s\n"
	      "---- -- -------------- ---- -------- ---------- ---------- -------------- ---------\n",
	      o->fp);
	for (size_t i = 0; sr && i < sr->n; i++)
		if (pfs_output_row(o))
			table_row(o->fp, &sr->rows[i]);
	/* The table's own ending: its notes, then "Done." or "Aborted.". */
	o->priv = NULL;
	rc = pfs_output_table.end(o, ri, status, reason);
	if (sr) {
		free(sr->rows);
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
