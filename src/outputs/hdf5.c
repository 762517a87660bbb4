/* hdf5.c: the results file as an output (the layout is docs/hdf5-schema.md).
 * begin creates the file and its provenance with status "running", each
 * block of rows is appended to one chunked, extendible table and flushed,
 * and end records the status. A run that dies keeps every block written
 * before it died. The reader is src/archive_hdf5.c. */
#include "pfsbench/archive.h"
#include "pfsbench/h5common.h"
#include "pfsbench/options.h"
#include "pfsbench/output.h"
#include "pfsbench/topology.h"
#include "pfsbench/util.h"
#include "pfsbench/workload.h"

#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

/* 4096 rows of 144 bytes: a chunk fits HDF5's default 1 MiB chunk cache. */
#define ROWS_CHUNK 4096
#define NODES_CHUNK 64

struct h5out {
	hid_t file, rows, mtype; /* mtype: struct pfs_row in memory */
	hsize_t nrows;
};

/* ---- writing attributes -------------------------------------------------- */

/* Writes a scalar attribute, replacing one of that name. */
static int attr_write(hid_t loc, const char *name, hid_t type, const void *buf)
{
	hid_t space, attr;
	int rc = -1;

	if (type < 0)
		return -1;
	if (H5Aexists(loc, name) > 0 && H5Adelete(loc, name) < 0)
		return -1;
	space = H5Screate(H5S_SCALAR);
	if (space < 0)
		return -1;
	attr = H5Acreate2(loc, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
	if (attr >= 0) {
		rc = H5Awrite(attr, type, buf) < 0 ? -1 : 0;
		H5Aclose(attr);
	}
	H5Sclose(space);
	return rc;
}

static int attr_str(hid_t loc, const char *name, const char *value)
{
	hid_t t = pfs_h5_str_type(strlen(value) + 1);
	int rc = attr_write(loc, name, t, value);

	if (t >= 0)
		H5Tclose(t);
	return rc;
}

static int attr_u64(hid_t loc, const char *name, uint64_t value)
{
	return attr_write(loc, name, H5T_NATIVE_UINT64, &value);
}

static int attr_bool(hid_t loc, const char *name, bool value)
{
	hid_t t = pfs_h5_bool_type();
	int8_t v = value ? 1 : 0;
	int rc = attr_write(loc, name, t, &v);

	if (t >= 0)
		H5Tclose(t);
	return rc;
}

/* A group whose attributes iterate in the order they were written. */
static hid_t make_group(hid_t file, const char *name)
{
	hid_t gcpl = H5Pcreate(H5P_GROUP_CREATE), g = H5I_INVALID_HID;

	if (gcpl < 0)
		return gcpl;
	if (H5Pset_attr_creation_order(gcpl, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED) >= 0)
		g = H5Gcreate2(file, name, H5P_DEFAULT, gcpl, H5P_DEFAULT);
	H5Pclose(gcpl);
	return g;
}

/* ---- the output ------------------------------------------------------------ */

static int write_status(hid_t file, const struct pfs_run_info *ri, const char *status,
			const char *reason)
{
	hid_t g = H5Gopen2(file, "provenance", H5P_DEFAULT);
	int rc;

	if (g < 0)
		return -1;
	rc = attr_str(g, "status", status) | attr_str(g, "status_reason", reason) |
	     attr_str(g, "end_time", ri->end_time) | attr_bool(g, "caches_dropped", ri->caches_dropped) |
	     attr_str(g, "caches_note", ri->caches_note);
	H5Gclose(g);
	return rc ? -1 : 0;
}

static int write_provenance(hid_t file, const struct pfs_run_info *ri)
{
	hid_t g = make_group(file, "provenance");
	struct utsname uts;
	unsigned maj = 0, min = 0, rel = 0;
	char hdf5_version[32];
	int rc;

	if (g < 0)
		return -1;
	if (uname(&uts))
		snprintf(uts.release, sizeof(uts.release), "unknown");
	H5get_libversion(&maj, &min, &rel);
	snprintf(hdf5_version, sizeof(hdf5_version), "%u.%u.%u", maj, min, rel);
	rc = attr_str(g, "workload", ri->workload ? ri->workload->name : "") |
	     attr_str(g, "pfsbench_version", PACKAGE_VERSION) |
	     attr_str(g, "command_line", ri->command_line ? ri->command_line : "") |
	     attr_str(g, "start_time", ri->start_time) | attr_str(g, "end_time", "") |
	     attr_str(g, "status", "running") | attr_str(g, "status_reason", "") |
	     attr_str(g, "mpi_library_version", ri->mpi_version) |
	     attr_str(g, "hdf5_library_version", hdf5_version) |
	     attr_str(g, "kernel_release", uts.release) | attr_u64(g, "ranks", ri->nranks) |
	     attr_u64(g, "nodes", ri->nnodes) | attr_u64(g, "workers_min", ri->workers_min) |
	     attr_u64(g, "workers_max", ri->workers_max) |
	     attr_str(g, "target_dir", ri->dir ? ri->dir : "") |
	     attr_str(g, "run_dir", ri->run_dir ? ri->run_dir : "") |
	     attr_str(g, "fstype", ri->fstype) | attr_str(g, "mount_point", ri->mount_point) |
	     attr_str(g, "mount_source", ri->mount_source) |
	     attr_str(g, "mount_options", ri->mount_options) |
	     attr_bool(g, "caches_dropped", ri->caches_dropped) |
	     attr_str(g, "caches_note", ri->caches_note);
	H5Gclose(g);
	return rc ? -1 : 0;
}

/* Every option of the workload's table, by its long name, read from the
 * options struct by offset and kind: no workload needs code here. The
 * results path is where the file is, not how the run was made. */
static int write_parameters(hid_t file, const struct pfs_run_info *ri)
{
	hid_t g = make_group(file, "parameters"), units = make_group(file, "parameter_units");
	int rc = g < 0 || units < 0 ? -1 : 0;

	for (const struct pfs_option *op = ri->workload && ri->opts ? ri->workload->options : NULL;
	     !rc && op && op->long_name; op++) {
		const char *field = (const char *)ri->opts + op->offset;
		uint64_t u;

		if (op->offset == offsetof(struct pfs_common_opts, results))
			continue;
		switch (op->kind) {
		case PFS_OPT_SET:
		case PFS_OPT_CLEAR:
			/* The flag's value is whether it is in effect. */
			rc = attr_bool(g, op->long_name, *(const bool *)field == (op->kind == PFS_OPT_SET));
			break;
		case PFS_OPT_SIZE:
			rc = attr_str(units, op->long_name, "bytes");
			/* fall through */
		case PFS_OPT_COUNT:
		case PFS_OPT_UINT:
			memcpy(&u, field, sizeof(u));
			rc |= attr_u64(g, op->long_name, u);
			break;
		case PFS_OPT_STRING:
			rc = attr_str(g, op->long_name, field);
			break;
		case PFS_OPT_HELP:
		case PFS_OPT_VERSION:
			break;
		}
	}
	pfs_h5_close_id(&g, H5Gclose);
	pfs_h5_close_id(&units, H5Gclose);
	return rc ? -1 : 0;
}

/* A one-dimensional dataset that grows, chunked by chunk rows. */
static hid_t make_table(hid_t file, const char *name, hid_t type, hsize_t n, hsize_t chunk)
{
	hsize_t max = H5S_UNLIMITED;
	hid_t space = H5Screate_simple(1, &n, &max), dcpl = H5Pcreate(H5P_DATASET_CREATE);
	hid_t ds = H5I_INVALID_HID;

	if (space >= 0 && dcpl >= 0 && H5Pset_chunk(dcpl, 1, &chunk) >= 0)
		ds = H5Dcreate2(file, name, type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
	pfs_h5_close_id(&space, H5Sclose);
	pfs_h5_close_id(&dcpl, H5Pclose);
	return ds;
}

/* Units and meanings beside the data, from the same field table. */
static int write_field_attrs(hid_t ds, const struct pfs_field *fields, size_t nfields)
{
	int rc = 0;

	for (size_t i = 0; i < nfields && !rc; i++) {
		char name[64];

		snprintf(name, sizeof(name), "%s.unit", fields[i].name);
		rc = attr_str(ds, name, fields[i].unit);
		snprintf(name, sizeof(name), "%s.description", fields[i].name);
		rc |= attr_str(ds, name, fields[i].description);
	}
	return rc;
}

static int write_nodes(hid_t file, const struct pfs_run_info *ri)
{
	hid_t ft = pfs_h5_node_type(H5I_INVALID_HID, true), mt = pfs_h5_node_type(H5I_INVALID_HID, false);
	hid_t ds = H5I_INVALID_HID;
	int rc = -1;

	if (ft >= 0 && mt >= 0)
		ds = make_table(file, "nodes", ft, ri->nnodes, NODES_CHUNK);
	if (ds >= 0 && write_field_attrs(ds, pfs_node_fields, pfs_node_nfields) == 0)
		rc = ri->nnodes == 0 || H5Dwrite(ds, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, ri->nodes) >= 0
			     ? 0
			     : -1;
	pfs_h5_close_id(&ds, H5Dclose);
	pfs_h5_close_id(&ft, H5Tclose);
	pfs_h5_close_id(&mt, H5Tclose);
	return rc;
}

static int make_rows(struct h5out *h)
{
	hid_t ft = pfs_h5_row_type(H5I_INVALID_HID, true);

	h->mtype = pfs_h5_row_type(H5I_INVALID_HID, false);
	if (ft >= 0 && h->mtype >= 0)
		h->rows = make_table(h->file, "rows", ft, 0, ROWS_CHUNK);
	pfs_h5_close_id(&ft, H5Tclose);
	if (h->rows < 0)
		return -1;
	return write_field_attrs(h->rows, pfs_row_fields, pfs_row_nfields);
}

static int h5_write_head(struct h5out *h, const struct pfs_run_info *ri)
{
	if (attr_str(h->file, "schema", PFS_SCHEMA_NAME) ||
	    attr_u64(h->file, "schema_version", PFS_SCHEMA_VERSION) || write_provenance(h->file, ri) ||
	    write_parameters(h->file, ri) || write_nodes(h->file, ri) || make_rows(h))
		return -1;
	return H5Fflush(h->file, H5F_SCOPE_LOCAL) < 0 ? -1 : 0;
}

static void h5_close(struct pfs_output *o)
{
	struct h5out *h = o->priv;

	if (!h)
		return;
	pfs_h5_close_id(&h->rows, H5Dclose);
	pfs_h5_close_id(&h->mtype, H5Tclose);
	pfs_h5_close_id(&h->file, H5Fclose);
	free(h);
	o->priv = NULL;
}

static int h5_begin(struct pfs_output *o, const struct pfs_run_info *ri)
{
	struct h5out *h = calloc(1, sizeof(*h));
	int err;

	pfs_h5_quiet();
	if (!h)
		return pfs_error("cannot create '%s': %s", ri->results_path, strerror(ENOMEM));
	h->file = h->rows = h->mtype = H5I_INVALID_HID;
	o->priv = h;
	errno = 0;
	h->file = H5Fcreate(ri->results_path, H5F_ACC_EXCL, H5P_DEFAULT, H5P_DEFAULT);
	err = errno;
	if (h->file < 0) {
		h5_close(o);
		return pfs_error("cannot create '%s': %s", ri->results_path,
				 err ? strerror(err) : "HDF5 error");
	}
	if (h5_write_head(h, ri)) {
		h5_close(o);
		return pfs_error("cannot write the provenance to '%s'", ri->results_path);
	}
	return 0;
}

static int h5_block(struct pfs_output *o, const struct pfs_run_info *ri, const struct pfs_row *rows,
		    size_t n)
{
	struct h5out *h = o->priv;
	hsize_t start, count = n, total;
	hid_t fspace = H5I_INVALID_HID, mspace = H5I_INVALID_HID;
	int rc = -1;

	if (!h)
		return -1;
	if (n == 0)
		return 0;
	start = h->nrows;
	total = h->nrows + n;
	if (H5Dset_extent(h->rows, &total) < 0)
		goto out;
	fspace = H5Dget_space(h->rows);
	mspace = H5Screate_simple(1, &count, NULL);
	if (fspace < 0 || mspace < 0 ||
	    H5Sselect_hyperslab(fspace, H5S_SELECT_SET, &start, NULL, &count, NULL) < 0 ||
	    H5Dwrite(h->rows, h->mtype, mspace, fspace, H5P_DEFAULT, rows) < 0)
		goto out;
	h->nrows = total;
	/* On disk now: a run killed after this keeps these rows. */
	if (H5Fflush(h->file, H5F_SCOPE_LOCAL) >= 0)
		rc = 0;
out:
	pfs_h5_close_id(&fspace, H5Sclose);
	pfs_h5_close_id(&mspace, H5Sclose);
	if (rc)
		pfs_error("cannot write rows to '%s'", ri->results_path);
	return rc;
}

static int h5_end(struct pfs_output *o, const struct pfs_run_info *ri, enum pfs_run_status status,
		  const char *reason)
{
	struct h5out *h = o->priv;
	int rc;

	if (!h)
		return -1;
	rc = write_status(h->file, ri, status == PFS_RUN_COMPLETE ? "complete" : "aborted",
			  reason ? reason : "");
	pfs_h5_close_id(&h->rows, H5Dclose);
	pfs_h5_close_id(&h->mtype, H5Tclose);
	if (H5Fclose(h->file) < 0)
		rc = -1;
	h->file = H5I_INVALID_HID;
	h5_close(o);
	if (rc)
		pfs_error("cannot finish '%s'; its status may still say running", ri->results_path);
	return rc;
}

const struct pfs_output_ops pfs_output_hdf5 = {
	.name = "hdf5",
	.begin = h5_begin,
	.block = h5_block,
	.end = h5_end,
};
