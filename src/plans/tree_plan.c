/* tree_plan.c: the arithmetic and the words of an fdtree plan, shared by the
 * tree workload (src/workloads/tree.c) and its report (src/outputs/fdtree.c):
 * how many directories, files and bytes one worker's tree holds, and the
 * plan in fdtree's words. Pure: no MPI, no I/O but the FILE it is given. */
#include "pfsbench/plans/tree_plan.h"
#include "pfsbench/core/util.h"

#include <errno.h>
#include <inttypes.h>

#define INDENT "        "

int pfs_tree_totals(uint64_t levels, uint64_t fanout, uint64_t files, uint64_t blocks,
		    struct pfs_tree_totals *t)
{
	uint64_t width = 1; /* directories at the current level: fanout^i */

	t->dirs = 1;
	if (fanout == 1) {
		if (levels == UINT64_MAX)
			return -ERANGE;
		t->dirs = levels + 1;
	} else if (fanout > 1) {
		for (uint64_t i = 1; i <= levels; i++) {
			if (pfs_mul_u64(width, fanout, &width) || t->dirs > UINT64_MAX - width)
				return -ERANGE;
			t->dirs += width;
		}
	}
	if (pfs_mul_u64(t->dirs, files, &t->files) || pfs_mul_u64(t->files, blocks, &t->kib) ||
	    pfs_mul_u64(t->kib, PFS_TREE_BLOCK / 1024, &t->kib) ||
	    pfs_mul_u64(t->kib, 1024, &t->bytes))
		return -ERANGE;
	return 0;
}

void pfs_tree_describe(FILE *fp, const struct pfs_tree_opts *o, unsigned nranks,
		       unsigned nnodes)
{
	struct pfs_tree_totals t;

	if (pfs_tree_totals(o->levels, o->fanout, o->files, o->blocks, &t))
		return;
	if (o->shared_dir)
		fprintf(fp, INDENT "one tree shared by %u worker%s on %u node%s, in LEVEL0/ of the "
			    "run directory: each worker's directories and files named "
			    "<d|f><j>.<node>.<worker> in every directory of it\n",
			nranks, nranks == 1 ? "" : "s", nnodes, nnodes == 1 ? "" : "s");
	else
		fprintf(fp, INDENT "one tree per worker, in <node>.<worker>/LEVEL0/: %u worker%s on "
			    "%u node%s\n",
			nranks, nranks == 1 ? "" : "s", nnodes, nnodes == 1 ? "" : "s");
	fprintf(fp, INDENT "creating/deleting %" PRIu64 " directory levels with %" PRIu64
		    " directories at each level\n",
		o->levels, o->fanout);
	fprintf(fp, INDENT "for a total of %" PRIu64 " directories\n", t.dirs);
	fprintf(fp, INDENT "with %" PRIu64 " files of size %" PRIu64 "KiB per directory\n", o->files,
		o->blocks * (PFS_TREE_BLOCK / 1024));
	fprintf(fp, INDENT "for a total of %" PRIu64 " files and %" PRIu64 "KiB\n", t.files, t.kib);
	/* Shared: the skeleton once, and each worker's own directories, all
	 * of the tree's but the top. */
	if (nranks > 1 || o->shared_dir)
		fprintf(fp, INDENT "on all %u workers: %" PRIu64 " directories, %" PRIu64
			    " files and %" PRIu64 "KiB\n",
			nranks,
			o->shared_dir ? pfs_add_sat_u64(t.dirs, pfs_mul_sat_u64(t.dirs - 1, nranks))
				      : pfs_mul_sat_u64(t.dirs, nranks),
			pfs_mul_sat_u64(t.files, nranks), pfs_mul_sat_u64(t.kib, nranks));
}
