/* fdtree.c: the report of the tree workload in fdtree's layout and words:
 * the plan ("creating/deleting ...", "for a total of ..."), then for each
 * phase its dates, "... TIME IN, OUT, TOTAL = ..." and its rates, then the
 * create-unlink table of every node and worker, where a slow node stands
 * out.
 *
 * A phase's figures are those of all ranks together: IN is the earliest
 * start and OUT the latest end of its rows, in seconds since the run's start
 * barrier, with microseconds, so a fast phase is not 0; rate = items of all
 * ranks / (OUT - IN), the span of the rows (pfs_span). */
#include "pfsbench/core/util.h"
#include "pfsbench/outputs/output.h"
#include "pfsbench/plans/tree_plan.h"

#include "config.h"

#include <inttypes.h>
#include <string.h>
#include <time.h>

#define INDENT "        "

struct fdtree_phase {
	const char *op;    /* the rows' op */
	const char *title; /* padded so that the '=' line up, as in fdtree */
	const char *rate;
	bool kib;          /* also "KiB per second" */
};

static const struct fdtree_phase phases[] = {
	{ PFS_TREE_OP_MKDIR, "DIRECTORY CREATE TIME IN, OUT, TOTAL =",
	  INDENT "Directory creates per second =", false },
	{ PFS_TREE_OP_CREATE, "FILE CREATE TIME IN, OUT, TOTAL      =",
	  INDENT "File creates per second      =", true },
	/* Not fdtree's: only with --stat, worded and aligned as its others. */
	{ PFS_TREE_OP_STAT, "FILE STAT TIME IN, OUT, TOTAL        =",
	  INDENT "File stats per second        =", false },
	{ PFS_TREE_OP_UNLINK, "FILE REMOVE TIME IN, OUT, TOTAL      =",
	  INDENT "File removals per second     =", false },
	{ PFS_TREE_OP_RMDIR, "DIRECTORY REMOVE TIME IN, OUT, TOTAL =",
	  INDENT "Directory removals per second =", false },
};

static int fdtree_begin(struct pfs_output *o, const struct pfs_run_info *ri)
{
	char dir[PFS_PRINTABLE_SIZE(sizeof(ri->run_dir))];

	fprintf(o->fp, "pfsbench-%s tree: starting at %s/\n", PACKAGE_VERSION,
		pfs_printable(dir, sizeof(dir), ri->run_dir));
	pfs_tree_describe(o->fp, ri->opts, ri->nranks, ri->nnodes);
	return fflush(o->fp) ? -1 : 0;
}

/* `date`'s layout, in UTC: the run's start time plus offset_us. */
static void print_date(FILE *fp, const char *start_time, uint64_t offset_us)
{
	struct tm tm;
	time_t t;
	char buf[64];

	memset(&tm, 0, sizeof(tm));
	if (!strptime(start_time, "%Y-%m-%dT%H:%M:%SZ", &tm))
		return;
	t = timegm(&tm) + (time_t)(offset_us / 1000000u);
	gmtime_r(&t, &tm);
	strftime(buf, sizeof(buf), "%a %b %e %H:%M:%S UTC %Y", &tm);
	fprintf(fp, "%s\n", buf);
}

static void print_phase(FILE *fp, const struct pfs_run_info *ri, const struct fdtree_phase *ph,
			const struct pfs_row *rows, size_t n)
{
	struct pfs_span span;
	uint64_t total;

	pfs_span_init(&span);
	for (size_t i = 0; i < n; i++)
		if (!strcmp(rows[i].op, ph->op))
			pfs_span_add(&span, &rows[i]);
	if (!span.rows)
		return;
	total = pfs_span_us(&span);
	print_date(fp, ri->start_time, span.start_us);
	print_date(fp, ri->start_time, span.end_us);
	fprintf(fp, "%s %" PRIu64 ".%06" PRIu64 ", %" PRIu64 ".%06" PRIu64 ", %" PRIu64 ".%06" PRIu64
		    "\n",
		ph->title, span.start_us / 1000000u, span.start_us % 1000000u,
		span.end_us / 1000000u, span.end_us % 1000000u, total / 1000000u, total % 1000000u);
	fprintf(fp, "%s  %" PRIu64 "\n", ph->rate,
		(uint64_t)pfs_rate_per_s(span.items, total));
	if (ph->kib)
		fprintf(fp, INDENT "KiB per second               =  %" PRIu64 "\n",
			(uint64_t)pfs_rate_per_s(span.bytes / 1024, total));
}

/* One iteration: its phases, then its table (none once a capped show
 * prints no more rows). */
static void print_iteration(struct pfs_output *o, const struct pfs_run_info *ri,
			    const struct pfs_row *rows, size_t n)
{
	const struct pfs_tree_opts *opts = ri->opts;
	FILE *fp = o->fp;

	if (opts->common.iterations > 1)
		fprintf(fp, "ITERATION %" PRIu32 " OF %" PRIu64 "\n", rows[0].iteration,
			opts->common.iterations);
	for (size_t p = 0; p < sizeof(phases) / sizeof(phases[0]); p++)
		print_phase(fp, ri, &phases[p], rows, n);
	fputc('\n', fp);
	if (pfs_output_rows_left(o))
		pfs_table_header(fp);
	for (size_t i = 0; i < n; i++)
		if (pfs_output_row(o))
			pfs_table_row(fp, &rows[i]);
}

/* A run gives one iteration a block; `pfsbench show` gives them all at
 * once, in order: each iteration is reported on its own either way. */
static int fdtree_block(struct pfs_output *o, const struct pfs_run_info *ri,
			const struct pfs_block *b)
{
	const struct pfs_row *rows = b->rows;
	size_t n = b->nrows;

	if (pfs_table_note_block(o, b))
		return -1;
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && rows[j].iteration == rows[i].iteration; j++)
			;
		print_iteration(o, ri, rows + i, j - i);
	}
	return fflush(o->fp) ? -1 : 0;
}

/* Says where a -C run left its trees; the rest is the table's ending. */
static int fdtree_end(struct pfs_output *o, const struct pfs_run_info *ri,
		      enum pfs_run_status status, const char *reason)
{
	const struct pfs_tree_opts *opts = ri->opts;
	char dir[PFS_PRINTABLE_SIZE(sizeof(ri->run_dir))];

	if (opts->create_only && status == PFS_RUN_COMPLETE)
		fprintf(o->fp, "\nThe trees stay in %s/ for 'pfsbench tree -R' with the same -o, -l, "
			       "-d, -f and -s.\n",
			pfs_printable(dir, sizeof(dir), ri->run_dir));
	return pfs_output_table.end(o, ri, status, reason);
}

const struct pfs_output_ops pfs_output_fdtree = {
	.name = "fdtree",
	.begin = fdtree_begin,
	.block = fdtree_block,
	.end = fdtree_end,
};
