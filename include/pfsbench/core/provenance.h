/* provenance.h: what a results file says about a run besides its rows:
 * the schema's name and version, struct pfs_run_info and the provenance
 * table (src/core/provenance.c) that names each of its fields in the
 * file. Here, below both, so that the writer (src/outputs/hdf5.c) and the
 * reader (src/archive/) share them without either including the other.
 * Pure: no MPI, no HDF5. */
#ifndef PFSBENCH_PROVENANCE_H
#define PFSBENCH_PROVENANCE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pfs_node;
struct pfs_option;
struct pfs_workload;
struct pfs_results_file;

#define PFS_SCHEMA_NAME "pfsbench-results"
/* 2: rows carry their unit, CPU time, stonewall counts and latency
 * extremes; /latency and /progress. Version 1 files still read. */
#define PFS_SCHEMA_VERSION 2u

/* Everything known about a run that is not a row: its provenance. Every
 * field a results file keeps is in pfs_prov_fields, which the writer and
 * the reader both walk. */
struct pfs_run_info {
	/* The run's workload: the engine's while it runs; in a file read back,
	 * NULL until the command finds it in the registry (pfs_workload_find),
	 * so that readers below the workloads ask its hooks, never its name.
	 * Not stored. */
	const struct pfs_workload *workload;
	const void *opts;             /* the workload's options */
	/* The table that describes opts (the workload's), for the results
	 * file's parameters; NULL for none. */
	const struct pfs_option *options;
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
	/* What a row's latency cells hold: "node", the items of its node's
	 * rows of the same test, iteration, step and op, merged onto one of
	 * them; "rank" or "" (files before 2026-12-06): its own. */
	char latency_detail[8];
	const char *results_path;     /* the HDF5 results file; NULL for none (not stored) */
	/* The results file as the engine created it (open, with its
	 * directory); NULL: the HDF5 output creates results_path itself, the
	 * same way. Not stored. */
	const struct pfs_results_file *results_file;
	/* The rows the run's plan makes (every step's workers, every test and
	 * iteration), or 0 when unknown: the results file fits its tables'
	 * chunks to it. Not stored. */
	uint64_t rows_planned;
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

#endif
