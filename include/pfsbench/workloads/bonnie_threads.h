/* bonnie_threads.h: the threads bonnie's tests run in (src/workloads/bonnie_threads.c):
 * the I/O tests' one and the seekers, which do their test here, and the
 * start, stop and count of items that the file tests' thread
 * (src/workloads/bonnie.c) shares with them. The main thread alone speaks
 * to the engine: it starts the op's clock once every thread is ready,
 * looks at the engine every 20 ms while they run (progress, stop notices,
 * which stop the threads at their next item), and records a thread's
 * failure with pfs_fail, agreed at the step's end like every other.
 *
 * --runtime (docs/bonnie.md): at the step's deadline the main thread holds
 * the threads between two items, so that the count it gives the engine's
 * agreement is exact, then lowers the test's items to the busiest rank's
 * count and lets them go on to it (the engine's wear-out). */
#ifndef PFSBENCH_BONNIE_THREADS_H
#define PFSBENCH_BONNIE_THREADS_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "pfsbench/core/results.h"
#include "pfsbench/plans/bonnie_plan.h"

struct pfs_hist;
struct pfs_worker;

/* A seek's ticket, as bonnie++'s: 0 to 2^31 - 1, the block is the ticket
 * modulo the file's blocks; negative (its negation) when the block is to
 * be rewritten, which is when the number is a multiple of
 * PFS_BONNIE_UPDATE_EVERY. PFS_BONNIE_TICKET_END tells a seeker to stop. */
#define PFS_BONNIE_TICKET_END INT32_MIN

/* The stack of each test's thread. */
#define PFS_BONNIE_THREAD_STACK (256u * 1024)

/* The test a run's threads do. */
enum pfs_bonnie_io {
	PFS_BONNIE_IO_PUTC,
	PFS_BONNIE_IO_PUT_BLOCK,
	PFS_BONNIE_IO_REWRITE,
	PFS_BONNIE_IO_GETC,
	PFS_BONNIE_IO_GET_BLOCK,
	PFS_BONNIE_IO_SEEKS,
};

/* What the main thread asks of the threads, between two items (flags). */
#define PFS_BONNIE_STOP 1u /* stop: a thread's failure, or the engine's notice */
#define PFS_BONNIE_HOLD 2u /* wait: the deadline passed, the rank agrees on its count */

/* What the threads of one test share. The file tests' thread uses the
 * items, the lock, start, flags and count of items alone (from done on). */
struct pfs_bonnie_run {
	int dirfd;
	const char *file; /* the I/O tests' file, in dirfd */
	enum pfs_bonnie_io kind;
	int oflags;      /* O_CREAT | O_EXCL: the test makes the file anew */
	bool own_fds;    /* a descriptor table of its own */
	bool made;       /* the file was created */
	/* The items to do: bytes of a per-char test, blocks of a block test,
	 * seeks, files. Lowered to the agreed count while the threads are
	 * held (--runtime), so read without a lock between items. */
	uint64_t items;
	/* The seeks' tickets, nseeks and then one PFS_BONNIE_TICKET_END for
	 * each seeker, which the main thread writes into a pipe and each
	 * seeker reads one read(2) at a time, as bonnie++'s do (its
	 * seek_test); ticket_sent bytes of them are in the pipe so far. */
	const int32_t *tickets;
	size_t ticket_bytes, ticket_sent;
	int ticket_fds[2]; /* the pipe, -1 when closed */
	int parent_fd;     /* bonnie++'s parent's own descriptor of the file */
	int feed_err;      /* the main thread's failure to feed or fsync */
	uint64_t nseeks, chunks;
	uint32_t chunk;
	bool sync;
	/* The items done (written by the one I/O thread, or added to by
	 * every seeker), and the seeks the seekers have taken on (at most
	 * items: claimed one at a time, so several seekers stop at it). */
	atomic_uint_fast64_t done, claimed;
	atomic_uint flags; /* PFS_BONNIE_STOP, PFS_BONNIE_HOLD */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	unsigned ready, finished, held;
	bool go;
};

/* A test's thread with a descriptor table of its own: unshare(CLONE_FILES)
 * (0 or -errno) and, as the thread's last act, pfs_bonnie_table_drop,
 * which closes every descriptor of that table, the copies of the main
 * thread's among them (bonnie_threads.c says why). Never in a thread that
 * shares the main thread's table. */
int pfs_bonnie_table_unshare(void);
void pfs_bonnie_table_drop(void);

struct pfs_bonnie_thread {
	struct pfs_bonnie_run *run;
	pthread_t tid;
	struct pfs_hist *lat;
	char *buf;
	uint64_t start_us, end_us, bytes;
	uint64_t wait_ns; /* its waits for a CPU over its test (pfs_wait_meter) */
	int err;         /* the first failure's errno, 0 for none */
	const char *op;  /* and what failed */
};

/* 0, or an errno value from pthread. */
int pfs_bonnie_run_init(struct pfs_bonnie_run *r);
void pfs_bonnie_run_destroy(struct pfs_bonnie_run *r);

/* A test's thread: counter (ready or finished) one more. */
void pfs_bonnie_run_signal(struct pfs_bonnie_run *r, unsigned *counter);
/* A test's thread: says it is ready, and waits for the start. */
void pfs_bonnie_run_ready_wait(struct pfs_bonnie_run *r);
/* The main thread: waits until n threads are ready, then starts them. */
void pfs_bonnie_run_await_ready(struct pfs_bonnie_run *r, unsigned n);
void pfs_bonnie_run_go(struct pfs_bonnie_run *r);
/* The main thread: waits for n threads to finish, looking at the engine
 * every 20 ms. */
void pfs_bonnie_run_wait(struct pfs_worker *w, struct pfs_bonnie_run *r, unsigned n);

/* Stops the test's threads at their next item. */
void pfs_bonnie_run_stop(struct pfs_bonnie_run *r);
/* The slow path of pfs_bonnie_run_stopped, with the flags it read: waits
 * out a hold (the count at the deadline is being agreed), then says
 * whether to stop. */
bool pfs_bonnie_run_halt(struct pfs_bonnie_run *r, unsigned flags);

/* A test's thread, before each item (its count of done items published):
 * whether to stop, a thread's failure or the engine's notice; waits
 * first while the main thread holds it. After it returns false, the
 * thread compares its count with items, which a hold may have lowered.
 * Inline: the loops ask before every item, one load when nothing is asked. */
static inline bool pfs_bonnie_run_stopped(struct pfs_bonnie_run *r)
{
	unsigned f = atomic_load_explicit(&r->flags, memory_order_relaxed);

	return f && pfs_bonnie_run_halt(r, f);
}

/* Runs an I/O test or the seeks on n threads (hs, each with its run, lat
 * and buffer) and hands the engine its row as test's, timed as bonnie++
 * times it: from the first thread's start to the last one's end, fsync and
 * close included. who names the threads in a failure to start them.
 * Returns 0, -ECANCELED when the engine stopped it, or the failure
 * recorded with pfs_fail. */
int pfs_bonnie_threads_run(struct pfs_worker *w, struct pfs_bonnie_run *r,
			   struct pfs_bonnie_thread *hs, unsigned n, enum pfs_bonnie_test test,
			   enum pfs_unit unit, const char *who);

#endif
