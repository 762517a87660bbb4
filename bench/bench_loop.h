/* bench_loop.h: what the benches' create and unlink loops share (static,
 * one copy a program): the two clocks, wall time (CLOCK_MONOTONIC) and the
 * process's CPU time (user + system, getrusage), in microseconds; and the
 * start, the directory opened and the CPU warmed up. */
#ifndef PFSBENCH_BENCH_LOOP_H
#define PFSBENCH_BENCH_LOOP_H

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

static inline uint64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

static inline uint64_t cpu_us(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000u +
	       (uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
}

/* Keeps the CPU busy for WARM_MS milliseconds (default 300), as pfsbench's
 * MPI_Init does before its loops: a cold start would give the loop a
 * slower CPU than pfsbench gets. */
static inline void warm_cpu(void)
{
	const char *warm = getenv("WARM_MS");
	uint64_t until = now_us() + (warm ? strtoull(warm, NULL, 10) : 300) * 1000u;
	volatile unsigned long spin = 0;

	while (now_us() < until)
		spin++;
}

/* The loops' directory, opened, then the CPU warmed: its descriptor, or
 * the process ends with status 1. */
static inline int open_dir_warm(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0) {
		perror(path);
		exit(1);
	}
	warm_cpu();
	return fd;
}

#endif
