/* provenance.c: the provenance table: the one place that says which facts
 * about a run a results file keeps, under which names, and where struct
 * pfs_run_info holds them. The HDF5 writer writes them by walking it; the
 * reader fills a run's description back by it. */
#include "pfsbench/core/provenance.h"
#include "pfsbench/core/util.h"

#include <errno.h>
#include <string.h>

#define PROV(name, type, field, at_end) \
	{ name, type, offsetof(struct pfs_run_info, field), \
	  sizeof(((struct pfs_run_info *)0)->field), at_end }
#define PROV_S(name, field) PROV(name, PFS_PROV_STRING, field, false)

const struct pfs_prov_field pfs_prov_fields[] = {
	PROV_S("workload", workload_name),
	PROV_S("pfsbench_version", pfsbench_version),
	PROV_S("command_line", command_line),
	PROV_S("start_time", start_time),
	PROV("end_time", PFS_PROV_STRING, end_time, true),
	PROV("status", PFS_PROV_STRING, status, true),
	PROV("status_reason", PFS_PROV_STRING, status_reason, true),
	PROV_S("mpi_library_version", mpi_version),
	PROV_S("hdf5_library_version", hdf5_version),
	PROV_S("kernel_release", kernel_release),
	PROV("ranks", PFS_PROV_U64, nranks, false),
	PROV("nodes", PFS_PROV_U64, nnodes, false),
	PROV("workers_min", PFS_PROV_U64, workers_min, false),
	PROV("workers_max", PFS_PROV_U64, workers_max, false),
	PROV_S("target_dir", dir),
	PROV_S("run_dir", run_dir),
	PROV_S("fstype", fstype),
	PROV_S("mount_point", mount_point),
	PROV_S("mount_source", mount_source),
	PROV_S("mount_options", mount_options),
	PROV_S("lockproto", lockproto),
	PROV_S("locktable", locktable),
	PROV("caches_dropped", PFS_PROV_BOOL, caches_dropped, true),
	PROV("caches_note", PFS_PROV_STRING, caches_note, true),
	PROV_S("label", label),
	PROV_S("run_note", run_note),
	PROV_S("latency_detail", latency_detail),
};
const size_t pfs_prov_nfields = sizeof(pfs_prov_fields) / sizeof(pfs_prov_fields[0]);

int pfs_prov_set(struct pfs_run_info *ri, const char *name, const char *value)
{
	for (size_t i = 0; i < pfs_prov_nfields; i++) {
		const struct pfs_prov_field *f = &pfs_prov_fields[i];
		char *field = (char *)ri + f->offset;
		uint64_t u;

		if (strcmp(f->name, name))
			continue;
		switch (f->type) {
		case PFS_PROV_STRING:
			/* Cut when too long: a description, not something we act on. */
			(void)pfs_format(field, f->size, "%s", value);
			return 0;
		case PFS_PROV_U64:
			if (pfs_parse_u64(value, &u))
				return -EINVAL;
			memcpy(field, &u, sizeof(u));
			return 0;
		case PFS_PROV_BOOL:
			if (strcmp(value, "true") && strcmp(value, "false"))
				return -EINVAL;
			*(bool *)field = !strcmp(value, "true");
			return 0;
		}
	}
	return 0;
}
