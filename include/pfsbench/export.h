/* export.h: the quoting of CSV fields and JSON strings, for export and its
 * tests. No MPI, no HDF5. */
#ifndef PFSBENCH_EXPORT_H
#define PFSBENCH_EXPORT_H

#include <stdio.h>

/* One CSV field by RFC 4180: quoted, with quotes doubled, when it holds a
 * comma, a quote, CR or LF. */
void pfs_csv_field(FILE *out, const char *s);

/* A JSON string: quotes, backslashes and control characters escaped; a byte
 * that is not part of valid UTF-8 becomes U+FFFD. */
void pfs_json_string(FILE *out, const char *s);

#endif
