/* archive.h: a results file read back into memory (schema in
 * docs/hdf5-schema.md), for show, compare and export. No MPI, no HDF5: the
 * reading itself is in
 * src/outputs/hdf5.c, the only file that knows HDF5. */
#ifndef PFSBENCH_ARCHIVE_H
#define PFSBENCH_ARCHIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pfsbench/output.h"
#include "pfsbench/results.h"

#define PFS_SCHEMA_NAME "pfsbench-results"
#define PFS_SCHEMA_VERSION 1u

enum pfs_value_kind { PFS_VALUE_STRING, PFS_VALUE_UINT, PFS_VALUE_BOOL };

/* One provenance attribute or parameter, as text: a UINT is decimal, a BOOL
 * is "true" or "false". */
struct pfs_kv {
	char *key;
	char *value;
	enum pfs_value_kind kind;
};

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
	/* From the provenance, for the text report. */
	struct pfs_run_info ri;
	enum pfs_run_status status;
	const char *reason;     /* why it was aborted; "" when complete */
};

/* Reads a results file. On failure prints one line naming the file and what
 * is wrong with it, and returns a negative errno (-ENOENT, -EINVAL for a
 * file that is not a results file, -EPROTO for another schema version, -EIO
 * for a damaged one, -ENOMEM). src/outputs/hdf5.c. */
int pfs_archive_load(const char *path, struct pfs_archive *a);
void pfs_archive_free(struct pfs_archive *a);

/* The value of a provenance attribute; "" when the file lacks it. */
const char *pfs_archive_get(const struct pfs_archive *a, const char *key);

/* Fills a->ri, a->status and a->reason from the provenance. Called by the
 * loader. */
void pfs_archive_fill_run_info(struct pfs_archive *a);

#endif
