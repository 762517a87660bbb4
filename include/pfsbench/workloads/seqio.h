/* seqio.h: one sequential stream of I/O on an open file, the loop that
 * `pfsbench stream` (dm, dd) and `pfsbench matrix` (perf_matrix, lmdd) time.
 * No MPI: it calls the worker API (include/pfsbench/engine/worker.h) and nothing
 * else of the engine.
 *
 * A stream moves `bytes` bytes, from `offset` on, in requests of `req`
 * bytes, by pread or pwrite on `fd`:
 *
 *     struct pfs_seqio_buf buf;            // once per worker: page-aligned
 *     pfs_seqio_buf_init(&buf, req);       // -ENOMEM
 *     ...
 *     pfs_op_start(w, "Write", PFS_UNIT_BYTES, pfs_seqio_requests(bytes, req), 0);
 *     rc = pfs_seqio_run(w, &io, &buf);    // 0, -ECANCELED, or -errno after pfs_failf
 *     if (!rc)
 *             rc = pfs_op_done(w);         // the row: w->items requests, w->bytes bytes
 *     ...
 *     pfs_seqio_buf_free(&buf);
 *
 * What the caller can rely on:
 *  - Requests. Request i covers [offset + i x req, + req), the last one
 *    cut at `bytes`. A request is one system call when it is at most
 *    PFS_SEQIO_SLICE bytes; a larger one is issued as slices of at most
 *    PFS_SEQIO_SLICE, so the stream looks at the clock between them (see
 *    Stops). A short read or write is completed by further calls, as dd's
 *    iflag=fullblock does: every request is whole but the last.
 *  - Counting. After each call w->bytes holds the bytes moved so far;
 *    after each request w->items holds the requests done (the row's
 *    items). Each request's latency goes to w->lat (pfs_lat_start/stop),
 *    and io->each, when set, is called after it (dm's progress marks).
 *  - The end. With a byte count, a read that meets the end of the file, or
 *    a write that stops moving, fails the stream: a short transfer is an
 *    error. With PFS_SEQIO_TO_END the stream runs until a read meets the
 *    end of the file, or a write meets a full filesystem or device
 *    (ENOSPC, EFBIG, EDQUOT, or a write of 0 bytes); the last request may
 *    then be short. That is dm without -s.
 *  - fsync. With io->fsync a write stream ends with fsync(fd), inside the
 *    time between pfs_op_start and pfs_op_done (dm -y, dd conv=fsync).
 *  - A cap. With io->cap_bps the stream sleeps whenever it is ahead of
 *    cap_bps bytes a second since its start (dm -w), in naps of at most
 *    PFS_SEQIO_NAP_US.
 *  - Stops. Between calls and during naps the engine looks at the clock
 *    (w->tick): progress ticks, stop notices and signals are seen
 *    within about 100 ms plus one call of at most PFS_SEQIO_SLICE bytes;
 *    the stream then returns -ECANCELED.
 *  - Data. A write stream writes io->fill in every byte, or, with
 *    PFS_SEQIO_STAMPED, the stamped pattern (pfs_seqio_pattern), which
 *    says in every 512-byte sector of the file which writer put it there
 *    and at what offset. With io->verify, a read stream checks every byte
 *    it reads against the same rule and fails at the first that differs,
 *    naming the file, the offset, what it read and what it expected.
 *  - Failures. Every failure goes through pfs_failf: "node N worker W:
 *    cannot write 'PATH' at offset O: No space left on device (ENOSPC)";
 *    an EINVAL on an O_DIRECT descriptor (io->direct) also says that the
 *    size and offset must be aligned.
 *  - Buffers. The buffer is page-aligned (O_DIRECT) and holds at most one
 *    slice, so a 1 GiB request needs 4 MiB of memory, not 1 GiB. It also
 *    remembers the pattern it holds, so that streams of whole sectors
 *    rewrite 8 bytes per sector per request, not the whole buffer. */
#ifndef PFSBENCH_SEQIO_H
#define PFSBENCH_SEQIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pfsbench/plans/request.h" /* PFS_SEQIO_REQ_MAX */

struct pfs_worker;

#define PFS_SEQIO_TO_END UINT64_MAX  /* io->bytes: until the end (see above) */
#define PFS_SEQIO_SLICE (4u << 20)   /* the largest single read or write */
#define PFS_SEQIO_NAP_US 20000u      /* the longest sleep of the cap */
#define PFS_SEQIO_SECTOR 512u        /* the pattern's unit */
#define PFS_SEQIO_STAMP_LEN 16u      /* the stamp at each sector's start */
#define PFS_SEQIO_STAMPED (-1)       /* io->fill: the stamped pattern */

enum pfs_seqio_dir { PFS_SEQIO_READ, PFS_SEQIO_WRITE };

struct pfs_seqio {
	int fd;
	const char *path;       /* the file's path, for messages */
	enum pfs_seqio_dir dir;
	uint64_t offset;        /* the stream's first byte in the file */
	uint64_t bytes;         /* bytes to move, or PFS_SEQIO_TO_END */
	uint64_t req;           /* request size, 1 to PFS_SEQIO_REQ_MAX */
	uint32_t writer;        /* stamped into written data, expected in read data */
	int fill;               /* PFS_SEQIO_STAMPED, or 0-255: every byte that value */
	bool verify;            /* reads: check every byte read against writer and fill */
	bool fsync;             /* writes: fsync(fd) before the stream ends */
	bool direct;            /* fd has O_DIRECT (for the EINVAL message) */
	uint64_t cap_bps;       /* at most this many bytes a second; 0: no cap */
	/* A time-limited stream (--runtime): it also ends once w->items, its
	 * requests, reach w->target, which the engine's stonewall lowers to
	 * the count all ranks agree on. A request counts from its start, so
	 * that the count a rank gives the agreement includes the request it
	 * is in the middle of, which it finishes. */
	bool until_target;
	/* After each request: len bytes moved of a request of io->req (less
	 * for the last one); done bytes in all. Inside the timing, as dm's
	 * progress marks are. NULL: nothing. */
	void (*each)(void *ctx, uint64_t len, uint64_t done);
	void *ctx;
	/* Messages in the caller's words: what set io->bytes ("the transfer
	 * size"), and what to do about an O_DIRECT EINVAL ("use --direct off
	 * or align them"). NULL: stream's, "-s" and "leave off -x or align
	 * them". */
	const char *size_name;
	const char *direct_hint;
};

/* A page-aligned buffer of min(req, PFS_SEQIO_SLICE) bytes, and what it
 * holds: a writer's pattern is reused while the sector phase is the same. */
struct pfs_seqio_buf {
	char *data;
	size_t len;
	int fill;         /* what data holds: a fill byte, or PFS_SEQIO_STAMPED ... */
	unsigned phase;   /* ... whose byte data[0] sits at this offset in its sector */
	uint32_t writer;  /* ... and whose stamps name this writer */
	bool ready;       /* data holds fill (and phase) for the whole len */
};

/* 0, -EINVAL for a req of 0 or over PFS_SEQIO_REQ_MAX, or -ENOMEM. */
int pfs_seqio_buf_init(struct pfs_seqio_buf *b, uint64_t req);
void pfs_seqio_buf_free(struct pfs_seqio_buf *b);

/* Requests a stream of bytes makes: ceil(bytes / req); UINT64_MAX for
 * PFS_SEQIO_TO_END (the target to give pfs_op_start). */
uint64_t pfs_seqio_requests(uint64_t bytes, uint64_t req);

/* Runs the stream (see the top of this file). Call it between pfs_op_start
 * and pfs_op_done, with the descriptor open for io->dir. Returns 0, or
 * -ECANCELED when told to stop, or a negative errno after pfs_failf. */
int pfs_seqio_run(struct pfs_worker *w, const struct pfs_seqio *io, struct pfs_seqio_buf *b);

/* For other loops on the same data (src/workloads/randio.c): b made to hold
 * the n bytes (at most b->len) that belong at file offset off, rewriting
 * only the stamps' offsets while fill, writer and sector phase stay; and
 * the messages of a failed call ("cannot write 'PATH' at offset O: ...")
 * and of a verified read that differs. Both go through pfs_failf. */
void pfs_seqio_buf_fill(struct pfs_seqio_buf *b, int fill, uint32_t writer, uint64_t off,
			size_t n);
int pfs_seqio_fail_call(struct pfs_worker *w, const struct pfs_seqio *io, uint64_t off, int err);
int pfs_seqio_fail_verify(struct pfs_worker *w, const struct pfs_seqio *io, const char *buf,
			  size_t len, uint64_t off, uint64_t bad, unsigned char want);

/* ---- the pattern: pure, for the loop and for tests ------------------------
 * With fill 0-255 every byte is fill. With PFS_SEQIO_STAMPED the byte at
 * file offset o is, with S = o rounded down to a multiple of 512 and
 * k = o - S:
 *   k <  8: byte k of S, little-endian 64-bit (the sector's own offset)
 *   k < 12: byte k - 8 of writer, little-endian 32-bit
 *   k < 16: "pfsS"[k - 12]
 *   else:   (k x 61 + 91) mod 256, the same in every sector (never all zero,
 *           which some storage compresses or skips) */

/* Writes the len bytes that belong at file offset off into dst. */
void pfs_seqio_pattern(char *dst, size_t len, uint64_t off, uint32_t writer, int fill);

/* Checks len bytes read at file offset off. Returns true when every byte
 * is as pfs_seqio_pattern would write it; else false, with *bad the file
 * offset of the first byte that differs and *want what it should be. */
bool pfs_seqio_check(const char *buf, size_t len, uint64_t off, uint32_t writer, int fill,
		     uint64_t *bad, unsigned char *want);

/* The writer and sector offset a stamp at buf (16 bytes, a sector's first)
 * names; false when those bytes are no stamp. For messages about misplaced
 * data. */
bool pfs_seqio_stamp_read(const char *buf, uint32_t *writer, uint64_t *sector);

#endif
