/* test_bonnie_threads.c: a bonnie test's thread with a descriptor table
 * of its own (pfs_bonnie_table_unshare) holds nothing of the main
 * thread's once it is joined (pfs_bonnie_table_drop): a file the main
 * thread locks with flock, as HDF5 locks the results file, and closes
 * right after the join is free at once. Before, the thread's copy of the
 * table kept the file open, and so locked, until the kernel tore the
 * ending thread down, which is after the join returns: --output-format's
 * read-back of bonnie's results file found it locked.
 *
 * To see what a busy machine does, the joining thread runs SCHED_FIFO on
 * the ending thread's CPU: woken by the ending thread, it runs at once,
 * before that thread's exit gets to its descriptor table. Without the
 * right to SCHED_FIFO (or one CPU to share) the test is skipped, saying
 * so. */
#include "pfsbench/workloads/bonnie_threads.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include <cmocka.h>

#define ROUNDS 20

/* The test thread's part: its own table, then nothing of it. */
static void *own_table(void *arg)
{
	int *rc = arg;

	*rc = pfs_bonnie_table_unshare();
	if (!*rc)
		pfs_bonnie_table_drop();
	return NULL;
}

/* Whether path can be locked shared at once: no one holds it exclusively. */
static bool lockable(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	bool ok = fd >= 0 && !flock(fd, LOCK_SH | LOCK_NB);

	if (fd >= 0)
		close(fd);
	return ok;
}

static void test_joined_thread_holds_no_lock(void **state)
{
	struct sched_param fifo = { .sched_priority = 1 }, other = { .sched_priority = 0 };
	pthread_attr_t attr;
	cpu_set_t one, all;
	unsigned locked = 0;
	int fd;

	(void)state;
	assert_int_equal(sched_getaffinity(0, sizeof(all), &all), 0);
	CPU_ZERO(&one);
	CPU_SET(sched_getcpu() >= 0 ? sched_getcpu() : 0, &one);
	if (sched_setaffinity(0, sizeof(one), &one) ||
	    pthread_setschedparam(pthread_self(), SCHED_FIFO, &fifo)) {
		sched_setaffinity(0, sizeof(all), &all);
		fprintf(stderr, "# skipped: no SCHED_FIFO on one CPU here (%s)\n", strerror(errno));
		skip();
	}
	/* the test's thread: the normal policy, on the same CPU */
	assert_int_equal(pthread_attr_init(&attr), 0);
	assert_int_equal(pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED), 0);
	assert_int_equal(pthread_attr_setschedpolicy(&attr, SCHED_OTHER), 0);
	assert_int_equal(pthread_attr_setschedparam(&attr, &other), 0);
	for (int i = 0; i < ROUNDS; i++) {
		char path[] = "/tmp/pfsbench-table-XXXXXX";
		pthread_t tid;
		int rc = -1;

		/* a file of each round's own: an earlier round's lock let go
		 * late cannot stand in this one's way */
		fd = mkstemp(path);
		assert_true(fd >= 0);
		assert_int_equal(flock(fd, LOCK_EX | LOCK_NB), 0);
		assert_int_equal(pthread_create(&tid, &attr, own_table, &rc), 0);
		assert_int_equal(pthread_join(tid, NULL), 0);
		close(fd);
		locked += !lockable(path);
		unlink(path);
		assert_int_equal(rc, 0);
	}
	pthread_attr_destroy(&attr);
	pthread_setschedparam(pthread_self(), SCHED_OTHER, &other);
	sched_setaffinity(0, sizeof(all), &all);
	/* a lock let go only as the thread's exit goes on would show here */
	assert_int_equal(locked, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_joined_thread_holds_no_lock),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
