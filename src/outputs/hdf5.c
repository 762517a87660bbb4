/* hdf5.c: the results file as an output (the layout is docs/hdf5-schema.md).
 * begin creates the file, its provenance (pfs_prov_fields) with status
 * "running", its parameters (the options' key/value view) and nodes; each
 * block's rows, latency cells, progress ticks and filesystem counters are
 * appended to four chunked, extendible tables and flushed (a block's ticks
 * beyond rank 0's round come after it, through ticks); end records the
 * status. A run
 * that dies keeps every block written before it died. The reader is
 * src/archive/archive_hdf5.c. */
#include "pfsbench/core/h5common.h"
#include "pfsbench/core/histogram.h"
#include "pfsbench/core/options.h"
#include "pfsbench/core/resultpath.h"
#include "pfsbench/core/topology.h"
#include "pfsbench/core/util.h"
#include "pfsbench/outputs/output.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The largest chunks. A chunk of rows fits HDF5's default 1 MiB chunk
 * cache (4096 rows of 224 bytes in memory, fewer in the file's packed
 * record). */
#define ROWS_CHUNK 4096
_Static_assert(ROWS_CHUNK * sizeof(struct pfs_row) <= 1u << 20,
	       "a chunk of rows must fit HDF5's default chunk cache");
#define NODES_CHUNK 64
#define CELLS_CHUNK 16384
#define TICKS_CHUNK 8192
#define FSSTATS_CHUNK 4096
/* Records a table takes per planned row, for chunks fitted to the run
 * (fit_chunk): /rows exactly one; the others a guess at a small run's
 * (a row's nonzero latency buckets, its progress ticks at ~10 a second,
 * a node's counters per step). A guess too small costs more chunks, never
 * a wrong record. */
#define CELLS_PER_ROW 64
#define TICKS_PER_ROW 16
#define FSSTATS_PER_ROW 16

/* A dataset that grows by appending, its records' type in memory, and the
 * larger of a record's sizes in memory and in the file (write_plist). */
struct h5table {
	hid_t ds, mtype;
	hsize_t n;
	size_t record_bytes;
};

/* HDF5's own size of its conversion buffers (H5D_TEMP_BUF_SIZE, 1 MiB). */
#define CONVERT_MAX_BYTES ((size_t)1 << 20)

struct h5out {
	hid_t file;
	struct h5table rows, lat, ticks, fsstats;
	hid_t committed; /* the root's attribute "committed" (commit) */
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

/* The provenance attributes pfs_prov_fields lists: all of them at the
 * start (at_end ones too, as they stand then), only at_end ones at the end. */
static int write_prov_fields(hid_t g, const struct pfs_run_info *ri, bool only_at_end)
{
	int rc = 0;

	for (size_t i = 0; i < pfs_prov_nfields && !rc; i++) {
		const struct pfs_prov_field *f = &pfs_prov_fields[i];
		const char *field = (const char *)ri + f->offset;
		uint64_t u;

		if (only_at_end && !f->at_end)
			continue;
		switch (f->type) {
		case PFS_PROV_STRING:
			rc = attr_str(g, f->name, field);
			break;
		case PFS_PROV_U64:
			memcpy(&u, field, sizeof(u));
			rc = attr_u64(g, f->name, u);
			break;
		case PFS_PROV_BOOL:
			rc = attr_bool(g, f->name, *(const bool *)field);
			break;
		}
	}
	return rc;
}

static int write_status(hid_t file, const struct pfs_run_info *ri)
{
	hid_t g = H5Gopen2(file, "provenance", H5P_DEFAULT);
	int rc;

	if (g < 0)
		return -1;
	rc = write_prov_fields(g, ri, true);
	H5Gclose(g);
	return rc ? -1 : 0;
}

static int write_provenance(hid_t file, const struct pfs_run_info *ri)
{
	hid_t g = make_group(file, "provenance");
	struct pfs_run_info start = *ri;
	unsigned maj = 0, min = 0, rel = 0;
	int rc;

	if (g < 0)
		return -1;
	H5get_libversion(&maj, &min, &rel);
	snprintf(start.hdf5_version, sizeof(start.hdf5_version), "%u.%u.%u", maj, min, rel);
	snprintf(start.status, sizeof(start.status), "running");
	start.status_reason[0] = start.end_time[0] = 0;
	rc = write_prov_fields(g, &start, false);
	H5Gclose(g);
	return rc ? -1 : 0;
}

struct param_ctx {
	hid_t g, units;
	const struct pfs_option *table;
};

static int write_param(void *ctx, const char *key, const char *value, enum pfs_value_kind kind)
{
	struct param_ctx *c = ctx;
	uint64_t u = 0;

	switch (kind) {
	case PFS_VALUE_BOOL:
		return attr_bool(c->g, key, !strcmp(value, "true"));
	case PFS_VALUE_UINT:
		for (const struct pfs_option *o = c->table; o->long_name; o++)
			if (o->kind == PFS_OPT_SIZE && !strcmp(o->long_name, key) &&
			    attr_str(c->units, key, "bytes"))
				return -1;
		return pfs_parse_u64(value, &u) ? -1 : attr_u64(c->g, key, u);
	case PFS_VALUE_STRING:
		return attr_str(c->g, key, value);
	}
	return -1;
}

/* Every parameter of the workload's table, through the options' key/value
 * view (pfs_opts_to_kv), which `pfsbench show` reads back the same way. */
static int write_parameters(hid_t file, const struct pfs_run_info *ri)
{
	struct param_ctx c = { make_group(file, "parameters"), make_group(file, "parameter_units"),
			       ri->options };
	int rc = c.g < 0 || c.units < 0 ? -1 : 0;

	if (!rc && c.table && ri->opts)
		rc = pfs_opts_to_kv(c.table, ri->opts, write_param, &c);
	pfs_h5_close_id(&c.g, H5Gclose);
	pfs_h5_close_id(&c.units, H5Gclose);
	return rc ? -1 : 0;
}

/* A one-dimensional dataset that grows, chunked by chunk elements. Each
 * chunk is written (zeros) when the table grows into it, before its size
 * changes: by default HDF5 writes a chunk at the first flush after the
 * table grew, so on a full disk the table counted records whose chunk never
 * reached the disk (read back as zeros), and HDF5 1.10 cannot shrink it
 * back over a chunk missing from its index ("B-tree key not found"). Now
 * H5Dset_extent itself fails on a full disk, the size unchanged on disk. */
static hid_t make_table(hid_t file, const char *name, hid_t type, hsize_t n, hsize_t chunk)
{
	hsize_t max = H5S_UNLIMITED;
	hid_t space = H5Screate_simple(1, &n, &max), dcpl = H5Pcreate(H5P_DATASET_CREATE);
	hid_t ds = H5I_INVALID_HID;

	if (space >= 0 && dcpl >= 0 && H5Pset_chunk(dcpl, 1, &chunk) >= 0 &&
	    H5Pset_alloc_time(dcpl, H5D_ALLOC_TIME_EARLY) >= 0 &&
	    H5Pset_fill_time(dcpl, H5D_FILL_TIME_ALLOC) >= 0)
		ds = H5Dcreate2(file, name, type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
	pfs_h5_close_id(&space, H5Sclose);
	pfs_h5_close_id(&dcpl, H5Pclose);
	return ds;
}

/* A table's chunk, fitted to the run: per_row records for each of the
 * planned rows, at most max (a run of unknown plan, planned 0: max). A
 * chunk is made whole when the table grows into it (make_table): HDF5
 * zeroes a chunk-sized buffer and writes it. Chunks of the largest size
 * cost a tiny run up to 1.6 MB of zeros, memset and written, for a few
 * hundred bytes of records; fitted, a chunk holds what the run will write
 * and little more. */
static hsize_t fit_chunk(uint64_t planned, uint64_t per_row, hsize_t max)
{
	uint64_t want = planned ? pfs_mul_sat_u64(planned, per_row) : max;

	return want < 1 ? 1 : want > max ? max : want;
}

/* The transfer list of a write of n records of record_bytes each (the
 * larger of their sizes in memory and in the file). HDF5 converts records
 * between the two types through a buffer, and a background buffer, that
 * it callocs at every H5Dwrite, of 1 MiB each however few the records: a
 * block of 4 rows zeroed 2 MiB. Asked for the records' size (at most that
 * 1 MiB, which HDF5 fills and empties in turns), it zeroes what it uses. */
static hid_t write_plist(size_t record_bytes, size_t n)
{
	hid_t dxpl = H5Pcreate(H5P_DATASET_XFER);
	size_t bytes = record_bytes;

	if (n > 1)
		bytes = n > CONVERT_MAX_BYTES / record_bytes ? CONVERT_MAX_BYTES : n * record_bytes;
	if (dxpl >= 0 && H5Pset_buffer(dxpl, bytes, NULL, NULL) < 0)
		pfs_h5_close_id(&dxpl, H5Pclose);
	return dxpl;
}

static size_t larger_size(hid_t a, hid_t b)
{
	size_t sa = H5Tget_size(a), sb = H5Tget_size(b);

	return sa > sb ? sa : sb;
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
	hid_t ft = pfs_h5_record_type(pfs_node_fields, pfs_node_nfields, sizeof(struct pfs_node),
				      H5I_INVALID_HID, true);
	hid_t mt = pfs_h5_record_type(pfs_node_fields, pfs_node_nfields, sizeof(struct pfs_node),
				      H5I_INVALID_HID, false);
	hid_t ds = H5I_INVALID_HID, dxpl = H5I_INVALID_HID;
	int rc = -1;

	if (ft >= 0 && mt >= 0)
		ds = make_table(file, "nodes", ft, ri->nnodes, fit_chunk(ri->nnodes, 1, NODES_CHUNK));
	if (ds >= 0 && write_field_attrs(ds, pfs_node_fields, pfs_node_nfields) == 0) {
		if (ri->nnodes)
			dxpl = write_plist(larger_size(ft, mt), (size_t)ri->nnodes);
		rc = ri->nnodes == 0 ||
				     (dxpl >= 0 && H5Dwrite(ds, mt, H5S_ALL, H5S_ALL, dxpl, ri->nodes) >= 0)
			     ? 0
			     : -1;
	}
	pfs_h5_close_id(&dxpl, H5Pclose);
	pfs_h5_close_id(&ds, H5Dclose);
	pfs_h5_close_id(&ft, H5Tclose);
	pfs_h5_close_id(&mt, H5Tclose);
	return rc;
}

/* One of the growing tables (/rows, /latency, /progress), empty. */
static int make_appendable(hid_t file, struct h5table *t, const char *name,
			   const struct pfs_field *fields, size_t nfields, size_t size,
			   hsize_t chunk)
{
	hid_t ft = pfs_h5_record_type(fields, nfields, size, H5I_INVALID_HID, true);

	t->mtype = pfs_h5_record_type(fields, nfields, size, H5I_INVALID_HID, false);
	if (ft >= 0 && t->mtype >= 0) {
		t->ds = make_table(file, name, ft, 0, chunk);
		t->record_bytes = larger_size(ft, t->mtype);
	}
	pfs_h5_close_id(&ft, H5Tclose);
	if (t->ds < 0)
		return -1;
	return write_field_attrs(t->ds, fields, nfields);
}

/* How to read a bucket of /latency, beside it: any client can turn cells
 * into latencies without pfsbench (docs/hdf5-schema.md). */
static int write_bucket_scheme(hid_t ds)
{
	return attr_u64(ds, "bucket_sub_bits", PFS_HIST_SUB_BITS) |
	       attr_u64(ds, "bucket_limit_ns", PFS_HIST_LIMIT_NS) |
	       attr_str(ds, "bucket_rule",
			"latency v in ns: s = max(0, floor(log2 v) - 7), bucket = 128 s + (v >> s); "
			"bucket b holds [(b - 128 s) << s, ((b - 128 s + 1) << s) - 1] "
			"with s = max(0, floor(b / 128) - 1); v >= bucket_limit_ns counts in the last");
}

/* The root's attribute "committed": how many records of /rows, /latency,
 * /progress and /fsstats reached the file whole, rewritten in place once a
 * block's (or a round of ticks') flush has succeeded, and flushed itself.
 * HDF5 rewrites its metadata in place: a flush cut short by a failing disk
 * can leave a table's extent and chunks half old, half new, and cells
 * naming rows that never arrived. The reader takes only the committed
 * records (src/archive/archive_hdf5.c), so the blocks before stay readable.
 * One attribute of four numbers, so the tables commit together. */
static int commit(struct h5out *h)
{
	uint64_t n[PFS_COMMITTED_TABLES] = {
		[PFS_COMMITTED_ROWS] = h->rows.n,
		[PFS_COMMITTED_LATENCY] = h->lat.n,
		[PFS_COMMITTED_PROGRESS] = h->ticks.n,
		[PFS_COMMITTED_FSSTATS] = h->fsstats.n,
	};

	return H5Awrite(h->committed, H5T_NATIVE_UINT64, n) < 0 ||
			       H5Fflush(h->file, H5F_SCOPE_LOCAL) < 0
		       ? -1
		       : 0;
}

static int make_committed(struct h5out *h)
{
	hsize_t dims = PFS_COMMITTED_TABLES;
	hid_t space = H5Screate_simple(1, &dims, NULL);

	if (space < 0)
		return -1;
	h->committed = H5Acreate2(h->file, PFS_COMMITTED_ATTR, H5T_STD_U64LE, space, H5P_DEFAULT,
				  H5P_DEFAULT);
	H5Sclose(space);
	return h->committed < 0 ? -1 : 0;
}

static int h5_write_head(struct h5out *h, const struct pfs_run_info *ri)
{
	uint64_t rows = ri->rows_planned;

	if (attr_str(h->file, "schema", PFS_SCHEMA_NAME) ||
	    attr_u64(h->file, "schema_version", PFS_SCHEMA_VERSION) || write_provenance(h->file, ri) ||
	    write_parameters(h->file, ri) || write_nodes(h->file, ri) ||
	    make_appendable(h->file, &h->rows, "rows", pfs_row_fields, pfs_row_nfields,
			    sizeof(struct pfs_row), fit_chunk(rows, 1, ROWS_CHUNK)) ||
	    make_appendable(h->file, &h->lat, "latency", pfs_lat_cell_fields, pfs_lat_cell_nfields,
			    sizeof(struct pfs_lat_cell), fit_chunk(rows, CELLS_PER_ROW, CELLS_CHUNK)) ||
	    write_bucket_scheme(h->lat.ds) ||
	    make_appendable(h->file, &h->ticks, "progress", pfs_tick_fields, pfs_tick_nfields,
			    sizeof(struct pfs_tick), fit_chunk(rows, TICKS_PER_ROW, TICKS_CHUNK)) ||
	    make_appendable(h->file, &h->fsstats, "fsstats", pfs_fsstat_fields, pfs_fsstat_nfields,
			    sizeof(struct pfs_fsstat), fit_chunk(rows, FSSTATS_PER_ROW, FSSTATS_CHUNK)) ||
	    make_committed(h))
		return -1;
	return commit(h);
}

static void close_table(struct h5table *t)
{
	pfs_h5_close_id(&t->ds, H5Dclose);
	pfs_h5_close_id(&t->mtype, H5Tclose);
}

static void h5_close(struct pfs_output *o)
{
	struct h5out *h = o->priv;

	if (!h)
		return;
	close_table(&h->rows);
	close_table(&h->lat);
	close_table(&h->ticks);
	close_table(&h->fsstats);
	pfs_h5_close_id(&h->committed, H5Aclose);
	pfs_h5_close_id(&h->file, H5Fclose);
	free(h);
	o->priv = NULL;
}

static int set_cloexec(int fd)
{
	int flags = fcntl(fd, F_GETFD);

	return flags < 0 || fcntl(fd, F_SETFD, flags | FD_CLOEXEC) ? -1 : 0;
}

/* HDF5 opens files by name only. The name it is given is the magic link
 * /proc/self/fd/N of the file the run created (rf->fd): the kernel
 * resolves it to that open file, never through a directory, so a name
 * swapped in the results file's directory meanwhile cannot redirect it.
 * The truncation is of that file, empty; what HDF5 opened is checked to be
 * it (same device and inode) before anything is written. Returns the file
 * or H5I_INVALID_HID with the reason in why. */
static hid_t create_through(const struct pfs_results_file *rf, char *why, size_t len)
{
	struct stat mine, theirs;
	char proc[64];
	void *handle = NULL;
	hid_t file;
	int err;

	if (fstat(rf->fd, &mine)) {
		snprintf(why, len, "%s", strerror(errno));
		return H5I_INVALID_HID;
	}
	if (!S_ISREG(mine.st_mode) || mine.st_size != 0) {
		snprintf(why, len, "it is no longer the empty file the run created");
		return H5I_INVALID_HID;
	}
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", rf->fd);
	errno = 0;
	file = H5Fcreate(proc, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
	err = errno;
	if (file < 0) {
		/* The kernel reopens an unlinked file's magic link with O_CREAT
		 * as ENOENT: someone removed or renamed over the name. */
		if (err == ENOENT && !fstat(rf->fd, &mine) && mine.st_nlink == 0)
			snprintf(why, len, "it was removed or replaced since the run created it");
		else
			snprintf(why, len, "%s%s", err ? strerror(err) : "HDF5 error",
				 err == ENOENT ? " (is /proc mounted?)" : "");
		return H5I_INVALID_HID;
	}
	if (H5Fget_vfd_handle(file, H5P_DEFAULT, &handle) < 0 || !handle ||
	    fstat(*(int *)handle, &theirs) || theirs.st_dev != mine.st_dev ||
	    theirs.st_ino != mine.st_ino) {
		H5Fclose(file);
		snprintf(why, len, "HDF5 opened another file than the one the run created");
		return H5I_INVALID_HID;
	}
	/* HDF5's sec2 driver opens without O_CLOEXEC and has no setting for it:
	 * a child rank 0 starts (the GlusterFS probe's gluster, fsprobe.c) would
	 * hold the results file open. */
	if (set_cloexec(*(int *)handle)) {
		err = errno;
		H5Fclose(file);
		snprintf(why, len, "cannot make its descriptor close on exec: %s", strerror(err));
		return H5I_INVALID_HID;
	}
	return file;
}

static int h5_begin(struct pfs_output *o, const struct pfs_run_info *ri)
{
	struct h5out *h = calloc(1, sizeof(*h));
	struct pfs_results_file own;
	const struct pfs_results_file *rf = ri->results_file;
	char path[PATH_MAX], why[PATH_MAX + 128] = "";

	/* No HDF5 clean-up at exit: after a close that failed (the results
	 * filesystem full), HDF5 1.10's exit-time clean-up closes the file
	 * again and dies of SIGSEGV, turning a clear exit 1 into a crash.
	 * Every object is closed explicitly before exit anyway. Only the
	 * first HDF5 call of a process can ask this; a later one is ignored. */
	(void)H5dont_atexit();
	pfs_h5_quiet();
	pfs_results_file_init(&own);
	if (!h)
		return pfs_error("cannot create '%s': %s", ri->results_path, strerror(ENOMEM));
	h->file = H5I_INVALID_HID;
	h->rows = h->lat = h->ticks = h->fsstats =
		(struct h5table){ H5I_INVALID_HID, H5I_INVALID_HID, 0, 0 };
	h->committed = H5I_INVALID_HID;
	o->priv = h;
	/* The engine created the file (pfs_results_path_claim); a writer
	 * outside the engine (tests, benches) has it created the same way. */
	if (!rf) {
		if (pfs_format(path, sizeof(path), "%s", ri->results_path))
			snprintf(why, sizeof(why), "cannot create '%s': %s", ri->results_path,
				 strerror(ENAMETOOLONG));
		else if (!pfs_results_path_claim(path, sizeof(path), NULL, &own, why, sizeof(why)))
			why[0] = 0;
		if (why[0]) {
			h5_close(o);
			return pfs_error("%s", why);
		}
		rf = &own;
	}
	h->file = create_through(rf, why, sizeof(why));
	if (h->file < 0) {
		h5_close(o);
		pfs_results_file_remove(&own);
		return pfs_error("cannot create '%s': %s", ri->results_path, why);
	}
	/* HDF5 holds the file open now; our descriptor has done its part. */
	pfs_results_file_close(&own);
	if (h5_write_head(h, ri)) {
		h5_close(o);
		return pfs_error("cannot write the provenance to '%s'", ri->results_path);
	}
	return 0;
}

/* Appends n records to a growing table; on failure it keeps its size. */
static int append(struct h5table *t, const void *records, size_t n)
{
	hsize_t start = t->n, count = n, total = t->n + n;
	hid_t fspace = H5I_INVALID_HID, mspace = H5I_INVALID_HID, dxpl = H5I_INVALID_HID;
	int rc = -1, err;

	if (n == 0)
		return 0;
	if (H5Dset_extent(t->ds, &total) >= 0) {
		fspace = H5Dget_space(t->ds);
		mspace = H5Screate_simple(1, &count, NULL);
		dxpl = write_plist(t->record_bytes, n);
	}
	if (fspace >= 0 && mspace >= 0 && dxpl >= 0 &&
	    H5Sselect_hyperslab(fspace, H5S_SELECT_SET, &start, NULL, &count, NULL) >= 0 &&
	    H5Dwrite(t->ds, t->mtype, mspace, fspace, dxpl, records) >= 0) {
		t->n = total;
		rc = 0;
	} else {
		/* No records of zeros where the write failed. A failed
		 * H5Dset_extent (its chunk did not fit) left the file's size
		 * as it was but HDF5's own copy grown: shrunk back here. */
		err = errno;
		(void)H5Dset_extent(t->ds, &start);
		errno = err;
	}
	pfs_h5_close_id(&fspace, H5Sclose);
	pfs_h5_close_id(&mspace, H5Sclose);
	pfs_h5_close_id(&dxpl, H5Pclose);
	return rc;
}

/* Appends a block's n latency cells, each pointed at its row's place in
 * the whole of /rows (its row in the block + first_row), a chunk's worth at
 * a time through one buffer: a copy of the block's cells would cost rank 0
 * 24 bytes a cell more than docs/scale.md's model (67 MB at 10,000 ranks
 * of 70 cells a row, tests/engine/synth-feed.sh). On failure the table
 * may have grown by the pieces before: the caller shrinks it back. */
static int append_cells(struct h5table *t, const struct pfs_lat_cell *lat, size_t n,
			hsize_t first_row)
{
	size_t piece = n < CELLS_CHUNK ? n : CELLS_CHUNK;
	struct pfs_lat_cell *buf;
	int rc = 0;

	if (n == 0)
		return 0;
	buf = malloc(piece * sizeof(*buf));
	if (!buf)
		return -1;
	for (size_t i = 0; i < n && !rc; i += piece) {
		size_t m = n - i < piece ? n - i : piece;

		for (size_t j = 0; j < m; j++) {
			buf[j] = lat[i + j];
			buf[j].row += first_row;
		}
		rc = append(t, buf, m);
	}
	free(buf);
	return rc;
}

/* Shrinks a table back to n records, when a block did not reach the disk. */
static void truncate_table(struct h5table *t, hsize_t n)
{
	if (t->n > n && H5Dset_extent(t->ds, &n) >= 0)
		t->n = n;
}

static int h5_block(struct pfs_output *o, const struct pfs_run_info *ri, const struct pfs_block *b)
{
	struct h5out *h = o->priv;
	hsize_t first_row, first_cell, first_tick, first_fsstat;
	int rc = -1, err = 0;

	if (!h)
		return -1;
	first_row = h->rows.n;
	first_cell = h->lat.n;
	first_tick = h->ticks.n;
	first_fsstat = h->fsstats.n;
	if (append(&h->rows, b->rows, b->nrows) || append_cells(&h->lat, b->lat, b->nlat, first_row) ||
	    append(&h->ticks, b->ticks, b->nticks) || append(&h->fsstats, b->fsstats, b->nfsstats))
		goto out;
	/* On disk now, and then said to be: a run killed after this keeps
	 * these rows. */
	errno = 0;
	if (H5Fflush(h->file, H5F_SCOPE_LOCAL) >= 0 && !commit(h))
		rc = 0;
out:
	if (rc) {
		err = errno;
		/* The block is taken back whole: a table that grew before
		 * another one failed shrinks to its size before the block (its
		 * chunks are on disk and indexed, make_table, so HDF5 1.10 can),
		 * and the shrink is flushed (only metadata now). The reader
		 * still drops trailing all-zero records, which files of
		 * writers before make_table's early chunks may hold
		 * (src/archive/archive_hdf5.c). */
		truncate_table(&h->rows, first_row);
		truncate_table(&h->lat, first_cell);
		truncate_table(&h->ticks, first_tick);
		truncate_table(&h->fsstats, first_fsstat);
		(void)H5Fflush(h->file, H5F_SCOPE_LOCAL);
		pfs_error("cannot write rows to '%s'%s%s", ri->results_path, err ? ": " : "",
			  err ? strerror(err) : "");
	}
	return rc;
}

/* The rest of the last block's ticks (a round of them: src/engine/
 * gather.c), appended and flushed as a block's records are; on failure
 * the table shrinks back to its size before this round. */
static int h5_ticks(struct pfs_output *o, const struct pfs_run_info *ri, const struct pfs_tick *t,
		    size_t n)
{
	struct h5out *h = o->priv;
	hsize_t first_tick;
	int err;

	if (!h)
		return -1;
	first_tick = h->ticks.n;
	errno = 0;
	if (!append(&h->ticks, t, n) && H5Fflush(h->file, H5F_SCOPE_LOCAL) >= 0 && !commit(h))
		return 0;
	err = errno;
	truncate_table(&h->ticks, first_tick);
	(void)H5Fflush(h->file, H5F_SCOPE_LOCAL);
	pfs_error("cannot write progress ticks to '%s'%s%s", ri->results_path, err ? ": " : "",
		  err ? strerror(err) : "");
	return -1;
}

static int h5_end(struct pfs_output *o, const struct pfs_run_info *ri, enum pfs_run_status status,
		  const char *reason)
{
	struct h5out *h = o->priv;
	struct pfs_run_info end = *ri;
	int status_rc, close_rc;

	if (!h)
		return -1;
	snprintf(end.status, sizeof(end.status), "%s",
		 status == PFS_RUN_COMPLETE ? "complete" : "aborted");
	snprintf(end.status_reason, sizeof(end.status_reason), "%s", reason ? reason : "");
	status_rc = write_status(h->file, &end);
	close_table(&h->rows);
	close_table(&h->lat);
	close_table(&h->ticks);
	close_table(&h->fsstats);
	pfs_h5_close_id(&h->committed, H5Aclose);
	close_rc = H5Fclose(h->file) < 0 ? -1 : 0;
	h->file = H5I_INVALID_HID;
	h5_close(o);
	/* Say which part did not reach the file: the status, or the last of
	 * what HDF5 held (a full disk refuses the final flush, not always
	 * the status before it). */
	if (status_rc)
		pfs_error("cannot finish '%s'; its status may still say running", ri->results_path);
	else if (close_rc)
		pfs_error("cannot close '%s': its status says %s, but the last of what was written "
			  "may not have reached it", ri->results_path, end.status);
	return status_rc || close_rc ? -1 : 0;
}

const struct pfs_output_ops pfs_output_hdf5 = {
	.name = "hdf5",
	.flags = PFS_OUTPUT_RESULTS_FILE,
	.begin = h5_begin,
	.block = h5_block,
	.ticks = h5_ticks,
	.end = h5_end,
};
