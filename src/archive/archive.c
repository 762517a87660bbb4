/* archive.c: a results file in memory, as the commands see it: its
 * provenance looked up by name, the run's description and options rebuilt
 * from it through the same tables that wrote them (pfs_prov_fields, the
 * workload's options). The HDF5 reading is in src/archive/archive_hdf5.c. */
#include "pfsbench/archive/archive.h"
#include "pfsbench/core/topology.h"
#include "pfsbench/core/util.h"
#include "pfsbench/engine/workload.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	free(a->lat);
	free(a->ticks);
	free(a->fsstats);
	memset(a, 0, sizeof(*a));
}

const char *pfs_archive_get(const struct pfs_archive *a, const char *key)
{
	const char *v = pfs_kv_find(a->prov, a->nprov, key);

	return v ? v : "";
}

const char *pfs_archive_param(const struct pfs_archive *a, const char *key)
{
	return pfs_kv_find(a->params, a->nparams, key);
}

/* A schema-1 row named no unit: tree's Mkdir and Rmdir counted
 * directories, everything else files. */
static void fill_v1_units(struct pfs_archive *a)
{
	for (size_t i = 0; i < a->nrows; i++) {
		struct pfs_row *r = &a->rows[i];
		bool dirs = !strcmp(r->op, "Mkdir") || !strcmp(r->op, "Rmdir");

		if (!r->unit[0])
			pfs_row_set_text(r->unit, sizeof(r->unit),
					 pfs_unit_name(dirs ? PFS_UNIT_DIRS : PFS_UNIT_FILES));
	}
}

void pfs_archive_fill_run_info(struct pfs_archive *a)
{
	struct pfs_run_info *ri = &a->ri;
	const char *status;

	memset(ri, 0, sizeof(*ri));
	for (size_t i = 0; i < a->nprov; i++)
		(void)pfs_prov_set(ri, a->prov[i].key, a->prov[i].value);
	ri->nnodes = a->nnodes;
	ri->nodes = a->nodes;
	status = pfs_archive_get(a, "status");
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
	if (a->schema_version == 1)
		fill_v1_units(a);
}

void *pfs_archive_opts(const struct pfs_archive *a, const struct pfs_workload *wl)
{
	void *opts = calloc(1, wl->opts_size);

	if (!opts)
		return NULL;
	if (pfs_workload_defaults(wl, opts)) {
		free(opts);
		return NULL;
	}
	/* A value this pfsbench could not have written keeps the default. */
	for (size_t i = 0; i < a->nparams; i++)
		(void)pfs_opts_from_kv(wl->options, opts, a->params[i].key, a->params[i].value);
	return opts;
}

int pfs_archive_is_hdf5(const char *path)
{
	static const unsigned char sig[8] = { 0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n' };
	unsigned char head[8];
	FILE *f = pfs_fopen_regular(path, NULL);
	size_t n;

	if (!f)
		return -errno;
	n = fread(head, 1, sizeof(head), f);
	fclose(f);
	return n == sizeof(head) && !memcmp(head, sig, sizeof(sig));
}
