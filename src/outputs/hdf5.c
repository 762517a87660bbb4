/* hdf5.c: the results archive; the only module that speaks HDF5.
 *
 * Writing is an output like the text report: begin creates the file and its
 * provenance with status "running", each block of rows is appended to one
 * chunked, extendible table and flushed, and end records the status. A run
 * that dies keeps every block written before it died.
 *
 * Reading (pfs_archive_load) takes a file back into memory for show,
 * compare and export. Attributes are read generically, as text, so that a
 * new provenance attribute needs no reader change. Rows are read by field
 * name through pfs_row_fields, so a file lacking a newer field still reads.
 * The layout is docs/hdf5-schema.md. */
#include "pfsbench/archive.h"
#include "pfsbench/options.h"
#include "pfsbench/output.h"
#include "pfsbench/topology.h"
#include "pfsbench/util.h"
#include "pfsbench/workload.h"

#include "config.h"

#include <hdf5.h>

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

static void h5_quiet(void)
{
	/* Our messages say what failed; HDF5's stack dumps would bury them. */
	H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
}

static void close_id(hid_t *id, herr_t (*close_fn)(hid_t))
{
	if (*id >= 0)
		close_fn(*id);
	*id = H5I_INVALID_HID;
}

/* ---- types ------------------------------------------------------------- */

static hid_t str_type(size_t size)
{
	hid_t t = H5Tcopy(H5T_C_S1);

	if (t < 0)
		return t;
	if (H5Tset_size(t, size ? size : 1) < 0 || H5Tset_strpad(t, H5T_STR_NULLTERM) < 0) {
		H5Tclose(t);
		return H5I_INVALID_HID;
	}
	return t;
}

/* An enum {FALSE = 0, TRUE = 1} on int8: what h5py and numpy read as bool. */
static hid_t bool_type(void)
{
	hid_t t = H5Tenum_create(H5T_NATIVE_INT8);
	int8_t no = 0, yes = 1;

	if (t < 0)
		return t;
	if (H5Tenum_insert(t, "FALSE", &no) < 0 || H5Tenum_insert(t, "TRUE", &yes) < 0) {
		H5Tclose(t);
		return H5I_INVALID_HID;
	}
	return t;
}

static int insert_member(hid_t compound, const char *name, size_t offset, hid_t member)
{
	herr_t rc = member < 0 ? -1 : H5Tinsert(compound, name, offset, member);

	if (member >= 0)
		H5Tclose(member);
	return rc < 0 ? -1 : 0;
}

static hid_t field_type(const struct pfs_field *f)
{
	switch (f->type) {
	case PFS_FIELD_STRING:
		return str_type(f->size);
	case PFS_FIELD_U32:
		return H5Tcopy(H5T_NATIVE_UINT32);
	case PFS_FIELD_U64:
		return H5Tcopy(H5T_NATIVE_UINT64);
	}
	return H5I_INVALID_HID;
}

/* struct pfs_row as HDF5 sees it, from the field table. With have (a file's
 * row type), only the fields that type has: the rest stay zero. Packed, it
 * is the file's type, without the struct's padding. */
static hid_t row_type(hid_t have, bool packed)
{
	hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(struct pfs_row));

	if (t < 0)
		return t;
	for (size_t i = 0; i < pfs_row_nfields; i++) {
		const struct pfs_field *f = &pfs_row_fields[i];

		if (have >= 0 && H5Tget_member_index(have, f->name) < 0)
			continue;
		if (insert_member(t, f->name, f->offset, field_type(f)))
			goto fail;
	}
	if (packed && H5Tpack(t) < 0)
		goto fail;
	return t;
fail:
	H5Tclose(t);
	return H5I_INVALID_HID;
}

static hid_t node_type(void)
{
	hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(struct pfs_node));

	if (t < 0)
		return t;
	if (insert_member(t, "name", offsetof(struct pfs_node, name), str_type(PFS_NODE_NAME_MAX)) ||
	    insert_member(t, "addr", offsetof(struct pfs_node, addr), str_type(PFS_ADDR_MAX)) ||
	    insert_member(t, "workers", offsetof(struct pfs_node, nworkers),
			  H5Tcopy(H5T_NATIVE_UINT)) ||
	    insert_member(t, "mem_bytes", offsetof(struct pfs_node, mem_bytes),
			  H5Tcopy(H5T_NATIVE_UINT64))) {
		H5Tclose(t);
		return H5I_INVALID_HID;
	}
	return t;
}

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
	hid_t t = str_type(strlen(value) + 1);
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
	hid_t t = bool_type();
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
	     attr_str(g, "lockproto", ri->lockproto) | attr_str(g, "locktable", ri->locktable) |
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
	close_id(&g, H5Gclose);
	close_id(&units, H5Gclose);
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
	close_id(&space, H5Sclose);
	close_id(&dcpl, H5Pclose);
	return ds;
}

static int write_nodes(hid_t file, const struct pfs_run_info *ri)
{
	hid_t t = node_type(), ds = H5I_INVALID_HID;
	int rc = -1;

	if (t >= 0)
		ds = make_table(file, "nodes", t, ri->nnodes, NODES_CHUNK);
	if (ds >= 0 && attr_str(ds, "mem_bytes.unit", "bytes") == 0)
		rc = ri->nnodes == 0 || H5Dwrite(ds, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, ri->nodes) >= 0
			     ? 0
			     : -1;
	close_id(&ds, H5Dclose);
	close_id(&t, H5Tclose);
	return rc;
}

static int make_rows(struct h5out *h)
{
	hid_t ft = row_type(H5I_INVALID_HID, true);
	int rc = 0;

	h->mtype = row_type(H5I_INVALID_HID, false);
	if (ft >= 0 && h->mtype >= 0)
		h->rows = make_table(h->file, "rows", ft, 0, ROWS_CHUNK);
	close_id(&ft, H5Tclose);
	if (h->rows < 0)
		return -1;
	/* Units and meanings beside the data, from the same field table. */
	for (size_t i = 0; i < pfs_row_nfields && !rc; i++) {
		const struct pfs_field *f = &pfs_row_fields[i];
		char name[64];

		snprintf(name, sizeof(name), "%s.unit", f->name);
		rc = attr_str(h->rows, name, f->unit);
		snprintf(name, sizeof(name), "%s.description", f->name);
		rc |= attr_str(h->rows, name, f->description);
	}
	return rc;
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
	close_id(&h->rows, H5Dclose);
	close_id(&h->mtype, H5Tclose);
	close_id(&h->file, H5Fclose);
	free(h);
	o->priv = NULL;
}

static int h5_begin(struct pfs_output *o, const struct pfs_run_info *ri)
{
	struct h5out *h = calloc(1, sizeof(*h));
	int err;

	h5_quiet();
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
	close_id(&fspace, H5Sclose);
	close_id(&mspace, H5Sclose);
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
	close_id(&h->rows, H5Dclose);
	close_id(&h->mtype, H5Tclose);
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

/* ---- reading ------------------------------------------------------------------ */

static int read_string(hid_t attr, hid_t type, char **out)
{
	hid_t mt;
	int rc = -1;

	if (H5Tis_variable_str(type) > 0) {
		char *s = NULL;

		mt = str_type(1);
		if (mt >= 0 && H5Tset_size(mt, H5T_VARIABLE) >= 0 && H5Aread(attr, mt, &s) >= 0) {
			*out = strdup(s ? s : "");
			rc = *out ? 0 : -1;
			H5free_memory(s);
		}
	} else {
		size_t n = H5Tget_size(type);

		*out = calloc(1, n + 1);
		mt = str_type(n + 1);
		if (*out && mt >= 0 && H5Aread(attr, mt, *out) >= 0)
			rc = 0;
	}
	close_id(&mt, H5Tclose);
	return rc;
}

/* One scalar attribute as text. Returns 0, 1 for a kind we do not show
 * (skipped), or -1. */
static int read_kv(hid_t loc, const char *name, struct pfs_kv *kv)
{
	hid_t attr = H5Aopen(loc, name, H5P_DEFAULT), type = H5I_INVALID_HID;
	char num[32];
	int rc = -1;

	memset(kv, 0, sizeof(*kv));
	if (attr < 0)
		return -1;
	type = H5Aget_type(attr);
	if (H5Aget_storage_size(attr) == 0 || type < 0)
		goto out;
	switch (H5Tget_class(type)) {
	case H5T_STRING:
		kv->kind = PFS_VALUE_STRING;
		rc = read_string(attr, type, &kv->value);
		break;
	case H5T_INTEGER: {
		uint64_t v = 0;

		kv->kind = PFS_VALUE_UINT;
		if (H5Aread(attr, H5T_NATIVE_UINT64, &v) >= 0) {
			snprintf(num, sizeof(num), "%" PRIu64, v);
			kv->value = strdup(num);
			rc = kv->value ? 0 : -1;
		}
		break;
	}
	case H5T_ENUM: {
		int8_t v = 0;

		kv->kind = PFS_VALUE_BOOL;
		if (H5Tget_size(type) == 1 && H5Aread(attr, type, &v) >= 0) {
			kv->value = strdup(v ? "true" : "false");
			rc = kv->value ? 0 : -1;
		}
		break;
	}
	default:
		rc = 1;
		break;
	}
	if (rc == 0) {
		kv->key = strdup(name);
		rc = kv->key ? 0 : -1;
	}
out:
	close_id(&type, H5Tclose);
	close_id(&attr, H5Aclose);
	return rc;
}

struct kv_list {
	struct pfs_kv *kv;
	size_t n, cap;
	int rc;
};

static herr_t collect_kv(hid_t loc, const char *name, const H5A_info_t *info, void *data)
{
	struct kv_list *l = data;
	struct pfs_kv kv;
	int rc;

	(void)info;
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 32;
		struct pfs_kv *nkv = realloc(l->kv, cap * sizeof(*nkv));

		if (!nkv)
			return l->rc = -1;
		l->kv = nkv;
		l->cap = cap;
	}
	rc = read_kv(loc, name, &kv);
	if (rc < 0) {
		free(kv.key);
		free(kv.value);
		return l->rc = -1;
	}
	if (rc == 0)
		l->kv[l->n++] = kv;
	return 0;
}

/* Every attribute of a group, in the order written (by name in a file that
 * did not track the order). */
static int read_group_kvs(hid_t file, const char *group, struct pfs_kv **kv, size_t *n)
{
	struct kv_list l = { NULL, 0, 0, 0 };
	hid_t g = H5Gopen2(file, group, H5P_DEFAULT);
	hsize_t idx = 0;

	if (g < 0)
		return -1;
	if (H5Aiterate2(g, H5_INDEX_CRT_ORDER, H5_ITER_INC, &idx, collect_kv, &l) < 0 && !l.rc &&
	    l.n == 0) {
		idx = 0;
		H5Aiterate2(g, H5_INDEX_NAME, H5_ITER_INC, &idx, collect_kv, &l);
	}
	H5Gclose(g);
	*kv = l.kv;
	*n = l.n;
	return l.rc;
}

/* A whole one-dimensional dataset into a new array of elements of size
 * elem, through the memory type mt. */
static int read_table(hid_t file, const char *name, hid_t (*make_type)(hid_t have), size_t elem,
		      void **out, size_t *n)
{
	hid_t ds = H5Dopen2(file, name, H5P_DEFAULT), space = H5I_INVALID_HID;
	hid_t ft = H5I_INVALID_HID, mt = H5I_INVALID_HID;
	hsize_t dims = 0;
	int rc = -1;

	*out = NULL;
	*n = 0;
	if (ds < 0)
		return -1;
	space = H5Dget_space(ds);
	ft = H5Dget_type(ds);
	if (space < 0 || ft < 0 || H5Sget_simple_extent_ndims(space) != 1 ||
	    H5Sget_simple_extent_dims(space, &dims, NULL) < 0)
		goto out;
	mt = make_type(ft);
	*out = calloc(dims ? (size_t)dims : 1, elem);
	if (mt < 0 || !*out)
		goto out;
	if (dims && H5Dread(ds, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, *out) < 0)
		goto out;
	*n = (size_t)dims;
	rc = 0;
out:
	close_id(&mt, H5Tclose);
	close_id(&ft, H5Tclose);
	close_id(&space, H5Sclose);
	close_id(&ds, H5Dclose);
	return rc;
}

static hid_t row_mem_type(hid_t have)
{
	return row_type(have, false);
}

static hid_t node_mem_type(hid_t have)
{
	(void)have;
	return node_type();
}

static int load_error(const char *path, int err, const char *what)
{
	pfs_error("cannot read '%s': %s", path, what);
	return err;
}

/* Checks what the file says it is: a pfsbench results file of our schema. */
static int check_schema(hid_t file, const char *path, unsigned *version)
{
	struct pfs_kv name, ver;
	uint64_t v = 0;
	int rc = 0;

	memset(&ver, 0, sizeof(ver));
	if (read_kv(file, "schema", &name) || strcmp(name.value, PFS_SCHEMA_NAME)) {
		rc = load_error(path, -EINVAL, "an HDF5 file, but not a pfsbench results file");
	} else if (read_kv(file, "schema_version", &ver) || pfs_parse_u64(ver.value, &v)) {
		rc = load_error(path, -EINVAL, "its schema version is missing");
	} else if (v != PFS_SCHEMA_VERSION) {
		pfs_error("cannot read '%s': results schema version %" PRIu64
			  "; this pfsbench reads version %u",
			  path, v, PFS_SCHEMA_VERSION);
		rc = -EPROTO;
	}
	*version = (unsigned)v;
	free(name.key);
	free(name.value);
	free(ver.key);
	free(ver.value);
	return rc;
}

int pfs_archive_load(const char *path, struct pfs_archive *a)
{
	hid_t file;
	void *nodes = NULL;
	size_t nnodes = 0;
	int rc;

	memset(a, 0, sizeof(*a));
	h5_quiet();
	if (access(path, R_OK)) {
		int err = errno;

		pfs_error("cannot open '%s': %s", path, strerror(err));
		return -err;
	}
	if (H5Fis_hdf5(path) <= 0)
		return load_error(path, -EINVAL, "not an HDF5 file");
	file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
	if (file < 0)
		return load_error(path, -EIO, "the HDF5 file is truncated or damaged");
	rc = check_schema(file, path, &a->schema_version);
	if (!rc && (read_group_kvs(file, "provenance", &a->prov, &a->nprov) ||
		    read_group_kvs(file, "parameters", &a->params, &a->nparams)))
		rc = load_error(path, -EIO, "its provenance is damaged");
	if (!rc && read_table(file, "nodes", node_mem_type, sizeof(struct pfs_node), &nodes, &nnodes))
		rc = load_error(path, -EIO, "its node list is damaged");
	a->nodes = nodes;
	a->nnodes = (unsigned)nnodes;
	if (!rc && read_table(file, "rows", row_mem_type, sizeof(struct pfs_row), (void **)&a->rows,
			      &a->nrows))
		rc = load_error(path, -EIO, "its table of rows is truncated or damaged");
	for (size_t i = 0; !rc && i < a->nrows; i++)
		if (a->rows[i].node_index >= a->nnodes)
			rc = load_error(path, -EIO, "a row names a node the file does not list");
	H5Fclose(file);
	if (rc) {
		pfs_archive_free(a);
		return rc;
	}
	pfs_archive_fill_run_info(a);
	return 0;
}
