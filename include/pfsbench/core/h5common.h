/* h5common.h: HDF5 types and helpers shared by the results file's writer
 * and reader (src/core/h5common.c). Only those two include this header, and with
 * it hdf5.h. */
#ifndef PFSBENCH_H5COMMON_H
#define PFSBENCH_H5COMMON_H

#include <stdbool.h>
#include <stddef.h>

#include <hdf5.h>

/* Turns off HDF5's error stack printing: our messages say what failed. */
void pfs_h5_quiet(void);

/* Closes *id with close_fn when it is valid, and invalidates it. */
void pfs_h5_close_id(hid_t *id, herr_t (*close_fn)(hid_t));

/* A null-terminated string of size bytes (at least 1). */
hid_t pfs_h5_str_type(size_t size);

/* An enum {FALSE = 0, TRUE = 1} on int8: what h5py and numpy read as bool. */
hid_t pfs_h5_bool_type(void);

/* The root's attribute "committed" (since 0.x: files before it lack it):
 * how many records of /rows, /latency, /progress and /fsstats, in that
 * order, reached the file whole. The writer rewrites it after each flush
 * that succeeded; the reader takes no record beyond it. */
#define PFS_COMMITTED_ATTR "committed"
enum pfs_committed_table {
	PFS_COMMITTED_ROWS,
	PFS_COMMITTED_LATENCY,
	PFS_COMMITTED_PROGRESS,
	PFS_COMMITTED_FSSTATS,
	PFS_COMMITTED_TABLES
};

struct pfs_field;

/* A record (struct pfs_row, pfs_node, pfs_lat_cell, pfs_tick) of size
 * bytes as an HDF5 compound type, from its field table. With have (a
 * file's type), only the fields that type has, each under its name or, in
 * a schema-1 file, its v1_name: the rest stay zero. Packed, it is the
 * file's type, without the struct's padding. */
hid_t pfs_h5_record_type(const struct pfs_field *fields, size_t nfields, size_t size, hid_t have,
			 bool packed);

#endif
