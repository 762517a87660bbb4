/* tree_plan.h: the fdtree workload's options and planning arithmetic
 * (src/plans/tree_plan.c), shared by the workload (src/workloads/tree.c) and its
 * report (src/outputs/fdtree.c), so that neither reaches into the other.
 * Pure: no MPI. */
#ifndef PFSBENCH_TREE_PLAN_H
#define PFSBENCH_TREE_PLAN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "pfsbench/core/options.h"

/* Deepest tree: each level below the top keeps one directory open while
 * the walk is inside it. */
#define PFS_TREE_MAX_LEVELS 256
#define PFS_TREE_BLOCK 4096u /* -s counts blocks of 4 KiB, as fdtree does */

/* The ops of the tree test, as rows name them. */
#define PFS_TREE_OP_MKDIR "Mkdir"   /* directory create */
#define PFS_TREE_OP_CREATE "Create" /* file create, with the files' data */
#define PFS_TREE_OP_STAT "Stat"     /* file stat (--stat only) */
#define PFS_TREE_OP_UNLINK "Unlink" /* file remove */
#define PFS_TREE_OP_RMDIR "Rmdir"   /* directory remove */

struct pfs_tree_opts {
	struct pfs_common_opts common; /* -o is common.dir */
	uint64_t levels;  /* -l: levels below the top directory */
	uint64_t fanout;  /* -d: directories in each directory above the bottom level */
	uint64_t files;   /* -f: files in every directory */
	uint64_t blocks;  /* -s: file size in 4 KiB blocks */
	bool create_only; /* -C */
	bool remove_only; /* -R */
	bool stat;        /* --stat: a Stat phase between Create and Unlink */
	bool shared_dir;  /* --shared-dir: one tree for all workers (docs/tree.md) */
};

/* One worker's tree, as fdtree counts it. */
struct pfs_tree_totals {
	uint64_t dirs;  /* sum of fanout^i for i = 0..levels */
	uint64_t files; /* dirs x files per directory */
	uint64_t kib;   /* files x blocks x 4 */
	uint64_t bytes; /* kib x 1024 */
};

/* Fills t. Returns 0, or -ERANGE when a count does not fit in 64 bits
 * (fanout 0 counts as 1 directory, the top one). */
int pfs_tree_totals(uint64_t levels, uint64_t fanout, uint64_t files, uint64_t blocks,
		    struct pfs_tree_totals *t);

/* The plan in fdtree's words ("creating/deleting ...", "for a total of
 * ..."), each line indented by a tab, for the report and --dry-run. */
void pfs_tree_describe(FILE *fp, const struct pfs_tree_opts *o, unsigned nranks,
		       unsigned nnodes);

#endif
