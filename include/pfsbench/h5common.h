/* h5common.h: HDF5 types and helpers shared by the results file's writer
 * and reader (src/h5common.c). Only those two include this header, and with
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

/* struct pfs_row and struct pfs_node as HDF5 compound types, from their
 * field tables. With have (a file's type), only the fields that type has.
 * Packed, the file's type, without the structs' padding. */
hid_t pfs_h5_row_type(hid_t have, bool packed);
hid_t pfs_h5_node_type(hid_t have, bool packed);

#endif
