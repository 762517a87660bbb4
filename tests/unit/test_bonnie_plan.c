/* test_bonnie_plan.c: bonnie++'s options resolved as bonnie++ resolves
 * them (sizes in MiB, suffixes, defaults from the RAM, its checks), and
 * refused, with the option named, where bonnie++ would guess. */
#include "cmocka_prelude.h"

#include "pfsbench/plans/bonnie_plan.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

enum { NO_CHAR = 1, NO_IO = 2 };

static char err[256];

static int resolve(const char *size, const char *files, const char *ram, unsigned flags,
		   struct pfs_bonnie_plan *p)
{
	struct pfs_bonnie_opts o;

	memset(&o, 0, sizeof(o));
	snprintf(o.version, sizeof(o.version), "1.96");
	snprintf(o.size, sizeof(o.size), "%s", size);
	snprintf(o.files, sizeof(o.files), "%s", files);
	snprintf(o.ram, sizeof(o.ram), "%s", ram);
	o.no_char = flags & NO_CHAR;
	o.no_io = flags & NO_IO;
	err[0] = '\0';
	return pfs_bonnie_resolve(&o, p, err, sizeof(err));
}

static void resolve_ok(const char *size, const char *files, const char *ram, unsigned flags,
		       struct pfs_bonnie_plan *p)
{
	if (resolve(size, files, ram, flags, p))
		fail_msg("-s '%s' -n '%s' -r '%s' refused: %s", size, files, ram, err);
}

/* Refused, with a message that starts with want. */
static void refused(const char *size, const char *files, const char *ram, unsigned flags,
		    const char *want)
{
	struct pfs_bonnie_plan p;

	if (resolve(size, files, ram, flags, &p) != -EINVAL)
		fail_msg("-s '%s' -n '%s' -r '%s' accepted", size, files, ram);
	if (strncmp(err, want, strlen(want)))
		fail_msg("-s '%s' -n '%s' -r '%s': '%s' does not start '%s'", size, files, ram, err,
			 want);
}

/* Nothing given: bonnie++'s defaults, 300 MiB when the RAM is unknown. */
static void test_defaults(void **state)
{
	struct pfs_bonnie_plan p;

	(void)state;
	resolve_ok("", "", "", 0, &p);
	assert_int_equal(p.file_mib, 300);
	assert_int_equal(p.char_bytes, 3 << 20);
	assert_int_equal(p.io_chunk, 8192);
	assert_int_equal(p.seeks, 8192);
	assert_int_equal(p.seek_procs, 5);
	assert_int_equal(p.num_files_x1024, 16);
	assert_int_equal(p.max_bytes, 0);
	assert_int_equal(p.min_bytes, 0);
	assert_int_equal(p.num_dirs, 1);
	assert_int_equal(p.file_chunk, 8192);
	assert_int_equal(p.ram_mib, 0);
	assert_int_equal(pfs_bonnie_io_bytes(&p), 300ull << 20);
	assert_int_equal(pfs_bonnie_files(&p), 16384);
}

/* -s left out: twice the RAM, at least 300, up to a whole GiB when more
 * than half a GiB above one. */
static void test_default_size_from_ram(void **state)
{
	static const struct {
		uint64_t ram, want;
	} cases[] = {
		{ 0, 300 },      { 32, 300 },     { 150, 300 },   { 151, 302 },
		{ 700, 1400 },   { 768, 1536 },   { 769, 2048 },  { 1000, 2048 },
		{ 1024, 2048 },  { 1500, 3072 },  { 24100, 48200 }, { 24200, 48400 },
		{ 24400, 49152 },
	};
	struct pfs_bonnie_plan p;
	char ram[32];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(pfs_bonnie_default_file_mib(cases[i].ram), cases[i].want);
		snprintf(ram, sizeof(ram), "%llu", (unsigned long long)cases[i].ram);
		resolve_ok("", "1", ram, 0, &p);
		assert_int_equal(p.file_mib, cases[i].want);
	}
	resolve_ok("", "1", "1024m", 0, &p);
	assert_int_equal(p.ram_mib, 1024);
	assert_int_equal(p.file_mib, 2048);
	resolve_ok("", "1", "512M", 0, &p);
	assert_int_equal(p.ram_mib, 512);
	/* bonnie++'s atoi reads "1g" as 1 MiB: refused rather than read otherwise */
	refused("", "1", "1g", 0, "-r '1g': not a number of MiB (bonnie++ reads '1g' as 1)");
}

static void test_sizes(void **state)
{
	static const struct {
		const char *s;
		uint64_t mib;
		uint32_t chunk, seeks, procs;
	} cases[] = {
		{ "64", 64, 8192, 8192, 5 },          { "64m", 64, 8192, 8192, 5 },
		{ "64M", 64, 8192, 8192, 5 },         { "1g", 1024, 8192, 8192, 5 },
		{ "3G", 3072, 8192, 8192, 5 },        { "2t", 2097152, 8192, 8192, 5 },
		{ "64m:4k", 64, 4096, 8192, 5 },      { "64m:4096", 64, 4096, 8192, 5 },
		{ "64m:256", 64, 256, 8192, 5 },      { "64m:1024k", 64, 1048576, 8192, 5 },
		{ "64m:4k:1000:10", 64, 4096, 1000, 10 }, { "64m:8k:2k:1", 64, 8192, 2048, 1 },
		{ "1:1024k", 1, 1048576, 8192, 5 },
	};
	struct pfs_bonnie_plan p;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		resolve_ok(cases[i].s, "0", "", 0, &p);
		assert_int_equal(p.file_mib, cases[i].mib);
		assert_int_equal(p.io_chunk, cases[i].chunk);
		assert_int_equal(p.seeks, cases[i].seeks);
		assert_int_equal(p.seek_procs, cases[i].procs);
		assert_int_equal(p.char_bytes, (cases[i].mib < 3 ? cases[i].mib : 3) << 20);
		assert_int_equal(p.num_files_x1024, 0);
	}
}

/* What bonnie++ reads by atoi and strtok, pfsbench refuses whole. */
static void test_bad_sizes(void **state)
{
	static const char *const bad[] = {
		"64x", "x", "m", "-64", "64m:", ":64", "64m::8192", "64mm", "64 ", " 64",
		"64m:300", "64m:128", "64m:2m", "64m:2048k", "64m:4k:0", "64m:4k:x",
		"64m:4k:1000:0", "64m:4k:1000:1025", "64m:4k:1000:5:1", "99999999999999999999",
		"2097152t",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char want[80];

		snprintf(want, sizeof(want), "-s '%s': ", bad[i]);
		refused(bad[i], "0", "", 0, want);
	}
}

static void test_files(void **state)
{
	static const struct {
		const char *n;
		uint32_t num, max, min, dirs, chunk;
	} cases[] = {
		{ "1", 1, 0, 0, 1, 8192 },
		{ "16:4096", 16, 4096, 0, 1, 8192 },
		{ "1:4096:512", 1, 4096, 512, 1, 8192 },
		{ "1:4096:512:3", 1, 4096, 512, 3, 8192 },
		{ "1:4k:512:3:4k", 1, 4096, 512, 3, 4096 },
		{ "2:1m:1k:1k", 2, 1048576, 1024, 1024, 8192 },
		{ "1:1g", 1, 1073741824, 0, 1, 8192 },
		{ "1:0:0:99999:256", 1, 0, 0, 99999, 256 },
		{ "1:100:100", 1, 100, 100, 1, 8192 },
	};
	struct pfs_bonnie_plan p;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		resolve_ok("0", cases[i].n, "", 0, &p);
		assert_int_equal(p.file_mib, 0);
		assert_int_equal(p.num_files_x1024, cases[i].num);
		assert_int_equal(p.max_bytes, cases[i].max);
		assert_int_equal(p.min_bytes, cases[i].min);
		assert_int_equal(p.num_dirs, cases[i].dirs);
		assert_int_equal(p.file_chunk, cases[i].chunk);
	}
}

static void test_bad_files(void **state)
{
	static const char *const bad[] = {
		"x", "1m", "1k", "-1", "1:", "1::512", "1:4096:512:0", "1:4096:512:100000",
		"1:4096:512:3:100", "1:4096:512:3:2m", "1:4096:512:3:4k:1", "1:2g",
		"2097152", "1:x",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char want[80];

		snprintf(want, sizeof(want), "-n '%s': ", bad[i]);
		refused("0", bad[i], "", 0, want);
	}
	refused("0", "1:512:4096", "", 0, "-n '1:512:4096': the largest file (512 bytes) is smaller");
	refused("0", "1:-1", "", 0, "-n '1:-1': bonnie++'s links (MAX -1 or -2) are not supported");
	refused("0", "1:-2:0", "", 0, "-n '1:-2:0': bonnie++'s links");
}

/* -f, -F and -s 0 leave tests out; with nothing left, nothing runs. */
static void test_sections(void **state)
{
	struct pfs_bonnie_plan p;

	(void)state;
	resolve_ok("64m", "1", "", NO_CHAR, &p);
	assert_int_equal(p.char_bytes, 0);
	assert_false(pfs_bonnie_runs(&p, PFS_BONNIE_PUTC));
	assert_false(pfs_bonnie_runs(&p, PFS_BONNIE_GETC));
	assert_true(pfs_bonnie_runs(&p, PFS_BONNIE_PUT_BLOCK));
	assert_true(pfs_bonnie_runs(&p, PFS_BONNIE_SEEKS));
	assert_true(pfs_bonnie_runs(&p, PFS_BONNIE_RAN_DEL));
	resolve_ok("64m", "1", "", NO_IO, &p);
	assert_int_equal(p.file_mib, 0);
	for (int t = 0; t < PFS_BONNIE_TESTS; t++)
		assert_true(pfs_bonnie_runs(&p, t) == (t >= PFS_BONNIE_SEQ_CREATE));
	resolve_ok("64m", "0", "", 0, &p);
	for (int t = 0; t < PFS_BONNIE_TESTS; t++)
		assert_true(pfs_bonnie_runs(&p, t) == (t < PFS_BONNIE_SEQ_CREATE));
	assert_false(pfs_bonnie_runs(&p, PFS_BONNIE_TESTS));
	resolve_ok("2m", "0", "", 0, &p);
	assert_int_equal(p.char_bytes, 2 << 20);
	refused("0", "0", "", 0, "nothing to run");
	refused("64m", "0", "", NO_IO, "nothing to run");
}

/* bonnie++'s checks against the RAM: a file of at least twice the RAM,
 * file names within 1 GiB and within half the RAM. */
static void test_ram_checks(void **state)
{
	struct pfs_bonnie_plan p;

	(void)state;
	resolve_ok("64m", "1", "32m", 0, &p);
	assert_int_equal(p.ram_mib, 32);
	refused("64m", "1", "33", 0, "-s 64m is less than twice the RAM (33 MiB)");
	resolve_ok("64m", "1", "0", 0, &p);
	resolve_ok("0", "1", "1000000", 0, &p);
	resolve_ok("0", "28339", "", 0, &p);
	refused("0", "28340", "", 0, "-n 28340: too many files to keep the names of");
	resolve_ok("0", "13", "1", 0, &p);
	refused("0", "14", "1", 0, "-n 14: the names of that many files would take more than half");
	refused("0", "1", "x", 0, "-r 'x': ");
	refused("0", "1", "1t", 0, "-r '1t': ");
	refused("0", "1", "1k", 0, "-r '1k': ");
	refused("0", "1", "-1", 0, "-r '-1': ");
}

/* --char-size: pfsbench's own, for filesystems where 3 MiB of 1-byte
 * calls take minutes; at most the file, and -f still wins. */
static void test_char_size(void **state)
{
	struct pfs_bonnie_opts o;
	struct pfs_bonnie_plan p;

	(void)state;
	memset(&o, 0, sizeof(o));
	snprintf(o.version, sizeof(o.version), "1.96");
	snprintf(o.size, sizeof(o.size), "64m");
	snprintf(o.files, sizeof(o.files), "0");
	o.char_bytes = 65536;
	assert_int_equal(pfs_bonnie_resolve(&o, &p, err, sizeof(err)), 0);
	assert_int_equal(p.char_bytes, 65536);
	o.char_bytes = 1000;
	assert_int_equal(pfs_bonnie_resolve(&o, &p, err, sizeof(err)), 0);
	assert_int_equal(p.char_bytes, 1000);
	o.char_bytes = 1ull << 30;
	assert_int_equal(pfs_bonnie_resolve(&o, &p, err, sizeof(err)), 0);
	assert_int_equal(p.char_bytes, 64ull << 20);
	o.no_char = true;
	assert_int_equal(pfs_bonnie_resolve(&o, &p, err, sizeof(err)), 0);
	assert_int_equal(p.char_bytes, 0);
	assert_false(pfs_bonnie_runs(&p, PFS_BONNIE_PUTC));
}

static void test_version(void **state)
{
	struct pfs_bonnie_opts o;
	struct pfs_bonnie_plan p;

	(void)state;
	memset(&o, 0, sizeof(o));
	o.files[0] = '1';
	for (int i = 0; i < 2; i++) {
		snprintf(o.version, sizeof(o.version), "%s", i ? "1.98" : "1.96");
		assert_int_equal(pfs_bonnie_resolve(&o, &p, err, sizeof(err)), 0);
	}
	snprintf(o.version, sizeof(o.version), "2.00a");
	assert_int_equal(pfs_bonnie_resolve(&o, &p, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--bonnie-version '2.00a': pfsbench writes 1.96 (the default) or 1.98");
}

/* --runtime: what each test asks after the tests before it left less
 * (pfs_bonnie_asked), and which tests it cuts: never the stat and delete
 * tests, which must take every file made. -s 64m:8k:100 -n 2: 3 MiB of
 * per-char calls. */
static void test_runtime_asked(void **state)
{
	static const struct {
		enum pfs_bonnie_test t;
		uint64_t file_blocks, files, asked;
		bool cut;
	} cases[] = {
		{ PFS_BONNIE_PUTC, 8192, 0, 3u << 20, true },
		{ PFS_BONNIE_PUT_BLOCK, 10, 0, 8192, true },    /* the plan, whatever was left */
		{ PFS_BONNIE_REWRITE, 8192, 0, 8192, true },
		{ PFS_BONNIE_REWRITE, 87, 0, 87, true },        /* the blocks put_block wrote */
		{ PFS_BONNIE_GET_BLOCK, 87, 0, 87, true },
		{ PFS_BONNIE_GETC, 8192, 0, 3u << 20, true },
		{ PFS_BONNIE_GETC, 87, 0, 87 * 8192, true },    /* no more than the file */
		{ PFS_BONNIE_GETC, 0, 0, 0, true },
		{ PFS_BONNIE_SEEKS, 87, 0, 100, true },
		{ PFS_BONNIE_SEEKS, 0, 0, 0, true },            /* no block to seek to */
		{ PFS_BONNIE_SEQ_CREATE, 0, 5, 2048, true },
		{ PFS_BONNIE_RAN_CREATE, 0, 5, 2048, true },
		{ PFS_BONNIE_SEQ_STAT, 0, 301, 301, false },     /* the files made */
		{ PFS_BONNIE_SEQ_DEL, 0, 301, 301, false },
		{ PFS_BONNIE_RAN_STAT, 0, 0, 0, false },
		{ PFS_BONNIE_RAN_DEL, 0, 2048, 2048, false },
	};
	struct pfs_bonnie_plan p;

	(void)state;
	resolve_ok("64m:8k:100", "2", "32", 0, &p);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t got = pfs_bonnie_asked(&p, cases[i].t, cases[i].file_blocks, cases[i].files);

		if (got != cases[i].asked || pfs_bonnie_runtime_cuts(cases[i].t) != cases[i].cut)
			fail_msg("%s after %" PRIu64 " blocks and %" PRIu64 " files: asked %" PRIu64
				 " (not %" PRIu64 "), cut %d", pfs_bonnie_test_names[cases[i].t],
				 cases[i].file_blocks, cases[i].files, got, cases[i].asked,
				 (int)pfs_bonnie_runtime_cuts(cases[i].t));
	}
	assert_false(pfs_bonnie_runtime_cuts(PFS_BONNIE_TESTS));
	assert_int_equal(pfs_bonnie_item_bytes(&p, PFS_BONNIE_PUTC), 1);
	assert_int_equal(pfs_bonnie_item_bytes(&p, PFS_BONNIE_REWRITE), 8192);
	assert_int_equal(pfs_bonnie_item_bytes(&p, PFS_BONNIE_SEEKS), 0);
	assert_int_equal(pfs_bonnie_item_bytes(&p, PFS_BONNIE_SEQ_CREATE), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_default_size_from_ram),
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_bad_sizes),
		cmocka_unit_test(test_files),
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_sections),
		cmocka_unit_test(test_ram_checks),
		cmocka_unit_test(test_char_size),
		cmocka_unit_test(test_version),
		cmocka_unit_test(test_runtime_asked),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
