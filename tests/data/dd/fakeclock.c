/* fakeclock.c: an LD_PRELOAD shim for capture.sh, so that GNU dd's
 * transfer statistics can be captured for an elapsed time known to the
 * nanosecond. With PFS_FAKECLOCK_NS=D in the environment, the first
 * CLOCK_MONOTONIC reading is 1000 s and every later one 1000 s + D ns, so
 * dd's start_time and its final reading are exactly D ns apart. Every other
 * clock, and every reading without the variable, is the kernel's. Not part
 * of pfsbench: capture.sh compiles it when it regenerates the captures. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int clock_gettime(clockid_t id, struct timespec *ts)
{
	static unsigned long readings;
	const char *d = getenv("PFS_FAKECLOCK_NS");
	long long t = 1000000000000LL;

	if (id != CLOCK_MONOTONIC || !d)
		return (int)syscall(SYS_clock_gettime, id, ts);
	if (readings++)
		t += strtoll(d, NULL, 10);
	ts->tv_sec = (time_t)(t / 1000000000);
	ts->tv_nsec = (long)(t % 1000000000);
	return 0;
}
