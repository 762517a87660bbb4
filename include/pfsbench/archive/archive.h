/* archive.h: a results file read back into memory (schema in
 * docs/hdf5-schema.md), for show, compare and export. No MPI, no HDF5: the
 * reading itself is in src/archive/archive_hdf5.c. */
#ifndef PFSBENCH_ARCHIVE_H
#define PFSBENCH_ARCHIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pfsbench/core/options.h"
#include "pfsbench/core/provenance.h"
#include "pfsbench/core/results.h"

/* The most records a results file may hold in each table; a file with more
 * is refused with one line before anything of the table is allocated, so
 * a reader holds at most about 250 bytes a row of memory (show; compare
 * of two files twice that), whatever the file's compression hides
 * (docs/security.md, "Bounded work"). A run of 1000 ranks x 5 tests x 4
 * ops x 50 iterations fits; bigger runs are better split. */
#define PFS_ARCHIVE_ROWS_MAX (1u << 20)  /* /rows and /fsstats: 1048576 */
#define PFS_ARCHIVE_TICKS_MAX (1u << 22) /* /progress: 4194304 */
#define PFS_ARCHIVE_CELLS_MAX (1u << 22) /* /latency: 4194304 */
#define PFS_ARCHIVE_NODES_MAX (1u << 16) /* /nodes: 65536 */

struct pfs_archive {
	unsigned schema_version;
	struct pfs_kv *prov;    /* /provenance attributes, in the order written */
	size_t nprov;
	struct pfs_kv *params;  /* /parameters, in the workload's option order */
	size_t nparams;
	struct pfs_node *nodes;
	unsigned nnodes;
	struct pfs_row *rows;   /* in the order written: report order */
	size_t nrows;
	struct pfs_lat_cell *lat; /* /latency: row indexes into rows */
	size_t nlat;
	struct pfs_tick *ticks; /* /progress */
	size_t nticks;
	struct pfs_fsstat *fsstats; /* /fsstats */
	size_t nfsstats;
	/* From the provenance, for the text report. */
	struct pfs_run_info ri;
	enum pfs_run_status status;
	const char *reason;     /* why it was aborted; "" when complete */
};

/* Reads a results file. On failure prints one line naming the file and what
 * is wrong with it, and returns a negative errno (-ENOENT, -EINVAL for a
 * file that is not a results file, -EPROTO for another schema version, -EIO
 * for a damaged one, -E2BIG for a table over its PFS_ARCHIVE_*_MAX, -ENOMEM). src/archive/archive_hdf5.c. */
int pfs_archive_load(const char *path, struct pfs_archive *a);

/* The same, without the child process that pfs_archive_load reads the
 * file in first, so that a crash inside HDF5 on a damaged file makes it
 * damaged rather than killing the caller: what that child runs, and what
 * the fuzz target (tests/fuzz) calls, which must see such crashes. */
int pfs_archive_load_here(const char *path, struct pfs_archive *a);

/* Whether path starts with HDF5's 8-byte signature (a results file, as
 * opposed to a text output of another tool): 1, 0, or -errno when it
 * cannot be opened (pfsbench writes no user block). Reads 8 bytes. */
int pfs_archive_is_hdf5(const char *path);
void pfs_archive_free(struct pfs_archive *a);

/* The value of a provenance attribute; "" when the file lacks it. */
const char *pfs_archive_get(const struct pfs_archive *a, const char *key);

/* The value of a parameter; NULL when the file lacks it. */
const char *pfs_archive_param(const struct pfs_archive *a, const char *key);

/* Fills a->ri, a->status and a->reason from the provenance, and the rows'
 * units where a schema-1 file had none. Called by the loader. */
void pfs_archive_fill_run_info(struct pfs_archive *a);

/* The options of the run, rebuilt from its parameters through the
 * workload's own table (pfs_opts_from_kv); options the file lacks keep the
 * workload's defaults. NULL when out of memory. free() it. */
void *pfs_archive_opts(const struct pfs_archive *a, const struct pfs_workload *wl);

#endif
