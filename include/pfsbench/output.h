/* output.h: what every output (text report, HDF5, CSV, JSON) is told about
 * a run. Outputs run on rank 0 only and never see MPI. */
#ifndef PFSBENCH_OUTPUT_H
#define PFSBENCH_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "pfsbench/results.h"

struct pfs_workload;
struct pfs_node;

/* Everything known about a run that is not a row: provenance. */
struct pfs_run_info {
	const struct pfs_workload *workload;
	const void *opts;           /* the workload's options */
	const char *dir;            /* target directory as given */
	const char *run_dir;        /* the run's own directory in it */
	const char *results_path;   /* the HDF5 results file; NULL for none */
	char fstype[64];            /* upper case: GFS2, EXT4, TMPFS, FUSE.GLUSTERFS */
	char mount_source[256];
	char mount_options[512];
	char mount_point[4096];
	char lockproto[32];         /* GFS2's lock protocol; "" elsewhere */
	char locktable[64];         /* GFS2's lock table; "" elsewhere */
	char mpi_version[256];      /* MPI_Get_library_version, first line */
	unsigned nranks;
	unsigned nnodes;
	const struct pfs_node *nodes;
	unsigned workers_min, workers_max;
	bool caches_dropped;        /* every phase began with dropped caches */
	char caches_note[256];      /* why not, when not */
	const char *command_line;
	char start_time[32];        /* UTC, ISO 8601 */
	char end_time[32];
};

enum pfs_run_status { PFS_RUN_COMPLETE, PFS_RUN_ABORTED };

struct pfs_output {
	const struct pfs_output_ops *ops;
	FILE *fp;
	void *priv;
};

struct pfs_output_ops {
	const char *name;
	int (*begin)(struct pfs_output *o, const struct pfs_run_info *ri);
	/* One test's iteration, rows in report order. */
	int (*block)(struct pfs_output *o, const struct pfs_run_info *ri, const struct pfs_row *rows,
		     size_t n);
	int (*end)(struct pfs_output *o, const struct pfs_run_info *ri, enum pfs_run_status status,
		   const char *reason);
};

/* The create_unlink_perf table (src/outputs/table.c). */
extern const struct pfs_output_ops pfs_output_table;

/* The results archive (src/outputs/hdf5.c): writes ri->results_path,
 * appending and flushing each block, so an interrupted run keeps its rows. */
extern const struct pfs_output_ops pfs_output_hdf5;

/* Pieces of the table, for reports that embed it (tree's per-node table). */
void pfs_table_header(FILE *fp);
void pfs_table_row(FILE *fp, const struct pfs_row *row);

#endif
