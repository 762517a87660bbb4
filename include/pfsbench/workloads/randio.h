/* randio.h: random I/O on an open file, the loop `pfsbench stream
 * --pattern random` times (src/workloads/randio.c). No MPI: it calls the
 * worker API (include/pfsbench/engine/worker.h) and seqio's pattern and
 * buffers, nothing else.
 *
 * A random stream covers the range [offset, offset + blocks x req) in
 * `blocks` requests of `req` bytes, each at offset + k x req for a block k,
 * and visits every block exactly once (no replacement), in the order of a
 * permutation of 0 .. blocks-1 keyed by `seed` (pfs_perm: a Feistel
 * network with cycle-walking, so the order needs O(1) memory whatever the
 * block count). The same seed and block count give the same order.
 *
 *     struct pfs_randio_ctx c;
 *     pfs_randio_init(&c, req, depth);    // once per worker; -ENOMEM, -ENOSYS ...
 *     pfs_op_start(w, "Write", PFS_UNIT_BYTES, blocks, 0);
 *     rc = pfs_randio_run(w, &io, &c);    // 0, -ECANCELED, or -errno after pfs_failf
 *     ...
 *     pfs_randio_free(&c);
 *
 * What the caller can rely on:
 *  - Depth. With depth 1 each request is one pread or pwrite (short
 *    transfers completed by further calls, as seqio does): fio's psync
 *    engine. With depth N > 1 up to N requests are in flight through
 *    io_uring, set up as fio 3.33's io_uring engine sets it up with its
 *    defaults (a completion queue of N, COOP_TASKRUN, SINGLE_ISSUER,
 *    DEFER_TASKRUN, each left out where the kernel refuses it; no
 *    registered files or buffers, no polling): the loop fills the ring, submits, waits for one completion
 *    at least, reaps every completion there is and refills. Where
 *    pfsbench was built without liburing, or the kernel refuses io_uring,
 *    pfs_randio_init returns -ENOSYS or the kernel's error
 *    (pfs_randio_uring_probe says which, for the refusal before the run).
 *  - Counting. w->items counts requests done, w->bytes bytes moved; each
 *    request's latency goes to w->lat: from just before its system call
 *    (depth 1) or just before the io_uring_enter that submits it (depth
 *    N) to the moment its completion is reaped.
 *  - Stops. The engine looks at the clock every w->countdown requests;
 *    told to stop, the loop stops submitting, waits for the requests in
 *    flight, and returns -ECANCELED. With until_target (--runtime) it
 *    stops submitting once w->items, counted when a request is issued,
 *    reaches w->target, and completes those in flight.
 *  - Data and verify: as seqio's (pfs_seqio_pattern): each byte written is
 *    defined by its file offset and writer; a read with verify checks each
 *    request's bytes, naming the offset of the first that differs.
 *  - fsync: with io->fsync a write ends with fsync(fd), inside the time. */
#ifndef PFSBENCH_RANDIO_H
#define PFSBENCH_RANDIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pfsbench/workloads/seqio.h"

struct pfs_worker;

#define PFS_RANDIO_DEPTH_MAX 4096u /* --iodepth's largest */

/* ---- the permutation: pure ------------------------------------------------- */

/* A bijection of 0 .. n-1 keyed by a seed: a 4-round Feistel network on
 * 2h bits (the smallest even width that holds n - 1), walked again while
 * its value is n or more (cycle-walking; fewer than 4 walks on average). */
struct pfs_perm {
	uint64_t n;
	unsigned half_bits;
	uint64_t half_mask;
	uint64_t key[4];
};

void pfs_perm_init(struct pfs_perm *p, uint64_t n, uint64_t seed);
/* The i-th block of the order, for i < n. */
uint64_t pfs_perm_at(const struct pfs_perm *p, uint64_t i);

/* ---- the loop ----------------------------------------------------------------- */

/* The stream: seq's fields (fd, path, dir, offset: the range's first
 * byte, req: 1 to PFS_SEQIO_SLICE, writer, fill, verify, fsync, direct,
 * until_target, direct_hint; bytes, cap_bps and each are not used), and
 * the range's blocks and the permutation's seed. */
struct pfs_randio {
	struct pfs_seqio io;
	uint64_t blocks;        /* requests; the range is blocks x io.req bytes */
	uint64_t seed;          /* the permutation's key */
};

struct pfs_randio_slot;

/* What a worker keeps from one stream to the next: depth buffers of req
 * bytes, page-aligned, and the ring for a depth over 1. */
struct pfs_randio_ctx {
	unsigned depth;
	struct pfs_randio_slot *slot;
	void *ring; /* struct io_uring *, or NULL */
};

/* 0; -EINVAL for a req of 0 or over PFS_SEQIO_SLICE or a depth of 0 or
 * over PFS_RANDIO_DEPTH_MAX; -ENOMEM; for depth > 1, -ENOSYS when built
 * without liburing, or the kernel's error from io_uring_setup. */
int pfs_randio_init(struct pfs_randio_ctx *c, uint64_t req, unsigned depth);
void pfs_randio_free(struct pfs_randio_ctx *c);

/* Whether io_uring works here: 0, or a negative errno with why (a
 * sentence for the refusal, without a full stop) written to why. */
int pfs_randio_uring_probe(char *why, size_t len);

/* Runs the stream (see the top of this file), between pfs_op_start and
 * pfs_op_done, with io->fd open for io->dir. */
int pfs_randio_run(struct pfs_worker *w, const struct pfs_randio *io, struct pfs_randio_ctx *c);

#endif
