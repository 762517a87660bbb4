/* results.c: the row's field table, the order of rows, and the arithmetic of
 * the table's derived columns. */
#include "pfsbench/results.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FIELD(name, type, unit, desc) \
	{ #name, type, offsetof(struct pfs_row, name), sizeof(((struct pfs_row *)0)->name), unit, desc }

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
	FIELD(files, PFS_FIELD_U64, "files", "items the op did"),
	FIELD(bytes, PFS_FIELD_U64, "bytes", "bytes written or read"),
};
const size_t pfs_row_nfields = sizeof(pfs_row_fields) / sizeof(pfs_row_fields[0]);

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
