/* results.c: the field tables of rows, latency cells and progress ticks,
 * units, the order of rows, and the arithmetic of rates and of the
 * create_unlink_perf table's derived columns. */
#include "pfsbench/core/results.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FIELD(name, type, unit, desc) \
	{ #name, type, offsetof(struct pfs_row, name), sizeof(((struct pfs_row *)0)->name), unit, \
	  desc, NULL }

const struct pfs_field pfs_row_fields[] = {
	FIELD(test, PFS_FIELD_STRING, "", "test name (se, pa, ua, ub, uc, tree, ...)"),
	FIELD(iteration, PFS_FIELD_U32, "", "iteration, from 1"),
	FIELD(node, PFS_FIELD_STRING, "", "node name"),
	FIELD(node_index, PFS_FIELD_U32, "", "node, from 0, in node order"),
	FIELD(worker, PFS_FIELD_U32, "", "worker within its node, from 1"),
	FIELD(rank, PFS_FIELD_U32, "", "MPI rank"),
	FIELD(op, PFS_FIELD_STRING, "", "operation (Create, Write, Read, Unlink, ...)"),
	FIELD(step, PFS_FIELD_U32, "", "step of the test's plan, from 0"),
	FIELD(sample, PFS_FIELD_U32, "", "row within the step for this worker, from 0"),
	FIELD(start_us, PFS_FIELD_U64, "us", "start, from the run's start barrier"),
	FIELD(elapsed_us, PFS_FIELD_U64, "us", "time spent in the op"),
	{ "items", PFS_FIELD_U64, offsetof(struct pfs_row, items), sizeof(uint64_t), "",
	  "what the op did, in the row's unit (files, dirs, ops; requests for bytes)", "files" },
	FIELD(unit, PFS_FIELD_STRING, "", "what items counts: files, dirs, bytes or ops"),
	FIELD(bytes, PFS_FIELD_U64, "bytes", "bytes written or read"),
	FIELD(cpu_us, PFS_FIELD_U64, "us", "user + system CPU time of the rank during the op"),
	FIELD(stonewall_items, PFS_FIELD_U64, "",
	      "items done when the stonewall deadline stopped the op; 0 without a stonewall"),
	FIELD(stonewall_us, PFS_FIELD_U64, "us", "the op's time when the deadline stopped it"),
	FIELD(lat_count, PFS_FIELD_U64, "", "items whose latency was recorded"),
	FIELD(lat_min_ns, PFS_FIELD_U64, "ns", "fastest recorded item"),
	FIELD(lat_max_ns, PFS_FIELD_U64, "ns", "slowest recorded item"),
	FIELD(discarded, PFS_FIELD_U32, "",
	      "1: an outlier, left out of the results by the workload's rule; else 0"),
	FIELD(wait_us, PFS_FIELD_U64, "us",
	      "time the rank was runnable but waiting for a CPU during the op (run_delay)"),
	FIELD(throttled_us, PFS_FIELD_U64, "us",
	      "time the rank's cgroup was throttled by its CPU quota during the op (cpu.stat)"),
};
const size_t pfs_row_nfields = sizeof(pfs_row_fields) / sizeof(pfs_row_fields[0]);

#define CELL_FIELD(name, type, desc) \
	{ #name, type, offsetof(struct pfs_lat_cell, name), \
	  sizeof(((struct pfs_lat_cell *)0)->name), "", desc, NULL }

const struct pfs_field pfs_lat_cell_fields[] = {
	CELL_FIELD(row, PFS_FIELD_U64, "index of the row in /rows"),
	CELL_FIELD(bucket, PFS_FIELD_U32, "histogram bucket (docs/hdf5-schema.md)"),
	CELL_FIELD(count, PFS_FIELD_U64, "items whose latency fell in the bucket"),
};
const size_t pfs_lat_cell_nfields = sizeof(pfs_lat_cell_fields) / sizeof(pfs_lat_cell_fields[0]);

#define TICK_FIELD(name, type, unit, desc) \
	{ #name, type, offsetof(struct pfs_tick, name), sizeof(((struct pfs_tick *)0)->name), \
	  unit, desc, NULL }

const struct pfs_field pfs_tick_fields[] = {
	TICK_FIELD(test, PFS_FIELD_STRING, "", "test name"),
	TICK_FIELD(iteration, PFS_FIELD_U32, "", "iteration, from 1"),
	TICK_FIELD(step, PFS_FIELD_U32, "", "step of the test's plan, from 0"),
	TICK_FIELD(rank, PFS_FIELD_U32, "", "MPI rank"),
	TICK_FIELD(time_us, PFS_FIELD_U64, "us", "when, from the run's start barrier"),
	TICK_FIELD(items, PFS_FIELD_U64, "", "items of the op done by then"),
	TICK_FIELD(bytes, PFS_FIELD_U64, "bytes", "bytes of the op done by then"),
};
const size_t pfs_tick_nfields = sizeof(pfs_tick_fields) / sizeof(pfs_tick_fields[0]);

#define FSSTAT_FIELD(name, type, desc) \
	{ #name, type, offsetof(struct pfs_fsstat, name), sizeof(((struct pfs_fsstat *)0)->name), \
	  "", desc, NULL }

const struct pfs_field pfs_fsstat_fields[] = {
	FSSTAT_FIELD(test, PFS_FIELD_STRING, "test name"),
	FSSTAT_FIELD(iteration, PFS_FIELD_U32, "iteration, from 1"),
	FSSTAT_FIELD(step, PFS_FIELD_U32, "step of the test's plan, from 0"),
	FSSTAT_FIELD(node_index, PFS_FIELD_U32, "node, from 0, in node order"),
	FSSTAT_FIELD(name, PFS_FIELD_STRING, "counter (docs/filesystems.md)"),
	FSSTAT_FIELD(value, PFS_FIELD_U64, "what it counted over the step"),
};
const size_t pfs_fsstat_nfields = sizeof(pfs_fsstat_fields) / sizeof(pfs_fsstat_fields[0]);

/* Each unit's name, its rate's label, whether it counts bytes (a rate of
 * bytes, not of items) and what one unit of its display holds. */
static const struct {
	const char *name, *rate;
	bool bytes;
	double scale;
} units[PFS_UNIT_COUNT] = {
	[PFS_UNIT_FILES] = { "files", "files/s", false, 1 },
	[PFS_UNIT_DIRS] = { "dirs", "dirs/s", false, 1 },
	[PFS_UNIT_BYTES] = { "bytes", "MiB/s", true, 1024.0 * 1024.0 },
	[PFS_UNIT_OPS] = { "ops", "ops/s", false, 1 },
};

const char *pfs_unit_name(enum pfs_unit u)
{
	return u < PFS_UNIT_COUNT ? units[u].name : "";
}

const char *pfs_unit_rate_label(enum pfs_unit u)
{
	return u < PFS_UNIT_COUNT ? units[u].rate : "";
}

bool pfs_unit_is_bytes(enum pfs_unit u)
{
	return u < PFS_UNIT_COUNT && units[u].bytes;
}

double pfs_unit_scale(enum pfs_unit u)
{
	return u < PFS_UNIT_COUNT ? units[u].scale : 1;
}

int pfs_unit_parse(const char *name, enum pfs_unit *u)
{
	for (unsigned i = 0; i < PFS_UNIT_COUNT; i++)
		if (!strcmp(units[i].name, name)) {
			*u = (enum pfs_unit)i;
			return 0;
		}
	return -EINVAL;
}

enum pfs_unit pfs_row_unit(const struct pfs_row *r)
{
	enum pfs_unit u = PFS_UNIT_FILES;
	char name[PFS_UNIT_NAME_MAX + 1];

	memcpy(name, r->unit, PFS_UNIT_NAME_MAX);
	name[PFS_UNIT_NAME_MAX] = 0;
	pfs_unit_parse(name, &u);
	return u;
}

uint64_t pfs_row_cpu_wait_us(const struct pfs_row *r)
{
	uint64_t waited = r->wait_us > r->throttled_us ? r->wait_us - r->throttled_us : 0;
	uint64_t off_cpu = r->elapsed_us > r->cpu_us ? r->elapsed_us - r->cpu_us : 0;

	return waited < off_cpu ? waited : off_cpu;
}

uint64_t pfs_unit_amount(enum pfs_unit u, uint64_t items, uint64_t bytes)
{
	return pfs_unit_is_bytes(u) ? bytes : items;
}

double pfs_rate_per_s(uint64_t amount, uint64_t elapsed_us)
{
	return (double)amount * 1e6 / (double)(elapsed_us ? elapsed_us : 1);
}

double pfs_rate_display(enum pfs_unit u, double per_s)
{
	return per_s / pfs_unit_scale(u);
}

void pfs_span_init(struct pfs_span *s)
{
	memset(s, 0, sizeof(*s));
	s->start_us = UINT64_MAX;
}

void pfs_span_add(struct pfs_span *s, const struct pfs_row *r)
{
	if (r->start_us < s->start_us)
		s->start_us = r->start_us;
	if (r->start_us + r->elapsed_us > s->end_us)
		s->end_us = r->start_us + r->elapsed_us;
	s->items += r->items;
	s->bytes += r->bytes;
	s->rows++;
}

uint64_t pfs_span_us(const struct pfs_span *s)
{
	return s->rows ? s->end_us - s->start_us : 0;
}

double pfs_span_rate(const struct pfs_span *s, enum pfs_unit u)
{
	return pfs_rate_per_s(pfs_unit_amount(u, s->items, s->bytes), pfs_span_us(s));
}

const char *pfs_field_text(const struct pfs_field *f, const void *record, char *buf, size_t len)
{
	const char *p = (const char *)record + f->offset;
	uint32_t u32;
	uint64_t u64;

	switch (f->type) {
	case PFS_FIELD_STRING:
		return p;
	case PFS_FIELD_U32:
		memcpy(&u32, p, sizeof(u32));
		snprintf(buf, len, "%" PRIu32, u32);
		return buf;
	case PFS_FIELD_U64:
		memcpy(&u64, p, sizeof(u64));
		snprintf(buf, len, "%" PRIu64, u64);
		return buf;
	}
	return "";
}

static int cmp_u64(uint64_t a, uint64_t b)
{
	return (a > b) - (a < b);
}

static int cmp_place(const struct pfs_row *a, const struct pfs_row *b)
{
	int c = cmp_u64(a->node_index, b->node_index);

	if (!c)
		c = cmp_u64(a->worker, b->worker);
	if (!c)
		c = cmp_u64(a->sample, b->sample);
	return c;
}

static int cmp_plan(const void *pa, const void *pb)
{
	const struct pfs_row *a = pa, *b = pb;
	int c = cmp_u64(a->iteration, b->iteration);

	if (!c)
		c = cmp_u64(a->step, b->step);
	return c ? c : cmp_place(a, b);
}

static int cmp_completion(const void *pa, const void *pb)
{
	const struct pfs_row *a = pa, *b = pb;
	int c = cmp_u64(a->iteration, b->iteration);

	if (!c)
		c = cmp_u64(a->start_us + a->elapsed_us, b->start_us + b->elapsed_us);
	return c ? c : cmp_place(a, b);
}

void pfs_rows_sort(struct pfs_row *rows, size_t n, enum pfs_order order)
{
	qsort(rows, n, sizeof(*rows), order == PFS_ORDER_PLAN ? cmp_plan : cmp_completion);
}

struct order_ctx {
	const struct pfs_row *rows;
	int (*cmp)(const void *, const void *);
};

static int cmp_index(const void *pa, const void *pb, void *arg)
{
	const struct order_ctx *c = arg;
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	int r = c->cmp(&c->rows[a], &c->rows[b]);

	/* Equal rows keep their order, as a stable sort would. */
	return r ? r : (a > b) - (a < b);
}

void pfs_rows_order(const struct pfs_row *rows, size_t n, enum pfs_order order, size_t *perm)
{
	struct order_ctx c = { rows, order == PFS_ORDER_PLAN ? cmp_plan : cmp_completion };

	for (size_t i = 0; i < n; i++)
		perm[i] = i;
	qsort_r(perm, n, sizeof(*perm), cmp_index, &c);
}

uint64_t pfs_us_per_file(uint64_t elapsed_us, uint64_t files)
{
	return files ? elapsed_us / files : 0;
}

uint64_t pfs_files_per_sec(uint64_t elapsed_us, uint64_t files)
{
	uint64_t us_per_file = pfs_us_per_file(elapsed_us, files);

	if (!files)
		return 0;
	if (us_per_file)
		return 1000000u / us_per_file;
	/* Sub-microsecond ops: elapsed < files here, so files * 10^6 cannot
	 * overflow for any elapsed >= 1 unless files exceeds 1.8e13. */
	return files * 1000000u / (elapsed_us ? elapsed_us : 1);
}

void pfs_row_set_text(char *dst, size_t size, const char *src)
{
	size_t n = strlen(src);

	if (n >= size)
		n = size - 1;
	memcpy(dst, src, n);
	memset(dst + n, 0, size - n);
}
