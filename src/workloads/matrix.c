/* matrix.c: perf_matrix.pl's request-size x transfer-size matrix on the
 * pfsbench engine. In every cell all ranks at once, after a cache drop and
 * a barrier, move the cell's transfer size in requests of its request
 * size (one stream of src/workloads/seqio.c each, fsync inside the time for
 * writes); -i repeats every cell, and the outlier rule of
 * include/pfsbench/plans/matrix_plan.h marks each repetition kept or discarded.
 * This file says where each rank reads or writes and what is timed; the
 * plan, the sizes and the arithmetic are matrix_plan's, the report
 * src/outputs/matrix.c's.
 *
 * Where: by default each rank has its own file, <node>.<worker>/matrix in
 * the run directory, which a read run fills first (untimed) and a write
 * run empties after every cell (untimed), so each write cell writes a new
 * file. A file or device named with --force is shared: rank r works on
 * [r x S, r x S + S), S being the largest transfer; the run refuses a
 * device (or a file to read) that does not hold every rank's part, and
 * never writes past it. O_DIRECT by default on a block device only
 * (--direct). See docs/matrix.md. */
#include "pfsbench/core/sys.h"
#include "pfsbench/core/util.h"
#include "pfsbench/engine/worker.h"
#include "pfsbench/engine/workload.h"
#include "pfsbench/outputs/output.h"
#include "pfsbench/plans/matrix_plan.h"
#include "pfsbench/workloads/seqio.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#define FILE_NAME "matrix"

/* Its name, for `pfsbench clean`. */
static const struct pfs_item matrix_items[] = {
	{ FILE_NAME, PFS_ITEM_FILE, NULL },
	{ NULL, 0, NULL },
};

enum matrix_op { OP_OPEN, OP_CELL };

struct matrix_state {
	const struct pfs_matrix_opts *o;
	struct pfs_matrix_plan plan;
	struct pfs_seqio_buf buf; /* for the largest request */
	char path[PATH_MAX];      /* the file or device this rank works on */
	/* ... opened as name relative to at: in the worker's directory, never
	 * by its path and never through a link; a named one by its path */
	int at, nofollow;
	const char *name;
	bool own;                 /* this rank made path and removes it */
	int fd;                   /* open from the Open step to the end */
	uint64_t offset;          /* where this rank's part starts */
};

/* The size of a regular file or a block device; -errno. */
static int target_size(int fd, const struct stat *sb, uint64_t *size)
{
	if (S_ISREG(sb->st_mode)) {
		*size = (uint64_t)sb->st_size;
		return 0;
	}
	return ioctl(fd, BLKGETSIZE64, size) ? -errno : 0;
}

/* ---- ops ----------------------------------------------------------------------------- */

/* What every stream of this rank shares. */
static void stream_of(const struct matrix_state *st, struct pfs_seqio *io, int rank, bool wr)
{
	memset(io, 0, sizeof(*io));
	io->fd = st->fd;
	io->path = st->path;
	io->dir = wr ? PFS_SEQIO_WRITE : PFS_SEQIO_READ;
	io->offset = st->offset;
	io->writer = (uint32_t)rank;
	io->fill = PFS_SEQIO_STAMPED;
	io->size_name = "the transfer size";
	io->direct_hint = "run with --direct off, or with sizes that are multiples of it";
}

/* Untimed, once: a read run of the run's own files writes each rank's
 * file first (the largest transfer, the stamped pattern, fsync), with a
 * descriptor of its own, as O_DIRECT is for the cells. */
static int fill_own_file(struct pfs_worker *w, struct matrix_state *st)
{
	struct pfs_seqio io;
	int fd = pfs_openat(st->at, st->name, O_WRONLY | st->nofollow | O_CLOEXEC, 0), rc;

	if (fd < 0)
		return pfs_fail_path(w, "open", st->path, errno);
	stream_of(st, &io, w->rank, true);
	io.fd = fd;
	io.bytes = st->plan.span;
	io.req = st->buf.len;
	io.fsync = true;
	/* No row: pfs_op_start only lets the engine tick and stop the loop. */
	pfs_op_start(w, "Prepare", PFS_UNIT_BYTES, pfs_seqio_requests(io.bytes, io.req), 0);
	rc = pfs_seqio_run(w, &io, &st->buf);
	if (pfs_close(fd) && !rc)
		rc = pfs_fail_path(w, "close", st->path, errno);
	return rc;
}

/* Untimed, in step 0: the first touches the first cell would otherwise
 * pay for, some milliseconds at 4 MiB (the buffer's pages, and a write's
 * pattern in it). A write run writes one buffer's worth of its part once
 * (its own file is then emptied again); a read run's buffer is touched. */
static int warm_up(struct pfs_worker *w, struct matrix_state *st, bool wr)
{
	struct pfs_seqio io;
	int rc;

	if (!wr) {
		memset(st->buf.data, 0, st->buf.len);
		return 0;
	}
	stream_of(st, &io, w->rank, true);
	io.bytes = st->buf.len < st->plan.span ? st->buf.len : st->plan.span;
	io.req = io.bytes;
	io.direct = st->o->direct == PFS_MATRIX_DIRECT_ON;
	/* No row: pfs_op_start only lets the engine tick and stop the loop. */
	pfs_op_start(w, "Warm-up", PFS_UNIT_BYTES, 1, 0);
	rc = pfs_seqio_run(w, &io, &st->buf);
	if (!rc && st->own && ftruncate(st->fd, 0))
		rc = pfs_fail_path(w, "truncate", st->path, errno);
	return rc;
}

/* Step 0, untimed: the data a read needs, the descriptor every cell uses
 * (with O_DIRECT under --direct), the warm-up. */
static int op_open(struct pfs_worker *w, struct matrix_state *st)
{
	const struct pfs_matrix_opts *o = st->o;
	bool wr = !pfs_matrix_reading(o), direct = o->direct == PFS_MATRIX_DIRECT_ON;
	int rc;

	if (!wr && st->own && (rc = fill_own_file(w, st)))
		return rc;
	st->fd = pfs_openat(st->at, st->name,
			    (wr ? O_WRONLY : O_RDONLY) | st->nofollow | O_CLOEXEC | (direct ? O_DIRECT : 0), 0);
	if (st->fd < 0 && direct && errno == EINVAL)
		return pfs_failf(w, EINVAL,
				 "cannot open '%s' with O_DIRECT: %s (EINVAL): the "
				 "filesystem refuses it; run with --direct off",
				 st->path, strerror(EINVAL));
	if (st->fd < 0)
		return pfs_fail_path(w, direct ? "open with O_DIRECT" : "open", st->path, errno);
	return warm_up(w, st, wr);
}

/* A cell's repetition, timed from pfs_op_start to pfs_op_done (fsync
 * included for writes). A write to the rank's own file then empties it,
 * untimed, so the next write cell starts on an empty file again. */
static int op_cell(struct pfs_worker *w, struct matrix_state *st)
{
	const struct pfs_matrix_opts *o = st->o;
	bool wr = !pfs_matrix_reading(o);
	unsigned row, col, rep;
	struct pfs_seqio io;
	int rc;

	if (!pfs_matrix_plan_cell(&st->plan, w->step, &row, &col, &rep))
		return pfs_failf(w, EINVAL, "step %u is no cell of the matrix's plan", w->step);
	stream_of(st, &io, w->rank, wr);
	io.bytes = st->plan.sizes.xfer_bytes[row];
	io.req = st->plan.sizes.req_bytes[col];
	io.fsync = wr && o->fsync;
	io.direct = o->direct == PFS_MATRIX_DIRECT_ON;
	/* Latency only with --latency: at 1 KiB requests its two clock
	 * readings a request would be a visible part of the time. */
	pfs_op_start(w, wr ? PFS_MATRIX_OP_WRITE : PFS_MATRIX_OP_READ, PFS_UNIT_BYTES,
		     pfs_seqio_requests(io.bytes, io.req), PFS_OP_HOT);
	rc = pfs_seqio_run(w, &io, &st->buf);
	if (!rc)
		rc = pfs_op_done(w);
	if (!rc && wr && st->own && ftruncate(st->fd, 0))
		rc = pfs_fail_path(w, "truncate", st->path, errno);
	return rc;
}

static int matrix_run_op(struct pfs_worker *w, unsigned op)
{
	struct matrix_state *st = w->state;

	switch ((enum matrix_op)op) {
	case OP_OPEN:
		return op_open(w, st);
	case OP_CELL:
		return op_cell(w, st);
	}
	return -EINVAL;
}

/* ---- setup and cleanup -------------------------------------------------------------- */

/* A named file or device, as this rank sees it: the kind rank 0 checked,
 * and big enough for this rank's part (a node may see another device by
 * the same name). */
static int check_named(struct pfs_worker *w, struct matrix_state *st)
{
	bool wr = !pfs_matrix_reading(st->o);
	struct stat sb;
	uint64_t size = 0;
	int fd = pfs_openat(st->at, st->name, O_RDONLY | st->nofollow | O_CLOEXEC, 0), rc;

	if (fd < 0)
		return pfs_fail_path(w, "open", st->path, errno);
	rc = fstat(fd, &sb) ? -errno : 0;
	if (!rc && !S_ISREG(sb.st_mode) && !S_ISBLK(sb.st_mode))
		rc = -ENOTBLK;
	if (!rc && (S_ISBLK(sb.st_mode) || !wr))
		rc = target_size(fd, &sb, &size);
	pfs_close(fd);
	if (rc == -ENOTBLK)
		return pfs_failf(w, ENOTBLK,
				 "'%s' is neither a regular file nor a block device here",
				 st->path);
	if (rc)
		return pfs_fail_path(w, "measure", st->path, -rc);
	if ((S_ISBLK(sb.st_mode) || !wr) && size < st->offset + st->plan.span)
		return pfs_failf(w, ENOSPC,
				 "'%s' holds %" PRIu64 " bytes here; rank %d's part is "
				 "bytes %" PRIu64 " to %" PRIu64,
				 st->path, size, w->rank, st->offset, st->offset + st->plan.span);
	return 0;
}

static int matrix_setup(struct pfs_worker *w)
{
	const struct pfs_matrix_opts *o = w->opts;
	struct matrix_state *st = w->state;
	char err[PFS_REFUSAL_MAX];
	int rc, fd;

	st->o = o;
	st->fd = -1;
	if (pfs_matrix_plan_init(&st->plan, o, err, sizeof(err)))
		return pfs_failf(w, EINVAL, "%s", err);
	/* rank r's part, [r x S, r x S + S), within the offsets the kernel takes */
	if (o->named && (pfs_mul_u64((uint64_t)w->rank, st->plan.span, &st->offset) ||
			 st->offset > (uint64_t)INT64_MAX - st->plan.span))
		return pfs_failf(w, EOVERFLOW, "rank %d's part would end past 2^63 bytes", w->rank);
	rc = pfs_seqio_buf_init(&st->buf, st->plan.req_max);
	if (rc)
		return pfs_fail(w, "allocate", "the I/O buffer", -rc);
	if (o->named) {
		if (pfs_format(st->path, sizeof(st->path), "%s", pfs_matrix_target(o)))
			return pfs_failf(w, ENAMETOOLONG, "'%.40s...' is too long",
					 pfs_matrix_target(o));
		st->at = AT_FDCWD;
		st->name = st->path;
		st->nofollow = 0;
		return check_named(w, st);
	}
	if (pfs_format(st->path, sizeof(st->path), "%s/%s", w->dir, FILE_NAME))
		return pfs_failf(w, ENAMETOOLONG, "the file name in '%s' is too long", w->dir);
	st->at = w->dirfd;
	st->name = FILE_NAME;
	st->nofollow = O_NOFOLLOW;
	fd = pfs_openat(st->at, st->name, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC,
			0644);
	if (fd < 0)
		return pfs_fail_path(w, "create", st->path, errno);
	st->own = true;
	if (pfs_close(fd))
		return pfs_fail_path(w, "close", st->path, errno);
	return 0;
}

static int matrix_cleanup(struct pfs_worker *w)
{
	struct matrix_state *st = w->state;
	int rc = 0;

	if (st->fd >= 0 && pfs_close(st->fd))
		rc = -errno;
	st->fd = -1;
	if (st->own && unlinkat(st->at, st->name, 0) && errno != ENOENT)
		rc = -errno;
	st->own = false;
	pfs_seqio_buf_free(&st->buf);
	return rc;
}

/* ---- the plan ----------------------------------------------------------------------- */

/* Step 0 keeps the cache (nothing is measured in it); every cell starts
 * cold. */
static size_t plan_matrix(const void *opts, unsigned nnodes, struct pfs_step *steps, size_t cap)
{
	struct pfs_matrix_plan p;
	size_t n, i = 0;

	(void)nnodes;
	if (pfs_matrix_plan_init(&p, opts, NULL, 0))
		return 0; /* validate refused these options already */
	n = pfs_matrix_plan_steps(&p);
	i = pfs_plan_put(steps, cap, i,
			 pfs_step_with(PFS_STEP1(PFS_ALL_NODES, OP_OPEN), PFS_STEP_UNTIMED));
	while (i < n)
		i = pfs_plan_put(steps, cap, i, PFS_STEP1(PFS_ALL_NODES, OP_CELL));
	return i;
}

static const struct pfs_test matrix_tests[] = {
	{PFS_MATRIX_TEST, PFS_ORDER_PLAN, plan_matrix},
	{NULL, 0, NULL},
};

/* ---- options ------------------------------------------------------------------------ */

static const char *const direct_choices[] = {"auto", "on", "off", NULL};

#define O struct pfs_matrix_opts

static const struct pfs_option matrix_options[] = {
	PFS_OPT_STR(O, read, "read", 'r', "PATH",
		    "read: PATH is a directory (each rank's file in a new directory in it, written "
		    "first), or a file or device (--force)",
		    0),
	PFS_OPT_STR(O, write, "write", 'w', "PATH",
		    "write: PATH is a directory (each rank's file in a new directory in it), or a "
		    "file or device (--force)",
		    0),
	PFS_OPT_OPERAND_STR(O, read, "if", "PATH", "perf_matrix's spelling of --read PATH"),
	PFS_OPT_OPERAND_STR(O, write, "of", "PATH", "perf_matrix's spelling of --write PATH"),
	PFS_OPT_STR_DEF(O, req, "req", 0, "LIST", "request sizes: 4k,64k or 1k..4m (doubling)", 0,
			PFS_MATRIX_REQ_DEFAULT),
	PFS_OPT_STR_DEF(O, xfer, "xfer", 0, "LIST", "transfer sizes, the same way", 0,
			PFS_MATRIX_XFER_DEFAULT),
	PFS_OPT_NUM_DEF(O, iter, "iter", 'i', PFS_OPT_COUNT, PFS_MATRIX_ITER_MAX, "N",
			"run every cell N times; the repetitions beyond one standard deviation of "
			"their mean are discarded",
			"1"),
	PFS_OPT_OPERAND_NUM(O, iter, "iter", PFS_OPT_COUNT, PFS_MATRIX_ITER_MAX, "N",
			    "perf_matrix's spelling of -i N"),
	PFS_OPT_CHOOSE_DEF(O, direct, "direct", 0, direct_choices, "[=auto|on|off]",
			   "O_DIRECT; auto: on a block device only; --direct alone: on", 0, "auto"),
	PFS_OPT_NOFLAG(O, fsync, "no-fsync", 0, "writes: no fsync before the clock stops"),
	PFS_COMMON_OPTIONS_FORCE(O, 0,
				 "use a regular file or block device named by PATH (a write destroys "
				 "its data); and run even when the target lacks the space or inodes the plan "
				 "needs"),
	PFS_OPT_END,
};

#undef O

static const char *const matrix_op_names[] = {"Open", "Cell", NULL};

/* The logical block size of a block device: what O_DIRECT's sizes and
 * offsets must be multiples of. 512 when it cannot be asked. */
static unsigned block_size(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), bs = 0;

	if (fd >= 0 && ioctl(fd, BLKSSZGET, &bs))
		bs = 0;
	if (fd >= 0)
		close(fd);
	return bs > 0 ? (unsigned)bs : 512u;
}

/* With O_DIRECT every request, transfer and rank's part must be whole
 * blocks. */
static int check_direct(const struct pfs_matrix_opts *o, bool blockdev, char *err, size_t errlen)
{
	struct pfs_matrix_plan p;
	unsigned bs = blockdev ? block_size(pfs_matrix_target(o)) : 512u;

	if (pfs_matrix_plan_init(&p, o, err, errlen))
		return -EINVAL;
	for (unsigned l = 0; l < 2; l++) {
		const uint64_t *sizes = l ? p.sizes.xfer_bytes : p.sizes.req_bytes;

		for (unsigned i = 0; i < (l ? p.sizes.rows : p.sizes.cols); i++)
			if (sizes[i] % bs)
				return pfs_refuse(
					err, errlen, -EINVAL,
					"with O_DIRECT every size must be a "
					"multiple of %s's block size, %u bytes: %s size %" PRIu64
					" is not (change %s, or use --direct off)",
					blockdev ? "the device" : "the filesystem", bs,
					l ? "transfer" : "request", sizes[i],
					l ? "--xfer" : "--req");
	}
	return 0;
}

/* Where the target is: a directory is the run's target directory; a
 * regular file or a block device is named (--force), and the run
 * describes its directory. */
static int locate(struct pfs_matrix_opts *o, struct stat *sb, char *err, size_t errlen)
{
	const char *path = pfs_matrix_target(o);
	bool reading = pfs_matrix_reading(o);

	if (stat(path, sb))
		return pfs_refuse(err, errlen, -EINVAL, "cannot %s '%s': %s",
				  reading ? "read" : "write", path, strerror(errno));
	if (S_ISDIR(sb->st_mode)) {
		if (pfs_format(o->common.dir, sizeof(o->common.dir), "%s", path))
			return pfs_refuse(err, errlen, -EINVAL, "'%.40s...' is too long", path);
		return 0;
	}
	if (!S_ISREG(sb->st_mode) && !S_ISBLK(sb->st_mode))
		return pfs_refuse(err, errlen, -EINVAL,
				  "'%s' is neither a directory, a regular file nor a block "
				  "device",
				  path);
	o->named = true;
	if (!o->common.force)
		return pfs_refuse(
			err, errlen, -EINVAL,
			"'%s' is not a directory: pfsbench matrix %s a file or device only "
			"with --force%s",
			path, reading ? "reads" : "writes",
			reading ? "" : ", since writing destroys what it holds");
	if (pfs_path_dir(path, o->common.dir, sizeof(o->common.dir)))
		return pfs_refuse(err, errlen, -EINVAL, "'%.40s...' is too long", path);
	return 0;
}

static int matrix_validate(void *opts, char *err, size_t errlen)
{
	struct pfs_matrix_opts *o = opts;
	struct pfs_matrix_plan p;
	struct stat sb;

	if (!o->read[0] && !o->write[0])
		return pfs_refuse(err, errlen, -EINVAL,
				  "say what to measure: --read PATH (if=PATH) or --write "
				  "PATH (of=PATH)");
	if (o->read[0] && o->write[0])
		return pfs_refuse(err, errlen, -EINVAL,
				  "--read and --write: one at a time, as perf_matrix's if= "
				  "and of=");
	if (pfs_matrix_plan_init(&p, o, err, errlen))
		return -EINVAL;
	if (o->common.iterations != 1)
		return pfs_refuse(err, errlen, -EINVAL,
				  "--iterations repeats whole runs; -i/--iter N runs every "
				  "cell N times, as perf_matrix's iter=N");
	if (pfs_matrix_reading(o) && !o->fsync)
		return pfs_refuse(err, errlen, -EINVAL,
				  "--no-fsync is for writes: a read has nothing to fsync");
	if (locate(o, &sb, err, errlen))
		return -EINVAL;
	if (o->direct == PFS_MATRIX_DIRECT_AUTO)
		o->direct = S_ISBLK(sb.st_mode) ? PFS_MATRIX_DIRECT_ON : PFS_MATRIX_DIRECT_OFF;
	if (o->direct == PFS_MATRIX_DIRECT_ON && check_direct(o, S_ISBLK(sb.st_mode), err, errlen))
		return -EINVAL;
	return 0;
}

/* A named device, or a named file to read, must hold every rank's part:
 * nranks x the largest transfer. A named file to write grows. */
static int matrix_check_ranks(const void *opts, unsigned nranks, char *err, size_t errlen)
{
	const struct pfs_matrix_opts *o = opts;
	const char *path = pfs_matrix_target(o);
	struct pfs_matrix_plan p;
	uint64_t need, size = 0;
	struct stat sb;
	int fd, rc;

	if (!o->named || pfs_matrix_plan_init(&p, o, err, errlen))
		return o->named ? -EINVAL : 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return pfs_refuse(err, errlen, -EINVAL, "cannot open '%s': %s", path,
				  strerror(errno));
	rc = fstat(fd, &sb) ? -errno : 0;
	if (!rc && !S_ISBLK(sb.st_mode) && !pfs_matrix_reading(o)) {
		close(fd);
		return 0;
	}
	if (!rc)
		rc = target_size(fd, &sb, &size);
	close(fd);
	if (rc)
		return pfs_refuse(err, errlen, -EINVAL, "cannot measure '%s': %s", path,
				  strerror(-rc));
	if (pfs_mul_u64(nranks, p.span, &need) || need > size)
		return pfs_refuse(err, errlen, -EINVAL,
				  "'%s' holds %" PRIu64 " bytes; %u rank%s of %" PRIu64
				  " bytes each (the largest transfer) need %" PRIu64
				  ": use fewer ranks or smaller transfers (--xfer)",
				  path, size, nranks, nranks == 1 ? "" : "s", p.span,
				  pfs_mul_sat_u64(nranks, p.span));
	return 0;
}

/* Each rank's own file holds at most the largest transfer. */
static void matrix_needs(const void *opts, unsigned nranks, struct pfs_needs *needs)
{
	const struct pfs_matrix_opts *o = opts;
	struct pfs_matrix_plan p;

	needs->bytes = 0;
	needs->inodes = o->named ? 0 : (uint64_t)nranks + 2;
	if (!o->named && !pfs_matrix_plan_init(&p, o, NULL, 0))
		needs->bytes = pfs_mul_sat_u64(p.span, nranks);
}

static int matrix_persist(const void *opts, char *key, size_t keylen)
{
	const struct pfs_matrix_opts *o = opts;

	(void)key;
	(void)keylen;
	return o->named ? PFS_PERSIST_NAMED : PFS_PERSIST_NONE;
}

static const char *matrix_named_target(const void *opts)
{
	return pfs_matrix_target(opts);
}

/* On rank 0, once the rows are gathered: the outlier rule marks every
 * repetition kept or discarded (nodes are never more than ranks). */
static void matrix_review(const void *opts, unsigned nranks, struct pfs_row *rows, size_t n)
{
	const struct pfs_matrix_opts *o = opts;
	struct pfs_matrix_plan p;
	char err[PFS_REFUSAL_MAX] = "";
	int rc = pfs_matrix_plan_init(&p, o, err, sizeof(err));

	if (!rc)
		rc = pfs_matrix_judge(
			&p, pfs_matrix_reading(o) ? PFS_MATRIX_OP_READ : PFS_MATRIX_OP_WRITE, rows,
			n, nranks, nranks, err, sizeof(err));
	if (rc)
		pfs_warn("matrix: the repetitions are not judged: %s",
			 rc == -ENOMEM ? "out of memory" : err);
}

/* For compare and plot: a run's matrix, as the report reduces it. */
static int matrix_reduce(const void *opts, const struct pfs_row *rows, size_t nrows,
			 unsigned nranks, unsigned nnodes, struct pfs_matrix_result *res, char *err,
			 size_t errlen)
{
	const struct pfs_matrix_opts *o = opts;
	struct pfs_matrix_plan plan;

	if (pfs_matrix_plan_init(&plan, o, err, errlen))
		return -EINVAL;
	return pfs_matrix_reduce(&plan,
				 pfs_matrix_reading(o) ? PFS_MATRIX_OP_READ : PFS_MATRIX_OP_WRITE,
				 rows, nrows, nranks, nnodes, res, err, errlen);
}

const struct pfs_workload pfs_workload_matrix = {
	.name = "matrix",
	.summary = "perf_matrix's matrix: the throughput of every request size (columns) and "
		   "transfer size (rows), on every rank at once.",
	.synopsis = "--read PATH | --write PATH [--req LIST] [--xfer LIST] [-i N] "
		    "[--direct[=auto|on|off]] [options]\n"
		    "       pfsbench matrix if=PATH | of=PATH [iter=N] [options]",
	.options = matrix_options,
	.opts_size = sizeof(struct pfs_matrix_opts),
	.state_size = sizeof(struct matrix_state),
	.path_tail = sizeof("/" FILE_NAME) - 1,
	.tests = matrix_tests,
	.op_names = matrix_op_names,
	.report = &pfs_output_matrix,
	.validate = matrix_validate,
	.needs = matrix_needs,
	.setup = matrix_setup,
	.run_op = matrix_run_op,
	.cleanup = matrix_cleanup,
	.items = matrix_items,
	.persist = matrix_persist,
	.named_target = matrix_named_target,
	.check_ranks = matrix_check_ranks,
	.review = matrix_review,
	.reduce_matrix = matrix_reduce,
};
