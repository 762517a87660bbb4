/* bonnie_plan.c: bonnie++'s options resolved to numbers, by bonnie++'s rules
 * (bonnie++.cpp and size_from_str in util.cpp of 1.97.3 and 2.00a), but
 * strict: bonnie++ reads "64x" as 64 and "8k:" as 8k, pfsbench refuses
 * what it cannot read whole. */
#include "pfsbench/plans/bonnie_plan.h"
#include "pfsbench/core/util.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define MIB (UINT64_C(1) << 20)
/* A file name and what bonnie++ keeps with it (its MaxDataPerFile): the
 * memory checks below are bonnie++'s, per 1024 files. */
#define DATA_PER_FILE (PFS_BONNIE_NAME_BYTES - 1 + 6 + 1 + 8)
/* Far beyond any real run; keeps every product below in 64 bits. */
#define FILE_MIB_MAX (UINT64_C(1) << 40)

/* Writes the message and returns -EINVAL, so that a refusal is one line. */
static int bad(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int bad(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* One ':'-separated field of an option value. */
struct field {
	const char *p;
	size_t n;
};

/* Splits s at ':' into at most max fields; -EINVAL for more, or an empty
 * one. */
static int split(const char *s, struct field *f, size_t max, size_t *n)
{
	*n = 0;
	for (;;) {
		const char *colon = strchr(s, ':');
		size_t len = colon ? (size_t)(colon - s) : strlen(s);

		if (*n == max || len == 0)
			return -EINVAL;
		f[(*n)++] = (struct field){ s, len };
		if (!colon)
			return 0;
		s = colon + 1;
	}
}

/* A decimal number with an optional suffix from units (lower case; either
 * case accepted), multiplied by the suffix's entry of mult. */
static int number(const struct field *f, const char *units, const uint64_t *mult, uint64_t *out)
{
	uint64_t v = 0, m = 1;
	size_t n = f->n;
	const char *u;

	if (n && !isdigit((unsigned char)f->p[n - 1])) {
		u = units ? strchr(units, tolower((unsigned char)f->p[n - 1])) : NULL;
		if (!u || !*u)
			return -EINVAL;
		m = mult[u - units];
		n--;
	}
	if (!n)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		unsigned d = (unsigned)(f->p[i] - '0');

		if (d > 9)
			return -EINVAL;
		if (v > (UINT64_MAX - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
	}
	return pfs_mul_u64(v, m, out);
}

static bool power_of_two(uint64_t v)
{
	return v && !(v & (v - 1));
}

static const uint64_t KMG[] = { 1024, MIB, 1024 * MIB };

/* -s SIZE[:CHUNK[:SEEKS[:PROCS]]]: SIZE in MiB (m, g, t), CHUNK bytes (k),
 * SEEKS a count (k), PROCS a count. */
static int resolve_size(const char *s, struct pfs_bonnie_plan *p, char *err, size_t errlen)
{
	static const uint64_t MGT[] = { 1, 1024, 1024 * 1024 };
	struct field f[4];
	size_t n;
	uint64_t v;

	if (split(s, f, 4, &n))
		return bad(err, errlen, "-s '%s': not SIZE[:CHUNK[:SEEKS[:PROCS]]]", s);
	if (number(&f[0], "mgt", MGT, &v) || v > FILE_MIB_MAX)
		return bad(err, errlen, "-s '%s': '%.*s' is not a size in MiB (suffix m, g or t)",
				  s, (int)f[0].n, f[0].p);
	p->file_mib = v;
	if (n > 1) {
		if (number(&f[1], "k", KMG, &v) || !power_of_two(v) || v < 256 || v > MIB)
			return bad(err, errlen, "-s '%s': the chunk size '%.*s' is not a power of "
				  "two from 256 to 1m bytes (suffix k)", s, (int)f[1].n, f[1].p);
		p->io_chunk = (uint32_t)v;
	}
	if (n > 2) {
		if (number(&f[2], "k", KMG, &v) || v < 1 || v > UINT32_MAX / 2)
			return bad(err, errlen, "-s '%s': '%.*s' is not a number of seeks", s,
					  (int)f[2].n, f[2].p);
		p->seeks = (uint32_t)v;
	}
	if (n > 3) {
		if (number(&f[3], NULL, NULL, &v) || v < 1 || v > PFS_BONNIE_SEEK_PROCS_MAX)
			return bad(err, errlen, "-s '%s': '%.*s' is not a number of seekers "
				  "from 1 to %u", s, (int)f[3].n, f[3].p, PFS_BONNIE_SEEK_PROCS_MAX);
		p->seek_procs = (uint32_t)v;
	}
	if (p->file_mib && p->file_mib * MIB / p->io_chunk < 1)
		return bad(err, errlen, "-s '%s': the file is smaller than one chunk", s);
	return 0;
}

/* -n NUM[:MAX[:MIN[:DIRS[:CHUNK]]]]: NUM x 1024 files of MAX to MIN bytes
 * (k, m, g) over DIRS directories (k), written CHUNK bytes (k, m, g) at a
 * time. bonnie++'s negative MAX (hard or symbolic links) is refused. */
static int resolve_files(const char *s, struct pfs_bonnie_plan *p, char *err, size_t errlen)
{
	struct field f[5];
	size_t n;
	uint64_t v;

	if (split(s, f, 5, &n))
		return bad(err, errlen, "-n '%s': not NUM[:MAX[:MIN[:DIRS[:CHUNK]]]]", s);
	if (f[0].n && f[0].p[0] == '-')
		goto links;
	if (number(&f[0], NULL, NULL, &v) || v > PFS_BONNIE_NUM_FILES_MAX)
		return bad(err, errlen, "-n '%s': '%.*s' is not a number of 1024 files up to %u",
				  s, (int)f[0].n, f[0].p, PFS_BONNIE_NUM_FILES_MAX);
	p->num_files_x1024 = (uint32_t)v;
	if (n > 1) {
		if (f[1].p[0] == '-')
			goto links;
		if (number(&f[1], "kmg", KMG, &v) || v > INT32_MAX)
			return bad(err, errlen, "-n '%s': '%.*s' is not a file size (suffix k, m "
				  "or g)", s, (int)f[1].n, f[1].p);
		p->max_bytes = (uint32_t)v;
	}
	if (n > 2) {
		if (number(&f[2], "kmg", KMG, &v) || v > INT32_MAX)
			return bad(err, errlen, "-n '%s': '%.*s' is not a file size (suffix k, m "
				  "or g)", s, (int)f[2].n, f[2].p);
		p->min_bytes = (uint32_t)v;
	}
	if (n > 3) {
		if (number(&f[3], "k", KMG, &v) || v < 1 || v > PFS_BONNIE_DIRS_MAX)
			return bad(err, errlen, "-n '%s': '%.*s' is not a number of directories "
				  "from 1 to %u", s, (int)f[3].n, f[3].p, PFS_BONNIE_DIRS_MAX);
		p->num_dirs = (uint32_t)v;
	}
	if (n > 4) {
		if (number(&f[4], "kmg", KMG, &v) || !power_of_two(v) || v < 256 || v > MIB)
			return bad(err, errlen, "-n '%s': the chunk size '%.*s' is not a power of "
				  "two from 256 to 1m bytes", s, (int)f[4].n, f[4].p);
		p->file_chunk = (uint32_t)v;
	}
	if (p->max_bytes < p->min_bytes)
		return bad(err, errlen, "-n '%s': the largest file (%" PRIu32 " bytes) is smaller "
				  "than the smallest (%" PRIu32 ")", s, p->max_bytes, p->min_bytes);
	return 0;
links:
	return bad(err, errlen, "-n '%s': bonnie++'s links (MAX -1 or -2) are not supported", s);
}

uint64_t pfs_bonnie_default_file_mib(uint64_t ram_mib)
{
	uint64_t mib = ram_mib * 2 > PFS_BONNIE_DEFAULT_FILE_MIB ? ram_mib * 2
								 : PFS_BONNIE_DEFAULT_FILE_MIB;

	if (mib % 1024 > 512)
		mib += 1024 - mib % 1024;
	return mib;
}

int pfs_bonnie_resolve(const struct pfs_bonnie_opts *o, struct pfs_bonnie_plan *p, char *err,
		       size_t errlen)
{
	static const uint64_t M[] = { 1 };
	struct field f;
	int rc;

	memset(p, 0, sizeof(*p));
	if (strcmp(o->version, "1.96") && strcmp(o->version, "1.98"))
		return bad(err, errlen, "--bonnie-version '%s': pfsbench writes 1.96 (the default) or "
			   "1.98", o->version);
	p->io_chunk = p->file_chunk = PFS_BONNIE_CHUNK_DEFAULT;
	p->seeks = PFS_BONNIE_SEEKS_DEFAULT;
	p->seek_procs = PFS_BONNIE_SEEK_PROCS_DEFAULT;
	p->num_dirs = 1;
	p->num_files_x1024 = 16; /* bonnie++'s DefaultDirectorySize */
	if (o->ram[0]) {
		f = (struct field){ o->ram, strlen(o->ram) };
		/* bonnie++ reads -r with atoi: "1g" is 1 MiB there, so only the
		 * forms that mean the same in both are taken. */
		if (number(&f, "m", M, &p->ram_mib) || p->ram_mib > FILE_MIB_MAX)
			return bad(err, errlen, "-r '%s': not a number of MiB (bonnie++ reads '1g' as 1)",
				   o->ram);
	}
	if (o->size[0] && (rc = resolve_size(o->size, p, err, errlen)))
		return rc;
	if (!o->size[0])
		p->file_mib = pfs_bonnie_default_file_mib(p->ram_mib);
	if (o->no_io)
		p->file_mib = 0;
	if (o->files[0] && (rc = resolve_files(o->files, p, err, errlen)))
		return rc;
	p->char_bytes = o->char_bytes ? o->char_bytes : PFS_BONNIE_CHAR_BYTES;
	if (p->char_bytes > pfs_bonnie_io_bytes(p))
		p->char_bytes = pfs_bonnie_io_bytes(p);
	if (o->no_char)
		p->char_bytes = 0;
	if (!p->file_mib && !p->num_files_x1024)
		return bad(err, errlen, "nothing to run: no I/O tests (-s 0 or -F) and no file tests "
			   "(-n 0)");
	/* bonnie++: a file smaller than twice the RAM measures the cache. */
	if (p->file_mib && p->ram_mib && p->file_mib < 2 * p->ram_mib)
		return bad(err, errlen, "-s %" PRIu64 "m is less than twice the RAM (%" PRIu64
				  " MiB), so the page cache would hold the file; give -r the RAM to "
				  "assume, or a larger -s", p->file_mib, p->ram_mib);
	/* bonnie++: the names must fit in 1 GiB and in half the RAM. */
	if ((uint64_t)p->num_files_x1024 * DATA_PER_FILE > (UINT64_C(1) << 20))
		return bad(err, errlen, "-n %" PRIu32 ": too many files to keep the names of "
				  "(at most %u x 1024)", p->num_files_x1024,
				  (unsigned)((UINT64_C(1) << 20) / DATA_PER_FILE));
	if (p->ram_mib && (uint64_t)p->num_files_x1024 * DATA_PER_FILE * 2 > p->ram_mib << 10)
		return bad(err, errlen, "-n %" PRIu32 ": the names of that many files would take "
				  "more than half of the RAM (%" PRIu64 " MiB)", p->num_files_x1024,
				  p->ram_mib);
	return 0;
}

bool pfs_bonnie_runs(const struct pfs_bonnie_plan *p, enum pfs_bonnie_test t)
{
	switch (t) {
	case PFS_BONNIE_PUTC:
	case PFS_BONNIE_GETC:
		return p->file_mib && p->char_bytes;
	case PFS_BONNIE_PUT_BLOCK:
	case PFS_BONNIE_REWRITE:
	case PFS_BONNIE_GET_BLOCK:
	case PFS_BONNIE_SEEKS:
		return p->file_mib != 0;
	case PFS_BONNIE_TESTS:
		break;
	default:
		return p->num_files_x1024 != 0;
	}
	return false;
}

uint64_t pfs_bonnie_io_bytes(const struct pfs_bonnie_plan *p)
{
	return p->file_mib * MIB;
}

uint64_t pfs_bonnie_files(const struct pfs_bonnie_plan *p)
{
	return (uint64_t)p->num_files_x1024 * 1024;
}

bool pfs_bonnie_runtime_cuts(enum pfs_bonnie_test t)
{
	return t != PFS_BONNIE_SEQ_STAT && t != PFS_BONNIE_SEQ_DEL && t != PFS_BONNIE_RAN_STAT &&
	       t != PFS_BONNIE_RAN_DEL && t < PFS_BONNIE_TESTS;
}

uint64_t pfs_bonnie_asked(const struct pfs_bonnie_plan *p, enum pfs_bonnie_test t,
			  uint64_t file_blocks, uint64_t files)
{
	uint64_t file_bytes = file_blocks * p->io_chunk;

	switch (t) {
	case PFS_BONNIE_PUTC:
		return p->char_bytes;
	case PFS_BONNIE_PUT_BLOCK:
		return pfs_bonnie_io_bytes(p) / p->io_chunk;
	case PFS_BONNIE_REWRITE:
	case PFS_BONNIE_GET_BLOCK:
		return file_blocks;
	case PFS_BONNIE_GETC:
		return p->char_bytes < file_bytes ? p->char_bytes : file_bytes;
	case PFS_BONNIE_SEEKS:
		return file_blocks ? p->seeks : 0;
	case PFS_BONNIE_SEQ_CREATE:
	case PFS_BONNIE_RAN_CREATE:
		return pfs_bonnie_files(p);
	default:
		return files;
	}
}

uint64_t pfs_bonnie_item_bytes(const struct pfs_bonnie_plan *p, enum pfs_bonnie_test t)
{
	if (t == PFS_BONNIE_PUTC || t == PFS_BONNIE_GETC)
		return 1;
	return t < PFS_BONNIE_SEEKS ? p->io_chunk : 0;
}
