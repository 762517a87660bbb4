/* table.c: the create_unlink_perf report, byte for byte as support engineers
 * know it: a header naming the filesystem and the nodes, then one row per
 * (test, iteration, node, worker, op), then "Done.". Columns are 4, 2, 14,
 * 4, 8, 10, 6, 6 and 9 characters wide, separated by one space; a longer
 * node name widens its column rather than being cut, so nodes stay apart.
 * Names and paths come from the environment (PFSBENCH_NODENAME) or, for
 * `pfsbench show`, from a file: each goes through pfs_printable, so none
 * ends a line or talks to the terminal, and ordinary ones print as they are. */
#include "pfsbench/core/topology.h"
#include "pfsbench/core/util.h"
#include "pfsbench/outputs/output.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* The rows a stonewall stopped, kept for the notes at the end. */
struct table_notes {
	struct pfs_row *rows;
	size_t n, cap;
};

void pfs_table_header(FILE *fp)
{
	fputs("Test It  Node name     Work TestType Microsecs  Files  us/fil files/sec\n"
	      "---- -- -------------- ---- -------- ---------- ------ ------ ---------\n",
	      fp);
}

/* A four-letter test name ("tree") takes the space before its column, so
 * the columns stay under the header. */
void pfs_table_row(FILE *fp, const struct pfs_row *r)
{
	char test[PFS_PRINTABLE_SIZE(sizeof(r->test))], node[PFS_PRINTABLE_SIZE(sizeof(r->node))];
	char op[PFS_PRINTABLE_SIZE(sizeof(r->op))];

	pfs_printable(test, sizeof(test), r->test);
	fprintf(fp, "%*s%-3s %2" PRIu32 " %-14s %4" PRIu32 " %-8s %10" PRIu64 " %6" PRIu64
		    " %6" PRIu64 " %9" PRIu64 "\n",
		strlen(test) > 3 ? 0 : 1, "", test, r->iteration,
		pfs_printable(node, sizeof(node), r->node), r->worker,
		pfs_printable(op, sizeof(op), r->op),
		r->elapsed_us, r->items, pfs_us_per_file(r->elapsed_us, r->items),
		pfs_files_per_sec(r->elapsed_us, r->items));
}

static int table_begin(struct pfs_output *o, const struct pfs_run_info *ri)
{
	FILE *fp = o->fp;
	char text[PFS_PRINTABLE_SIZE(sizeof(ri->dir))], fstype[PFS_PRINTABLE_SIZE(sizeof(ri->fstype))];

	fprintf(fp, "%s mount point: %s\n", pfs_printable(fstype, sizeof(fstype), ri->fstype),
		pfs_printable(text, sizeof(text), ri->dir));
	if (ri->workers_min == ri->workers_max)
		fprintf(fp, "Testing with %" PRIu64 " nodes, %" PRIu64 " workers per node: \n",
			ri->nnodes, ri->workers_min);
	else
		fprintf(fp, "Testing with %" PRIu64 " nodes, %" PRIu64 " to %" PRIu64
			    " workers per node: \n",
			ri->nnodes, ri->workers_min, ri->workers_max);
	for (uint64_t n = 0; n < ri->nnodes; n++) {
		fprintf(fp, " %s", pfs_printable(text, sizeof(text), ri->nodes[n].name));
		fprintf(fp, " %s\n", pfs_printable(text, sizeof(text), ri->nodes[n].addr));
	}
	/* How the run differs from create_unlink_perf's (--shift); absent, the
	 * header is that tool's exactly. */
	if (ri->run_note[0])
		fprintf(fp, "%s\n", pfs_printable(text, sizeof(text), ri->run_note));
	fputc('\n', fp);
	pfs_table_header(fp);
	return fflush(fp) ? -1 : 0;
}

int pfs_table_note_block(struct pfs_output *o, const struct pfs_block *b)
{
	struct table_notes *tn = o->priv;

	for (size_t i = 0; i < b->nrows; i++) {
		const struct pfs_row *r = &b->rows[i];

		if (!r->stonewall_items && !r->stonewall_us)
			continue;
		if (!tn) {
			tn = o->priv = calloc(1, sizeof(*tn));
			if (!tn)
				return -ENOMEM;
		}
		if (tn->n == tn->cap) {
			size_t cap = tn->cap ? tn->cap * 2 : 16;
			struct pfs_row *nr = realloc(tn->rows, cap * sizeof(*nr));

			if (!nr)
				return -ENOMEM;
			tn->rows = nr;
			tn->cap = cap;
		}
		tn->rows[tn->n++] = *r;
	}
	return 0;
}

static int table_block(struct pfs_output *o, const struct pfs_run_info *ri,
		       const struct pfs_block *b)
{
	(void)ri;
	for (size_t i = 0; i < b->nrows; i++)
		if (pfs_output_row(o))
			pfs_table_row(o->fp, &b->rows[i]);
	if (pfs_table_note_block(o, b))
		return -1;
	return fflush(o->fp) ? -1 : 0;
}

/* Each stonewalled row's count at the deadline: the table's Files column
 * is the count after wear-out, which every worker of the step reached. */
static void stonewall_notes(FILE *fp, const struct table_notes *tn)
{
	for (size_t i = 0; tn && i < tn->n; i++) {
		const struct pfs_row *r = &tn->rows[i];
		enum pfs_unit u = pfs_row_unit(r);
		char test[PFS_PRINTABLE_SIZE(sizeof(r->test))];
		char node[PFS_PRINTABLE_SIZE(sizeof(r->node))], op[PFS_PRINTABLE_SIZE(sizeof(r->op))];

		if (!i)
			fputs("Stonewall: items at the deadline (seconds into the op), then after "
			      "wear-out:\n", fp);
		fprintf(fp, " %s %" PRIu32 " %s %" PRIu32 " %s: %" PRIu64 " %s (%" PRIu64 ".%06" PRIu64
			    " s), %" PRIu64 "\n",
			pfs_printable(test, sizeof(test), r->test), r->iteration,
			pfs_printable(node, sizeof(node), r->node), r->worker,
			pfs_printable(op, sizeof(op), r->op), r->stonewall_items,
			pfs_unit_name(u), r->stonewall_us / 1000000u, r->stonewall_us % 1000000u,
			r->items);
	}
}

/* Right under the rows, how many row lines a capped `show` left out. A run
 * that did not drop caches says so inside the report, since the report is
 * what gets pasted into tickets and its numbers then mean something else. */
static int table_end(struct pfs_output *o, const struct pfs_run_info *ri,
		     enum pfs_run_status status, const char *reason)
{
	struct table_notes *tn = o->priv;
	char note[PFS_PRINTABLE_SIZE(sizeof(ri->caches_note))];

	(void)reason;
	pfs_output_rows_note(o);
	fputc('\n', o->fp);
	if (!ri->caches_dropped)
		fprintf(o->fp, "Note: %s.\n", pfs_printable(note, sizeof(note), ri->caches_note));
	stonewall_notes(o->fp, tn);
	fputs(status == PFS_RUN_COMPLETE ? "Done.\n" : "Aborted.\n", o->fp);
	if (tn) {
		free(tn->rows);
		free(tn);
		o->priv = NULL;
	}
	return fflush(o->fp) ? -1 : 0;
}

const struct pfs_output_ops pfs_output_table = {
	.name = "table",
	.begin = table_begin,
	.block = table_block,
	.end = table_end,
};
