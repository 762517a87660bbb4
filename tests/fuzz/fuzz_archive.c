/* fuzz_archive.c: the libFuzzer target of the results file's readers
 * (issue 10, docs/fuzzing.md). Each input is written to one temporary file
 * (on /dev/shm where there is one) and read by pfs_archive_load, the
 * loader of show, compare, export, plot and report; a file it accepts is
 * then rendered as each of those commands renders it, into /dev/null:
 * show's report with --latency and --fs-stats, --analyze, every output of
 * export, compare of the run against itself in its three formats and as
 * two sides, and plot's gnuplot script. A crash, a sanitizer's report, a
 * leak or a hang in any of them is a finding. Loading from a file keeps
 * the product's own path (the file read once into memory from one
 * descriptor, HDF5's signature, the image opened by HDF5's core driver);
 * on tmpfs it costs a few percent of a load. */
#include "pfsbench/archive/archive.h"
#include "pfsbench/commands/commands.h"
#include "pfsbench/analysis/compare.h"
#include "pfsbench/commands/export.h"
#include "pfsbench/outputs/output.h"
#include "pfsbench/pictures/pictures.h"
#include "pfsbench/engine/workload.h"

#include <fcntl.h>
/* The allocation bound and the kept reports need ASan's runtime: the line
 * coverage build (make fuzz-coverage) has none, and goes without them. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FUZZ_ASAN 1
#endif
#endif
#ifdef FUZZ_ASAN
#include <sanitizer/allocator_interface.h>
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char path[64];
static int fd = -1;
static FILE *sink;

#ifdef FUZZ_ASAN
/* An input on which HDF5 allocates without end (a damaged group name heap
 * made it allocate 41 million small blocks, docs/fuzzing.md): the product
 * kills its reader child past a memory bound, and libFuzzer's RSS limit
 * would call it "out of memory" with the top two frames of the heap
 * profile only (libhdf5 has no frame pointers, and unwinding every
 * allocation in full is far too slow), which tests/fuzz/classify.sh cannot
 * tell from pfsbench's own. So the target keeps its own bound on the live
 * heap of one input, 512 MiB (no results file of at most 128 KiB comes
 * near it; the product's bound is 1 GiB and more): past it, one report
 * line, the allocating stack unwound in full, and abort(). Checked every
 * 4096 allocations of an input, since the allocator's total is a sum over
 * threads; an input may free more than it allocates (HDF5's free lists),
 * so the total is compared, never subtracted. */
#define LIVE_HEAP_BOUND ((size_t)512 << 20)
static size_t live_at_start;
static unsigned long allocations;
static int in_input, past_bound;

static void fuzz_heap_hook(const volatile void *ptr, size_t size)
{
	static const char line[] = "==fuzz_archive== ERROR: fuzzarchive: endless-allocation "
				   "(the live heap of one input past 512 MiB), allocating at:\n";

	(void)ptr;
	(void)size;
	if (!in_input || ++allocations % 4096 || past_bound ||
	    __sanitizer_get_current_allocated_bytes() <= live_at_start + LIVE_HEAP_BOUND)
		return;
	past_bound = 1; /* what follows allocates too */
	if (write(2, line, sizeof(line) - 1) < 0)
		abort();
	__sanitizer_print_stack_trace();
	abort();
}

static void fuzz_free_hook(const volatile void *ptr)
{
	(void)ptr;
}

/* Some of HDF5's crashes depend on what the process read before (its free
 * lists hand an input blocks that an earlier one filled), so replaying a
 * fuzzing job's reproducer alone may show nothing, and libFuzzer's fork
 * mode keeps no job's report. With FUZZ_REPORTS set, an ASan report writes
 * the input (DIR/<pid>.in) and the report (DIR/<pid>.txt) there, for
 * check-fuzz.sh to classify what its replay cannot repeat. */
static const char *reports;
static const uint8_t *input;
static size_t input_size;

static void write_all(const char *name, const void *buf, size_t len)
{
	char p[4096];
	int out;

	snprintf(p, sizeof(p), "%s/%d.%s", reports, (int)getpid(), name);
	out = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0)
		return;
	for (size_t done = 0; done < len;) {
		ssize_t w = write(out, (const char *)buf + done, len - done);

		if (w <= 0)
			break;
		done += (size_t)w;
	}
	close(out);
}

static void keep_report(const char *report)
{
	if (!reports || !in_input)
		return;
	write_all("in", input, input_size);
	write_all("txt", report, strlen(report));
}
#endif

static void remove_file(void)
{
	if (path[0])
		unlink(path);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";

	(void)argc;
	(void)argv;
	snprintf(path, sizeof(path), "%s/pfsbench-fuzz-XXXXXX", dir);
	fd = mkstemp(path);
	sink = fopen("/dev/null", "w");
	if (fd < 0 || !sink) {
		perror("fuzz_archive: cannot make its temporary file or open /dev/null");
		exit(1);
	}
	atexit(remove_file);
#ifdef FUZZ_ASAN
	reports = getenv("FUZZ_REPORTS");
	__asan_set_error_report_callback(keep_report);
	if (!__sanitizer_install_malloc_and_free_hooks(fuzz_heap_hook, fuzz_free_hook)) {
		fputs("fuzz_archive: cannot install its allocation hook\n", stderr);
		exit(1);
	}
#endif
	return 0;
}

static int write_input(const uint8_t *data, size_t size)
{
	size_t done = 0;

	if (ftruncate(fd, 0))
		return -1;
	while (done < size) {
		ssize_t w = pwrite(fd, data + done, size - done, (off_t)done);

		if (w <= 0)
			return -1;
		done += (size_t)w;
	}
	return 0;
}

/* What plot and report draw of one run: the gnuplot script's numbers. */
static void render_plot(const struct pfs_archive *a)
{
	struct pfs_archive run = *a;
	struct pfs_plot_script s;

	/* its workload as plot finds it: a matrix run is drawn as a heatmap */
	run.ri.workload = pfs_workload_find(run.ri.workload_name);
	if (pfs_plot_script_begin(&s, sink, PFS_PLOT_SVG | PFS_PLOT_PNG) == 0)
		pfs_pictures_run(&s, &run, "", "fuzz");
	pfs_plot_script_free(&s);
}

static void render(struct pfs_archive *a)
{
	const char *paths[] = { path, path };
	struct pfs_archive twice[2] = { *a, *a };

	struct pfs_row_budget rows = { .lines_max = 4, .path = path };

	if (pfs_show_report(sink, a, true, true, &rows) == 0)
		pfs_show_analysis(sink, a);
	for (int k = PFS_EXPORT_CSV_ROWS; k <= PFS_EXPORT_JSON_PROVENANCE; k++)
		pfs_export_write(sink, a, (enum pfs_export_kind)k);
	/* A run a side, in each format; then two sides of runs (the first run
	 * and the file again), as compare A -- B does. */
	for (int f = PFS_CMP_TEXT; f <= PFS_CMP_JSON; f++) {
		struct pfs_cmp_opts o = { (enum pfs_cmp_format)f, false, PFS_CMP_MARGIN, 0, true };

		pfs_compare_print(sink, twice, paths, 2, &o);
	}
	{
		struct pfs_cmp_opts o = { PFS_CMP_JSON, false, PFS_CMP_MARGIN, 1, false };

		pfs_compare_print(sink, twice, paths, 2, &o);
	}
	render_plot(a);
	fflush(sink);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pfs_archive a;

#ifdef FUZZ_ASAN
	live_at_start = __sanitizer_get_current_allocated_bytes();
	input = data;
	input_size = size;
	in_input = 1;
#endif
	if (write_input(data, size)) {
		perror("fuzz_archive: cannot write its temporary file");
		abort();
	}
	if (pfs_archive_load_here(path, &a) == 0) {
		render(&a);
		pfs_archive_free(&a);
	}
#ifdef FUZZ_ASAN
	in_input = 0;
#endif
	return 0;
}
