/* export.h: what `pfsbench export` writes of a loaded results file, and
 * the quoting of CSV fields and JSON strings, for export, its tests and
 * the fuzz target (tests/fuzz). No MPI, no HDF5. */
#ifndef PFSBENCH_EXPORT_H
#define PFSBENCH_EXPORT_H

#include <stdio.h>

struct pfs_archive;

/* One of export's outputs: --csv (the rows), --csv --provenance,
 * --csv --latency, --csv --progress, --csv --fs-stats, --json,
 * --json --provenance. */
enum pfs_export_kind {
	PFS_EXPORT_CSV_ROWS,
	PFS_EXPORT_CSV_PROVENANCE,
	PFS_EXPORT_CSV_LATENCY,
	PFS_EXPORT_CSV_PROGRESS,
	PFS_EXPORT_CSV_FSSTATS,
	PFS_EXPORT_JSON,
	PFS_EXPORT_JSON_PROVENANCE,
};

/* Writes a on out as kind. Returns 0, or -1 after a message when its
 * latency histograms are damaged; write errors are left on out. */
int pfs_export_write(FILE *out, const struct pfs_archive *a, enum pfs_export_kind kind);

/* One CSV text cell: control characters, invalid UTF-8 and backslashes
 * escaped by pfs_printable (util.h), then a leading ' when it starts with
 * =, +, -, @, tab or CR (a spreadsheet's formula), then by RFC 4180:
 * quoted, with quotes doubled, when it holds a comma or a quote. Numbers
 * pfsbench formats are written as they are, not through this. */
void pfs_csv_field(FILE *out, const char *s);

/* A JSON string: quotes, backslashes, C0 and C1 controls and DEL escaped
 * (\u001b), so the document holds no raw ESC; a byte that is not part of
 * valid UTF-8 becomes U+FFFD. */
void pfs_json_string(FILE *out, const char *s);

#endif
