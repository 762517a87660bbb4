/* table.c: the create_unlink_perf report, byte for byte as support engineers
 * know it: a header naming the filesystem and the nodes, then one row per
 * (test, iteration, node, worker, op), then "Done.". Columns are 4, 2, 14,
 * 4, 8, 10, 6, 6 and 9 characters wide, separated by one space; a longer
 * node name widens its column rather than being cut, so nodes stay apart. */
#include "pfsbench/output.h"
#include "pfsbench/topology.h"

#include <inttypes.h>
#include <string.h>

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
	fprintf(fp, "%*s%-3s %2" PRIu32 " %-14s %4" PRIu32 " %-8s %10" PRIu64 " %6" PRIu64
		    " %6" PRIu64 " %9" PRIu64 "\n",
		strlen(r->test) > 3 ? 0 : 1, "", r->test, r->iteration, r->node, r->worker, r->op,
		r->elapsed_us, r->files, pfs_us_per_file(r->elapsed_us, r->files), pfs_files_per_sec(r->elapsed_us, r->files));
}

static int table_begin(struct pfs_output *o, const struct pfs_run_info *ri)
{
	FILE *fp = o->fp;

	fprintf(fp, "%s mount point: %s\n", ri->fstype, ri->dir);
	if (ri->workers_min == ri->workers_max)
		fprintf(fp, "Testing with %u nodes, %u workers per node: \n", ri->nnodes,
			ri->workers_min);
	else
		fprintf(fp, "Testing with %u nodes, %u to %u workers per node: \n", ri->nnodes,
			ri->workers_min, ri->workers_max);
	for (unsigned n = 0; n < ri->nnodes; n++)
		fprintf(fp, " %s %s\n", ri->nodes[n].name, ri->nodes[n].addr);
	fputc('\n', fp);
	pfs_table_header(fp);
	return fflush(fp) ? -1 : 0;
}

static int table_block(struct pfs_output *o, const struct pfs_run_info *ri,
		       const struct pfs_row *rows, size_t n)
{
	(void)ri;
	for (size_t i = 0; i < n; i++)
		pfs_table_row(o->fp, &rows[i]);
	return fflush(o->fp) ? -1 : 0;
}

/* A run that did not drop caches says so inside the report, since the report
 * is what gets pasted into tickets and its numbers then mean something else. */
static int table_end(struct pfs_output *o, const struct pfs_run_info *ri,
		     enum pfs_run_status status, const char *reason)
{
	(void)reason;
	fputc('\n', o->fp);
	if (!ri->caches_dropped)
		fprintf(o->fp, "Note: %s.\n", ri->caches_note);
	fputs(status == PFS_RUN_COMPLETE ? "Done.\n" : "Aborted.\n", o->fp);
	return fflush(o->fp) ? -1 : 0;
}

const struct pfs_output_ops pfs_output_table = {
	.name = "table",
	.begin = table_begin,
	.block = table_block,
	.end = table_end,
};
