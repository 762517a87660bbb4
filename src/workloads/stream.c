/* stream.c: DRBD's dm (and dd) on the pfsbench engine: every rank streams
 * at the same moment, after a barrier and a cache drop, one sequential
 * write (-o) or read (-i) of -s bytes in requests of -b bytes. The loop is
 * src/workloads/seqio.c's; this file says where each rank streams and what is timed.
 *
 * Where: by default each rank has its own file, <node>.<worker>/stream in
 * the run directory; with --shared all ranks use <run>/stream.shared, rank
 * r at offset r x -s; a file or device named by -o/-i (with --force) is
 * used as a shared file and is never removed. A file named by -o that is
 * not there yet (dm's own use) needs no --force: rank 0 creates it
 * exclusively in its directory, opened once, and keeps that descriptor
 * (see setup_fresh); the file stays, as dm leaves it. A write run with --keep
 * leaves its files in DIR/pfsbench.stream.<key> for a read run with the
 * same -i DIR and layout, which removes them; --prepare writes them untimed
 * first instead.
 *
 * The test "seq" (or "rand" with --pattern random) is a plan of steps: [Prepare] (reads with --prepare, the
 * first iteration only, untimed), Open (untimed: open, truncate, O_DIRECT
 * or dm's fallback), Write or Read (timed: cache drop, barrier, the stream,
 * fsync with -y; one row per rank in bytes), [Check] (writes with --verify:
 * every byte read back after a cache drop, untimed). Rank 0 prints dm's
 * progress marks (-m) and percentages (-d) as its stream goes; the report
 * (src/outputs/stream.c) prints the rest. See docs/stream.md. */
#include "pfsbench/core/sys.h"
#include "pfsbench/core/util.h"
#include "pfsbench/engine/worker.h"
#include "pfsbench/engine/workload.h"
#include "pfsbench/formats/ddfmt.h"
#include "pfsbench/formats/hdparmfmt.h"
#include "pfsbench/outputs/output.h"
#include "pfsbench/plans/stream_opts.h"
#include "pfsbench/workloads/randio.h"
#include "pfsbench/workloads/seqio.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define FILE_NAME "stream"
#define SHARED_NAME "stream.shared"

/* Its names, for `pfsbench clean`: each worker's file, and the shared one
 * beside the workers' directories. */
static const struct pfs_item stream_items[] = {
	{ FILE_NAME, PFS_ITEM_FILE, NULL },
	{ NULL, 0, NULL },
};
static const struct pfs_item stream_run_items[] = {
	{ SHARED_NAME, PFS_ITEM_FILE, NULL },
	{ NULL, 0, NULL },
};

enum stream_op { OP_PREPARE, OP_OPEN, OP_STREAM, OP_CHECK, OP_CACHED, OP_BUFFERED };

struct stream_state {
	const struct pfs_stream_opts *o;
	FILE *out;           /* the run's (w->out), for rank 0's marks */
	struct pfs_seqio_buf buf;
	struct pfs_randio_ctx rnd; /* --pattern random: its buffers and ring */
	char path[PATH_MAX]; /* the file this rank streams on */
	/* ... opened as name relative to at: in the worker's (or for --shared
	 * the run's) directory, never by its path and never through a link;
	 * a named file by its path, as given */
	int at, nofollow;
	const char *name;
	int dirfd;           /* a fresh named file's directory (st->at), or -1 */
	int hold;            /* rank 0: the fresh file it created, or -1 */
	bool one_file;       /* shared by all ranks: rank r at r x -s */
	bool own;            /* this rank removes path at the end */
	bool prepared;
	int fd;              /* open from the Open step to the end of the stream */
	bool direct;         /* fd has O_DIRECT */
	uint64_t offset;     /* where this rank's stream starts */
	uint64_t written;    /* bytes the last Write moved, for Check */
	uint64_t dialog_total; /* rank 0, -d: 100 % */
	int dialog_last;
};

/* ---- rank 0's marks ------------------------------------------------------------ */

/* dm's -m and -d, after each request of rank 0's stream: 'R' for a whole
 * request, 'r' for a short one; "\r%3d" when the percentage changes. */
static void marks(void *ctx, uint64_t len, uint64_t done)
{
	struct stream_state *st = ctx;

	if (st->o->marks)
		fputc(len == st->o->block ? 'R' : 'r', st->out);
	if (st->o->dialog && st->dialog_total) {
		int pct = (int)(100.0 * (double)done / (double)st->dialog_total);

		if (pct != st->dialog_last) {
			fprintf(st->out, "\r%3d", pct);
			st->dialog_last = pct;
		}
	}
	fflush(st->out);
}

static bool shows_marks(const struct pfs_worker *w, const struct pfs_stream_opts *o)
{
	return w->rank == 0 && (o->marks || o->dialog);
}

/* -d without -s on a read: the bytes from the seek to the end of the file
 * or device. */
static uint64_t size_from_seek(int fd, uint64_t seek)
{
	struct stat sb;
	uint64_t size = 0;

	if (fstat(fd, &sb))
		return 0;
	if (S_ISREG(sb.st_mode))
		size = (uint64_t)sb.st_size;
	else if (S_ISBLK(sb.st_mode) && ioctl(fd, BLKGETSIZE64, &size))
		size = 0;
	return size > seek ? size - seek : 0;
}

/* ---- ops ------------------------------------------------------------------------- */

/* The file rank 0 created (setup_fresh), never reopened by its name: a
 * duplicate of the descriptor it created, O_DIRECT set or cleared on it
 * (EINVAL where the filesystem refuses O_DIRECT, as open's). */
static int open_held(struct pfs_worker *w, struct stream_state *st, bool wr, bool direct,
		     int *fdp, bool *directp)
{
	int fd = fcntl(st->hold, F_DUPFD_CLOEXEC, 0), fl;

	if (fd < 0)
		return pfs_fail_path(w, "duplicate the descriptor of", st->path, errno);
	fl = fcntl(fd, F_GETFL);
	*directp = direct && fl >= 0 && !fcntl(fd, F_SETFL, fl | O_DIRECT);
	if (direct && !*directp && errno != EINVAL) {
		int err = errno;

		pfs_close(fd);
		return pfs_fail_path(w, "set O_DIRECT on", st->path, err);
	}
	if (!*directp && fl >= 0 && fcntl(fd, F_SETFL, fl & ~O_DIRECT)) {
		int err = errno;

		pfs_close(fd);
		return pfs_fail_path(w, "clear O_DIRECT on", st->path, err);
	}
	if (direct && !*directp) {
		fprintf(stderr, "NOT using O_DIRECT for %s file %s\n", wr ? "output" : "input",
			st->path);
		fflush(stderr);
	}
	*fdp = fd;
	return 0;
}

/* Opens path for this rank's stream, with O_DIRECT under -x; where the
 * filesystem refuses O_DIRECT (EINVAL), again without it and dm's words on
 * stderr, once per file. */
static int open_stream(struct pfs_worker *w, struct stream_state *st, bool wr, bool direct,
		       int *fdp, bool *directp)
{
	int flags = (wr ? O_WRONLY : O_RDONLY) | O_CLOEXEC;
	int fd;

	if (st->hold >= 0)
		return open_held(w, st, wr, direct, fdp, directp);
	fd = direct ? pfs_openat(st->at, st->name, flags | st->nofollow | O_DIRECT, 0644) : -1;
	*directp = fd >= 0;
	if (fd < 0 && direct && (errno != EINVAL || st->o->common.direct))
		return pfs_fail_path(w, "open with O_DIRECT", st->path, errno);
	if (fd < 0) {
		fd = pfs_openat(st->at, st->name, flags | st->nofollow, 0644);
		if (fd < 0)
			return pfs_fail_path(w, "open", st->path, errno);
		if (direct && (!st->one_file || w->rank == 0)) {
			fprintf(w->err, "NOT using O_DIRECT for %s file %s\n", wr ? "output" : "input",
				st->path);
			fflush(w->err);
		}
	}
	*fdp = fd;
	return 0;
}

static int close_stream(struct pfs_worker *w, struct stream_state *st, int *fdp)
{
	int fd = *fdp;

	*fdp = -1;
	/* On network filesystems write errors may surface only here. */
	if (fd >= 0 && pfs_close(fd))
		return pfs_fail_path(w, "close", st->path, errno);
	return 0;
}

/* What every stream of this run shares: file, offset, size, request. */
static void stream_io(const struct stream_state *st, struct pfs_seqio *io, int rank, bool wr)
{
	const struct pfs_stream_opts *o = st->o;

	memset(io, 0, sizeof(*io));
	io->path = st->path;
	io->dir = wr ? PFS_SEQIO_WRITE : PFS_SEQIO_READ;
	io->offset = st->offset;
	io->bytes = o->size ? o->size : PFS_SEQIO_TO_END;
	io->req = o->block;
	io->writer = (uint32_t)rank;
	io->fill = PFS_SEQIO_STAMPED;
}

/* Untimed: the data a read run reads, written once before its first
 * iteration (--prepare). */
static int op_prepare(struct pfs_worker *w, struct stream_state *st)
{
	struct pfs_seqio io;
	bool direct;
	int fd = -1, rc;

	if (st->prepared)
		return 0;
	rc = open_stream(w, st, true, false, &fd, &direct);
	if (rc)
		return rc;
	stream_io(st, &io, w->rank, true);
	io.fd = fd;
	/* No row: pfs_op_start only lets the engine tick and stop the loop. */
	pfs_op_start(w, "Prepare", PFS_UNIT_BYTES, pfs_seqio_requests(io.bytes, io.req), 0);
	rc = pfs_seqio_run(w, &io, &st->buf);
	if (close_stream(w, st, &fd) && !rc)
		rc = -EIO;
	st->prepared = !rc;
	return rc;
}

/* Untimed: open for the stream; before a write, the file starts empty, as
 * dm's O_TRUNC leaves it (one rank truncates a shared file, before any
 * rank writes: the step ends with a barrier). */
static int op_open(struct pfs_worker *w, struct stream_state *st)
{
	const struct pfs_stream_opts *o = st->o;
	bool wr = !pfs_stream_reading(o);
	struct stat sb;
	int rc;

	rc = open_stream(w, st, wr, o->direct, &st->fd, &st->direct);
	if (rc || !wr || (st->one_file && w->rank != 0))
		return rc;
	if (fstat(st->fd, &sb))
		return pfs_fail_path(w, "stat", st->path, errno);
	if (S_ISREG(sb.st_mode) && sb.st_size && ftruncate(st->fd, 0))
		return pfs_fail_path(w, "truncate", st->path, errno);
	return 0;
}

/* Timed, --pattern random: the rank's -s bytes in blocks of -b, each once,
 * in the order --seed and the rank give (each rank its own order), with
 * --iodepth requests in flight. The row's items are requests, so its rate
 * of items is IOPS. */
static int op_random(struct pfs_worker *w, struct stream_state *st, const struct pfs_seqio *io)
{
	const struct pfs_stream_opts *o = st->o;
	struct pfs_randio r = { .io = *io, .blocks = o->size / o->block };

	r.seed = pfs_stream_rank_seed(o, (unsigned)w->rank);
	pfs_op_start(w, io->dir == PFS_SEQIO_WRITE ? PFS_STREAM_OP_WRITE : PFS_STREAM_OP_READ,
		     PFS_UNIT_BYTES, r.blocks, 0);
	return pfs_randio_run(w, &r, &st->rnd);
}

/* Timed: the stream, from pfs_op_start to pfs_op_done (fsync included with
 * -y); closing comes after the clock stops, as in dm. */
static int op_stream(struct pfs_worker *w, struct stream_state *st)
{
	const struct pfs_stream_opts *o = st->o;
	bool wr = !pfs_stream_reading(o), shows = shows_marks(w, o);
	struct pfs_seqio io;
	int rc;

	stream_io(st, &io, w->rank, wr);
	io.fd = st->fd;
	io.direct = st->direct;
	io.fsync = wr && o->sync;
	io.cap_bps = o->bandwidth;
	io.verify = !wr && o->verify;
	io.until_target = o->common.runtime_s != 0;
	if (wr && o->pattern != PFS_STREAM_NO_PATTERN)
		io.fill = (int)o->pattern;
	if (shows) {
		st->dialog_total = o->size ? o->size : size_from_seek(st->fd, st->offset);
		st->dialog_last = 0;
		io.each = marks;
		io.ctx = st;
		st->out = w->out;
	}
	if (o->access == PFS_STREAM_RANDOM) {
		rc = op_random(w, st, &io);
	} else {
		pfs_op_start(w, wr ? PFS_STREAM_OP_WRITE : PFS_STREAM_OP_READ, PFS_UNIT_BYTES,
			     pfs_seqio_requests(io.bytes, io.req), 0);
		rc = pfs_seqio_run(w, &io, &st->buf);
	}
	st->written = w->bytes;
	if (!rc)
		rc = pfs_op_done(w);
	if (shows) {
		fputc('\n', w->out);
		fflush(w->out);
	}
	if (close_stream(w, st, &st->fd) && !rc)
		rc = -EIO;
	return rc;
}

/* Untimed, after a write with --verify: every byte read back, after a
 * cache drop, and checked against the pattern (or -a's byte). */
static int op_check(struct pfs_worker *w, struct stream_state *st)
{
	const struct pfs_stream_opts *o = st->o;
	struct pfs_seqio io;
	bool direct;
	int fd = -1, rc;

	rc = open_stream(w, st, false, false, &fd, &direct);
	if (rc)
		return rc;
	stream_io(st, &io, w->rank, false);
	io.fd = fd;
	io.bytes = st->written;
	io.verify = true;
	if (o->pattern != PFS_STREAM_NO_PATTERN)
		io.fill = (int)o->pattern;
	pfs_op_start(w, "Check", PFS_UNIT_BYTES, pfs_seqio_requests(io.bytes, io.req), 0);
	rc = io.bytes ? pfs_seqio_run(w, &io, &st->buf) : 0;
	if (close_stream(w, st, &fd) && !rc)
		rc = -EIO;
	return rc;
}

/* ---- --format hdparm: hdparm -Tt's two timings ----------------------------------- *
 * One rank per node times its device (the node's worker 1; the others wait
 * at the step's barrier), as hdparm is one reader: several on one node
 * would share its disk and page cache. The method is hdparm 9.65's
 * (docs/methodology.md, "hdparm's baseline"): 2 MiB reads into a locked
 * buffer, each read's every 512th byte touched so that the read is
 * complete; before each timing the device's buffers are flushed (sync,
 * then the BLKFLSBUF ioctl) and the device left alone for a moment. */

#define HDPARM_SETTLE_S 1 /* hdparm's pause after the flush */

static bool hdparm_times(const struct pfs_worker *w)
{
	return w->worker == 1;
}

/* sync(), then BLKFLSBUF: the device's dirty buffers written, its cached
 * pages dropped; then a pause, as hdparm's flush_buffer_cache and sleep. */
static int hdparm_flush(struct pfs_worker *w, struct stream_state *st)
{
	sync();
	if (ioctl(st->fd, BLKFLSBUF, 0))
		return pfs_fail_path(w, "flush the buffers (BLKFLSBUF) of", st->path, errno);
	sync();
	nanosleep(&(struct timespec){ HDPARM_SETTLE_S, 0 }, NULL);
	return 0;
}

/* One 2 MiB read at off, whole, its every sector touched. */
static int hdparm_read(struct pfs_worker *w, struct stream_state *st, uint64_t off)
{
	char *buf = st->buf.data;
	uint64_t t = pfs_lat_start(w);
	ssize_t n = pfs_pread(st->fd, buf, PFS_HDPARM_BLOCK, off);

	if (n < 0) {
		int err = errno;

		return pfs_failf(w, err, "cannot read '%s' at offset %" PRIu64 ": %s (%s)",
				 st->path, off, strerror(err), pfs_errno_name(err));
	}
	if (n != PFS_HDPARM_BLOCK)
		return pfs_failf(w, EIO, "cannot read '%s' at offset %" PRIu64
				 ": the device ends there, %zd bytes of %u read",
				 st->path, off, n, PFS_HDPARM_BLOCK);
	for (size_t i = 0; i < PFS_HDPARM_BLOCK; i += 512)
		buf[i] &= 1;
	pfs_lat_stop(w, t);
	w->items++;
	w->bytes += PFS_HDPARM_BLOCK;
	return 0;
}

/* The timed loop: reads (at 0 for the cache, onwards for the disk) until
 * secs have passed or max reads are done. The row's time is the engine's,
 * from pfs_op_start to pfs_op_done. */
static int hdparm_loop(struct pfs_worker *w, struct stream_state *st, const char *op,
		       bool onwards, unsigned secs, uint64_t max)
{
	uint64_t t0, off = 0;
	int rc;

	pfs_op_start(w, op, PFS_UNIT_BYTES, max, 0);
	t0 = pfs_now_us();
	do {
		if (pfs_tick_stopped(w))
			return -ECANCELED;
		rc = hdparm_read(w, st, off);
		if (rc)
			return rc;
		off += onwards ? PFS_HDPARM_BLOCK : 0;
	} while (pfs_now_us() - t0 < (uint64_t)secs * 1000000 && w->items < max);
	return pfs_op_done(w);
}

/* -T: the block at 0 read once, the buffers flushed, then read again and
 * again for 2 s: all but the first from the page cache. */
static int op_cached(struct pfs_worker *w, struct stream_state *st)
{
	int rc;

	if (!hdparm_times(w))
		return 0;
	/* hdparm's buffer is locked in memory; where the limit refuses, as
	 * there, the run goes on */
	(void)mlock(st->buf.data, PFS_HDPARM_BLOCK);
	rc = hdparm_read(w, st, 0);
	if (!rc)
		rc = hdparm_flush(w, st);
	return rc ? rc : hdparm_loop(w, st, PFS_STREAM_OP_CACHED, false, PFS_HDPARM_CACHED_S,
				     UINT64_MAX);
}

/* -t: the buffers flushed, then sequential reads from 0 for 3 s, or until
 * the device's last whole pair of MiB. */
static int op_buffered(struct pfs_worker *w, struct stream_state *st)
{
	uint64_t size = 0;
	int rc;

	if (!hdparm_times(w))
		return 0;
	if (ioctl(st->fd, BLKGETSIZE64, &size))
		return pfs_fail_path(w, "get the size (BLKGETSIZE64) of", st->path, errno);
	if (size < PFS_HDPARM_BLOCK)
		return pfs_failf(w, EIO, "'%s' holds %" PRIu64 " bytes: hdparm's reads take %u",
				 st->path, size, PFS_HDPARM_BLOCK);
	rc = hdparm_flush(w, st);
	if (!rc)
		rc = hdparm_loop(w, st, PFS_STREAM_OP_BUFFERED, true, PFS_HDPARM_BUFFERED_S,
				 size / PFS_HDPARM_BLOCK);
	if (close_stream(w, st, &st->fd) && !rc)
		rc = -EIO;
	return rc;
}

static int stream_run_op(struct pfs_worker *w, unsigned op)
{
	struct stream_state *st = w->state;

	switch ((enum stream_op)op) {
	case OP_PREPARE:
		return op_prepare(w, st);
	case OP_OPEN:
		return op_open(w, st);
	case OP_STREAM:
		return op_stream(w, st);
	case OP_CHECK:
		return op_check(w, st);
	case OP_CACHED:
		return op_cached(w, st);
	case OP_BUFFERED:
		return op_buffered(w, st);
	}
	return -EINVAL;
}

/* ---- setup and cleanup ---------------------------------------------------------- */

/* A read of a directory without --prepare reads what a --keep write left. */
static bool resumes(const struct pfs_stream_opts *o)
{
	return pfs_stream_reading(o) && !o->prepare && !o->named;
}

/* A file named by -o that was not there at validation: its directory
 * opened once; rank 0 creates the name in it with O_EXCL and O_NOFOLLOW
 * (a file or link put there since fails the run, and nothing of another's
 * is written) and keeps the descriptor (open_held). The other ranks open
 * the name in that directory, without following a link, after setup's
 * agreement: rank 0's file is there by then. */
static int setup_fresh(struct pfs_worker *w, struct stream_state *st)
{
	const char *slash = strrchr(st->path, '/');

	st->dirfd = open(st->o->common.dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (st->dirfd < 0)
		return pfs_fail_path(w, "open the directory", st->o->common.dir, errno);
	st->at = st->dirfd;
	st->name = slash ? slash + 1 : st->path;
	st->nofollow = O_NOFOLLOW;
	if (w->rank != 0)
		return 0;
	st->hold = pfs_openat(st->at, st->name,
			      O_CREAT | O_EXCL | O_RDWR | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (st->hold < 0)
		return pfs_fail_path(w, "create", st->path, errno);
	return 0;
}

static int stream_setup(struct pfs_worker *w)
{
	const struct pfs_stream_opts *o = w->opts;
	struct stream_state *st = w->state;
	uint64_t span;
	int rc, fd;

	st->o = o;
	st->fd = -1;
	st->dirfd = -1;
	st->hold = -1;
	st->one_file = o->shared || o->named;
	/* offset + -s must fit the file offsets the kernel takes */
	if (pfs_mul_u64(st->one_file ? (uint64_t)w->rank : 0, o->size, &span) ||
	    span > INT64_MAX - o->size ||
	    (pfs_stream_reading(o) ? o->seek_in : o->seek_out) > INT64_MAX - span - o->size)
		return pfs_failf(w, EOVERFLOW, "rank %d's stream would end past 2^63 bytes", w->rank);
	st->offset = pfs_stream_offset(o, st->one_file, (unsigned)w->rank);
	rc = pfs_seqio_buf_init(&st->buf, o->block);
	if (rc)
		return pfs_fail(w, "allocate", "the I/O buffer", -rc);
	if (o->access == PFS_STREAM_RANDOM) {
		rc = pfs_randio_init(&st->rnd, o->block, (unsigned)o->iodepth);
		if (rc == -ENOMEM)
			return pfs_fail(w, "allocate", "the I/O buffers", -rc);
		if (rc)
			return pfs_failf(w, -rc, "cannot set up io_uring for %" PRIu64
					 " requests in flight: %s (%s)", o->iodepth, strerror(-rc),
					 pfs_errno_name(-rc));
	}
	if (o->named)
		rc = pfs_format(st->path, sizeof(st->path), "%s", pfs_stream_target(o));
	else if (o->shared)
		rc = pfs_format(st->path, sizeof(st->path), "%.*s/%s",
				(int)(strrchr(w->dir, '/') - w->dir), w->dir, SHARED_NAME);
	else
		rc = pfs_format(st->path, sizeof(st->path), "%s/%s", w->dir, FILE_NAME);
	if (rc)
		return pfs_failf(w, ENAMETOOLONG, "the file name in '%s' is too long", w->dir);
	st->at = o->named ? AT_FDCWD : o->shared ? w->run_dirfd : w->dirfd;
	st->name = o->named ? st->path : o->shared ? SHARED_NAME : FILE_NAME;
	st->nofollow = o->named ? 0 : O_NOFOLLOW;
	if (o->fresh)
		return setup_fresh(w, st);
	if (o->named)
		return 0;
	/* What this run makes, it removes; what a --keep run left, a reading
	 * run removes. A shared file is rank 0's, made before any rank opens
	 * it (setup ends with an agreement of all ranks). */
	st->own = !st->one_file || w->rank == 0;
	if (resumes(o) || !st->own)
		return 0;
	fd = pfs_openat(st->at, st->name, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		st->own = false;
		return pfs_fail_path(w, "create", st->path, errno);
	}
	if (pfs_close(fd))
		return pfs_fail_path(w, "close", st->path, errno);
	return 0;
}

static int stream_cleanup(struct pfs_worker *w)
{
	struct stream_state *st = w->state;
	int rc = 0;

	if (st->fd >= 0)
		pfs_close(st->fd);
	st->fd = -1;
	if (st->hold >= 0 && pfs_close(st->hold) && !rc)
		rc = -errno;
	if (st->dirfd >= 0)
		close(st->dirfd);
	st->hold = st->dirfd = -1;
	if (st->own && !w->keep && unlinkat(st->at, st->name, 0) && errno != ENOENT)
		rc = -errno;
	pfs_seqio_buf_free(&st->buf);
	pfs_randio_free(&st->rnd);
	return rc;
}

/* ---- plans ------------------------------------------------------------------------- */

/* Open and Prepare are untimed (no cache drop; nothing is measured); the
 * stream and Check start cold. */
static size_t plan_stream(const void *opts, unsigned nnodes, struct pfs_step *steps, size_t cap)
{
	const struct pfs_stream_opts *o = opts;
	size_t i = 0;

	(void)nnodes;
	/* hdparm flushes the device's buffers itself: the engine's cache drop
	 * (the whole page cache) is not its method */
	if (o->format == PFS_STREAM_FMT_HDPARM) {
		i = pfs_plan_put(steps, cap, i,
				 pfs_step_with(PFS_STEP1(PFS_ALL_NODES, OP_OPEN), PFS_STEP_UNTIMED));
		i = pfs_plan_put(steps, cap, i, pfs_step_with(PFS_STEP1(PFS_ALL_NODES, OP_CACHED),
							      PFS_STEP_KEEP_CACHE));
		return pfs_plan_put(steps, cap, i,
				    pfs_step_with(PFS_STEP1(PFS_ALL_NODES, OP_BUFFERED),
						  PFS_STEP_KEEP_CACHE));
	}
	if (pfs_stream_reading(o) && o->prepare)
		i = pfs_plan_put(steps, cap, i,
				 pfs_step_with(PFS_STEP1(PFS_ALL_NODES, OP_PREPARE), PFS_STEP_UNTIMED));
	i = pfs_plan_put(steps, cap, i,
			 pfs_step_with(PFS_STEP1(PFS_ALL_NODES, OP_OPEN), PFS_STEP_UNTIMED));
	/* --runtime: the stream stops by time, every rank at the same count. */
	i = pfs_plan_put(steps, cap, i,
			 pfs_step_with(PFS_STEP1(PFS_ALL_NODES, OP_STREAM),
				       o->common.runtime_s ? PFS_STEP_STONEWALL : 0));
	if (!pfs_stream_reading(o) && o->verify)
		i = pfs_plan_put(steps, cap, i, PFS_STEP1(PFS_ALL_NODES, OP_CHECK));
	return i;
}

/* One plan, two names: the rows of a random stream say rand, so that
 * compare never pairs them with a sequential stream's (docs/stream.md). */
enum { TEST_SEQ, TEST_RAND };
static const struct pfs_test stream_tests[] = {
	[TEST_SEQ] = { PFS_STREAM_TEST, PFS_ORDER_PLAN, plan_stream },
	[TEST_RAND] = { PFS_STREAM_TEST_RANDOM, PFS_ORDER_PLAN, plan_stream },
	{ NULL, 0, NULL },
};

/* The test named for --pattern, and only that one, runs. */
static bool stream_test_applies(const void *opts, unsigned test)
{
	const struct pfs_stream_opts *o = opts;

	return (test == TEST_RAND) == (o->access == PFS_STREAM_RANDOM);
}

/* ---- options ------------------------------------------------------------------------ */

static const char *const stream_formats[] = { "dm", "dd", "lmdd", "fio", "hdparm", NULL };
static const char *const stream_accesses[] = { "seq", "random", NULL };

#define O struct pfs_stream_opts
#define DM_NUM(field, lname, sname, kind, max, help) \
	PFS_OPT_NUM_PARSED(O, field, lname, sname, kind, max, pfs_ddfmt_parse_dm_number, "N", help)
/* The same with a default (def) or one worked out at run time (shown). */
#define DM_NUM_DEF(field, lname, sname, kind_, max_, help_, def_, shown)                       \
	{ .long_name = lname, .short_name = sname, .kind = kind_,                                 \
	  .offset = offsetof(O, field) + PFS_FIELD_IS(O, field, uint64_t),                        \
	  .size = sizeof(((O *)0)->field), .max = max_, .arg = "N", .help = help_,                \
	  .parse = pfs_ddfmt_parse_dm_number, .def = def_, .def_shown = shown }

static const struct pfs_option stream_options[] = {
	PFS_OPT_STR(O, output, "output-file", 'o', "PATH",
		    "write to PATH: a directory (each rank's file in a new directory in it), a new "
		    "file (made exclusively), or an existing file or device (--force)", 0),
	PFS_OPT_STR(O, input, "input-file", 'i', "PATH",
		    "read from PATH: a directory a --keep write run used (or any with --prepare), "
		    "or a file or device (--force)", 0),
	DM_NUM_DEF(block, "buffer-size", 'b', PFS_OPT_COUNT, PFS_SEQIO_REQ_MAX,
		   "request size; dm's numbers: 4096, 0x1000, 8s, 4k, 1m, 1g",
		   PFS_STRINGIFY(PFS_STREAM_DEFAULT_BLOCK), NULL),
	DM_NUM_DEF(size, "size", 's', PFS_OPT_COUNT, 0, "bytes per rank", NULL,
		   "to the end of the input, or until the output is full"),
	DM_NUM(seek_in, "seek-input", 'k', PFS_OPT_UINT, 0, "start reading N bytes in"),
	DM_NUM(seek_out, "seek-output", 'l', PFS_OPT_UINT, 0, "start writing N bytes in"),
	DM_NUM_DEF(pattern, "input-pattern", 'a', PFS_OPT_UINT, 255, "write the byte N everywhere",
		   NULL, "a pattern naming rank and offset"),
	PFS_OPT_FLAG(O, direct, "o_direct", 'x',
		     "O_DIRECT, page-aligned buffers (where refused: without, and dm's message)"),
	PFS_RUNTIME_OPTION(O, "stop the stream after SECONDS, every rank at the request count "
			      "of the busiest (docs/methodology.md)"),
	PFS_DIRECT_OPTION(O, "O_DIRECT as -x, but refused before the run where the filesystem "
			  "refuses it or -b, -s, -k, -l are no multiples of its block"),
	DM_NUM(bandwidth, "bandwidth", 'w', PFS_OPT_UINT, 0, "at most N bytes a second per rank"),
	PFS_OPT_FLAG(O, sync, "sync", 'y', "fsync before the clock stops"),
	PFS_OPT_FLAG(O, marks, "marks", 'm', "rank 0 prints R per request (r for a short one)"),
	PFS_OPT_FLAG(O, performance, "performance", 'p', "print dm's throughput lines"),
	PFS_OPT_FLAG(O, dialog, "dialog", 'd', "rank 0 prints its percentage done"),
	PFS_OPT_CHOOSE_DEF(O, format, "format", 0, stream_formats, "dm|dd|lmdd|fio|hdparm",
			   "summary lines as dm, GNU dd or lmbench's lmdd prints them, or a line "
			   "per rank as fio --minimal (terse version 3); hdparm: hdparm -Tt's "
			   "cached and buffered reads of the block device -i names, on every node",
			   PFS_OPTF_NEEDS_ARG, "dm"),
	PFS_OPT_CHOOSE_DEF(O, access, "pattern", 0, stream_accesses, "seq|random",
			   "requests in order, or each -b block of the rank's -s bytes once in a "
			   "random order (IOPS, docs/stream.md)",
			   PFS_OPTF_NEEDS_ARG, "seq"),
	PFS_OPT_NUM_DEF(O, seed, "seed", 0, PFS_OPT_UINT, 0, "N",
			"--pattern random: the order's key (rank r's order: key N and r)", "1"),
	PFS_OPT_NUM_DEF(O, iodepth, "iodepth", 0, PFS_OPT_COUNT, PFS_RANDIO_DEPTH_MAX, "N",
			"--pattern random: requests in flight; over 1 by io_uring, refused "
			"where there is none", "1"),
	PFS_OPT_FLAG(O, shared, "shared", 0, "all ranks in one file, rank r at offset r x -s"),
	PFS_OPT_FLAG(O, prepare, "prepare", 0, "reads: write the data first, untimed"),
	PFS_OPT_FLAG(O, keep, "keep", 0, "writes: leave the files for a read run with -i"),
	PFS_OPT_FLAG(O, verify, "verify", 0,
		     "check every byte: reads as they go, writes afterwards (untimed)"),
	PFS_COMMON_OPTIONS_FORCE(O, 0,
				 "write or read a regular file or block device named by -o or -i (a "
				 "write destroys its data); and run even when the target lacks the space "
				 "or inodes the plan needs"),
	PFS_OPT_END,
};

#undef DM_NUM
#undef DM_NUM_DEF
#undef O

static const char *const stream_op_names[] = { "Prepare", "Open", "Stream", "Check",
						 PFS_STREAM_OP_CACHED, PFS_STREAM_OP_BUFFERED, NULL };

static void stream_defaults(void *opts)
{
	struct pfs_stream_opts *o = opts;

	o->pattern = PFS_STREAM_NO_PATTERN;
}

/* Where the target is: a directory is the run's target directory; anything
 * else is a named file or device, whose directory the run describes. */
static int locate(struct pfs_stream_opts *o, char *err, size_t errlen)
{
	const char *path = pfs_stream_target(o);
	bool reading = pfs_stream_reading(o);
	struct stat sb;
	int err_stat = stat(path, &sb) ? errno : 0;
	bool no_name = err_stat == ENOENT && lstat(path, &sb) && errno == ENOENT;

	if (!err_stat && S_ISDIR(sb.st_mode)) {
		if (pfs_format(o->common.dir, sizeof(o->common.dir), "%s", path))
			return pfs_refuse(err, errlen, -EINVAL, "'%.40s...' is too long", path);
		return 0;
	}
	if (reading && err_stat)
		return pfs_refuse(err, errlen, -EINVAL,
				  "cannot read '%s': %s", path, strerror(err_stat));
	o->named = true;
	/* A write's file that is not there: made exclusively, as dm makes it;
	 * nothing is destroyed, so no --force. */
	o->fresh = !reading && no_name;
	if (!reading && err_stat == ENOENT && !no_name)
		return pfs_refuse(err, errlen, -EINVAL,
				  "'%s' is a symbolic link to nothing: pfsbench does not create a "
				  "file through a link", path);
	if (o->fresh && (!*path || path[strlen(path) - 1] == '/'))
		return pfs_refuse(err, errlen, -EINVAL, "'%s' names no file", path);
	if (!o->common.force && !o->fresh)
		return pfs_refuse(err, errlen, -EINVAL,
				  "'%s' is not a directory: pfsbench %s a file or device only with --force%s",
				  path, reading ? "reads" : "writes",
				  reading ? "" : ", since writing destroys what it holds");
	if (pfs_path_dir(path, o->common.dir, sizeof(o->common.dir)))
		return pfs_refuse(err, errlen, -EINVAL, "'%.40s...' is too long", path);
	if (stat(o->common.dir, &sb) || !S_ISDIR(sb.st_mode))
		return pfs_refuse(err, errlen, -EINVAL,
				  "cannot write '%s': '%s' is no directory", path,
				  o->common.dir);
	return 0;
}

/* path as its directory's real path and its own name, so that two spellings
 * of one name compare equal whether the file is there or not. */
static bool canonical(const char *path, char *out, size_t len)
{
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX], real[PATH_MAX];

	if (pfs_format(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) + !(slash - path) : 1,
		       slash ? path : "."))
		return false;
	return realpath(dir, real) && !pfs_format(out, len, "%s/%s", real, slash ? slash + 1 : path);
}

/* --pattern random and --iodepth: what they need, and what they do not
 * go with (docs/stream.md). */
static int validate_random(const struct pfs_stream_opts *o, char *err, size_t errlen)
{
	bool reading = pfs_stream_reading(o);
	uint64_t seek = reading ? o->seek_in : o->seek_out;
	char why[256];

	if (o->access != PFS_STREAM_RANDOM)
		return o->iodepth > 1 ? pfs_refuse(err, errlen, -EINVAL,
						   "--iodepth is for --pattern random; a "
						   "sequential stream has one request in flight")
				      : 0;
	if (!o->size)
		return pfs_refuse(err, errlen, -EINVAL,
				  "--pattern random visits each block of -s bytes once: give -s");
	if (o->block > PFS_SEQIO_SLICE)
		return pfs_refuse(err, errlen, -EINVAL,
				  "--pattern random takes requests of at most %u bytes (-b %" PRIu64
				  ")", PFS_SEQIO_SLICE, o->block);
	if (o->size % o->block)
		return pfs_refuse(err, errlen, -EINVAL,
				  "--pattern random needs -s (%" PRIu64 ") a multiple of -b (%" PRIu64
				  ")", o->size, o->block);
	if (seek % o->block)
		return pfs_refuse(err, errlen, -EINVAL,
				  "--pattern random aligns requests to -b: -%c %" PRIu64
				  " is no multiple of %" PRIu64, reading ? 'k' : 'l', seek, o->block);
	if (o->bandwidth)
		return pfs_refuse(err, errlen, -EINVAL,
				  "-w caps a sequential stream; not with --pattern random");
	if (o->marks || o->dialog)
		return pfs_refuse(err, errlen, -EINVAL,
				  "-m and -d mark a sequential stream; not with --pattern random");
	if (!reading && o->verify && o->common.runtime_s)
		return pfs_refuse(err, errlen, -EINVAL,
				  "--verify reads back every block a random write wrote, and "
				  "--runtime may stop it before all are written");
	if (o->iodepth > 1 && pfs_randio_uring_probe(why, sizeof(why)))
		return pfs_refuse(err, errlen, -EINVAL, "--iodepth %" PRIu64 ": %s", o->iodepth,
				  why);
	return 0;
}

/* --format hdparm: hdparm -Tt on the block device -i names, which is only
 * read, so it needs no --force; every option that would change hdparm's
 * plan is refused rather than ignored. */
static int validate_hdparm(struct pfs_stream_opts *o, char *err, size_t errlen)
{
	const struct {
		bool given;
		const char *name;
	} other[] = {
		{ o->output[0] != 0, "-o" },
		{ o->block != PFS_STREAM_DEFAULT_BLOCK, "-b" },
		{ o->size != 0, "-s" },
		{ o->seek_in != 0, "-k" },
		{ o->direct || o->common.direct, "-x/--direct" },
		{ o->sync, "-y" },
		{ o->marks || o->dialog, "-m/-d" },
		{ o->bandwidth != 0, "-w" },
		{ o->common.runtime_s != 0, "--runtime" },
		{ o->access != PFS_STREAM_SEQ, "--pattern" },
		{ o->shared, "--shared" },
		{ o->prepare, "--prepare" },
		{ o->verify, "--verify" },
	};
	const char *path = o->input;
	struct stat sb;

	if (!path[0])
		return pfs_refuse(err, errlen, -EINVAL,
				  "--format hdparm times a block device: give it with -i DEVICE");
	for (size_t i = 0; i < sizeof(other) / sizeof(other[0]); i++)
		if (other[i].given)
			return pfs_refuse(err, errlen, -EINVAL,
					  "--format hdparm reads as hdparm -Tt does: not with %s",
					  other[i].name);
	if (stat(path, &sb))
		return pfs_refuse(err, errlen, -EINVAL, "cannot read '%s': %s", path,
				  strerror(errno));
	if (!S_ISBLK(sb.st_mode))
		return pfs_refuse(err, errlen, -EINVAL,
				  "'%s' is no block device: --format hdparm times a disk, as "
				  "hdparm -Tt does", path);
	o->named = true;
	o->block = PFS_HDPARM_BLOCK;
	if (pfs_path_dir(path, o->common.dir, sizeof(o->common.dir)))
		return pfs_refuse(err, errlen, -EINVAL, "'%.40s...' is too long", path);
	return 0;
}

static int stream_validate(void *opts, char *err, size_t errlen)
{
	struct pfs_stream_opts *o = opts;
	bool reading = pfs_stream_reading(o);

	if (o->format == PFS_STREAM_FMT_HDPARM)
		return validate_hdparm(o, err, errlen);

	if (!o->input[0] && !o->output[0])
		return pfs_refuse(err, errlen, -EINVAL,
				  "say where to stream: -o PATH to write, -i PATH to read");
	if (reading && o->output[0] && strcmp(o->output, "/dev/null"))
		return pfs_refuse(err, errlen, -EINVAL,
				  "-i with -o copies in dm; pfsbench stream reads (-i, "
				  "with -o /dev/null or no -o) or writes (-o)");
	if (reading && o->pattern != PFS_STREAM_NO_PATTERN)
		return pfs_refuse(err, errlen, -EINVAL,
				  "-a fills the buffer instead of reading: not with -i");
	if (!reading && o->prepare)
		return pfs_refuse(err, errlen, -EINVAL,
				  "--prepare writes the data a read (-i) reads");
	if (reading && o->keep)
		return pfs_refuse(err, errlen, -EINVAL,
				  "--keep leaves a write run's files (-o); a read run removes "
				  "what it read");
	if (o->shared && !o->size)
		return pfs_refuse(err, errlen, -EINVAL,
				  "--shared puts rank r at offset r x -s: give -s");
	if (o->prepare && !o->size)
		return pfs_refuse(err, errlen, -EINVAL,
				  "--prepare writes -s bytes per rank: give -s");
	if (o->dialog && !reading && !o->size)
		return pfs_refuse(err, errlen, -EINVAL, "-d shows the percentage of -s: give -s");
	if ((o->marks || o->dialog) && o->common.output_format != PFS_FORMAT_TEXT)
		return pfs_refuse(err, errlen, -EINVAL,
				  "-m and -d print on stdout, which --output-format %s keeps for "
				  "the summary",
				  pfs_output_format_choices[o->common.output_format]);
	if (o->common.runtime_s && o->keep)
		return pfs_refuse(err, errlen, -EINVAL,
				  "--keep leaves -s bytes for a read run, and --runtime may stop "
				  "the write sooner");
	if (validate_random(o, err, errlen))
		return -EINVAL;
	/* --direct is -x without dm's fallback: probed before the run. */
	if (o->common.direct)
		o->direct = true;
	if (locate(o, err, errlen))
		return -EINVAL;
	if (o->named && o->keep)
		return pfs_refuse(err, errlen, -EINVAL,
				  "--keep is for a directory; a named file always stays");
	if (o->named && o->common.results[0]) {
		char a[PATH_MAX + NAME_MAX + 2], b[PATH_MAX + NAME_MAX + 2];

		if (canonical(o->common.results, a, sizeof(a)) &&
		    canonical(pfs_stream_target(o), b, sizeof(b)) && !strcmp(a, b))
			return pfs_refuse(err, errlen, -EINVAL,
					  "--results and -%c name the same file '%s'",
					  reading ? 'i' : 'o', pfs_stream_target(o));
	}
	return 0;
}

/* Each rank's -s bytes (unknown without -s: 0), and an inode each. */
static void stream_needs(const void *opts, unsigned nranks, struct pfs_needs *needs)
{
	const struct pfs_stream_opts *o = opts;
	bool writes = !pfs_stream_reading(o) || o->prepare;

	/* What lies before a seek is a hole: it takes no space. */
	needs->bytes = writes && !o->named ? pfs_mul_sat_u64(o->size, nranks) : 0;
	needs->inodes = o->named ? 0 : (uint64_t)nranks + 2;
}

/* --direct: every request and offset in whole blocks of the target. */
static int stream_check_direct(const void *opts, uint64_t align, char *err, size_t errlen)
{
	const struct pfs_stream_opts *o = opts;
	const struct {
		const char *name;
		uint64_t v;
	} sizes[] = { { "-b", o->block }, { "-s", o->size }, { "-k", o->seek_in },
		      { "-l", o->seek_out } };

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		if (sizes[i].v % align)
			return pfs_refuse(err, errlen, -EINVAL,
					  "%s %llu is no multiple of %llu bytes, the block "
					  "O_DIRECT needs there",
					  sizes[i].name, (unsigned long long)sizes[i].v,
					  (unsigned long long)align);
	return 0;
}

/* A --keep write leaves DIR/pfsbench.stream.<layout>.<size> for the read
 * run with the same layout and -s, which finds it by the same name. */
static int stream_persist(const void *opts, char *key, size_t keylen)
{
	const struct pfs_stream_opts *o = opts;
	int rc;

	if (o->named)
		return PFS_PERSIST_NAMED;
	if (!resumes(o) && !o->keep)
		return PFS_PERSIST_NONE;
	rc = o->size ? pfs_format(key, keylen, "%s.s%" PRIu64, o->shared ? "shared" : "file", o->size)
		     : pfs_format(key, keylen, "%s.all", o->shared ? "shared" : "file");
	if (rc)
		return rc;
	return resumes(o) ? PFS_PERSIST_RESUME : PFS_PERSIST_LEAVE;
}

static const char *stream_named_target(const void *opts)
{
	return pfs_stream_target(opts);
}

const struct pfs_workload pfs_workload_stream = {
	.name = "stream",
	.summary = "Stream sequential writes or reads on every rank at once, as DRBD's dm and dd do; "
		   "or random ones, as fio's randwrite and randread.",
	.synopsis = "-o PATH | -i PATH [-b N] [-s N] [-a N] [-x] [-y] [-m] [-p] [--shared] "
		    "[--pattern random [--iodepth N] [--seed N]] [options]",
	.options = stream_options,
	.opts_size = sizeof(struct pfs_stream_opts),
	.state_size = sizeof(struct stream_state),
	/* the longer of its names: counted after the longer of the run's and
	 * the workers' directories, a few characters are to spare */
	.path_tail = sizeof("/" SHARED_NAME) - 1,
	.tests = stream_tests,
	.test_applies = stream_test_applies,
	.op_names = stream_op_names,
	.report = &pfs_output_stream,
	.latency_by_rank = true,
	.defaults = stream_defaults,
	.validate = stream_validate,
	.needs = stream_needs,
	.setup = stream_setup,
	.run_op = stream_run_op,
	.cleanup = stream_cleanup,
	.items = stream_items,
	.run_items = stream_run_items,
	.persist = stream_persist,
	.named_target = stream_named_target,
	.check_direct = stream_check_direct,
};
