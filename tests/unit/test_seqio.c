/* test_seqio.c: the sequential I/O loop (src/workloads/seqio.c) on real files in a
 * temporary directory, with the engine replaced by this file's tick (the
 * worker's w->tick) and pfs_failf (the loop reaches the engine through
 * nothing else, so the linker takes this one and leaves the engine out).
 * What it protects: the pattern's bytes as docs/stream.md defines them and
 * its check (edges, the first differing byte, a misplaced sector); requests
 * and slices; short reads, the end of a file and of the space; fsync; the
 * cap; stop notices between slices of one big request; each callback. */
#include "cmocka_prelude.h"

#include "pfsbench/core/util.h"
#include "pfsbench/engine/worker.h"
#include "pfsbench/workloads/seqio.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- the engine, as the loop sees it ----------------------------------------- */

static unsigned ticks;       /* tick calls */
static unsigned stop_after;  /* ... after which w->stopped is set; 0: never */
static char failure[1024];   /* the last pfs_failf message */
static int failure_err;

static bool tick(struct pfs_worker *w)
{
	ticks++;
	w->countdown = 1;
	if (stop_after && ticks >= stop_after)
		w->stopped = true;
	return w->stopped;
}

int pfs_failf(struct pfs_worker *w, int err, const char *fmt, ...)
{
	va_list ap;

	(void)w;
	va_start(ap, fmt);
	vsnprintf(failure, sizeof(failure), fmt, ap);
	va_end(ap);
	failure_err = err;
	return -err;
}

static char dir[] = "/tmp/pfs-test-seqio.XXXXXX";
static char path[64];

static void fresh(struct pfs_worker *w)
{
	memset(w, 0, sizeof(*w));
	w->countdown = 1;
	w->tick = tick;
	ticks = 0;
	stop_after = 0;
	failure[0] = 0;
	failure_err = 0;
}

static struct pfs_seqio io_of(int fd, enum pfs_seqio_dir d, uint64_t off, uint64_t bytes,
			      uint64_t req)
{
	struct pfs_seqio io;

	memset(&io, 0, sizeof(io));
	io.fd = fd;
	io.path = path;
	io.dir = d;
	io.offset = off;
	io.bytes = bytes;
	io.req = req;
	io.writer = 7;
	io.fill = PFS_SEQIO_STAMPED;
	return io;
}

static int open_new(void)
{
	int fd;

	unlink(path);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	return fd;
}

/* ---- the pattern ------------------------------------------------------------- */

static void test_pattern_bytes_as_documented(void **state)
{
	char buf[2048];

	(void)state;
	pfs_seqio_pattern(buf, sizeof(buf), 1024, 0x01020304, PFS_SEQIO_STAMPED);
	/* sector 1024: its offset, the writer, "pfsS", then (k*61+91) mod 256 */
	assert_memory_equal(buf, "\x00\x04\x00\x00\x00\x00\x00\x00\x04\x03\x02\x01pfsS", 16);
	assert_int_equal((unsigned char)buf[16], (16 * 61 + 91) % 256);
	assert_int_equal((unsigned char)buf[511], (511 * 61 + 91) % 256);
	assert_memory_equal(buf + 512, "\x00\x06\x00\x00\x00\x00\x00\x00\x04\x03\x02\x01pfsS", 16);
	/* any cut gives the same bytes as the whole */
	for (size_t cut = 1; cut + 1500 <= sizeof(buf); cut += 37) {
		char part[1500];

		pfs_seqio_pattern(part, sizeof(part), 1024 + cut, 0x01020304, PFS_SEQIO_STAMPED);
		assert_memory_equal(part, buf + cut, sizeof(part));
	}
	pfs_seqio_pattern(buf, 100, 3, 9, 0xab);
	for (int i = 0; i < 100; i++)
		assert_int_equal((unsigned char)buf[i], 0xab);
}

static void test_check_finds_the_first_differing_byte(void **state)
{
	static const size_t offs[] = { 0, 1, 15, 16, 511, 512, 777 };
	char buf[4096];
	uint64_t bad = 0;
	unsigned char want = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(offs) / sizeof(offs[0]); i++) {
		uint64_t off = 1000000 + offs[i];

		pfs_seqio_pattern(buf, sizeof(buf), off, 3, PFS_SEQIO_STAMPED);
		assert_true(pfs_seqio_check(buf, sizeof(buf), off, 3, PFS_SEQIO_STAMPED, &bad, &want));
		/* the wrong writer differs in the stamp's writer bytes */
		assert_false(pfs_seqio_check(buf, sizeof(buf), off, 4, PFS_SEQIO_STAMPED, &bad, &want));
		assert_true(bad % 512 == 8);
		for (size_t at = 0; at < sizeof(buf); at += 509) {
			char saved = buf[at];

			buf[at] ^= 0x40;
			assert_false(pfs_seqio_check(buf, sizeof(buf), off, 3, PFS_SEQIO_STAMPED, &bad,
						     &want));
			assert_true(bad == off + at);
			assert_int_equal(want, (unsigned char)saved);
			buf[at] = saved;
		}
	}
	memset(buf, 0x11, 100);
	buf[42] = 0x12;
	assert_false(pfs_seqio_check(buf, 100, 5, 0, 0x11, &bad, &want));
	assert_true(bad == 47 && want == 0x11);
}

static void test_stamp_names_writer_and_sector(void **state)
{
	char buf[1024];
	uint32_t writer;
	uint64_t sector;

	(void)state;
	pfs_seqio_pattern(buf, sizeof(buf), 1ull << 40, 12345, PFS_SEQIO_STAMPED);
	assert_true(pfs_seqio_stamp_read(buf + 512, &writer, &sector));
	assert_int_equal(writer, 12345);
	assert_true(sector == (1ull << 40) + 512);
	memset(buf, 0, 16);
	assert_false(pfs_seqio_stamp_read(buf, &writer, &sector));
}

/* ---- the loop ---------------------------------------------------------------- */

struct marks {
	char s[64];
	size_t n;
	uint64_t last_done;
};

static void each(void *ctx, uint64_t len, uint64_t done)
{
	struct marks *m = ctx;

	if (m->n + 1 < sizeof(m->s))
		m->s[m->n++] = len == 1000 ? 'R' : 'r';
	m->s[m->n] = 0;
	m->last_done = done;
}

static void test_write_then_read_every_byte(void **state)
{
	struct pfs_seqio_buf b;
	struct pfs_worker w;
	struct marks m = { "", 0, 0 };
	struct pfs_seqio io;
	int fd = open_new();
	struct stat sb;

	(void)state;
	assert_int_equal(pfs_seqio_buf_init(&b, 1000), 0);
	fresh(&w);
	/* 4500 bytes at offset 300 in requests of 1000: 4 whole, 1 short */
	io = io_of(fd, PFS_SEQIO_WRITE, 300, 4500, 1000);
	io.fsync = true;
	io.each = each;
	io.ctx = &m;
	assert_int_equal(pfs_seqio_run(&w, &io, &b), 0);
	assert_true(w.items == 5 && w.bytes == 4500);
	assert_string_equal(m.s, "RRRRr");
	assert_true(m.last_done == 4500);
	assert_int_equal(fstat(fd, &sb), 0);
	assert_int_equal(sb.st_size, 4800);
	fresh(&w);
	io = io_of(fd, PFS_SEQIO_READ, 300, 4500, 1000);
	io.verify = true;
	assert_int_equal(pfs_seqio_run(&w, &io, &b), 0);
	assert_true(w.items == 5 && w.bytes == 4500);
	assert_true(ticks >= 5); /* the clock between calls */
	/* another writer's data is no match */
	fresh(&w);
	io.writer = 8;
	assert_int_equal(pfs_seqio_run(&w, &io, &b), -EILSEQ);
	assert_non_null(strstr(failure, "data differs in '"));
	assert_non_null(strstr(failure, "' at offset 520: read 0x07, expected 0x08 (the sector holds "
					"writer 7's data of offset 512)"));
	pfs_seqio_buf_free(&b);
	close(fd);
}

/* Requests of whole sectors at any phase keep the buffer and rewrite only
 * the stamps' offsets, also those cut by a request's start or end; a new
 * writer gets its own stamps. Every byte must still be the pattern's. */
static void test_restamped_buffer_at_every_phase(void **state)
{
	static const uint64_t phases[] = { 0, 3, 8, 12, 16, 300, 505, 509 };
	struct pfs_seqio_buf b;
	struct pfs_worker w;
	struct pfs_seqio io;
	int fd = open_new();

	(void)state;
	assert_int_equal(pfs_seqio_buf_init(&b, 1536), 0);
	for (size_t i = 0; i < sizeof(phases) / sizeof(phases[0]); i++)
		for (uint32_t writer = 1; writer <= 2; writer++) {
			fresh(&w);
			io = io_of(fd, PFS_SEQIO_WRITE, 4096 + phases[i], 10 * 1536, 1536);
			io.writer = writer;
			assert_int_equal(pfs_seqio_run(&w, &io, &b), 0);
			fresh(&w);
			io.dir = PFS_SEQIO_READ;
			io.verify = true;
			assert_int_equal(pfs_seqio_run(&w, &io, &b), 0);
			assert_true(w.bytes == 10 * 1536);
			/* a read of other data takes the buffer: the same write
			 * again must not trust what the buffer held */
			assert_int_equal(ftruncate(fd, 0), 0);
			assert_int_equal(ftruncate(fd, 1 << 16), 0);
			fresh(&w);
			io.verify = false;
			assert_int_equal(pfs_seqio_run(&w, &io, &b), 0);
			io.verify = true;
			fresh(&w);
			io.dir = PFS_SEQIO_WRITE;
			assert_int_equal(pfs_seqio_run(&w, &io, &b), 0);
			fresh(&w);
			io.dir = PFS_SEQIO_READ;
			assert_int_equal(pfs_seqio_run(&w, &io, &b), 0);
		}
	pfs_seqio_buf_free(&b);
	close(fd);
}

static void test_corrupted_byte_is_named_by_offset(void **state)
{
	struct pfs_seqio_buf b;
	struct pfs_worker w;
	struct pfs_seqio io;
	int fd = open_new();

	(void)state;
	assert_int_equal(pfs_seqio_buf_init(&b, 4096), 0);
	fresh(&w);
	io = io_of(fd, PFS_SEQIO_WRITE, 0, 65536, 4096);
	assert_int_equal(pfs_seqio_run(&w, &io, &b), 0);
	assert_int_equal(pwrite(fd, "X", 1, 40000), 1);
	fresh(&w);
	io = io_of(fd, PFS_SEQIO_READ, 0, 65536, 4096);
	io.verify = true;
	assert_int_equal(pfs_seqio_run(&w, &io, &b), -EILSEQ);
	assert_true(w.bytes == 36864); /* the requests before the bad one */
	assert_non_null(strstr(failure, "' at offset 40000: read 0x58, expected 0x"));
	pfs_seqio_buf_free(&b);
	close(fd);
}

/* A request over PFS_SEQIO_SLICE goes as slices, the clock looked at
 * between them, and a stop notice ends it there. */
static void test_big_request_in_slices_and_stopped_inside(void **state)
{
	const uint64_t req = 3 * (uint64_t)PFS_SEQIO_SLICE + 4096;
	struct pfs_seqio_buf b;
	struct pfs_worker w;
	struct pfs_seqio io;
	int fd = open_new();

	(void)state;
	assert_int_equal(pfs_seqio_buf_init(&b, req), 0);
	assert_true(b.len == PFS_SEQIO_SLICE);
	fresh(&w);
	io = io_of(fd, PFS_SEQIO_WRITE, 0, req, req);
	assert_int_equal(pfs_seqio_run(&w, &io, &b), 0);
	assert_true(w.items == 1 && w.bytes == req);
	assert_int_equal(ticks, 4);
	fresh(&w);
	io = io_of(fd, PFS_SEQIO_READ, 0, req, req);
	io.verify = true;
	assert_int_equal(pfs_seqio_run(&w, &io, &b), 0);
	fresh(&w);
	stop_after = 2;
	assert_int_equal(pfs_seqio_run(&w, &io, &b), -ECANCELED);
	assert_true(w.items == 0 && w.bytes == 2 * (uint64_t)PFS_SEQIO_SLICE);
	pfs_seqio_buf_free(&b);
	close(fd);
}

static void test_short_file_fails_with_a_size_and_ends_without(void **state)
{
	struct pfs_seqio_buf b;
	struct pfs_worker w;
	struct pfs_seqio io;
	int fd = open_new();

	(void)state;
	assert_int_equal(pfs_seqio_buf_init(&b, 1024), 0);
	fresh(&w);
	io = io_of(fd, PFS_SEQIO_WRITE, 0, 2500, 1024);
	assert_int_equal(pfs_seqio_run(&w, &io, &b), 0);
	fresh(&w);
	io = io_of(fd, PFS_SEQIO_READ, 0, 4096, 1024);
	assert_int_equal(pfs_seqio_run(&w, &io, &b), -ENODATA);
	assert_non_null(strstr(failure, "' at offset 2500: the file ends there, 1596 bytes short of -s"));
	/* ... in the words of a caller whose size has another name (matrix) */
	fresh(&w);
	io.size_name = "the transfer size";
	assert_int_equal(pfs_seqio_run(&w, &io, &b), -ENODATA);
	assert_non_null(strstr(failure, ": the file ends there, 1596 bytes short of the transfer size"));
	io.size_name = NULL;
	fresh(&w);
	io = io_of(fd, PFS_SEQIO_READ, 0, PFS_SEQIO_TO_END, 1024);
	io.verify = true;
	assert_int_equal(pfs_seqio_run(&w, &io, &b), 0);
	assert_true(w.items == 3 && w.bytes == 2500);
	pfs_seqio_buf_free(&b);
	close(fd);
}

/* Without a size a write runs until the space ends: here the file size
 * limit (EFBIG), which is no error; with a size it is. */
static void test_write_to_the_end_of_the_space(void **state)
{
	struct rlimit old, lim = { 10000, RLIM_INFINITY };
	struct pfs_seqio_buf b;
	struct pfs_worker w;
	struct pfs_seqio io;
	int fd = open_new();

	(void)state;
	assert_int_equal(pfs_seqio_buf_init(&b, 4096), 0);
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	lim.rlim_max = old.rlim_max;
	signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	fresh(&w);
	io = io_of(fd, PFS_SEQIO_WRITE, 0, PFS_SEQIO_TO_END, 4096);
	assert_int_equal(pfs_seqio_run(&w, &io, &b), 0);
	assert_true(w.bytes == 10000 && w.items == 3);
	fresh(&w);
	io = io_of(fd, PFS_SEQIO_WRITE, 0, 20000, 4096);
	assert_int_equal(pfs_seqio_run(&w, &io, &b), -EFBIG);
	assert_non_null(strstr(failure, "cannot write '"));
	assert_non_null(strstr(failure, "' at offset 10000: File too large (EFBIG)"));
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	signal(SIGXFSZ, SIG_DFL);
	pfs_seqio_buf_free(&b);
	close(fd);
}

static void test_cap_paces_the_stream(void **state)
{
	struct pfs_seqio_buf b;
	struct pfs_worker w;
	struct pfs_seqio io;
	int fd = open_new();
	uint64_t t0;

	(void)state;
	assert_int_equal(pfs_seqio_buf_init(&b, 65536), 0);
	fresh(&w);
	/* 1 MiB at 4 MiB/s: 250 ms at least, in naps of at most 20 ms */
	io = io_of(fd, PFS_SEQIO_WRITE, 0, 1 << 20, 65536);
	io.cap_bps = 4 << 20;
	t0 = pfs_now_us();
	assert_int_equal(pfs_seqio_run(&w, &io, &b), 0);
	assert_true(pfs_now_us() - t0 >= 250000);
	assert_true(ticks >= 250000 / PFS_SEQIO_NAP_US);
	/* a stop notice during a nap ends the stream */
	fresh(&w);
	stop_after = 3;
	io.cap_bps = 1024;
	assert_int_equal(pfs_seqio_run(&w, &io, &b), -ECANCELED);
	pfs_seqio_buf_free(&b);
	close(fd);
}

static void test_fill_byte_and_errors(void **state)
{
	struct pfs_seqio_buf b;
	struct pfs_worker w;
	struct pfs_seqio io;
	char got[3000];
	int fd = open_new();

	(void)state;
	assert_int_equal(pfs_seqio_buf_init(&b, 1000), 0);
	fresh(&w);
	io = io_of(fd, PFS_SEQIO_WRITE, 0, 3000, 1000);
	io.fill = 0;
	assert_int_equal(pfs_seqio_run(&w, &io, &b), 0);
	assert_int_equal(pread(fd, got, sizeof(got), 0), 3000);
	for (size_t i = 0; i < sizeof(got); i++)
		assert_int_equal(got[i], 0);
	/* a descriptor open for reading only: the write's errno, named */
	close(fd);
	fd = open(path, O_RDONLY);
	fresh(&w);
	assert_int_equal(pfs_seqio_run(&w, &io, &b), -EBADF);
	assert_non_null(strstr(failure, "' at offset 0: Bad file descriptor (EBADF)"));
	/* EINVAL on an O_DIRECT descriptor says what O_DIRECT needs, in the
	 * caller's words (an offset past 2^63 is an EINVAL anywhere) */
	io.dir = PFS_SEQIO_READ;
	io.offset = (uint64_t)INT64_MAX + 1;
	io.direct = true;
	fresh(&w);
	assert_int_equal(pfs_seqio_run(&w, &io, &b), -EINVAL);
	assert_non_null(strstr(failure, "(EINVAL); with O_DIRECT the request size and offset must be "
					"multiples of the device's block size: leave off -x or align them"));
	io.direct_hint = "use --direct off";
	fresh(&w);
	assert_int_equal(pfs_seqio_run(&w, &io, &b), -EINVAL);
	assert_non_null(strstr(failure, "block size: use --direct off"));
	pfs_seqio_buf_free(&b);
	assert_int_equal(pfs_seqio_buf_init(&b, 0), -EINVAL);
	assert_int_equal(pfs_seqio_buf_init(&b, (uint64_t)PFS_SEQIO_REQ_MAX + 1), -EINVAL);
	assert_true(pfs_seqio_requests(4500, 1000) == 5);
	assert_true(pfs_seqio_requests(4000, 1000) == 4);
	assert_true(pfs_seqio_requests(PFS_SEQIO_TO_END, 1000) == UINT64_MAX);
	close(fd);
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/f", dir);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(path);
	return rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pattern_bytes_as_documented),
		cmocka_unit_test(test_check_finds_the_first_differing_byte),
		cmocka_unit_test(test_stamp_names_writer_and_sector),
		cmocka_unit_test(test_write_then_read_every_byte),
		cmocka_unit_test(test_restamped_buffer_at_every_phase),
		cmocka_unit_test(test_corrupted_byte_is_named_by_offset),
		cmocka_unit_test(test_big_request_in_slices_and_stopped_inside),
		cmocka_unit_test(test_short_file_fails_with_a_size_and_ends_without),
		cmocka_unit_test(test_write_to_the_end_of_the_space),
		cmocka_unit_test(test_cap_paces_the_stream),
		cmocka_unit_test(test_fill_byte_and_errors),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
