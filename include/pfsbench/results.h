/* results.h: the result row, the field table that describes it to every
 * output (HDF5, CSV, JSON, text), and the arithmetic of the derived metrics.
 * Pure: no MPI, no HDF5. */
#ifndef PFSBENCH_RESULTS_H
#define PFSBENCH_RESULTS_H

#include <stddef.h>
#include <stdint.h>

#define PFS_TEST_NAME_MAX 8
#define PFS_OP_NAME_MAX 16
#define PFS_NODE_NAME_MAX 64

/* One measurement: one worker doing one op in one step of one test. Every
 * time is in microseconds; start_us counts from the run's start barrier, so
 * rows of different ranks share one time base (see docs/methodology.md). */
struct pfs_row {
	char test[PFS_TEST_NAME_MAX];  /* "se", "pa", ... */
	char op[PFS_OP_NAME_MAX];      /* "Create", "Write", ... */
	char node[PFS_NODE_NAME_MAX];  /* node name */
	uint32_t iteration;            /* 1-based */
	uint32_t node_index;           /* 0-based, in node order */
	uint32_t worker;               /* 1-based within the node */
	uint32_t rank;                 /* MPI rank */
	uint32_t step;                 /* 0-based step of the test's plan */
	uint32_t sample;               /* 0-based index among the step's rows */
	uint64_t start_us;
	uint64_t elapsed_us;
	uint64_t files;                /* items done: files, or directories */
	uint64_t bytes;                /* bytes written or read */
};

enum pfs_field_type { PFS_FIELD_STRING, PFS_FIELD_U32, PFS_FIELD_U64 };

/* One column of the row: drives the HDF5 compound type, the CSV header, the
 * JSON keys. Adding a field to struct pfs_row is one line here. */
struct pfs_field {
	const char *name;
	enum pfs_field_type type;
	size_t offset;
	size_t size;
	const char *unit; /* "us", "files", "bytes", or "" */
	const char *description;
};

extern const struct pfs_field pfs_row_fields[];
extern const size_t pfs_row_nfields;

/* One field of a record (a row, a node) as text, for CSV, JSON and text
 * outputs: a string as it is, a number in decimal (in buf). */
const char *pfs_field_text(const struct pfs_field *f, const void *record, char *buf, size_t len);

/* The order of rows in a report. */
enum pfs_order {
	PFS_ORDER_PLAN,       /* by step, then node, worker, sample */
	PFS_ORDER_COMPLETION, /* by end time (start + elapsed), ties by node, worker, sample */
};

void pfs_rows_sort(struct pfs_row *rows, size_t n, enum pfs_order order);

/* us/fil of the create_unlink_perf table: integer microseconds divided by
 * files, truncated; 0 when files is 0. */
uint64_t pfs_us_per_file(uint64_t elapsed_us, uint64_t files);

/* files/sec of the create_unlink_perf table: 1000000 divided by the integer
 * us/fil, truncated, exactly as the Red Hat tool prints it. Where us/fil is 0
 * (faster than a microsecond a file) the true rate files * 10^6 / elapsed is
 * used instead, and a zero elapsed time counts as one microsecond. */
uint64_t pfs_files_per_sec(uint64_t elapsed_us, uint64_t files);

/* Fill the row's string fields, truncating safely. */
void pfs_row_set_text(char *dst, size_t size, const char *src);

#endif
