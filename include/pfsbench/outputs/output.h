/* output.h: what every output (text report, HDF5, CSV, JSON) is told about
 * a run, the provenance table that says how the run is described, and the
 * registry of outputs (src/outputs/output.c). Outputs run on rank 0 only and never
 * see MPI. */
#ifndef PFSBENCH_OUTPUT_H
#define PFSBENCH_OUTPUT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "pfsbench/core/results.h"

struct pfs_workload;
struct pfs_node;
struct pfs_results_file;

/* Everything known about a run that is not a row: its provenance. Every
 * field a results file keeps is in pfs_prov_fields, which the writer and
 * the reader both walk. */
struct pfs_run_info {
	const struct pfs_workload *workload;
	const void *opts;             /* the workload's options */
	const struct pfs_node *nodes; /* nnodes */
	char workload_name[32];
	char label[64];               /* --label, "" for none */
	char run_note[256];           /* the workload's note on how it ran (pfs_workload.note) */
	char pfsbench_version[32];
	char command_line[4096];
	char start_time[32];          /* UTC, ISO 8601 */
	char end_time[32];
	char status[16];              /* running, complete or aborted */
	char status_reason[1024];
	char mpi_version[256];        /* MPI_Get_library_version, first line */
	char hdf5_version[32];
	char kernel_release[65];      /* rank 0's; every node's is in its struct pfs_node */
	uint64_t nranks;
	uint64_t nnodes;
	uint64_t workers_min, workers_max;
	char dir[PATH_MAX];           /* target directory as given */
	char run_dir[PATH_MAX];       /* the run's own directory in it */
	char fstype[64];              /* upper case: GFS2, EXT4, TMPFS, FUSE.GLUSTERFS */
	char mount_point[PATH_MAX];
	char mount_source[256];
	char mount_options[512];
	char lockproto[32];           /* GFS2's lock protocol; "" elsewhere */
	char locktable[64];           /* GFS2's lock table; "" elsewhere */
	bool caches_dropped;          /* every phase began with dropped caches */
	char caches_note[256];        /* why not, when not */
	const char *results_path;     /* the HDF5 results file; NULL for none (not stored) */
	/* The results file as the engine created it (open, with its
	 * directory); NULL: the HDF5 output creates results_path itself, the
	 * same way. Not stored. */
	const struct pfs_results_file *results_file;
};

/* One provenance attribute: its name in the results file and where
 * struct pfs_run_info keeps it. */
enum pfs_prov_type { PFS_PROV_STRING, PFS_PROV_U64, PFS_PROV_BOOL };
struct pfs_prov_field {
	const char *name;
	enum pfs_prov_type type;
	size_t offset;
	size_t size;
	bool at_end; /* rewritten when the run ends (status, end time, caches) */
};
extern const struct pfs_prov_field pfs_prov_fields[];
extern const size_t pfs_prov_nfields;

/* Sets the provenance field called name from its text; unknown names are
 * left alone (a newer file's). Returns 0, or -EINVAL for a value its type
 * cannot hold. */
int pfs_prov_set(struct pfs_run_info *ri, const char *name, const char *value);

enum pfs_run_status { PFS_RUN_COMPLETE, PFS_RUN_ABORTED };

/* One test iteration's results, as the engine gathered them. */
struct pfs_block {
	const struct pfs_row *rows; /* report order */
	size_t nrows;
	const struct pfs_lat_cell *lat; /* each cell's row indexes rows */
	size_t nlat;
	const struct pfs_tick *ticks;
	size_t nticks;
	const struct pfs_fsstat *fsstats;
	size_t nfsstats;
};

struct pfs_output {
	const struct pfs_output_ops *ops;
	FILE *fp;
	void *priv;
	struct pfs_row_budget *budget; /* NULL: every row's line */
};

/* The row lines of a report within a cap: `pfsbench show` of a big file
 * prints the first lines_max (docs/security.md, "Bounded work"), every
 * summary in full, and says how many it left out and what prints them.
 * A run's own report has no budget: it prints every row, as the tools
 * it replaces did. */
struct pfs_row_budget {
	uint64_t lines_max;
	uint64_t printed, left_out;
	const char *path; /* the results file, named in the note */
};

/* Whether the line of the next row is printed: always without a budget,
 * else while fewer than lines_max were; counts it either way. */
bool pfs_output_row(struct pfs_output *o);
/* Whether any row line is still to be printed (a table's header is not
 * printed above no rows). */
bool pfs_output_rows_left(const struct pfs_output *o);
/* The line saying how many row lines were left out and which commands
 * print them, when any were; nothing else. */
void pfs_output_rows_note(const struct pfs_output *o);

struct pfs_output_ops {
	const char *name;
	int (*begin)(struct pfs_output *o, const struct pfs_run_info *ri);
	int (*block)(struct pfs_output *o, const struct pfs_run_info *ri, const struct pfs_block *b);
	int (*end)(struct pfs_output *o, const struct pfs_run_info *ri, enum pfs_run_status status,
		   const char *reason);
};

/* The outputs every run writes besides its workload's report on stdout,
 * NULL-terminated (src/outputs/output.c). A new output is one file and one line. */
extern const struct pfs_output_ops *const pfs_outputs[];

/* The create_unlink_perf table (src/outputs/table.c). */
extern const struct pfs_output_ops pfs_output_table;

/* fdtree's report for the tree workload (src/outputs/fdtree.c): fdtree's
 * layout, the rates of all ranks together, then the per-node table. */
extern const struct pfs_output_ops pfs_output_fdtree;

/* The stream workload's report (src/outputs/stream.c): dm's, dd's or
 * lmdd's summary lines per rank and for all ranks, then the per-node table
 * in MiB/s. */
extern const struct pfs_output_ops pfs_output_stream;
/* bonnie++'s tables and CSV lines for the bonnie workload
 * (src/outputs/bonnie.c): all ranks together, then each node. */
extern const struct pfs_output_ops pfs_output_bonnie;

/* The matrix workload's report (src/outputs/matrix.c): perf_matrix's
 * matrix lines, the same matrix labelled, how it was measured, and on
 * several nodes the slowest node per cell against the median node. */
extern const struct pfs_output_ops pfs_output_matrix;

/* The results file (src/outputs/hdf5.c): writes ri->results_path,
 * appending and flushing each block, so an interrupted run keeps its rows.
 * Its begin writes through the descriptor of the empty regular file the
 * engine's preflight created (ri->results_file, pfs_results_path_claim),
 * never through its name, and nothing else. */
extern const struct pfs_output_ops pfs_output_hdf5;

/* Pieces of the table, for reports that embed it (tree's per-node table). */
void pfs_table_header(FILE *fp);
void pfs_table_row(FILE *fp, const struct pfs_row *row);
/* The table's notes (caches not dropped, each stonewalled row's count at
 * the deadline) come after all rows, before the last line; a report that
 * embeds the table hands it every block (pfs_table_note_block) and ends
 * with pfs_output_table.end on the same struct pfs_output. */
int pfs_table_note_block(struct pfs_output *o, const struct pfs_block *b);

#endif
