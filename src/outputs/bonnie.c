/* bonnie.c: the bonnie workload's report, in bonnie++'s own layout
 * (src/formats/bonniefmt.c prints every line). For each iteration: the
 * I/O table of all ranks together, its Concurrency the number of ranks,
 * then each node's pair of lines (figures, Latency) under it; the same for
 * the file table, where a node's line starts with its name; then the CSV
 * lines, all ranks first, then each node, as bonnie++ -q prints them. With
 * -q the tables go to stderr; with -x N (N > 1) there are no tables and
 * the CSV header comes first, as in bonnie++.
 *
 * A figure of a set of rows (all ranks, or one node's) is bonnie++'s
 * figure of one run: work / time, where
 *   time = the span of the rows, earliest start to latest end (pfs_span);
 *   work = KiB written or read (bytes / 1024) for the five I/O tests,
 *          seeks for the seeks, files for the file tests;
 *   %CPU = the CPU time of all the rows' ranks (user + system, getrusage)
 *          / time x 100, cut to an integer, so 2 busy ranks show 200;
 *   latency = the slowest item of any row (its histogram's exact max);
 * and "+++++ +++" when the time is under bonnie++'s 0.5 s.
 *
 * With --runtime, after the tables (on their stream; on stderr with -x N,
 * which prints CSV lines only), one note per test it cut: the items each
 * rank did against those the test asked (pfs_bonnie_asked, from the rows
 * of the tests before it); the figures are over the work done, as always.
 * bonnie++'s lines are unchanged: Size and files say what was asked. */
#include "pfsbench/core/topology.h"
#include "pfsbench/core/util.h"
#include "pfsbench/outputs/output.h"
#include "pfsbench/plans/bonnie_plan.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static enum pfs_bonnie_format format_of(const struct pfs_bonnie_opts *o)
{
	return strcmp(o->version, "1.98") ? PFS_BONNIE_FORMAT_1_96 : PFS_BONNIE_FORMAT_1_98;
}

/* A name a CSV field can hold: commas and control characters become '_'. */
static void set_name(struct pfs_bonnie_result *r, const char *name)
{
	size_t i;

	for (i = 0; name[i] && i + 1 < sizeof(r->name); i++)
		r->name[i] = name[i] == ',' || (unsigned char)name[i] < 0x20 || name[i] == 0x7f
				     ? '_'
				     : name[i];
	r->name[i] = '\0';
}

/* The parameters every line shows: sizes, counts, seed, version. */
static void result_init(struct pfs_bonnie_result *r, const struct pfs_bonnie_opts *o,
			const struct pfs_bonnie_plan *p, const char *name, uint32_t concurrency)
{
	pfs_bonnie_init(r);
	(void)pfs_bonnie_set_version(r, o->version);
	set_name(r, name);
	r->concurrency = concurrency ? concurrency : 1;
	snprintf(r->seed, sizeof(r->seed), "%" PRIu64, o->seed);
	r->file_size_mib = p->file_mib;
	r->io_chunk_bytes = p->io_chunk;
	r->seeks = p->seeks;
	r->seek_procs = p->seek_procs;
	r->num_files_x1024 = p->num_files_x1024;
	r->max_bytes = (int32_t)p->max_bytes;
	r->min_bytes = (int32_t)p->min_bytes;
	r->num_dirs = p->num_dirs;
	r->file_chunk_bytes = p->file_chunk;
}

/* Each test's figure from the rows of node (or of all nodes when node < 0),
 * as the file's comment defines it. */
static int result_figures(struct pfs_bonnie_result *r, const struct pfs_row *rows, size_t n,
			  int64_t node)
{
	for (int t = 0; t < PFS_BONNIE_TESTS; t++) {
		struct pfs_span span;
		uint64_t cpu_us = 0, lat_ns = 0;
		double work;

		pfs_span_init(&span);
		for (size_t i = 0; i < n; i++) {
			const struct pfs_row *row = &rows[i];

			if ((node >= 0 && row->node_index != (uint64_t)node) ||
			    strcmp(row->op, pfs_bonnie_test_names[t]))
				continue;
			pfs_span_add(&span, row);
			cpu_us += row->cpu_us;
			if (row->lat_count && row->lat_max_ns > lat_ns)
				lat_ns = row->lat_max_ns;
		}
		if (!span.rows)
			continue;
		work = t < PFS_BONNIE_SEEKS ? (double)span.bytes / 1024.0 : (double)span.items;
		/* A test that ran shows a figure, however short its time. */
		if (pfs_bonnie_set_figure(&r->test[t], work, pfs_span_us(&span) ? pfs_span_us(&span) : 1,
					  cpu_us))
			return -1;
		r->test[t].latency_ns = lat_ns;
	}
	return 0;
}

/* The items put_block wrote on the rank of row r (rows: one iteration):
 * what the later I/O tests were asked to take; the plan's when it did not
 * run. */
static uint64_t file_blocks_of(const struct pfs_bonnie_plan *p, const struct pfs_row *rows,
			       size_t n, const struct pfs_row *r)
{
	for (size_t i = 0; i < n; i++)
		if (rows[i].rank == r->rank &&
		    !strcmp(rows[i].op, pfs_bonnie_test_names[PFS_BONNIE_PUT_BLOCK]))
			return rows[i].items;
	return pfs_bonnie_io_bytes(p) / p->io_chunk;
}

/* The note of one test --runtime cut: its items a rank, in bytes for the
 * I/O tests; none when every rank did all it was asked. */
static bool runtime_note(FILE *fp, const struct pfs_bonnie_opts *o, const struct pfs_bonnie_plan *p,
			 const struct pfs_row *rows, size_t n, enum pfs_bonnie_test t)
{
	uint64_t lo = UINT64_MAX, hi = 0, asked = 0, scale = pfs_bonnie_item_bytes(p, t);
	const char *unit = scale ? "bytes" : t == PFS_BONNIE_SEEKS ? "seeks" : "files";
	bool cut = false;

	for (size_t i = 0; i < n; i++) {
		const struct pfs_row *r = &rows[i];
		uint64_t a;

		if (strcmp(r->op, pfs_bonnie_test_names[t]))
			continue;
		a = pfs_bonnie_asked(p, t, file_blocks_of(p, rows, n, r), 0);
		cut |= r->items < a;
		lo = r->items < lo ? r->items : lo;
		hi = r->items > hi ? r->items : hi;
		asked = a > asked ? a : asked;
	}
	if (!cut)
		return false;
	scale = scale ? scale : 1;
	fprintf(fp, "%s: cut by --runtime %" PRIu64 " at %" PRIu64, pfs_bonnie_test_names[t],
		o->common.runtime_s, lo * scale);
	if (hi != lo)
		fprintf(fp, " to %" PRIu64, hi * scale);
	fprintf(fp, " of %" PRIu64 " %s a rank\n", asked * scale, unit);
	return true;
}

static void runtime_notes(FILE *fp, const struct pfs_bonnie_opts *o, const struct pfs_bonnie_plan *p,
			  const struct pfs_row *rows, size_t n)
{
	bool any = false;

	for (int t = 0; t < PFS_BONNIE_TESTS; t++)
		if (pfs_bonnie_runtime_cuts((enum pfs_bonnie_test)t))
			any |= runtime_note(fp, o, p, rows, n, (enum pfs_bonnie_test)t);
	if (!any)
		fprintf(fp, "--runtime %" PRIu64 ": no test was cut\n", o->common.runtime_s);
}

/* One iteration's tables and CSV lines. */
static int print_iteration(const struct pfs_output *out, const struct pfs_run_info *ri,
			   const struct pfs_row *rows, size_t n)
{
	const struct pfs_bonnie_opts *o = ri->opts;
	FILE *fp = out->fp, *tfp = o->quiet ? pfs_output_err(out) : fp;
	struct pfs_bonnie_result *res = calloc(ri->nnodes + 1, sizeof(*res));
	struct pfs_bonnie_plan p;
	char name[PFS_BONNIE_NAME_MAX], err[PFS_REFUSAL_MAX];
	int rc = -1;

	if (!res || pfs_bonnie_resolve(o, &p, err, sizeof(err)))
		goto out;
	/* Names from the file or the environment, made printable (cut to
	 * bonnie's width at a whole character or escape). */
	if (o->machine[0])
		pfs_printable(name, sizeof(name), o->machine);
	else if (ri->nnodes == 1)
		pfs_printable(name, sizeof(name), ri->nodes[0].name);
	else
		snprintf(name, sizeof(name), "%" PRIu64 " nodes", ri->nnodes);
	result_init(&res[0], o, &p, name, (uint32_t)ri->nranks);
	if (result_figures(&res[0], rows, n, -1))
		goto out;
	for (uint64_t nd = 0; nd < ri->nnodes; nd++) {
		char node[PFS_BONNIE_NAME_MAX];

		result_init(&res[nd + 1], o, &p, pfs_printable(node, sizeof(node), ri->nodes[nd].name),
			    ri->nodes[nd].nworkers);
		if (result_figures(&res[nd + 1], rows, n, (int64_t)nd))
			goto out;
	}
	if (o->common.iterations == 1) {
		if (p.file_mib) {
			if (pfs_bonnie_print_part(tfp, &res[0], PFS_BONNIE_IO_HEAD, 0))
				goto out;
			for (uint64_t i = 0; i <= ri->nnodes; i++)
				if (pfs_bonnie_print_part(tfp, &res[i], PFS_BONNIE_IO_LINES, 0))
					goto out;
		}
		if (p.num_files_x1024) {
			if (pfs_bonnie_print_part(tfp, &res[0], PFS_BONNIE_FILE_HEAD, 0))
				goto out;
			for (uint64_t i = 0; i <= ri->nnodes; i++)
				if (pfs_bonnie_print_part(tfp, &res[i], PFS_BONNIE_FILE_LINES,
							  i ? PFS_BONNIE_TEXT_NAMED_LINE : 0))
					goto out;
		} else {
			fputc('\n', tfp);
		}
	}
	if (o->common.runtime_s)
		runtime_notes(o->common.iterations == 1 ? tfp : pfs_output_err(out), o, &p, rows, n);
	for (uint64_t i = 0; i <= ri->nnodes; i++)
		if (pfs_bonnie_print_csv(fp, &res[i]))
			goto out;
	rc = 0;
out:
	free(res);
	return rc;
}

static int bonnie_begin(struct pfs_output *o, const struct pfs_run_info *ri)
{
	const struct pfs_bonnie_opts *opts = ri->opts;

	/* bonnie++ -x N: the header, then only CSV lines. */
	if (opts->common.iterations > 1 && pfs_bonnie_print_csv_header(o->fp, format_of(opts)))
		return -1;
	return fflush(o->fp) ? -1 : 0;
}

/* A run gives one iteration a block, `pfsbench show` all of them at once. */
static int bonnie_block(struct pfs_output *o, const struct pfs_run_info *ri,
			const struct pfs_block *b)
{
	const struct pfs_row *rows = b->rows;
	size_t n = b->nrows;

	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && rows[j].iteration == rows[i].iteration; j++)
			;
		if (print_iteration(o, ri, rows + i, j - i))
			return -1;
	}
	return fflush(o->fp) || fflush(pfs_output_err(o)) ? -1 : 0;
}

static int bonnie_end(struct pfs_output *o, const struct pfs_run_info *ri,
		      enum pfs_run_status status, const char *reason)
{
	(void)ri;
	(void)status;
	(void)reason;
	return fflush(o->fp) ? -1 : 0;
}

const struct pfs_output_ops pfs_output_bonnie = {
	.name = "bonnie",
	.begin = bonnie_begin,
	.block = bonnie_block,
	.end = bonnie_end,
};
