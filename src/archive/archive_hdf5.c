/* archive_hdf5.c: a results file read back into memory (pfs_archive_load)
 * for show, compare and export. Attributes are read generically, as text,
 * so that a new provenance attribute needs no reader change. Rows and nodes
 * are read by field name through their field tables, so a file lacking a
 * newer field still reads. The file is read once, from one descriptor,
 * into memory, and HDF5 reads that image: the child that reads it first
 * and the reader after it see the same bytes, whatever happens to the name
 * meanwhile. The writer is src/outputs/hdf5.c. */
#include "pfsbench/archive/archive.h"
#include "pfsbench/core/h5common.h"
#include "pfsbench/core/histogram.h"
#include "pfsbench/core/topology.h"
#include "pfsbench/core/util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

/* The longest fixed-length text attribute read: pfsbench's longest (the
 * command line, the mount options) are a few KiB. */
#define ATTR_TEXT_MAX (1u << 20)

/* A table may claim at most this many times the file's own size in memory
 * (pfsbench writes no compressed tables; another writer's gzip rarely
 * gains 10x on rows), plus TABLE_SLACK: an 8 KB file claiming 10^8 rows
 * is refused at once instead of taking gigabytes. */
#define TABLE_PER_FILE_BYTE 64u
#define TABLE_SLACK (1u << 20)

/* The largest file read: it is read whole into memory (and HDF5 keeps a
 * copy of its own). A results file of a million rows with a run's whole
 * progress timeline is a few hundred MB. */
#define FILE_BYTES_MAX (2ull << 30)

/* The most records of each table read (include/pfsbench/archive/archive.h), so
 * that what show, compare, export, plot and report hold is bounded
 * whatever a file's compression hides: the check comes before anything
 * of the table is allocated. */
static const struct {
	const char *table;
	uint64_t max;
} table_max[] = {
	{ "nodes", PFS_ARCHIVE_NODES_MAX },	  { "rows", PFS_ARCHIVE_ROWS_MAX },
	{ "latency", PFS_ARCHIVE_CELLS_MAX }, { "progress", PFS_ARCHIVE_TICKS_MAX },
	{ "fsstats", PFS_ARCHIVE_ROWS_MAX },
};

static uint64_t records_max(const char *table)
{
	for (size_t i = 0; i < sizeof(table_max) / sizeof(table_max[0]); i++)
		if (!strcmp(table_max[i].table, table))
			return table_max[i].max;
	return 0;
}

/* A results file as read: its bytes, and whether a writer held its lock. */
struct image {
	unsigned char *buf;
	size_t len;
	bool locked;
};

static int read_string(hid_t attr, hid_t type, char **out)
{
	hid_t mt;
	int rc = -1;

	if (H5Tis_variable_str(type) > 0) {
		char *s = NULL;

		mt = pfs_h5_str_type(1);
		if (mt >= 0 && H5Tset_size(mt, H5T_VARIABLE) >= 0 && H5Aread(attr, mt, &s) >= 0) {
			*out = strdup(s ? s : "");
			rc = *out ? 0 : -1;
			H5free_memory(s);
		}
	} else {
		size_t n = H5Tget_size(type);

		if (n == 0 || n > ATTR_TEXT_MAX)
			return -1;
		*out = calloc(1, n + 1);
		mt = pfs_h5_str_type(n + 1);
		if (*out && mt >= 0 && H5Aread(attr, mt, *out) >= 0)
			rc = 0;
	}
	pfs_h5_close_id(&mt, H5Tclose);
	return rc;
}

/* One scalar attribute as text. Returns 0, 1 for a kind we do not show
 * (skipped), or -1. */
static int read_kv(hid_t loc, const char *name, struct pfs_kv *kv)
{
	hid_t attr = H5Aopen(loc, name, H5P_DEFAULT), type = H5I_INVALID_HID;
	hid_t space = H5I_INVALID_HID;
	char num[32];
	int rc = -1;

	memset(kv, 0, sizeof(*kv));
	if (attr < 0)
		return -1;
	type = H5Aget_type(attr);
	space = H5Aget_space(attr);
	if (H5Aget_storage_size(attr) == 0 || type < 0 || space < 0)
		goto out;
	/* Every attribute pfsbench writes holds one value; an array (or an
	 * empty or null dataspace) would be read into that one value's room. */
	if (H5Sget_simple_extent_npoints(space) != 1) {
		rc = 1;
		goto out;
	}
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
	pfs_h5_close_id(&space, H5Sclose);
	pfs_h5_close_id(&type, H5Tclose);
	pfs_h5_close_id(&attr, H5Aclose);
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

/* Whether raw, one chunk as stored, inflates to exactly want bytes. */
static bool inflates_to(unsigned char *raw, size_t len, size_t want)
{
	unsigned char *buf = malloc(want + 1);
	z_stream z;
	bool ok = false;

	memset(&z, 0, sizeof(z));
	if (!buf || len > UINT32_MAX || want + 1 > UINT32_MAX || inflateInit(&z) != Z_OK) {
		free(buf);
		return false;
	}
	z.next_in = raw;
	z.avail_in = (uInt)len;
	z.next_out = buf;
	z.avail_out = (uInt)(want + 1);
	ok = inflate(&z, Z_FINISH) == Z_STREAM_END && z.total_out == want;
	inflateEnd(&z);
	free(buf);
	return ok;
}

/* A table's chunks, checked before HDF5 reads them: each must hold, as
 * stored, exactly the chunk's size (its rows times the record type's
 * size), or inflate to it when compressed, and that size must fit room.
 * HDF5 1.10 does not check: a flipped bit in the record's size, the
 * chunk's rows or a chunk's stored size made H5Dread copy past its buffer
 * (H5D__chunk_lock; HDF5 checks inflated sizes from HDFGroup/hdf5#6184
 * on) or allocate gigabytes. pfsbench writes chunked tables without a
 * filter; h5repack's gzip (as docs/runs keeps its files), with or without
 * the shuffle, which keeps the size, is read too; any other filter or
 * layout is refused. */
static int check_chunks(hid_t ds, hid_t space, hid_t ft, uint64_t room, hsize_t nread,
			uint64_t image_end)
{
	hid_t dcpl = H5Dget_create_plist(ds);
	int nfilters = dcpl < 0 ? -1 : H5Pget_nfilters(dcpl);
	int deflate = -1, rc = -1;
	hsize_t rows = 0, nchunks = 0;
	uint64_t want;

	if (nfilters < 0)
		goto out;
	for (int i = 0; i < nfilters; i++) {
		unsigned flags, cd[8];
		size_t ncd = 8;
		H5Z_filter_t id = H5Pget_filter2(dcpl, (unsigned)i, &flags, &ncd, cd, 0, NULL, NULL);

		if (id == H5Z_FILTER_DEFLATE && deflate < 0)
			deflate = i;
		else if (id != H5Z_FILTER_SHUFFLE)
			goto out;
	}
	if (H5Pget_layout(dcpl) != H5D_CHUNKED || H5Pget_chunk(dcpl, 1, &rows) != 1 ||
	    (want = pfs_mul_sat_u64(rows, H5Tget_size(ft))) == 0 || want > room ||
	    H5Dget_num_chunks(ds, space, &nchunks) < 0)
		goto out;
	for (hsize_t c = 0; c < nchunks; c++) {
		hsize_t offset = 0, size = 0;
		haddr_t addr;
		unsigned mask = 0;
		uint32_t read_mask = 0;
		unsigned char *raw;
		bool ok;

		if (H5Dget_chunk_info(ds, space, c, &offset, &mask, &addr, &size) < 0 || size > room)
			goto out;
		/* A chunk of records to be read must lie in the file's own
		 * bytes, not in the zeros a short file was padded with
		 * (image_open): its records were lost with the file's end. */
		if (offset < nread && (addr == HADDR_UNDEF || addr > image_end ||
				       size > image_end - addr))
			goto out;
		if (deflate < 0 || (mask & (1u << deflate))) {
			if (size != want)
				goto out;
			continue;
		}
		raw = malloc(size ? (size_t)size : 1);
		ok = raw && H5Dread_chunk(ds, H5P_DEFAULT, &offset, &read_mask, raw) >= 0 &&
		     (read_mask & (1u << deflate) ? size == want
						  : inflates_to(raw, (size_t)size, (size_t)want));
		free(raw);
		if (!ok)
			goto out;
	}
	rc = 0;
out:
	pfs_h5_close_id(&dcpl, H5Pclose);
	return rc;
}

/* Whether a table's record type is one HDF5 can convert without trusting
 * damage: a compound whose every member lies inside the record, each an
 * integer of at most 8 bytes or a fixed-length string. HDF5 1.10 converts
 * members at the offsets and sizes the file says: a flipped bit there made
 * H5Dread read outside its buffers (a SIGSEGV in H5T__conv_struct_opt) or
 * ask for 4 GB converting one integer. pfsbench writes nothing else. */
static bool record_type_ok(hid_t ft)
{
	size_t size = H5Tget_size(ft);
	int n = H5Tget_class(ft) == H5T_COMPOUND ? H5Tget_nmembers(ft) : -1;

	if (n < 1 || size == 0)
		return false;
	for (unsigned i = 0; i < (unsigned)n; i++) {
		hid_t mt = H5Tget_member_type(ft, i);
		H5T_class_t cls = mt < 0 ? H5T_NO_CLASS : H5Tget_class(mt);
		size_t msize = mt < 0 ? 0 : H5Tget_size(mt), off = H5Tget_member_offset(ft, i);
		bool ok = msize > 0 && msize <= size && off <= size - msize &&
			  ((cls == H5T_INTEGER && msize <= 8) ||
			   (cls == H5T_STRING && H5Tis_variable_str(mt) == 0));

		pfs_h5_close_id(&mt, H5Tclose);
		if (!ok)
			return false;
	}
	return true;
}

/* Whether a record read is all zero bytes: HDF5's fill value, a record
 * never written. pfsbench writes none (every row names its test and op,
 * every latency cell counts, every tick names its test, every counter its
 * name); a writer whose last block did not reach a full disk left them at
 * the end of its tables, where they would read as measurements. */
static bool all_zero(const unsigned char *rec, size_t size)
{
	for (size_t i = 0; i < size; i++)
		if (rec[i])
			return false;
	return true;
}

/* A whole one-dimensional dataset of records described by fields into a
 * new array of elements of size bytes, reading the fields the file has,
 * less the all-zero records at its end (never written, all_zero);
 * one that would take more than room bytes is refused as damaged, in our
 * records or in the file's (HDF5 converts through a buffer of at least
 * one of the file's records: a damaged record size made it ask for 4 GB). A
 * missing dataset is an empty one when optional (what a schema-1 file
 * lacks), else an error. A table of more records than records_max says
 * is -E2BIG, *n its count, before anything is allocated. */
static int read_table(hid_t file, uint64_t room, const char *name,
		      const struct pfs_field *fields, size_t nfields, size_t size, bool optional,
		      uint64_t committed, uint64_t image_end, void **out, size_t *n)
{
	hid_t ds, space = H5I_INVALID_HID, ft = H5I_INVALID_HID, mt = H5I_INVALID_HID;
	hid_t mspace = H5S_ALL;
	hsize_t dims = 0, start = 0;
	int rc = -1;

	*out = NULL;
	*n = 0;
	/* Nothing of it committed: not even opened, as the writer may have
	 * been cut short in its first block's flush. */
	if (committed == 0 || (optional && H5Lexists(file, name, H5P_DEFAULT) <= 0))
		return 0;
	ds = H5Dopen2(file, name, H5P_DEFAULT);
	if (ds < 0)
		return -1;
	space = H5Dget_space(ds);
	ft = H5Dget_type(ds);
	if (space < 0 || ft < 0 || H5Sget_simple_extent_ndims(space) != 1 ||
	    H5Sget_simple_extent_dims(space, &dims, NULL) < 0)
		goto out;
	/* Only the records that reached the file whole (read_committed). */
	if (dims > committed) {
		dims = committed;
		if (H5Sselect_hyperslab(space, H5S_SELECT_SET, &start, NULL, &dims, NULL) < 0 ||
		    (mspace = H5Screate_simple(1, &dims, NULL)) < 0)
			goto out;
	}
	if (dims > records_max(name)) {
		*n = dims > SIZE_MAX ? SIZE_MAX : (size_t)dims;
		rc = -E2BIG;
		goto out;
	}
	if (pfs_mul_sat_u64(dims, size) > room || pfs_mul_sat_u64(dims, H5Tget_size(ft)) > room ||
	    !record_type_ok(ft) || check_chunks(ds, space, ft, room, dims, image_end))
		goto out;
	mt = pfs_h5_record_type(fields, nfields, size, ft, false);
	*out = calloc(dims ? (size_t)dims : 1, size);
	if (mt < 0 || !*out)
		goto out;
	if (dims && H5Dread(ds, mt, mspace, mspace == H5S_ALL ? H5S_ALL : space, H5P_DEFAULT,
			    *out) < 0)
		goto out;
	*n = (size_t)dims;
	while (*n && all_zero((unsigned char *)*out + (*n - 1) * size, size))
		--*n;
	rc = 0;
out:
	if (mspace != H5S_ALL)
		pfs_h5_close_id(&mspace, H5Sclose);
	pfs_h5_close_id(&mt, H5Tclose);
	pfs_h5_close_id(&ft, H5Tclose);
	pfs_h5_close_id(&space, H5Sclose);
	pfs_h5_close_id(&ds, H5Dclose);
	return rc;
}

/* The root's "committed" (h5common.h): how many records of /rows,
 * /latency, /progress and /fsstats reached the file whole, into n. A file
 * without it (written before it) has no limit: UINT64_MAX each. 0, or -1
 * when it is there but not four unsigned 64-bit numbers. */
static int read_committed(hid_t file, uint64_t n[PFS_COMMITTED_TABLES])
{
	hid_t attr, space = H5I_INVALID_HID, type = H5I_INVALID_HID;
	hsize_t dims = 0;
	int rc = -1;

	for (int i = 0; i < PFS_COMMITTED_TABLES; i++)
		n[i] = UINT64_MAX;
	if (H5Aexists(file, PFS_COMMITTED_ATTR) <= 0)
		return 0;
	attr = H5Aopen(file, PFS_COMMITTED_ATTR, H5P_DEFAULT);
	if (attr < 0)
		return -1;
	space = H5Aget_space(attr);
	type = H5Aget_type(attr);
	if (space >= 0 && type >= 0 && H5Sget_simple_extent_ndims(space) == 1 &&
	    H5Sget_simple_extent_dims(space, &dims, NULL) == 1 && dims == PFS_COMMITTED_TABLES &&
	    H5Tget_class(type) == H5T_INTEGER && H5Tget_size(type) == 8 &&
	    H5Tget_sign(type) == H5T_SGN_NONE && H5Aread(attr, H5T_NATIVE_UINT64, n) >= 0)
		rc = 0;
	pfs_h5_close_id(&type, H5Tclose);
	pfs_h5_close_id(&space, H5Sclose);
	pfs_h5_close_id(&attr, H5Aclose);
	return rc;
}

static int load_error(const char *path, int err, const char *what)
{
	pfs_error("cannot read '%s': %s", path, what);
	return err;
}

/* The load's error for read_table's result rc on table: one line saying
 * why, -E2BIG for a table over its cap (its count in *n, cleared), -EIO
 * for a damaged one, 0 for none. */
static int table_error(const char *path, const char *table, const char *damaged, size_t *n,
		       int rc)
{
	size_t count = *n;

	if (!rc)
		return 0;
	*n = 0;
	if (rc != -E2BIG)
		return load_error(path, -EIO, damaged);
	pfs_error("cannot read '%s': its /%s table has %zu records, more than pfsbench reads "
		  "(%" PRIu64 ")",
		  path, table, count, records_max(table));
	return -E2BIG;
}

/* Checks what the file says it is: a pfsbench results file of a schema
 * this pfsbench reads (1 or 2). */
static int check_schema(hid_t file, const char *path, unsigned *version)
{
	struct pfs_kv name, ver;
	uint64_t v = 0;
	int rc = 0;

	memset(&ver, 0, sizeof(ver));
	if (read_kv(file, "schema", &name) || strcmp(name.value, PFS_SCHEMA_NAME)) {
		rc = load_error(path, -EINVAL, "an HDF5 file, but not a pfsbench results file");
	} else if (read_kv(file, "schema_version", &ver) || pfs_parse_u64(ver.value, &v)) {
		rc = load_error(path, -EINVAL, "its schema version is missing or not one number");
	} else if (v < 1 || v > PFS_SCHEMA_VERSION) {
		pfs_error("cannot read '%s': results schema version %" PRIu64
			  "; this pfsbench reads versions 1 to %u",
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

/* What one table says about another: every row's node is listed, every
 * latency cell's row and bucket exist. */
static const char *check_refs(const struct pfs_archive *a)
{
	for (size_t i = 0; i < a->nrows; i++)
		if (a->rows[i].node_index >= a->nnodes)
			return "a row names a node the file does not list";
	for (size_t i = 0; i < a->nlat; i++)
		if (a->lat[i].row >= a->nrows || a->lat[i].bucket >= PFS_HIST_BUCKETS)
			return "a latency cell names a row or bucket that does not exist";
	for (size_t i = 0; i < a->nfsstats; i++)
		if (a->fsstats[i].node_index >= a->nnodes)
			return "a filesystem counter names a node the file does not list";
	return NULL;
}

/* Reads the file at path into memory, from one descriptor: no symbolic
 * link is followed, only a regular file is read (a FIFO or a device is
 * refused at once, never read), at most FILE_BYTES_MAX. 0, or -errno
 * after one message. */
static int image_read(const char *path, struct image *im)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC), err = 0;
	struct stat sb;
	size_t got = 0;

	memset(im, 0, sizeof(*im));
	if (fd < 0) {
		err = errno;
		pfs_error("cannot open '%s': %s", path,
			  err == ELOOP ? "a symbolic link (pfsbench reads no results file through a link)"
				       : strerror(err));
		return -err;
	}
	if (fstat(fd, &sb)) {
		err = errno;
		pfs_error("cannot open '%s': %s", path, strerror(err));
	} else if (!S_ISREG(sb.st_mode)) {
		err = EINVAL;
		pfs_error("cannot open '%s': %s", path, pfs_strerror_regular(err));
	} else if ((uint64_t)sb.st_size > FILE_BYTES_MAX) {
		err = EFBIG;
		pfs_error("cannot read '%s': it is larger than %llu GiB, more than a results file holds",
			  path, FILE_BYTES_MAX >> 30);
	} else if (!(im->buf = malloc(sb.st_size ? (size_t)sb.st_size : 1))) {
		err = ENOMEM;
		pfs_error("cannot read '%s': out of memory", path);
	}
	/* HDF5 locks a file it writes (flock, exclusive): a running
	 * pfsbench's results file is refused as locked rather than read half
	 * written or called damaged. */
	if (!err)
		im->locked = flock(fd, LOCK_SH | LOCK_NB) && errno == EWOULDBLOCK;
	while (!err && got < (size_t)sb.st_size) {
		ssize_t n = read(fd, im->buf + got, (size_t)sb.st_size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err = n ? errno : EIO;
			pfs_error("cannot read '%s': %s", path,
				  n ? strerror(err) : "it got shorter while it was read");
		}
		got += n > 0 ? (size_t)n : 0;
	}
	close(fd);
	if (err) {
		free(im->buf);
		im->buf = NULL;
		return -err;
	}
	im->len = got;
	return 0;
}

/* Whether the image holds HDF5's signature where HDF5 looks for it: at 0,
 * or after a user block of 512, 1024, 2048, ... bytes. */
static bool image_is_hdf5(const struct image *im)
{
	static const unsigned char sig[8] = { 0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n' };

	for (size_t at = 0; at + sizeof(sig) <= im->len; at = at ? at * 2 : 512)
		if (!memcmp(im->buf + at, sig, sizeof(sig)))
			return true;
	return false;
}

/* How far a file may end short of its superblock's end-of-file address and
 * still be read, padded with zeros (image_short_by): the space HDF5 had
 * taken for a block's chunks and metadata (a chunk is at most 1 MiB) when
 * the writes stopped. */
#define IMAGE_SHORT_MAX ((uint64_t)16 << 20)

static uint64_t le64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* How many bytes the image lacks of the end its superblock records, 0 when
 * none or when the superblock is not one this reads (at offset 0, versions
 * 0 to 3, 8-byte addresses, base address 0: what pfsbench writes). HDF5
 * writes the superblock's end of file as it takes space and the space's
 * contents later: a writer whose last writes failed (the disk full, an
 * NFS server gone) leaves a file that ends before it, which HDF5 refuses
 * whole as truncated, with every block before. Its committed records lie
 * before the end (read_committed), so the reader pads the image with
 * zeros, HDF5's fill value, up to that end. */
static uint64_t image_short_by(const struct image *im)
{
	const unsigned char *b = im->buf;
	size_t at;
	uint64_t eoa;

	if (im->len < 48 || memcmp(b, "\211HDF\r\n\032\n", 8))
		return 0;
	if (b[8] <= 1) { /* versions 0 and 1: sizes at 13, addresses from 24 (28) */
		if (b[13] != 8)
			return 0;
		at = b[8] == 0 ? 24 : 28;
	} else if (b[8] <= 3) { /* versions 2 and 3: sizes at 9, addresses from 12 */
		if (b[9] != 8)
			return 0;
		at = 12;
	} else {
		return 0;
	}
	if (at + 24 > im->len || le64(b + at) != 0)
		return 0;
	eoa = le64(b + at + 16);
	return eoa > im->len ? eoa - im->len : 0;
}

/* The image opened by HDF5, read-only, through the core driver, which reads
 * nothing but the image. The driver still probes the name it is given with
 * open(2): a name whose component is longer than NAME_MAX exists nowhere
 * (ENAMETOOLONG on every Linux filesystem), so it reaches no file. An
 * image short of its recorded end by at most IMAGE_SHORT_MAX is opened
 * padded with zeros, and *padded says by how much (0: not). */
static hid_t image_open(const struct image *im, uint64_t *padded)
{
	char name[NAME_MAX + 3];
	hid_t fapl = H5Pcreate(H5P_FILE_ACCESS), file = H5I_INVALID_HID;
	uint64_t short_by = image_short_by(im);
	unsigned char *buf = im->buf;
	size_t len = im->len;

	*padded = 0;
	if (short_by && short_by <= IMAGE_SHORT_MAX &&
	    (uint64_t)im->len + short_by <= FILE_BYTES_MAX &&
	    (buf = calloc(1, (size_t)(im->len + short_by)))) {
		memcpy(buf, im->buf, im->len);
		len = (size_t)(im->len + short_by);
		*padded = short_by;
	} else {
		buf = im->buf;
	}
	name[0] = '/';
	memset(name + 1, 'p', sizeof(name) - 2);
	name[sizeof(name) - 1] = '\0';
	/* HDF5 takes its own copy of the image. */
	if (fapl >= 0 && H5Pset_fapl_core(fapl, 1 << 20, 0) >= 0 &&
	    H5Pset_file_image(fapl, buf, len) >= 0)
		file = H5Fopen(name, H5F_ACC_RDONLY, fapl);
	pfs_h5_close_id(&fapl, H5Pclose);
	if (buf != im->buf)
		free(buf);
	return file;
}

/* The names pfsbench gives its objects: the only ones a refusal names, as
 * a name from the file may hold anything. */
static const char *const known_names[] = { "provenance", "parameters", "parameter_units", "nodes",
					   "rows", "latency", "progress", "fsstats" };
#define TABLES_FIRST 3 /* known_names[3..]: the tables */

static const char *known_name(const char *name)
{
	for (size_t i = 0; i < sizeof(known_names) / sizeof(known_names[0]); i++)
		if (!strcmp(name, known_names[i]))
			return known_names[i];
	return NULL;
}

struct link_refusal {
	const char *kind;
	const char *name; /* a known name, or NULL */
};

static herr_t refuse_link(hid_t g, const char *name, const H5L_info_t *info, void *data)
{
	struct link_refusal *r = data;

	(void)g;
	if (info->type == H5L_TYPE_HARD)
		return 0;
	r->kind = info->type == H5L_TYPE_EXTERNAL ? "an external link (to another file)"
		  : info->type == H5L_TYPE_SOFT   ? "a soft link"
						  : "a user-defined link";
	r->name = known_name(name);
	return 1;
}

/* What pfsbench never writes and HDF5 would follow out of the file: a link
 * other than a hard one anywhere in the file (an external link opens
 * another file, a FIFO or a device by name; a user-defined one runs a
 * class's code), and a table whose data lies in other files (external
 * storage, a virtual dataset). Refused before any object is opened through
 * them: 0, or -EINVAL after one message. H5Lvisit reports links without
 * following them; opening a dataset reads only its header, and its
 * creation properties say where its data is. */
static int check_self_contained(hid_t file, const char *path)
{
	struct link_refusal r = { NULL, NULL };
	const char *what = NULL, *which = NULL;

	if (H5Lvisit(file, H5_INDEX_NAME, H5_ITER_INC, refuse_link, &r) < 0 && !r.kind)
		return load_error(path, -EIO, "the HDF5 file is truncated or damaged");
	what = r.kind;
	which = r.name;
	for (size_t i = TABLES_FIRST; !what && i < sizeof(known_names) / sizeof(known_names[0]); i++) {
		hid_t ds = H5I_INVALID_HID, dcpl = H5I_INVALID_HID;

		if (H5Lexists(file, known_names[i], H5P_DEFAULT) <= 0)
			continue;
		ds = H5Dopen2(file, known_names[i], H5P_DEFAULT);
		dcpl = ds < 0 ? H5I_INVALID_HID : H5Dget_create_plist(ds);
		if (dcpl >= 0 && H5Pget_layout(dcpl) == H5D_VIRTUAL)
			what = "a virtual dataset (its data in other files)";
		else if (dcpl >= 0 && H5Pget_external_count(dcpl) != 0)
			what = "a dataset stored in external files";
		which = known_names[i];
		pfs_h5_close_id(&dcpl, H5Pclose);
		pfs_h5_close_id(&ds, H5Dclose);
	}
	if (!what)
		return 0;
	pfs_error("cannot read '%s': not a pfsbench results file: %s%s%s is %s, which pfsbench "
		  "never writes and does not follow", path, which ? "its '" : "it holds a link that",
		  which ? which : "", which ? "'" : "", what);
	return -EINVAL;
}

/* Once per process: HDF5 cannot follow an external link at all (should one
 * get past check_self_contained), rather than open a file by the name the
 * link holds. pfsbench writes none. */
static void forbid_external_links(void)
{
	static bool done;

	if (!done && H5Lis_registered(H5L_TYPE_EXTERNAL) > 0)
		(void)H5Lunregister(H5L_TYPE_EXTERNAL);
	done = true;
}

/* The file's image, read as a results file into *a; with warn, a warning
 * is said (the child that reads first keeps quiet but for errors, so that
 * the reader after it says it once). */
static int load_image(const char *path, const struct image *im, struct pfs_archive *a,
		      bool warn)
{
	hid_t file;
	uint64_t room;
	void *nodes = NULL;
	size_t nnodes = 0;
	uint64_t committed[PFS_COMMITTED_TABLES], padded = 0, image_end;
	const char *bad;
	int rc;

	memset(a, 0, sizeof(*a));
	pfs_h5_quiet();
	forbid_external_links();
	/* the size bounds what the tables may claim */
	room = pfs_mul_sat_u64((uint64_t)im->len, TABLE_PER_FILE_BYTE) + TABLE_SLACK;
	if (!image_is_hdf5(im))
		return load_error(path, -EINVAL, "not an HDF5 file");
	/* a writer's exclusive lock: its bytes are half written */
	if (im->locked)
		return load_error(path, -EBUSY, "it is locked: a running pfsbench (or another HDF5 "
				  "writer) is writing it; read it when the run has ended");
	file = image_open(im, &padded);
	if (file < 0)
		return load_error(path, -EIO, "the HDF5 file is truncated or damaged");
	image_end = padded ? (uint64_t)im->len : UINT64_MAX;
	if (padded && warn)
		pfs_warn("'%s' ends %" PRIu64 " bytes before the end HDF5 recorded: its writer's "
			 "last writes did not reach it; reading what it committed before them",
			 path, padded);
	rc = check_self_contained(file, path);
	if (!rc)
		rc = check_schema(file, path, &a->schema_version);
	if (!rc && (read_group_kvs(file, "provenance", &a->prov, &a->nprov) ||
		    read_group_kvs(file, "parameters", &a->params, &a->nparams)))
		rc = load_error(path, -EIO, "its provenance is damaged");
	if (!rc && read_committed(file, committed))
		rc = load_error(path, -EIO, "its count of committed records is damaged");
	if (!rc)
		rc = table_error(path, "nodes", "its node list is damaged", &nnodes,
				 read_table(file, room, "nodes", pfs_node_fields, pfs_node_nfields,
					    sizeof(struct pfs_node), false, UINT64_MAX, image_end, &nodes,
					    &nnodes));
	a->nodes = nodes;
	a->nnodes = (unsigned)nnodes;
	if (!rc)
		rc = table_error(path, "rows", "its table of rows is truncated or damaged", &a->nrows,
				 read_table(file, room, "rows", pfs_row_fields, pfs_row_nfields,
					    sizeof(struct pfs_row), false, committed[PFS_COMMITTED_ROWS],
					    image_end, (void **)&a->rows, &a->nrows));
	if (!rc)
		rc = table_error(path, "latency", "its latency table is damaged", &a->nlat,
				 read_table(file, room, "latency", pfs_lat_cell_fields,
					    pfs_lat_cell_nfields, sizeof(struct pfs_lat_cell), true,
					    committed[PFS_COMMITTED_LATENCY], image_end, (void **)&a->lat,
					    &a->nlat));
	if (!rc)
		rc = table_error(path, "progress", "its progress timeline is damaged", &a->nticks,
				 read_table(file, room, "progress", pfs_tick_fields,
					    pfs_tick_nfields, sizeof(struct pfs_tick), true,
					    committed[PFS_COMMITTED_PROGRESS], image_end, (void **)&a->ticks,
					    &a->nticks));
	if (!rc)
		rc = table_error(path, "fsstats", "its filesystem counters are damaged",
				 &a->nfsstats,
				 read_table(file, room, "fsstats", pfs_fsstat_fields,
					    pfs_fsstat_nfields, sizeof(struct pfs_fsstat), true,
					    committed[PFS_COMMITTED_FSSTATS], image_end,
					    (void **)&a->fsstats,
					    &a->nfsstats));
	if (!rc && (bad = check_refs(a)))
		rc = load_error(path, -EIO, bad);
	H5Fclose(file);
	if (rc) {
		pfs_archive_free(a);
		return rc;
	}
	pfs_archive_fill_run_info(a);
	return 0;
}

int pfs_archive_load_here(const char *path, struct pfs_archive *a)
{
	struct image im;
	int rc;

	memset(a, 0, sizeof(*a));
	rc = image_read(path, &im);
	if (rc)
		return rc;
	rc = load_image(path, &im, a, true);
	free(im.buf);
	return rc;
}

/* HDF5 1.10.8 itself crashes on some damaged files (a NULL dereference,
 * reads past its buffers, an 8 GB allocation, all inside H5Aiterate2:
 * docs/fuzzing.md lists what the fuzz target found), where no check of
 * ours can come first. So a file is read once in a child
 * process: its own refusal (one line, then CHILD_REFUSED + its errno as
 * exit status) stands, and any other end, a signal or an exit status of
 * its own (a sanitizer's report), makes the file damaged instead of
 * ending pfsbench. Only then is it read here, by the same code on the same
 * bytes: the image read once from the file before the fork, never the
 * file's name again (a file swapped between the two reads made the second
 * read crash). Costs a fork and a second parse: a few ms for a results
 * file. */
#define CHILD_REFUSED 100
#define CHILD_ERRNO_MAX 150
/* The child's bounds. A damaged local heap (a group's name heap) once made
 * HDF5 1.10.8 allocate small blocks without end, 41 million of them in 2
 * GB, in H5HL_protect under H5Gopen2 (docs/fuzzing.md): without a bound the
 * child would take the machine's memory while pfsbench waited. A results
 * file needs a small multiple of its size; past 1 GiB + 16 x the file's
 * size, or 300 s, the child is killed and the file called damaged. */
#define CHILD_RSS_BASE (1ull << 30)
#define CHILD_RSS_PER_BYTE 16u
#define CHILD_SECONDS 300u

/* The resident memory of process pid, in bytes; 0 when unknown. */
static uint64_t rss_of(pid_t pid)
{
	char p[64];
	unsigned long long size = 0, resident = 0;
	FILE *f;

	snprintf(p, sizeof(p), "/proc/%d/statm", (int)pid);
	if (!(f = fopen(p, "r")))
		return 0;
	if (fscanf(f, "%llu %llu", &size, &resident) != 2)
		resident = 0;
	fclose(f);
	return (uint64_t)resident * (uint64_t)sysconf(_SC_PAGESIZE);
}

/* Waits for the reader child within its bounds: 0 with its status, or
 * 1 when it was killed for going past them (*why says which). */
static int child_wait(pid_t pid, uint64_t file_bytes, int *status, const char **why)
{
	uint64_t rss_max = CHILD_RSS_BASE + CHILD_RSS_PER_BYTE * file_bytes;
	uint64_t start = pfs_now_us(), nap_us = 500;

	for (;;) {
		pid_t got = waitpid(pid, status, WNOHANG);

		if (got == pid)
			return 0;
		if (got < 0 && errno != EINTR)
			return -errno;
		*why = rss_of(pid) > rss_max ? "memory"
		       : pfs_now_us() - start > CHILD_SECONDS * 1000000ull ? "time" : NULL;
		if (*why) {
			kill(pid, SIGKILL);
			while (waitpid(pid, status, 0) < 0 && errno == EINTR)
				;
			return 1;
		}
		/* a results file is read in milliseconds: look often, then less */
		usleep((useconds_t)nap_us);
		if (nap_us < 20000)
			nap_us *= 2;
	}
}

int pfs_archive_load(const char *path, struct pfs_archive *a)
{
	struct image im;
	pid_t pid, parent;
	int status = 0, waited, rc;
	const char *why = NULL;

	memset(a, 0, sizeof(*a));
	rc = image_read(path, &im);
	if (rc)
		return rc;
	fflush(stdout);
	fflush(stderr);
	parent = getpid();
	pid = fork();
	if (pid == 0) {
		struct pfs_archive tried;
		struct rlimit cpu = { CHILD_SECONDS, CHILD_SECONDS };

		/* The parent's watch ends with the parent: pfsbench killed while
		 * this child reads (SIGKILL at a job's time limit) left it
		 * reading on, on a damaged file allocating without end
		 * (tests/archive/bad-input.sh). It dies with its parent now, and
		 * its CPU time has the bound of the parent's clock besides. */
		(void)prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent) /* it died before the notice was asked for */
			_exit(CHILD_REFUSED + ESRCH);
		setrlimit(RLIMIT_CPU, &cpu);
		rc = load_image(path, &im, &tried, false);
		fflush(stderr);
		if (rc < 0 && -rc <= CHILD_ERRNO_MAX)
			_exit(CHILD_REFUSED - rc);
		_exit(rc ? CHILD_REFUSED + EIO : 0);
	}
	if (pid < 0) /* no child to spare: read it here, unguarded */
		goto here;
	waited = child_wait(pid, im.len, &status, &why);
	if (waited < 0) {
		rc = load_error(path, waited, "cannot wait for the process reading it");
	} else if (waited > 0) {
		pfs_error("cannot read '%s': the HDF5 file is damaged (reading it took more %s "
			  "than a results file needs)", path, why);
		rc = -EIO;
	} else if (WIFEXITED(status) && WEXITSTATUS(status) > CHILD_REFUSED &&
		   WEXITSTATUS(status) <= CHILD_REFUSED + CHILD_ERRNO_MAX) {
		rc = -(WEXITSTATUS(status) - CHILD_REFUSED);
	} else if (WIFSIGNALED(status)) {
		pfs_error("cannot read '%s': the HDF5 file is damaged (HDF5 died reading it: %s)",
			  path, strsignal(WTERMSIG(status)));
		rc = -EIO;
	} else if (WEXITSTATUS(status)) {
		pfs_error("cannot read '%s': the HDF5 file is damaged (the process reading it "
			  "ended with status %d)",
			  path, WEXITSTATUS(status));
		rc = -EIO;
	}
	if (rc) {
		free(im.buf);
		return rc;
	}
here:
	/* the bytes the child read, not the file's name again */
	rc = load_image(path, &im, a, true);
	free(im.buf);
	return rc;
}
