/* h5common.c: what the results file's writer (src/outputs/hdf5.c) and its
 * reader (src/archive/archive_hdf5.c) share: HDF5's silence, closing handles, and
 * the types of strings, booleans and records built from a field table. The
 * three are the only files that include hdf5.h. */
#include "pfsbench/core/h5common.h"
#include "pfsbench/core/topology.h"

void pfs_h5_quiet(void)
{
	/* Our messages say what failed; HDF5's stack dumps would bury them. */
	H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
}

void pfs_h5_close_id(hid_t *id, herr_t (*close_fn)(hid_t))
{
	if (*id >= 0)
		close_fn(*id);
	*id = H5I_INVALID_HID;
}

/* ---- types ------------------------------------------------------------- */

hid_t pfs_h5_str_type(size_t size)
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
hid_t pfs_h5_bool_type(void)
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
		return pfs_h5_str_type(f->size);
	case PFS_FIELD_U32:
		return H5Tcopy(H5T_NATIVE_UINT32);
	case PFS_FIELD_U64:
		return H5Tcopy(H5T_NATIVE_UINT64);
	}
	return H5I_INVALID_HID;
}

/* A record (struct pfs_row, struct pfs_node) as HDF5 sees it, from its
 * field table. With have (a file's type), only the fields that type has:
 * the rest stay zero, so older files read. Packed, it is the file's type,
 * without the struct's padding. */
hid_t pfs_h5_record_type(const struct pfs_field *fields, size_t nfields, size_t size, hid_t have,
			 bool packed)
{
	hid_t t = H5Tcreate(H5T_COMPOUND, size);

	if (t < 0)
		return t;
	for (size_t i = 0; i < nfields; i++) {
		const struct pfs_field *f = &fields[i];
		const char *name = f->name;

		if (have >= 0 && H5Tget_member_index(have, name) < 0) {
			if (!f->v1_name || H5Tget_member_index(have, f->v1_name) < 0)
				continue;
			name = f->v1_name;
		}
		if (insert_member(t, name, f->offset, field_type(f)))
			goto fail;
	}
	if (packed && H5Tpack(t) < 0)
		goto fail;
	return t;
fail:
	H5Tclose(t);
	return H5I_INVALID_HID;
}
