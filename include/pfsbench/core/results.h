/* results.h: the result row, its unit, the field tables that describe the
 * records of a run to every output (HDF5, CSV, JSON, MPI), and the
 * arithmetic of rates. Pure: no MPI, no HDF5. */
#ifndef PFSBENCH_RESULTS_H
#define PFSBENCH_RESULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PFS_TEST_NAME_MAX 8
#define PFS_OP_NAME_MAX 16
#define PFS_NODE_NAME_MAX 64
#define PFS_UNIT_NAME_MAX 8

/* What a row counts, and so which rate fits it: files/s, dirs/s, MiB/s or
 * ops/s. A bytes row's items are its requests (blocks, writes). */
enum pfs_unit {
	PFS_UNIT_FILES,
	PFS_UNIT_DIRS,
	PFS_UNIT_BYTES,
	PFS_UNIT_OPS,
	PFS_UNIT_COUNT,
};

/* "files", "dirs", "bytes", "ops". */
const char *pfs_unit_name(enum pfs_unit u);
/* The unit a name stands for; -EINVAL for none. */
int pfs_unit_parse(const char *name, enum pfs_unit *u);
/* "files/s", "dirs/s", "MiB/s", "ops/s". */
const char *pfs_unit_rate_label(enum pfs_unit u);
/* Whether a unit counts bytes, so that its rates are of the rows' bytes,
 * not of their items (requests): ask this, never compare with a unit. */
bool pfs_unit_is_bytes(enum pfs_unit u);
/* What one unit of its display holds: 2^20 bytes (MiB) for bytes, one
 * item for the others. */
double pfs_unit_scale(enum pfs_unit u);

/* One measurement: one worker doing one op in one step of one test. Every
 * time is in microseconds; start_us counts from the run's start barrier, so
 * rows of different ranks share one time base (see docs/methodology.md). */
struct pfs_row {
	char test[PFS_TEST_NAME_MAX];  /* "se", "pa", ... */
	char op[PFS_OP_NAME_MAX];      /* "Create", "Write", ... */
	char node[PFS_NODE_NAME_MAX];  /* node name */
	char unit[PFS_UNIT_NAME_MAX];  /* pfs_unit_name(): what items counts */
	uint32_t iteration;            /* 1-based */
	uint32_t node_index;           /* 0-based, in node order */
	uint32_t worker;               /* 1-based within the node */
	uint32_t rank;                 /* MPI rank */
	uint32_t step;                 /* 0-based step of the test's plan */
	uint32_t sample;               /* 0-based index among the step's rows of this rank */
	uint64_t start_us;
	uint64_t elapsed_us;
	uint64_t items;                /* files, directories or ops done (requests for bytes) */
	uint64_t bytes;                /* bytes written or read */
	uint64_t cpu_us;               /* user + system CPU time of the rank during the op */
	uint64_t stonewall_items;      /* items done when the stonewall deadline stopped the
					* op (all of them when it ended first); 0 without one */
	uint64_t stonewall_us;         /* the op's time at that moment; 0 without one */
	uint64_t lat_count;            /* items whose latency was recorded; 0 for none */
	uint64_t lat_min_ns;           /* the fastest and slowest of them, exactly */
	uint64_t lat_max_ns;
	uint32_t discarded;            /* 1: the workload's outlier rule left this row out of
					* its results (matrix's repetitions); it stays in the
					* file all the same. 0 for every other row */
	uint64_t wait_us;              /* time the rank was runnable but waiting for a CPU
					* during the op (Linux's run_delay); 0 where the
					* kernel does not say, and in older files */
	uint64_t throttled_us;         /* time the rank's cgroup was throttled by its CPU
					* quota during the op (cpu.stat), at most
					* elapsed_us; 0 where the kernel does not say,
					* and in older files */
};

enum pfs_field_type { PFS_FIELD_STRING, PFS_FIELD_U32, PFS_FIELD_U64 };

/* One column of a record: drives the HDF5 compound type, the MPI datatype,
 * the CSV header and the JSON keys. Adding a field to a record is one line
 * in its table. */
struct pfs_field {
	const char *name;
	enum pfs_field_type type;
	size_t offset;
	size_t size;
	const char *unit; /* "us", "ns", "bytes", or "" */
	const char *description;
	const char *v1_name; /* the name a schema-1 file gave it, or NULL */
};

extern const struct pfs_field pfs_row_fields[];
extern const size_t pfs_row_nfields;

/* One nonzero bucket of a row's latency histogram (include/pfsbench/
 * histogram.h): row is the row's index among the rows it travels with. */
struct pfs_lat_cell {
	uint64_t row;
	uint32_t bucket;
	uint64_t count;
};
extern const struct pfs_field pfs_lat_cell_fields[];
extern const size_t pfs_lat_cell_nfields;

/* One progress tick: what a rank had done of its op at time_us (on the
 * run's clock), every ~100 ms while it works. */
struct pfs_tick {
	char test[PFS_TEST_NAME_MAX];
	uint32_t iteration;
	uint32_t step;
	uint32_t rank;
	uint64_t time_us;
	uint64_t items;
	uint64_t bytes;
};
extern const struct pfs_field pfs_tick_fields[];
extern const size_t pfs_tick_nfields;

/* One counter of the filesystem's own (include/pfsbench/target/fsprobe.h) over one
 * step, on one node: what the node's probe counted from just before the
 * step's barrier to the step's end. */
struct pfs_fsstat {
	char test[PFS_TEST_NAME_MAX];
	uint32_t iteration;
	uint32_t step;
	uint32_t node_index;
	char name[48];  /* "inode.dlm_requests", "b1.WRITE.calls" */
	uint64_t value;
};
extern const struct pfs_field pfs_fsstat_fields[];
extern const size_t pfs_fsstat_nfields;

/* One field of a record (a row, a node, a tick) as text, for CSV, JSON and
 * text outputs: a string as it is, a number in decimal (in buf). */
const char *pfs_field_text(const struct pfs_field *f, const void *record, char *buf, size_t len);

/* The row's unit; PFS_UNIT_FILES for a row that names none it knows. */
enum pfs_unit pfs_row_unit(const struct pfs_row *r);

/* The part of the row's time its rank waited for a CPU held by other work
 * (docs/methodology.md): run_delay less what its cgroup's quota throttled
 * it for (a throttled node is slow, not busy), and at most the time it was
 * off its CPU (elapsed_us - cpu_us): with more ranks than CPUs, run_delay
 * over an op of a few ms was seen to exceed even the op's time. */
uint64_t pfs_row_cpu_wait_us(const struct pfs_row *r);

/* The order of rows in a report. */
enum pfs_order {
	PFS_ORDER_PLAN,       /* by step, then node, worker, sample */
	PFS_ORDER_COMPLETION, /* by end time (start + elapsed), ties by node, worker, sample */
};

void pfs_rows_sort(struct pfs_row *rows, size_t n, enum pfs_order order);

/* The same order as a permutation: perm[i] is the index in rows of the
 * i-th row in report order; rows stay where they are. */
void pfs_rows_order(const struct pfs_row *rows, size_t n, enum pfs_order order, size_t *perm);

/* ---- rates: one helper for each formula ------------------------------- */

/* A step shorter than this is too short to measure: barrier wake-ups (up
 * to 0.2 ms a rank), clock offsets between nodes (tens of us) and scheduler
 * time slices (1-10 ms) are then a large part of it. show --analyze and
 * compare mark such steps, and compare calls out no change smaller. */
#define PFS_SHORT_STEP_US 10000u

/* What a rate counts in a unit: bytes for a unit of bytes, items else. */
uint64_t pfs_unit_amount(enum pfs_unit u, uint64_t items, uint64_t bytes);

/* amount / elapsed_us, per second; a zero time counts as one microsecond. */
double pfs_rate_per_s(uint64_t amount, uint64_t elapsed_us);

/* A rate per second in the unit's display scale (pfs_unit_scale): MiB/s
 * for bytes, as it is for the others. */
double pfs_rate_display(enum pfs_unit u, double per_s);

/* The time a set of rows covers: earliest start to latest end, and what
 * they did. A phase of several ranks is measured by it: rate = amount of
 * all rows / (latest end - earliest start). */
struct pfs_span {
	uint64_t start_us, end_us;
	uint64_t items, bytes;
	size_t rows;
};
void pfs_span_init(struct pfs_span *s);
void pfs_span_add(struct pfs_span *s, const struct pfs_row *r);
uint64_t pfs_span_us(const struct pfs_span *s);          /* 0 for no rows */
double pfs_span_rate(const struct pfs_span *s, enum pfs_unit u); /* per second */

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
