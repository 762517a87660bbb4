/* matrix.c: the report of `pfsbench matrix`. For the test iteration:
 *   perf_matrix's matrix exactly: one line per transfer size, one " %.2f"
 *     cell per request size, MiB/s of all ranks (src/formats/matrixfmt.c), so
 *     scripts that read perf_matrix's output read it;
 *   a blank line, then the same matrix labelled with the sizes;
 *   a blank line, then what was measured how: read or write, where, ranks
 *     and nodes, O_DIRECT or not, fsync, caches, the repetitions discarded;
 *   on a run of several nodes, a blank line, then the slowest node per
 *     cell as a ratio to the median node, and which nodes were slowest.
 * A run that stopped ends with "Aborted: REASON". The arithmetic (each
 * repetition's rate, the outlier rule's marks, a cell's value) is
 * src/plans/matrix_plan.c's; this file only prints. */
#include "pfsbench/core/topology.h"
#include "pfsbench/core/util.h"
#include "pfsbench/formats/matrixfmt.h"
#include "pfsbench/outputs/output.h"
#include "pfsbench/plans/matrix_plan.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static int matrix_begin(struct pfs_output *o, const struct pfs_run_info *ri)
{
	/* perf_matrix printed nothing before its matrix. */
	(void)o;
	(void)ri;
	return 0;
}

static const char *plural(uint64_t n)
{
	return n == 1 ? "" : "s";
}

/* What was measured how, under the matrices. */
static void describe(FILE *fp, const struct pfs_run_info *ri, const struct pfs_matrix_opts *o,
		     const struct pfs_matrix_result *res)
{
	bool reading = pfs_matrix_reading(o);
	char target[PFS_PRINTABLE_SIZE(PATH_MAX)], fstype[PFS_PRINTABLE_SIZE(sizeof(ri->fstype))];
	char note[PFS_PRINTABLE_SIZE(sizeof(ri->caches_note))];

	fprintf(fp,
		"%s %s '%s' (%s), %s; %" PRIu64 " rank%s on %" PRIu64 " node%s, MiB/s of all "
		"ranks together\n",
		reading ? "Read" : "Write", reading ? "from" : "to",
		pfs_printable(target, sizeof(target), pfs_matrix_target(o)),
		pfs_printable(fstype, sizeof(fstype), ri->fstype),
		ri->run_dir[0] ? "a file per rank" : "rank r at r x the largest transfer",
		ri->nranks, plural(ri->nranks), ri->nnodes, plural(ri->nnodes));
	fprintf(fp, "%s%s; %s\n", o->direct == PFS_MATRIX_DIRECT_ON ? "O_DIRECT" : "no O_DIRECT",
		reading    ? ""
		: o->fsync ? ", fsync inside the time"
			   : ", no fsync",
		ri->caches_dropped ? "caches dropped before each cell"
				   : pfs_printable(note, sizeof(note), ri->caches_note));
	if (o->iter > 1)
		fprintf(fp,
			"Each cell %" PRIu64 " times; %u of %u repetitions discarded, beyond one "
			"standard deviation of their cell's mean\n",
			o->iter, res->reps_discarded, res->reps_measured);
	if (res->cells_missing)
		fprintf(fp, "%u of %u cells not measured (0.00): the run stopped\n",
			res->cells_missing, res->cells_run);
}

/* The slowest node per cell against the median node, and a count of the
 * cells in which each node was slowest. */
static int print_nodes(FILE *fp, const struct pfs_run_info *ri, const struct pfs_matrix_result *res)
{
	struct pfs_matrix ratios = res->m;
	unsigned *slowest = calloc(res->nnodes, sizeof(*slowest)), any = 0;
	char name[PFS_PRINTABLE_SIZE(PFS_NODE_NAME_MAX)];
	int rc;

	if (!slowest)
		return -ENOMEM;
	for (unsigned r = 0; r < ratios.rows; r++)
		for (unsigned c = 0; c < ratios.cols; c++) {
			const struct pfs_matrix_cell *pc = &res->cell[r][c];

			ratios.mibps[r][c] = pc->slow_ratio >= 0 ? pc->slow_ratio : 0;
			if (pc->slow_ratio >= 0 && pc->slow_node < res->nnodes) {
				slowest[pc->slow_node]++;
				any++;
			}
		}
	fputc('\n', fp);
	rc = pfs_matrixfmt_print_titled(fp, &ratios,
					"Slowest node / median node by transfer size "
					"(rows) and request size (columns)");
	if (!rc && any) {
		fputs("Slowest node:", fp);
		for (unsigned nd = 0, first = 1; nd < res->nnodes; nd++)
			if (slowest[nd]) {
				fprintf(fp, "%s %s in %u cell%s", first ? "" : ",",
					ri->nodes ? pfs_printable(name, sizeof(name), ri->nodes[nd].name)
						  : "?",
					slowest[nd],
					plural(slowest[nd]));
				first = 0;
			}
		fputc('\n', fp);
	}
	free(slowest);
	return rc;
}

/* One iteration's matrices (a run has one; -i repeats cells within it). */
static int print_iteration(FILE *fp, const struct pfs_run_info *ri, const struct pfs_row *rows,
			   size_t n)
{
	const struct pfs_matrix_opts *o = ri->opts;
	struct pfs_matrix_result *res = malloc(sizeof(*res));
	struct pfs_matrix_plan plan;
	char err[PFS_REFUSAL_MAX] = "";
	int rc = res ? 0 : -ENOMEM;

	if (!rc)
		rc = pfs_matrix_plan_init(&plan, o, err, sizeof(err));
	if (!rc)
		rc = pfs_matrix_reduce(
			&plan, pfs_matrix_reading(o) ? PFS_MATRIX_OP_READ : PFS_MATRIX_OP_WRITE,
			rows, n, (unsigned)ri->nranks, (unsigned)ri->nnodes, res, err, sizeof(err));
	if (rc) {
		pfs_warn("matrix report: %s", rc == -ENOMEM ? "out of memory" : err);
		free(res);
		return rc;
	}
	rc = pfs_matrixfmt_print(fp, &res->m);
	fputc('\n', fp);
	if (!rc)
		rc = pfs_matrixfmt_print_labelled(fp, &res->m);
	fputc('\n', fp);
	describe(fp, ri, o, res);
	if (!rc && ri->nnodes > 1)
		rc = print_nodes(fp, ri, res);
	free(res);
	return rc;
}

static int matrix_block(struct pfs_output *o, const struct pfs_run_info *ri,
			const struct pfs_block *b)
{
	const struct pfs_row *rows = b->rows;

	/* `pfsbench show` hands over all iterations at once. */
	for (size_t i = 0, j; i < b->nrows; i = j) {
		for (j = i + 1; j < b->nrows && rows[j].iteration == rows[i].iteration; j++)
			;
		if (print_iteration(o->fp, ri, rows + i, j - i))
			return -1;
	}
	return fflush(o->fp) ? -1 : 0;
}

static int matrix_end(struct pfs_output *o, const struct pfs_run_info *ri,
		      enum pfs_run_status status, const char *reason)
{
	char why[PFS_PRINTABLE_SIZE(sizeof(ri->status_reason))];

	if (status != PFS_RUN_COMPLETE)
		fprintf(o->fp, "\nAborted: %s\n",
			reason && *reason ? pfs_printable(why, sizeof(why), reason) : "the run stopped");
	return fflush(o->fp) ? -1 : 0;
}

const struct pfs_output_ops pfs_output_matrix = {
	.name = "matrix",
	.begin = matrix_begin,
	.block = matrix_block,
	.end = matrix_end,
};
