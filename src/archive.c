/* archive.c: a results file in memory, as the commands see it. The HDF5
 * reading is in src/outputs/hdf5.c. */
#include "pfsbench/archive.h"
#include "pfsbench/topology.h"
#include "pfsbench/util.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void free_kvs(struct pfs_kv *kv, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(kv[i].key);
		free(kv[i].value);
	}
	free(kv);
}

void pfs_archive_free(struct pfs_archive *a)
{
	free_kvs(a->prov, a->nprov);
	free_kvs(a->params, a->nparams);
	free(a->nodes);
	free(a->rows);
	memset(a, 0, sizeof(*a));
}

const char *pfs_archive_get(const struct pfs_archive *a, const char *key)
{
	for (size_t i = 0; i < a->nprov; i++)
		if (!strcmp(a->prov[i].key, key))
			return a->prov[i].value;
	return "";
}

static unsigned get_unsigned(const struct pfs_archive *a, const char *key)
{
	uint64_t v = 0;

	if (pfs_parse_u64(pfs_archive_get(a, key), &v) || v > UINT_MAX)
		return 0;
	return (unsigned)v;
}

void pfs_archive_fill_run_info(struct pfs_archive *a)
{
	struct pfs_run_info *ri = &a->ri;
	const char *status = pfs_archive_get(a, "status");

	memset(ri, 0, sizeof(*ri));
	ri->dir = pfs_archive_get(a, "target_dir");
	ri->run_dir = pfs_archive_get(a, "run_dir");
	ri->command_line = pfs_archive_get(a, "command_line");
	snprintf(ri->fstype, sizeof(ri->fstype), "%s", pfs_archive_get(a, "fstype"));
	snprintf(ri->mount_source, sizeof(ri->mount_source), "%s", pfs_archive_get(a, "mount_source"));
	snprintf(ri->mount_options, sizeof(ri->mount_options), "%s",
		 pfs_archive_get(a, "mount_options"));
	snprintf(ri->mount_point, sizeof(ri->mount_point), "%s", pfs_archive_get(a, "mount_point"));
	snprintf(ri->mpi_version, sizeof(ri->mpi_version), "%s",
		 pfs_archive_get(a, "mpi_library_version"));
	snprintf(ri->start_time, sizeof(ri->start_time), "%s", pfs_archive_get(a, "start_time"));
	snprintf(ri->end_time, sizeof(ri->end_time), "%s", pfs_archive_get(a, "end_time"));
	snprintf(ri->caches_note, sizeof(ri->caches_note), "%s", pfs_archive_get(a, "caches_note"));
	ri->caches_dropped = !strcmp(pfs_archive_get(a, "caches_dropped"), "true");
	ri->nranks = get_unsigned(a, "ranks");
	ri->nnodes = a->nnodes;
	ri->nodes = a->nodes;
	ri->workers_min = get_unsigned(a, "workers_min");
	ri->workers_max = get_unsigned(a, "workers_max");
	if (!strcmp(status, "complete")) {
		a->status = PFS_RUN_COMPLETE;
		a->reason = "";
	} else if (!strcmp(status, "aborted")) {
		a->status = PFS_RUN_ABORTED;
		a->reason = pfs_archive_get(a, "status_reason");
	} else {
		/* "running": the writer never reached its end. */
		a->status = PFS_RUN_ABORTED;
		a->reason = "the run ended without closing its results file (killed, or its node failed)";
	}
}
