/* seqio.c: the sequential I/O loop of include/pfsbench/workloads/seqio.h (read that
 * first): requests, slices, short transfers, the end of a stream, fsync,
 * the bandwidth cap, stop notices, the stamped pattern and its check. No
 * MPI: the engine is reached through the worker API only. */
#include "pfsbench/workloads/seqio.h"
#include "pfsbench/core/sys.h"
#include "pfsbench/core/util.h"
#include "pfsbench/engine/worker.h"

#include <endian.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define SECTOR PFS_SEQIO_SECTOR
#define STAMP PFS_SEQIO_STAMP_LEN
static const char stamp_magic[4] = { 'p', 'f', 's', 'S' };

/* ---- the pattern ------------------------------------------------------------ */

static unsigned char body[SECTOR]; /* bytes 16..511 of every stamped sector */
static bool body_made;

static void make_body(void)
{
	if (body_made)
		return;
	for (unsigned k = 0; k < SECTOR; k++)
		body[k] = (unsigned char)(k * 61u + 91u);
	body_made = true;
}

static void stamp_of(unsigned char st[STAMP], uint64_t sector, uint32_t writer)
{
	for (unsigned i = 0; i < 8; i++)
		st[i] = (unsigned char)(sector >> (8 * i));
	for (unsigned i = 0; i < 4; i++)
		st[8 + i] = (unsigned char)(writer >> (8 * i));
	memcpy(st + 12, stamp_magic, sizeof(stamp_magic));
}

bool pfs_seqio_stamp_read(const char *buf, uint32_t *writer, uint64_t *sector)
{
	const unsigned char *b = (const unsigned char *)buf;

	if (memcmp(b + 12, stamp_magic, sizeof(stamp_magic)))
		return false;
	*sector = 0;
	*writer = 0;
	for (unsigned i = 0; i < 8; i++)
		*sector |= (uint64_t)b[i] << (8 * i);
	for (unsigned i = 0; i < 4; i++)
		*writer |= (uint32_t)b[8 + i] << (8 * i);
	return *sector % SECTOR == 0;
}

/* The stamps of the sectors that [off, off + len) touches, into dst (which
 * holds that range): the bodies stay as they are. */
static void restamp(char *dst, size_t len, uint64_t off, uint32_t writer)
{
	uint64_t end = off + len;
	unsigned char st[STAMP];

	for (uint64_t s = off - off % SECTOR; s < end; s += SECTOR) {
		uint64_t a = s > off ? s : off, b = s + STAMP < end ? s + STAMP : end;

		if (a >= b)
			continue;
		stamp_of(st, s, writer);
		memcpy(dst + (a - off), st + (a - s), (size_t)(b - a));
	}
}

void pfs_seqio_pattern(char *dst, size_t len, uint64_t off, uint32_t writer, int fill)
{
	size_t done = 0;

	if (fill != PFS_SEQIO_STAMPED) {
		memset(dst, fill, len);
		return;
	}
	make_body();
	while (done < len) {
		unsigned k = (unsigned)((off + done) % SECTOR);
		size_t n = len - done < SECTOR - k ? len - done : SECTOR - k;

		memcpy(dst + done, body + k, n);
		done += n;
	}
	restamp(dst, len, off, writer);
}

/* The first byte of [buf, + len) that differs from want[], or len. */
static size_t first_diff(const unsigned char *buf, const unsigned char *want, size_t len)
{
	size_t i = 0;

	while (i < len && buf[i] == want[i])
		i++;
	return i;
}

static inline uint64_t load64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* A whole sector at p, whose stamp should be st: the same, word by word?
 * The compiler turns the loop into wide compares. */
static inline bool sector_same(const unsigned char *p, const unsigned char *st)
{
	uint64_t diff = (load64(p) ^ load64(st)) | (load64(p + 8) ^ load64(st + 8));

	for (unsigned i = STAMP; i < SECTOR; i += 8)
		diff |= load64(p + i) ^ load64(body + i);
	return !diff;
}

bool pfs_seqio_check(const char *buf, size_t len, uint64_t off, uint32_t writer, int fill,
		     uint64_t *bad, unsigned char *want)
{
	const unsigned char *b = (const unsigned char *)buf;
	unsigned char st[STAMP];
	size_t done = 0;

	if (fill != PFS_SEQIO_STAMPED) {
		for (size_t i = 0; i < len; i++)
			if (b[i] != (unsigned char)fill) {
				*bad = off + i;
				*want = (unsigned char)fill;
				return false;
			}
		return true;
	}
	make_body();
	while (done < len) {
		uint64_t o = off + done, s = o - o % SECTOR;
		unsigned k = (unsigned)(o - s);
		size_t n = len - done < SECTOR - k ? len - done : SECTOR - k, i;

		stamp_of(st, s, writer);
		if (k == 0 && n == SECTOR && sector_same(b + done, st)) {
			done += n;
			continue;
		}
		/* A part of a sector, or a sector that differs: byte by byte. */
		if (k < STAMP) {
			size_t m = n < STAMP - k ? n : STAMP - k;

			i = first_diff(b + done, st + k, m);
			if (i < m) {
				*bad = o + i;
				*want = st[k + i];
				return false;
			}
		}
		if (k + n > STAMP) {
			size_t from = k < STAMP ? STAMP - k : 0;

			i = first_diff(b + done + from, body + k + from, n - from);
			if (i < n - from) {
				*bad = o + from + i;
				*want = body[k + from + i];
				return false;
			}
		}
		done += n;
	}
	return true;
}

/* ---- buffers -------------------------------------------------------------- */

int pfs_seqio_buf_init(struct pfs_seqio_buf *b, uint64_t req)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t len = req < PFS_SEQIO_SLICE ? (size_t)req : PFS_SEQIO_SLICE;
	void *p = NULL;

	memset(b, 0, sizeof(*b));
	if (!req || req > PFS_SEQIO_REQ_MAX)
		return -EINVAL;
	if (page <= 0)
		page = 4096;
	/* Whole pages, so that O_DIRECT may use any slice of it. */
	len = (len + (size_t)page - 1) / (size_t)page * (size_t)page;
	if (posix_memalign(&p, (size_t)page, len))
		return -ENOMEM;
	b->data = p;
	b->len = len;
	return 0;
}

void pfs_seqio_buf_free(struct pfs_seqio_buf *b)
{
	free(b->data);
	memset(b, 0, sizeof(*b));
}

/* The sector offsets of the stamps that [off, off + len) touches, into dst
 * (which holds that range and, at the same sector phase, the writer's
 * pattern already): of 16 bytes a sector only the first 8 change. */
static void restamp_offsets(char *dst, size_t len, uint64_t off)
{
	uint64_t end = off + len, s = off - off % SECTOR;
	unsigned char le[8];

	/* A stamp cut by the start of the range: byte by byte. */
	if (s < off) {
		for (unsigned i = 0; i < 8; i++)
			le[i] = (unsigned char)(s >> (8 * i));
		for (uint64_t o = off; o < s + 8 && o < end; o++)
			dst[o - off] = (char)le[o - s];
		s += SECTOR;
	}
	for (; s + 8 <= end; s += SECTOR) {
		uint64_t v = htole64(s);

		memcpy(dst + (s - off), &v, 8); /* one store: 4 instructions a sector */
	}
	/* ... and by its end */
	for (uint64_t o = s; o < end; o++)
		dst[o - off] = (char)(s >> (8 * (o - s)));
}

/* The buffer, made to hold the n bytes that belong at file offset off.
 * While the fill, the writer and the sector phase stay the same only the
 * stamps' offsets are rewritten: 8 bytes a sector instead of 512. */
void pfs_seqio_buf_fill(struct pfs_seqio_buf *b, int fill, uint32_t writer, uint64_t off,
			size_t n)
{
	unsigned phase = (unsigned)(off % SECTOR);

	if (!b->ready || b->fill != fill ||
	    (fill == PFS_SEQIO_STAMPED && (b->phase != phase || b->writer != writer))) {
		pfs_seqio_pattern(b->data, b->len, off, writer, fill);
		b->fill = fill;
		b->phase = phase;
		b->writer = writer;
		b->ready = true;
		return;
	}
	if (fill == PFS_SEQIO_STAMPED)
		restamp_offsets(b->data, n, off);
}

/* ---- the loop -------------------------------------------------------------- */

uint64_t pfs_seqio_requests(uint64_t bytes, uint64_t req)
{
	if (bytes == PFS_SEQIO_TO_END || !req)
		return UINT64_MAX;
	return bytes / req + (bytes % req != 0);
}

int pfs_seqio_fail_call(struct pfs_worker *w, const struct pfs_seqio *io, uint64_t off, int err)
{
	const char *op = io->dir == PFS_SEQIO_WRITE ? "write" : "read";
	bool direct = err == EINVAL && io->direct;

	return pfs_failf(w, err, "cannot %s '%s' at offset %" PRIu64 ": %s (%s)%s%s", op, io->path,
			 off, strerror(err), pfs_errno_name(err),
			 direct ? "; with O_DIRECT the request size and offset must be multiples of "
				  "the device's block size: "
				: "",
			 !direct ? "" : io->direct_hint ? io->direct_hint : "leave off -x or align them");
}

/* dm -w: sleeps while done bytes are ahead of cap_bps since t0_us, a nap at
 * a time, looking at the clock after each. True when the stream must stop. */
static bool pace(struct pfs_worker *w, uint64_t cap_bps, uint64_t t0_us, uint64_t done)
{
	for (;;) {
		uint64_t due = t0_us + (uint64_t)((double)done * 1e6 / (double)cap_bps);
		uint64_t now = pfs_now_us(), nap;
		struct timespec ts;

		if (now >= due)
			return false;
		nap = due - now < PFS_SEQIO_NAP_US ? due - now : PFS_SEQIO_NAP_US;
		ts.tv_sec = 0;
		ts.tv_nsec = (long)nap * 1000;
		nanosleep(&ts, NULL);
		w->tick(w);
		if (w->stopped)
			return true;
	}
}

/* A read that differs from the pattern: where, what, and whose data the
 * sector holds when its stamp is intact (a misplaced block). */
int pfs_seqio_fail_verify(struct pfs_worker *w, const struct pfs_seqio *io, const char *buf,
			  size_t len, uint64_t off, uint64_t bad, unsigned char want)
{
	unsigned char got = (unsigned char)buf[bad - off];
	uint64_t s = bad - bad % SECTOR, sector;
	uint32_t writer;
	char whose[96] = "";

	if (io->fill == PFS_SEQIO_STAMPED && s >= off && s + STAMP <= off + len &&
	    pfs_seqio_stamp_read(buf + (s - off), &writer, &sector) &&
	    (sector != s || writer != io->writer))
		(void)pfs_format(whose, sizeof(whose), " (the sector holds writer %" PRIu32
				 "'s data of offset %" PRIu64 ")", writer, sector);
	return pfs_failf(w, EILSEQ, "data differs in '%s' at offset %" PRIu64
			 ": read 0x%02x, expected 0x%02x%s", io->path, bad, got, want, whose);
}

int pfs_seqio_run(struct pfs_worker *w, const struct pfs_seqio *io, struct pfs_seqio_buf *b)
{
	const bool wr = io->dir == PFS_SEQIO_WRITE, to_end = io->bytes == PFS_SEQIO_TO_END;
	uint64_t left = io->bytes, pos = io->offset, done = 0, t0_us = pfs_now_us();
	uint64_t bad;
	unsigned char want;

	if (!io->req || io->req > PFS_SEQIO_REQ_MAX || !b->data)
		return pfs_failf(w, EINVAL, "cannot stream '%s': request size %" PRIu64
				 " is not 1 to %u bytes", io->path, io->req, PFS_SEQIO_REQ_MAX);
	/* A read overwrites the pattern the buffer held for writes. */
	if (!wr)
		b->ready = false;
	while ((to_end || left) && !(io->until_target && w->items >= w->target)) {
		uint64_t len = to_end || io->req < left ? io->req : left, got = 0;
		uint64_t lat = pfs_lat_start(w);
		bool end = false;

		if (io->until_target)
			w->items++;

		while (got < len) {
			size_t n = len - got < b->len ? (size_t)(len - got) : b->len;
			ssize_t r;

			if (wr)
				pfs_seqio_buf_fill(b, io->fill, io->writer, pos, n);
			r = wr ? pfs_pwrite(io->fd, b->data, n, pos) : pfs_pread(io->fd, b->data, n, pos);
			if (r < 0) {
				int err = errno;

				if (err == EINTR)
					continue;
				/* dm without -s: a write runs until the space ends. */
				if (wr && to_end && (err == ENOSPC || err == EFBIG || err == EDQUOT)) {
					end = true;
					break;
				}
				return pfs_seqio_fail_call(w, io, pos, err);
			}
			if (r == 0) {
				if (to_end) {
					end = true;
					break;
				}
				if (wr)
					return pfs_failf(w, EIO, "cannot write '%s' at offset %" PRIu64
							 ": the write moved nothing", io->path, pos);
				return pfs_failf(w, ENODATA, "cannot read '%s' at offset %" PRIu64
						 ": the file ends there, %" PRIu64 " bytes short of %s",
						 io->path, pos, io->bytes - done,
						 io->size_name ? io->size_name : "-s");
			}
			if (!wr && io->verify &&
			    !pfs_seqio_check(b->data, (size_t)r, pos, io->writer, io->fill, &bad, &want))
				return pfs_seqio_fail_verify(w, io, b->data, (size_t)r, pos, bad, want);
			got += (uint64_t)r;
			pos += (uint64_t)r;
			done += (uint64_t)r;
			w->bytes = done;
			if (pfs_tick_stopped(w) || (io->cap_bps && pace(w, io->cap_bps, t0_us, done)))
				return -ECANCELED;
		}
		if (!got && io->until_target)
			w->items--; /* the end came first: no request */
		if (got) {
			w->items += !io->until_target;
			pfs_lat_stop(w, lat);
			if (io->each)
				io->each(io->ctx, got, done);
		}
		if (end)
			break;
		left -= to_end ? 0 : len;
	}
	if (wr && io->fsync && pfs_fsync(io->fd)) {
		int err = errno;

		return pfs_failf(w, err, "cannot fsync '%s' after writing up to offset %" PRIu64
				 ": %s (%s)", io->path, pos, strerror(err), pfs_errno_name(err));
	}
	return 0;
}
