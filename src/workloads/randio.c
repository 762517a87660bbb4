/* randio.c: the random I/O loop of include/pfsbench/workloads/randio.h
 * (read that first): the block permutation, depth 1 by pread/pwrite,
 * depth N by io_uring (liburing, when configure found it). The data, its
 * check and the failure messages are seqio's. No MPI. */
#include "config.h"

#include "pfsbench/workloads/randio.h"
#include "pfsbench/core/sys.h"
#include "pfsbench/core/util.h"
#include "pfsbench/engine/worker.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef HAVE_LIBURING
#include <liburing.h>
#endif

/* ---- the permutation ------------------------------------------------------- */

/* splitmix64's finalizer: every input bit reaches every output bit. */
static uint64_t mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

void pfs_perm_init(struct pfs_perm *p, uint64_t n, uint64_t seed)
{
	unsigned bits = 0;

	memset(p, 0, sizeof(*p));
	p->n = n;
	while (bits < 64 && n > 1 && ((n - 1) >> bits))
		bits++;
	p->half_bits = bits < 2 ? 1 : (bits + 1) / 2;
	p->half_mask = (1ull << p->half_bits) - 1;
	for (unsigned r = 0; r < 4; r++)
		p->key[r] = mix64(seed + 0x9e3779b97f4a7c15ull * (r + 1));
}

/* One pass of the network over 2 x half_bits bits: a bijection of that
 * domain, whatever the round function. */
static uint64_t feistel(const struct pfs_perm *p, uint64_t x)
{
	uint64_t l = x >> p->half_bits, r = x & p->half_mask;

	for (unsigned i = 0; i < 4; i++) {
		uint64_t t = r;

		r = l ^ (mix64(r ^ p->key[i]) & p->half_mask);
		l = t;
	}
	return (l << p->half_bits) | r;
}

/* Cycle-walking: the domain holds at most 4n values, so a walk ends, and
 * the values below n are permuted among themselves. */
uint64_t pfs_perm_at(const struct pfs_perm *p, uint64_t i)
{
	uint64_t x = i;

	if (p->n <= 1)
		return 0;
	do
		x = feistel(p, x);
	while (x >= p->n);
	return x;
}

/* ---- buffers ------------------------------------------------------------------ */

/* One request's buffer and, at depth N, its request in flight. */
struct pfs_randio_slot {
	struct pfs_seqio_buf buf;
	uint64_t off;   /* the request's offset */
	uint64_t got;   /* bytes moved so far (a short transfer is resubmitted) */
	uint64_t t0_ns; /* when its first submission began */
};

#ifdef HAVE_LIBURING
/* The ring as fio 3.33's io_uring engine sets it up (engines/io_uring.c,
 * fio_ioring_queue_init): a completion queue as deep as the submission
 * queue, cooperative task work (no interrupt to run completions), one
 * issuer and task work deferred until completions are reaped; a kernel
 * that refuses a flag (EINVAL) is asked again without it, in fio's order. */
static int ring_init(struct io_uring *ring, unsigned depth)
{
	static const unsigned drop[] = {
		IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_SINGLE_ISSUER,
		IORING_SETUP_COOP_TASKRUN,
		IORING_SETUP_CQSIZE,
	};
	struct io_uring_params p;
	unsigned flags = IORING_SETUP_CQSIZE | IORING_SETUP_COOP_TASKRUN |
			 IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;
	int rc;

	for (size_t i = 0;; i++) {
		memset(&p, 0, sizeof(p));
		p.flags = flags;
		p.cq_entries = depth;
		rc = io_uring_queue_init_params(depth, ring, &p);
		if (rc != -EINVAL || i == sizeof(drop) / sizeof(drop[0]))
			return rc;
		flags &= ~drop[i];
	}
}
#endif

int pfs_randio_init(struct pfs_randio_ctx *c, uint64_t req, unsigned depth)
{
	int rc;

	memset(c, 0, sizeof(*c));
	if (!req || req > PFS_SEQIO_SLICE || !depth || depth > PFS_RANDIO_DEPTH_MAX)
		return -EINVAL;
	c->slot = calloc(depth, sizeof(*c->slot));
	if (!c->slot)
		return -ENOMEM;
	c->depth = depth;
	for (unsigned i = 0; i < depth; i++) {
		rc = pfs_seqio_buf_init(&c->slot[i].buf, req);
		if (rc)
			goto fail;
	}
	if (depth == 1)
		return 0;
#ifdef HAVE_LIBURING
	c->ring = calloc(1, sizeof(struct io_uring));
	if (!c->ring) {
		rc = -ENOMEM;
		goto fail;
	}
	rc = ring_init(c->ring, depth);
	if (rc) {
		free(c->ring);
		c->ring = NULL;
		goto fail;
	}
	return 0;
#else
	rc = -ENOSYS;
#endif
fail:
	pfs_randio_free(c);
	return rc;
}

void pfs_randio_free(struct pfs_randio_ctx *c)
{
#ifdef HAVE_LIBURING
	if (c->ring) {
		io_uring_queue_exit(c->ring);
		free(c->ring);
	}
#endif
	for (unsigned i = 0; c->slot && i < c->depth; i++)
		pfs_seqio_buf_free(&c->slot[i].buf);
	free(c->slot);
	memset(c, 0, sizeof(*c));
}

int pfs_randio_uring_probe(char *why, size_t len)
{
#ifdef HAVE_LIBURING
	struct io_uring ring;
	int rc = io_uring_queue_init(2, &ring, 0);

	if (!rc) {
		io_uring_queue_exit(&ring);
		return 0;
	}
	snprintf(why, len, "the kernel refuses io_uring (%s, %s): run with --iodepth 1, or allow "
		 "io_uring (sysctl kernel.io_uring_disabled=0, a seccomp profile without it)",
		 strerror(-rc), pfs_errno_name(-rc));
	return rc;
#else
	snprintf(why, len, "this pfsbench was built without liburing (Debian's liburing-dev), so it "
		 "has no io_uring: run with --iodepth 1, or rebuild with liburing-dev installed");
	return -ENOSYS;
#endif
}

/* ---- the loop ------------------------------------------------------------------- */

static inline bool issue_more(const struct pfs_randio *r, const struct pfs_worker *w,
			      uint64_t next)
{
	return next < r->blocks && !(r->io.until_target && w->items >= w->target);
}

/* A request that moved all it had to: counted, timed, checked. */
static int request_done(struct pfs_worker *w, const struct pfs_randio *r,
			struct pfs_randio_slot *s, uint64_t end_ns)
{
	const struct pfs_seqio *io = &r->io;
	uint64_t bad;
	unsigned char want;

	if (io->dir == PFS_SEQIO_READ && io->verify &&
	    !pfs_seqio_check(s->buf.data, (size_t)io->req, s->off, io->writer, io->fill, &bad, &want))
		return pfs_seqio_fail_verify(w, io, s->buf.data, (size_t)io->req, s->off, bad, want);
	w->bytes += io->req;
	w->items += !io->until_target;
	if (w->lat)
		pfs_hist_add(w->lat, end_ns - s->t0_ns);
	return 0;
}

/* A failed or empty transfer: the message seqio gives. */
static int transfer_fail(struct pfs_worker *w, const struct pfs_seqio *io, uint64_t pos, int err)
{
	if (err)
		return pfs_seqio_fail_call(w, io, pos, err);
	if (io->dir == PFS_SEQIO_WRITE)
		return pfs_failf(w, EIO, "cannot write '%s' at offset %" PRIu64
				 ": the write moved nothing", io->path, pos);
	return pfs_failf(w, ENODATA, "cannot read '%s' at offset %" PRIu64
			 ": the file ends there, before the %" PRIu64 " bytes of -s", io->path, pos,
			 io->bytes);
}

/* Depth 1: one pread or pwrite a request, as fio's psync engine. */
static int run_sync(struct pfs_worker *w, const struct pfs_randio *r, struct pfs_randio_ctx *c,
		    const struct pfs_perm *perm)
{
	const struct pfs_seqio *io = &r->io;
	const bool wr = io->dir == PFS_SEQIO_WRITE;
	struct pfs_randio_slot *s = &c->slot[0];
	uint64_t next = 0;

	while (issue_more(r, w, next)) {
		s->off = io->offset + pfs_perm_at(perm, next++) * io->req;
		if (io->until_target)
			w->items++;
		if (wr)
			pfs_seqio_buf_fill(&s->buf, io->fill, io->writer, s->off, (size_t)io->req);
		s->t0_ns = w->lat ? pfs_now_ns() : 0;
		for (s->got = 0; s->got < io->req;) {
			size_t n = (size_t)(io->req - s->got);
			ssize_t rc = wr ? pfs_pwrite(io->fd, s->buf.data + s->got, n, s->off + s->got)
					: pfs_pread(io->fd, s->buf.data + s->got, n, s->off + s->got);

			if (rc < 0 && errno == EINTR)
				continue;
			if (rc <= 0)
				return transfer_fail(w, io, s->off + s->got, rc < 0 ? errno : 0);
			s->got += (uint64_t)rc;
		}
		if (request_done(w, r, s, w->lat ? pfs_now_ns() : 0))
			return -EIO;
		if (pfs_tick_stopped(w))
			return -ECANCELED;
	}
	return 0;
}

#ifdef HAVE_LIBURING
/* The rest of slot i's request into the ring (its buffer from s->got). */
static void prep(struct io_uring *ring, const struct pfs_randio *r, struct pfs_randio_slot *s,
		 unsigned i)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring); /* never NULL: depth slots */
	unsigned n = (unsigned)(r->io.req - s->got);

	if (r->io.dir == PFS_SEQIO_WRITE)
		io_uring_prep_write(sqe, r->io.fd, s->buf.data + s->got, n, s->off + s->got);
	else
		io_uring_prep_read(sqe, r->io.fd, s->buf.data + s->got, n, s->off + s->got);
	io_uring_sqe_set_data64(sqe, i);
}

/* Submits what the ring holds and waits for one completion at least.
 * False when the loop cannot go on: the kernel refused the requests, so
 * none of them will complete (those in flight before are waited for by
 * io_uring_queue_exit, before their buffers are freed). */
static bool submit_and_wait(struct pfs_worker *w, struct io_uring *ring,
			    const struct pfs_seqio *io, int *rc)
{
	int err = io_uring_submit_and_wait(ring, 1);

	if (err >= 0 || err == -EINTR || err == -EAGAIN || err == -EBUSY)
		return true;
	if (!*rc)
		*rc = pfs_failf(w, -err, "cannot submit to io_uring for '%s': %s (%s)", io->path,
				strerror(-err), pfs_errno_name(-err));
	return !io_uring_sq_ready(ring);
}

/* Depth N: up to depth requests in flight. free_slot[] holds the slots not
 * in flight. On a failure or a stop the loop submits no more and waits for
 * every request in flight before it returns: the kernel writes into their
 * buffers until they complete. */
static int run_uring(struct pfs_worker *w, const struct pfs_randio *r, struct pfs_randio_ctx *c,
		     const struct pfs_perm *perm)
{
	const struct pfs_seqio *io = &r->io;
	struct io_uring *ring = c->ring;
	unsigned *free_slot = malloc(c->depth * sizeof(*free_slot));
	unsigned nfree = c->depth, inflight = 0, fresh = 0;
	uint64_t next = 0;
	int rc = 0;

	if (!free_slot)
		return pfs_failf(w, ENOMEM, "cannot allocate the list of %u requests", c->depth);
	for (unsigned i = 0; i < c->depth; i++)
		free_slot[i] = c->depth - 1 - i;
	for (;;) {
		struct io_uring_cqe *cqe;
		unsigned head, seen = 0;
		uint64_t now;

		while (!rc && nfree && issue_more(r, w, next)) {
			unsigned i = free_slot[--nfree];
			struct pfs_randio_slot *s = &c->slot[i];

			s->off = io->offset + pfs_perm_at(perm, next++) * io->req;
			s->got = 0;
			if (io->until_target)
				w->items++;
			if (io->dir == PFS_SEQIO_WRITE)
				pfs_seqio_buf_fill(&s->buf, io->fill, io->writer, s->off,
						   (size_t)io->req);
			prep(ring, r, s, i);
			inflight++;
			fresh++;
		}
		if (!inflight)
			break;
		/* The new requests' latency starts with the call that submits
		 * them (the slots just taken from free_slot[]). */
		now = w->lat ? pfs_now_ns() : 0;
		for (unsigned k = 0; k < fresh; k++)
			c->slot[free_slot[nfree + k]].t0_ns = now;
		fresh = 0;
		if (!submit_and_wait(w, ring, io, &rc))
			break;
		now = w->lat ? pfs_now_ns() : 0;
		io_uring_for_each_cqe(ring, head, cqe) {
			unsigned i = (unsigned)io_uring_cqe_get_data64(cqe);
			struct pfs_randio_slot *s = &c->slot[i];
			int res = cqe->res;

			seen++;
			if (res > 0)
				s->got += (uint64_t)res;
			if (!rc && (res == -EINTR || res == -EAGAIN ||
				    (res > 0 && s->got < io->req))) {
				prep(ring, r, s, i); /* the rest, in flight again */
				continue;
			}
			if (!rc && res <= 0)
				rc = transfer_fail(w, io, s->off + s->got, -res);
			else if (!rc && request_done(w, r, s, now))
				rc = -EIO;
			inflight--;
			free_slot[nfree++] = i;
			if (!rc && pfs_tick_stopped(w))
				rc = -ECANCELED;
		}
		io_uring_cq_advance(ring, seen);
	}
	free(free_slot);
	return rc;
}
#endif

int pfs_randio_run(struct pfs_worker *w, const struct pfs_randio *r, struct pfs_randio_ctx *c)
{
	const struct pfs_seqio *io = &r->io;
	struct pfs_perm perm;
	int rc;

	if (!io->req || io->req > PFS_SEQIO_SLICE || !c->slot || c->slot[0].buf.len < io->req)
		return pfs_failf(w, EINVAL, "cannot stream '%s' at random: request size %" PRIu64
				 " is not 1 to %u bytes", io->path, io->req, PFS_SEQIO_SLICE);
	/* A read overwrites the pattern the buffers held for writes. */
	for (unsigned i = 0; io->dir == PFS_SEQIO_READ && i < c->depth; i++)
		c->slot[i].buf.ready = false;
	pfs_perm_init(&perm, r->blocks, r->seed);
#ifdef HAVE_LIBURING
	if (c->ring)
		rc = run_uring(w, r, c, &perm);
	else
#endif
		rc = run_sync(w, r, c, &perm);
	if (rc)
		return rc;
	if (io->dir == PFS_SEQIO_WRITE && io->fsync && pfs_fsync(io->fd)) {
		int err = errno;

		return pfs_failf(w, err, "cannot fsync '%s' after writing at random: %s (%s)",
				 io->path, strerror(err), pfs_errno_name(err));
	}
	return 0;
}
