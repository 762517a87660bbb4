/* output.h: what every output of a run (its workload's text report, the
 * HDF5 results file) is told about the run (its provenance,
 * include/pfsbench/core/provenance.h, and its blocks of rows), and the
 * registry of outputs (src/outputs/output.c). Outputs run on rank 0 only
 * and never see MPI. CSV and JSON are no outputs of a run: `pfsbench
 * export` writes them from a results file (src/commands/export.c), and
 * --output-format json|csv has main.c do the same at the run's end. */
#ifndef PFSBENCH_OUTPUT_H
#define PFSBENCH_OUTPUT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "pfsbench/core/provenance.h"
#include "pfsbench/core/results.h"

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

/* One output of a run and where it writes: what the engine's caller hands
 * it (struct pfs_engine_io, include/pfsbench/engine/engine.h), so the
 * engine calls each through its ops and never names one. */
struct pfs_output {
	const struct pfs_output_ops *ops;
	FILE *fp;  /* its text; unused by an output of the results file */
	FILE *err; /* text it sends beside fp (bonnie -q's tables); NULL: stderr */
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

/* Where o's side text goes: o->err, or stderr without one. */
FILE *pfs_output_err(const struct pfs_output *o);

/* Whether the line of the next row is printed: always without a budget,
 * else while fewer than lines_max were; counts it either way. */
bool pfs_output_row(struct pfs_output *o);
/* Whether any row line is still to be printed (a table's header is not
 * printed above no rows). */
bool pfs_output_rows_left(const struct pfs_output *o);
/* The line saying how many row lines were left out and which commands
 * print them, when any were; nothing else. */
void pfs_output_rows_note(const struct pfs_output *o);

/* The output writes the run's results file (ri->results_file), the run's
 * record: the engine claims the file before the run only when an output
 * of the run has this flag, and a run whose record cannot begin or take a
 * test iteration stops; any other output's failure is a warning. */
#define PFS_OUTPUT_RESULTS_FILE 1u

struct pfs_output_ops {
	const char *name;
	unsigned flags; /* PFS_OUTPUT_* */
	int (*begin)(struct pfs_output *o, const struct pfs_run_info *ri);
	int (*block)(struct pfs_output *o, const struct pfs_run_info *ri, const struct pfs_block *b);
	/* More of the last block's ticks, in rank order after its own: a
	 * block whose ticks exceed what rank 0 holds at once (many ranks,
	 * long steps) brings them in rounds (src/engine/gather.c, docs/
	 * scale.md). NULL: the output takes no ticks beyond a block's. A
	 * failure is the block's, as block's is. */
	int (*ticks)(struct pfs_output *o, const struct pfs_run_info *ri, const struct pfs_tick *t,
		     size_t n);
	int (*end)(struct pfs_output *o, const struct pfs_run_info *ri, enum pfs_run_status status,
		   const char *reason);
};

/* The outputs every run of the pfsbench command writes besides its
 * workload's report, NULL-terminated (src/outputs/output.c); the command
 * hands them to the engine (src/commands/run.c), each writing to the run's
 * out stream. A new output is one file, its two lines in that list (its
 * name and its place) and Makefile.am: the registered outputs are declared
 * there only (the results file, src/outputs/hdf5.c, among them). */
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


/* Pieces of the table, for reports that embed it (tree's per-node table). */
void pfs_table_header(FILE *fp);
void pfs_table_row(FILE *fp, const struct pfs_row *row);
/* The table's notes (caches not dropped, each stonewalled row's count at
 * the deadline) come after all rows, before the last line; a report that
 * embeds the table hands it every block (pfs_table_note_block) and ends
 * with pfs_output_table.end on the same struct pfs_output. */
int pfs_table_note_block(struct pfs_output *o, const struct pfs_block *b);

#endif
