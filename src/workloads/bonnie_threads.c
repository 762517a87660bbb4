/* bonnie_threads.c: the threads of bonnie's I/O tests and seeks, and the
 * start, stop and count of items every bonnie test thread shares
 * (include/pfsbench/workloads/bonnie_threads.h). Moved out of bonnie.c,
 * which keeps what each test is and the file tests' work.
 *
 * The I/O tests and the seeks run in threads of their own, each with the
 * file open, while the main thread alone speaks MPI: it starts the op's clock
 * once all have the file open, then looks at the engine every 20 ms
 * (progress, stop notices, which stop the threads at their next item).
 *
 * Why the I/O tests need a thread: bonnie++ runs them in a process of one
 * thread, pfsbench in a process where MPI has started two more. In a
 * process whose threads share one descriptor table, the kernel takes a
 * reference on the file and, for a regular file, its position lock, in
 * every read(2), write(2) and lseek(2) (fdget_pos); in one whose table
 * and file have a single user, neither. That was 30 ns of CPU time per
 * 1-byte call here, a sixth of the call (docs/bonnie.md). The I/O test's
 * thread unshares its table (unshare(CLONE_FILES)) and then opens the
 * file, so its calls take bonnie++'s path. The seekers share theirs, as
 * bonnie++'s threads do, and take their tickets as bonnie++'s do, one
 * read(2) each from a pipe the main thread fills (bonnie++'s parent's
 * part): without it pfsbench made one system call per seek fewer, and its
 * seeks ran 1.3x bonnie++'s rate (issue 33). */
#include "pfsbench/workloads/bonnie_threads.h"
#include "pfsbench/core/histogram.h"
#include "pfsbench/core/sys.h"
#include "pfsbench/core/util.h"
#include "pfsbench/engine/worker.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define HELPER_POLL_NS 20000000 /* the main thread's look at the tests' threads */

/* Reads one whole block; 0, or the failing read's return (0 at the end of
 * the file) with errno. */
static ssize_t read_block(int fd, char *buf, size_t len)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = pfs_read(fd, buf + got, len - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n;
		got += (size_t)n;
	}
	return 0;
}

void pfs_bonnie_run_stop(struct pfs_bonnie_run *r)
{
	pthread_mutex_lock(&r->mu);
	atomic_fetch_or(&r->flags, PFS_BONNIE_STOP);
	pthread_cond_broadcast(&r->cv);
	pthread_mutex_unlock(&r->mu);
}

bool pfs_bonnie_run_halt(struct pfs_bonnie_run *r, unsigned flags)
{
	if (flags & PFS_BONNIE_STOP)
		return true;
	pthread_mutex_lock(&r->mu);
	r->held++;
	pthread_cond_broadcast(&r->cv);
	while ((atomic_load(&r->flags) & (PFS_BONNIE_HOLD | PFS_BONNIE_STOP)) == PFS_BONNIE_HOLD)
		pthread_cond_wait(&r->cv, &r->mu);
	r->held--;
	pthread_mutex_unlock(&r->mu);
	return atomic_load(&r->flags) & PFS_BONNIE_STOP;
}

void pfs_bonnie_run_signal(struct pfs_bonnie_run *r, unsigned *counter)
{
	pthread_mutex_lock(&r->mu);
	(*counter)++;
	pthread_cond_broadcast(&r->cv);
	pthread_mutex_unlock(&r->mu);
}

/* A test's thread: says it is ready, and waits for the start. */
void pfs_bonnie_run_ready_wait(struct pfs_bonnie_run *r)
{
	pthread_mutex_lock(&r->mu);
	r->ready++;
	pthread_cond_broadcast(&r->cv);
	while (!r->go)
		pthread_cond_wait(&r->cv, &r->mu);
	pthread_mutex_unlock(&r->mu);
}

/* The main thread: waits until n threads are ready. */
void pfs_bonnie_run_await_ready(struct pfs_bonnie_run *r, unsigned n)
{
	pthread_mutex_lock(&r->mu);
	while (r->ready < n)
		pthread_cond_wait(&r->cv, &r->mu);
	pthread_mutex_unlock(&r->mu);
}

/* The main thread: starts them. */
void pfs_bonnie_run_go(struct pfs_bonnie_run *r)
{
	pthread_mutex_lock(&r->mu);
	r->go = true;
	pthread_cond_broadcast(&r->cv);
	pthread_mutex_unlock(&r->mu);
}

static int helper_fail(struct pfs_bonnie_thread *s, const char *op, ssize_t n, int err)
{
	s->op = op;
	s->err = n < 0 ? err : EIO;
	pfs_bonnie_run_stop(s->run);
	return -1;
}

/* A 1-byte read(2) or write(2) of the per-char tests, as few
 * instructions around the system call as bonnie++'s: its read() and
 * write() in a process of one thread are the bare call, and a pfsbench
 * rank has MPI's threads, in which glibc's wrappers switch cancellation on
 * and off, and syscall(2) moves all six arguments (29 instructions per
 * call here against bonnie++'s 19.5, issue 33). On x86-64 the syscall
 * instruction itself; elsewhere syscall(2). Returns 1, or -1 with errno.
 * (The fault injector, tests/fault, cannot see these calls.) */
static inline __attribute__((always_inline)) long char_call(long nr, int fd, char *c)
{
#if defined(__x86_64__) && defined(__linux__)
	long rc;

	__asm__ volatile("syscall"
			 : "=a"(rc)
			 : "0"(nr), "D"((long)fd), "S"(c), "d"(1L)
			 : "rcx", "r11", "memory");
	if (rc < 0) {
		errno = (int)-rc;
		return -1;
	}
	return rc;
#else
	return syscall(nr, fd, c, 1);
#endif
}

/* putc and getc: 1-byte write(2)s or read(2)s, a block's worth between
 * looks at the clock and at the stop flag (bonnie++ times them a block at
 * a time too). Inline, called with a constant: each test's loop has no
 * branch of the other's. */
static inline __attribute__((always_inline)) int io_chars(struct pfs_bonnie_thread *s, int fd, bool wr)
{
	struct pfs_bonnie_run *r = s->run;
	uint64_t done = 0;
	char c = 0;

	while (!pfs_bonnie_run_stopped(r) && done < r->items) {
		/* --char-size need not be a whole number of blocks */
		uint32_t chunk = r->items - done < r->chunk ? (uint32_t)(r->items - done) : r->chunk;
		uint64_t t = pfs_now_ns();

		for (uint32_t i = 0; i < chunk; i++) {
			long n;

			/* bonnie++ writes i & 0x7f, and reads into one char */
			if (wr)
				c = (char)(i & 0x7f);
			do
				n = char_call(wr ? SYS_write : SYS_read, fd, &c);
			while (n < 0 && errno == EINTR);
			if (n != 1)
				return helper_fail(s, wr ? "write" : "read", n, errno);
		}
		pfs_hist_add(s->lat, pfs_now_ns() - t);
		done += chunk;
		s->bytes = done;
		atomic_store_explicit(&r->done, done, memory_order_relaxed);
	}
	return 0;
}

/* put_block, rewrite, get_block: the file in blocks, each block one item. */
static int io_blocks(struct pfs_bonnie_thread *s, int fd, enum pfs_bonnie_io kind)
{
	struct pfs_bonnie_run *r = s->run;
	uint32_t chunk = r->chunk;
	int rc;

	if (kind == PFS_BONNIE_IO_PUT_BLOCK)
		memset(s->buf, 0, chunk);
	for (uint64_t b = 0; !pfs_bonnie_run_stopped(r) && b < r->items; b++) {
		uint64_t t = pfs_now_ns();
		ssize_t n;

		if (kind != PFS_BONNIE_IO_PUT_BLOCK && (n = read_block(fd, s->buf, chunk)))
			return helper_fail(s, "read", n, errno);
		if (kind != PFS_BONNIE_IO_GET_BLOCK) {
			/* Each block differs from the last: one byte changed. */
			s->buf[b % chunk]++;
			if (kind == PFS_BONNIE_IO_REWRITE && lseek(fd, -(off_t)chunk, SEEK_CUR) < 0)
				return helper_fail(s, "seek in", -1, errno);
			if ((rc = pfs_write_all(fd, s->buf, chunk, chunk)))
				return helper_fail(s, "write", -1, -rc);
		}
		pfs_hist_add(s->lat, pfs_now_ns() - t);
		s->bytes += chunk;
		atomic_store_explicit(&r->done, b + 1, memory_order_relaxed);
	}
	return 0;
}

/* A seeker's next ticket, read from the pipe one read(2) at a time, as
 * bonnie++'s seekers read theirs: 1 with a ticket, 0 at the end (its end
 * ticket, or the pipe closed on a stop), -1 on a failure. */
static int ticket_next(struct pfs_bonnie_thread *s, int32_t *t)
{
	ssize_t n;

	do
		n = pfs_read(s->run->ticket_fds[0], t, sizeof(*t));
	while (n < 0 && errno == EINTR);
	if (n == (ssize_t)sizeof(*t))
		return *t != PFS_BONNIE_TICKET_END;
	if (n == 0)
		return 0;
	return helper_fail(s, "take a seek's ticket for", n, errno);
}

/* bonnie++'s doseek: the ticket's block is read; a negative ticket's is
 * then changed by a byte and written back, and with -b fsync'ed. */
static int seek_one(struct pfs_bonnie_thread *s, int fd, int32_t ticket)
{
	const struct pfs_bonnie_run *r = s->run;
	uint64_t block = (uint64_t)(ticket < 0 ? -(int64_t)ticket : ticket) % r->chunks;
	off_t where = (off_t)(block * r->chunk);
	ssize_t n;
	int rc;

	if (lseek(fd, where, SEEK_SET) < 0)
		return helper_fail(s, "seek in", -1, errno);
	if ((n = read_block(fd, s->buf, r->chunk)))
		return helper_fail(s, "read", n, errno);
	s->bytes += r->chunk;
	if (ticket >= 0)
		return 0;
	s->buf[block % r->chunk]--;
	if (lseek(fd, where, SEEK_SET) < 0)
		return helper_fail(s, "seek in", -1, errno);
	if ((rc = pfs_write_all(fd, s->buf, r->chunk, r->chunk)))
		return helper_fail(s, "write", -1, -rc);
	if (r->sync && pfs_fsync(fd))
		return helper_fail(s, "fsync", -1, errno);
	s->bytes += r->chunk;
	return 0;
}

/* One more seek for this seeker, unless the seekers have taken on the
 * test's items already: a hold may have lowered them to the agreed count
 * (--runtime), which the seekers then reach together and exactly. */
static bool seek_claim(struct pfs_bonnie_run *r)
{
	uint_fast64_t c = atomic_load_explicit(&r->claimed, memory_order_relaxed);

	do
		if (c >= r->items)
			return false;
	while (!atomic_compare_exchange_weak_explicit(&r->claimed, &c, c + 1, memory_order_relaxed,
						      memory_order_relaxed));
	return true;
}

/* A seeker takes tickets until its end ticket, or until the seekers have
 * done the test's items; t is its first. */
static void seeks(struct pfs_bonnie_thread *s, int fd, int32_t t)
{
	struct pfs_bonnie_run *r = s->run;

	do {
		uint64_t t0;

		if (pfs_bonnie_run_stopped(r) || !seek_claim(r))
			break;
		t0 = pfs_now_ns();
		if (seek_one(s, fd, t))
			break;
		pfs_hist_add(s->lat, pfs_now_ns() - t0);
		atomic_fetch_add_explicit(&r->done, 1, memory_order_relaxed);
	} while (ticket_next(s, &t) > 0);
}

int pfs_bonnie_table_unshare(void)
{
	return unshare(CLONE_FILES) ? -errno : 0;
}

/* The unshared table is a copy of the process's as it was: every
 * descriptor of the main thread is in it too, the results file that HDF5
 * holds open and locked (flock) among them, and a file is closed, its
 * lock let go, only when its last descriptor is. The kernel closes an
 * ending thread's table after pthread_join has returned (the joiner wakes
 * when the thread's memory is let go, before its files), whenever the
 * ending thread next gets a CPU: on a busy machine the main thread had by
 * then closed the results file at the run's end, and --output-format's
 * read-back found it still locked by the copy (bonnie --output-format
 * json, load 40: 7 runs in 15). So the thread closes its table itself,
 * all of it, while it still runs: when it is joined, it holds nothing. */
void pfs_bonnie_table_drop(void)
{
#ifdef SYS_close_range
	if (!syscall(SYS_close_range, 0u, ~0u, 0u))
		return;
#endif
	/* kernels before 5.9 */
	for (long fd = 0, max = sysconf(_SC_OPEN_MAX); fd < max && fd <= INT_MAX; fd++)
		close((int)fd);
}

/* A thread opens the file, waits for the start, does its test, then fsyncs
 * and closes inside its time (bonnie++'s CFileOp::Close; its seekers
 * report their first start and last stop). It touches no engine state. */
static void *helper_main(void *arg)
{
	struct pfs_bonnie_thread *s = arg;
	struct pfs_bonnie_run *r = s->run;
	int fd = -1, meter = -1, more = 1, rc = r->own_fds ? pfs_bonnie_table_unshare() : 0;
	uint64_t wait0 = 0;
	int32_t ticket = 0;

	if (rc) {
		helper_fail(s, "unshare the descriptor table to open", -1, -rc);
	} else {
		/* the meter after the unsharing: in this thread's table alone */
		meter = pfs_wait_meter_open();
		fd = pfs_openat(r->dirfd, r->file, O_RDWR | O_CLOEXEC | r->oflags, 0600);
		if (fd < 0)
			helper_fail(s, r->oflags & O_CREAT ? "create" : "open", -1, errno);
	}
	pthread_mutex_lock(&r->mu);
	r->made |= fd >= 0 && (r->oflags & O_CREAT);
	pthread_mutex_unlock(&r->mu);
	pfs_bonnie_run_ready_wait(r);
	if (fd < 0)
		goto out;
	/* bonnie++'s seekers start their clocks once they have their first
	 * ticket */
	if (r->kind == PFS_BONNIE_IO_SEEKS)
		more = ticket_next(s, &ticket);
	/* the waits over the row's time (start_us to end_us) alone: the meter
	 * is read inside the clock, so a wait can never exceed the time */
	s->start_us = pfs_now_us();
	wait0 = pfs_wait_meter_ns(meter);
	if (r->kind == PFS_BONNIE_IO_PUTC)
		io_chars(s, fd, true);
	else if (r->kind == PFS_BONNIE_IO_GETC)
		io_chars(s, fd, false);
	else if (r->kind == PFS_BONNIE_IO_SEEKS) {
		if (more > 0)
			seeks(s, fd, ticket);
	}
	else
		io_blocks(s, fd, r->kind);
	if (!s->err && pfs_fsync(fd))
		helper_fail(s, "fsync", -1, errno);
	if (pfs_close(fd) && !s->err)
		helper_fail(s, "close", -1, errno);
	s->wait_ns = pfs_wait_meter_since(meter, wait0);
	s->end_us = pfs_now_us();
out:
	pfs_wait_meter_close(meter);
	pfs_bonnie_run_signal(r, &r->finished);
	if (r->own_fds && !rc)
		pfs_bonnie_table_drop();
	return NULL;
}

/* ---- the seeks' tickets: the main thread does what bonnie++'s parent does ---- */

/* The pipe, its writing end not blocking: the main thread must go on
 * looking at the engine. It is made big enough for every ticket where the
 * kernel allows (1 MiB, 262144 tickets, without CAP_SYS_RESOURCE), so
 * that they go in at once as bonnie++'s one write(2) puts them; where
 * not, the main thread puts in the rest as the seekers make room
 * (tickets_feed, every 20 ms), where bonnie++'s parent waits in its
 * write. */
static int tickets_open(struct pfs_bonnie_run *r)
{
	int cap;

	if (pipe2(r->ticket_fds, O_CLOEXEC))
		return -errno;
	if (fcntl(r->ticket_fds[1], F_SETFL, O_NONBLOCK))
		return -errno;
	cap = fcntl(r->ticket_fds[1], F_GETPIPE_SZ);
	if (cap >= 0 && (size_t)cap < r->ticket_bytes)
		fcntl(r->ticket_fds[1], F_SETPIPE_SZ,
		      r->ticket_bytes > INT_MAX ? INT_MAX : (int)r->ticket_bytes);
	return 0;
}

static void ticket_fd_close(struct pfs_bonnie_run *r, int end)
{
	if (r->ticket_fds[end] >= 0)
		pfs_close(r->ticket_fds[end]);
	r->ticket_fds[end] = -1;
}

/* The pipe's ends and the parent's descriptor, where still open. */
static void tickets_close(struct pfs_bonnie_run *r)
{
	ticket_fd_close(r, 0);
	ticket_fd_close(r, 1);
	if (r->parent_fd >= 0)
		pfs_close(r->parent_fd);
	r->parent_fd = -1;
}

/* As many tickets as the pipe takes: the first time in one write(2), as
 * bonnie++'s parent writes them, then at most PIPE_BUF bytes at a time,
 * which the kernel takes whole or not at all, so no ticket is ever split.
 * Once all are in, or the test was stopped, the writing end is closed:
 * a seeker waiting for a ticket then reads the end of the pipe. */
static void tickets_feed(struct pfs_bonnie_run *r)
{
	while (r->ticket_fds[1] >= 0 && r->ticket_sent < r->ticket_bytes &&
	       !(atomic_load(&r->flags) & PFS_BONNIE_STOP)) {
		size_t left = r->ticket_bytes - r->ticket_sent;
		ssize_t n = pfs_write(r->ticket_fds[1], (const char *)r->tickets + r->ticket_sent,
				      r->ticket_sent && left > PIPE_BUF ? PIPE_BUF : left);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return;
		if (n <= 0) {
			r->feed_err = n < 0 ? errno : EIO;
			pfs_bonnie_run_stop(r);
			break;
		}
		r->ticket_sent += (size_t)n;
	}
	ticket_fd_close(r, 1);
}

/* The deadline's hold, called with the lock once every thread is held
 * or finished: the count is exact, the engine agrees on it (w->tick, which
 * sets w->target to the busiest rank's count), and the threads go on to
 * that count, or stop when the engine says so. */
static void hold_release(struct pfs_worker *w, struct pfs_bonnie_run *r)
{
	bool stop;

	pthread_mutex_unlock(&r->mu);
	w->items = atomic_load(&r->done);
	stop = w->tick(w) && w->stopped;
	pthread_mutex_lock(&r->mu);
	if (w->target < r->items)
		r->items = w->target;
	atomic_fetch_and(&r->flags, ~PFS_BONNIE_HOLD);
	if (stop)
		atomic_fetch_or(&r->flags, PFS_BONNIE_STOP);
	pthread_cond_broadcast(&r->cv);
}

/* Waits for the threads to finish, looking at the engine every 20 ms:
 * progress, and stop notices, which stop the threads at their next item.
 * Past the step's deadline (--runtime), it first holds them between two
 * items, and then lets the engine look (hold_release): until they are
 * held, the engine is not looked at, so that the count it agrees on is the
 * one the threads stop at. The seekers' tickets go on meanwhile: a seeker
 * waiting for one is not yet held. */
void pfs_bonnie_run_wait(struct pfs_worker *w, struct pfs_bonnie_run *r, unsigned n)
{
	struct timespec until;
	bool holding = false;

	pthread_mutex_lock(&r->mu);
	while (r->finished < n) {
		if (holding && r->held + r->finished >= n) {
			hold_release(w, r);
			holding = false;
			continue;
		}
		clock_gettime(CLOCK_MONOTONIC, &until);
		until.tv_nsec += HELPER_POLL_NS;
		if (until.tv_nsec >= 1000000000) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&r->cv, &r->mu, &until);
		if (holding || r->finished >= n) {
			/* the hold's end, or the loop's, above */
		} else if (pfs_deadline_due(w)) {
			atomic_fetch_or(&r->flags, PFS_BONNIE_HOLD);
			holding = true;
		} else {
			pthread_mutex_unlock(&r->mu);
			w->items = atomic_load(&r->done);
			if (w->tick(w) && w->stopped)
				pfs_bonnie_run_stop(r);
			pthread_mutex_lock(&r->mu);
		}
		if (r->ticket_fds[1] >= 0) {
			pthread_mutex_unlock(&r->mu);
			tickets_feed(r);
			pthread_mutex_lock(&r->mu);
		}
	}
	pthread_mutex_unlock(&r->mu);
}

int pfs_bonnie_run_init(struct pfs_bonnie_run *r)
{
	pthread_condattr_t ca;
	int rc;

	r->ticket_fds[0] = r->ticket_fds[1] = r->parent_fd = -1;
	if ((rc = pthread_mutex_init(&r->mu, NULL)))
		return rc;
	if ((rc = pthread_condattr_init(&ca)))
		goto mutex;
	rc = pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	if (!rc)
		rc = pthread_cond_init(&r->cv, &ca);
	pthread_condattr_destroy(&ca);
	if (!rc)
		return 0;
mutex:
	pthread_mutex_destroy(&r->mu);
	return rc;
}

void pfs_bonnie_run_destroy(struct pfs_bonnie_run *r)
{
	pthread_cond_destroy(&r->cv);
	pthread_mutex_destroy(&r->mu);
}

/* Runs the test on n threads (hs, each with its lat) and hands the engine
 * its row, timed as bonnie++ times it: from the first thread's start to the
 * last one's end, fsync and close included. who names the threads in a
 * failure to start them. */
int pfs_bonnie_threads_run(struct pfs_worker *w, struct pfs_bonnie_run *r, struct pfs_bonnie_thread *hs, unsigned n,
		       enum pfs_bonnie_test test, enum pfs_unit unit, const char *who)
{
	const char *op = pfs_bonnie_test_names[test];
	uint64_t first = UINT64_MAX, last = 0, bytes = 0;
	struct pfs_bonnie_thread *failed = NULL;
	unsigned created = 0;
	pthread_attr_t attr;
	int rc;

	if ((rc = pfs_bonnie_run_init(r)))
		return pfs_fail(w, "start", who, rc);
	/* bonnie++'s parent opens the file too before it starts its seekers,
	 * and makes the pipe they take their tickets from */
	if (r->kind == PFS_BONNIE_IO_SEEKS) {
		const char *what = "open";

		r->parent_fd = pfs_openat(r->dirfd, r->file, O_RDWR | O_CLOEXEC, 0);
		rc = r->parent_fd < 0 ? errno : 0;
		if (!rc && (rc = -tickets_open(r)))
			what = "make the seeks' pipe for";
		if (rc) {
			tickets_close(r);
			pfs_bonnie_run_destroy(r);
			return pfs_fail(w, what, r->file, rc);
		}
	}
	if (!(rc = pthread_attr_init(&attr))) {
		rc = pthread_attr_setstacksize(&attr, PFS_BONNIE_THREAD_STACK);
		for (; !rc && created < n; created += !rc)
			rc = pthread_create(&hs[created].tid, &attr, helper_main, &hs[created]);
		pthread_attr_destroy(&attr);
	}
	/* Every thread has its file open; then the clock starts. */
	pfs_bonnie_run_await_ready(r, created);
	if (rc)
		pfs_bonnie_run_stop(r);
	pfs_op_start(w, op, unit, r->items, 0);
	pfs_bonnie_run_go(r);
	if (r->kind == PFS_BONNIE_IO_SEEKS) {
		/* bonnie++'s parent: the tickets, then fsync and close its
		 * descriptor, while the seekers seek */
		tickets_feed(r);
		if (pfs_fsync(r->parent_fd) && !r->feed_err)
			r->feed_err = errno;
		if (pfs_close(r->parent_fd) && !r->feed_err)
			r->feed_err = errno;
		r->parent_fd = -1;
	}
	pfs_bonnie_run_wait(w, r, created);
	for (unsigned i = 0; i < created; i++) {
		pthread_join(hs[i].tid, NULL);
		if (hs[i].err && !failed)
			failed = &hs[i];
		if (hs[i].start_us && hs[i].start_us < first)
			first = hs[i].start_us;
		if (hs[i].end_us > last)
			last = hs[i].end_us;
		bytes += hs[i].bytes;
		if (hs[i].wait_ns > w->thread_wait_ns)
			w->thread_wait_ns = hs[i].wait_ns;
		if (w->lat)
			pfs_hist_merge(w->lat, hs[i].lat);
	}
	w->thread_waited = created > 0;
	w->items = atomic_load(&r->done);
	w->bytes = bytes;
	tickets_close(r);
	pfs_bonnie_run_destroy(r);
	if (rc)
		return pfs_fail(w, "start", who, rc);
	if (failed)
		return pfs_fail(w, failed->op, r->file, failed->err);
	if (r->feed_err)
		return pfs_fail(w, "give the seekers their tickets and fsync", r->file, r->feed_err);
	if (w->stopped)
		return -ECANCELED;
	return pfs_emit(w, &(struct pfs_sample){ op, unit, w->items, w->bytes,
						 last > first ? last - first : 0, w->lat });
}
