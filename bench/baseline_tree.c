/* baseline_tree.c: the least a C program does to build fdtree's tree, for
 * comparison with pfsbench tree's Mkdir and Create phases (make bench). The
 * same names (LEVEL0, d<j>, f<j>, zero-padded), the same calls (mkdirat,
 * openat, write, close, relative to the parent directory), no framework.
 *
 * Usage: baseline_tree DIR LEVELS DIRS FILES BLOCKS [threaded]
 * Prints "Mkdir <dirs> <us> <cpu_us>" and "Create <files> <us> <cpu_us>"
 * (wall and user + system time), then removes the tree (untimed). It keeps
 * the CPU busy for WARM_MS milliseconds first (default 300), as pfsbench's
 * MPI_Init does. Exits 1 on any error.
 *
 * "threaded" starts one idle thread first, as every MPI process has (Open
 * MPI's progress threads): glibc then takes its longer, thread-safe path
 * through every cancellable call (openat, write, close), which costs user
 * space instructions the loop itself does not. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static unsigned long levels, fanout, nfiles;
static unsigned dir_width, file_width;
static size_t file_bytes;
static char *data;

static void die(const char *what, const char *name)
{
	fprintf(stderr, "baseline_tree: cannot %s '%s': %s\n", what, name, strerror(errno));
	exit(1);
}

static unsigned width(unsigned long n)
{
	unsigned w = 1;

	for (; n >= 10; n /= 10)
		w++;
	return w;
}

/* "<c><i>", i zero-padded to w digits. */
static void set_name(char *out, char c, unsigned long i, unsigned w)
{
	out[0] = c;
	for (unsigned k = w; k >= 1; k--, i /= 10)
		out[k] = (char)('0' + i % 10);
	out[w + 1] = 0;
}

static void make_dirs(int parent, const char *name, unsigned long depth)
{
	char child[32];
	int fd;

	if (mkdirat(parent, name, 0755))
		die("create", name);
	if (depth == levels)
		return;
	fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		die("open", name);
	for (unsigned long j = 0; j < fanout; j++) {
		set_name(child, 'd', j, dir_width);
		make_dirs(fd, child, depth + 1);
	}
	close(fd);
}

static void create_file(int dir, const char *name)
{
	int f = openat(dir, name, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644);

	if (f < 0)
		die("create", name);
	if (write(f, data, file_bytes) != (ssize_t)file_bytes)
		die("write", name);
	if (close(f))
		die("close", name);
}

/* Creates the files of the tree, or (remove) removes its files and
 * directories. */
static void walk_files(int parent, const char *name, unsigned long depth, int remove)
{
	char n[32];
	int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		die("open", name);
	for (unsigned long j = 0; j < nfiles; j++) {
		set_name(n, 'f', j, file_width);
		if (!remove)
			create_file(fd, n);
		else if (unlinkat(fd, n, 0))
			die("remove", n);
	}
	for (unsigned long j = 0; depth < levels && j < fanout; j++) {
		set_name(n, 'd', j, dir_width);
		walk_files(fd, n, depth + 1, remove);
	}
	close(fd);
	if (remove && unlinkat(parent, name, AT_REMOVEDIR))
		die("remove", name);
}

static unsigned long long cpu_us(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (unsigned long long)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000u +
	       (unsigned long long)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
}

static unsigned long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000u + (unsigned long long)ts.tv_nsec / 1000u;
}

/* The timed phases, each one call that is not inlined, so that callgrind
 * can cut its counts at them. Each returns its time in microseconds and
 * its CPU time (user + system) in *cpu. */
__attribute__((noinline)) static unsigned long long phase_mkdir(int top, unsigned long long *cpu)
{
	unsigned long long t0 = now_us(), c0 = cpu_us();

	make_dirs(top, "LEVEL0", 0);
	*cpu = cpu_us() - c0;
	return now_us() - t0;
}

__attribute__((noinline)) static unsigned long long phase_create(int top, unsigned long long *cpu)
{
	unsigned long long t0 = now_us(), c0 = cpu_us();

	walk_files(top, "LEVEL0", 0, 0);
	*cpu = cpu_us() - c0;
	return now_us() - t0;
}

static void *idle(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

int main(int argc, char **argv)
{
	const char *warm = getenv("WARM_MS");
	pthread_t thread;
	unsigned long long mkdir_us, create_us, mkdir_cpu, create_cpu, dirs = 1, width_at = 1, until;
	volatile unsigned long spin = 0;
	int top;

	if (argc != 6 && !(argc == 7 && !strcmp(argv[6], "threaded"))) {
		fprintf(stderr, "usage: baseline_tree DIR LEVELS DIRS FILES BLOCKS [threaded]\n");
		return 2;
	}
	if (argc == 7 && pthread_create(&thread, NULL, idle, NULL))
		return 1;
	levels = strtoul(argv[2], NULL, 10);
	fanout = strtoul(argv[3], NULL, 10);
	nfiles = strtoul(argv[4], NULL, 10);
	file_bytes = strtoul(argv[5], NULL, 10) * 4096;
	if (!fanout || !nfiles || !file_bytes)
		return 2;
	dir_width = width(fanout - 1);
	file_width = width(nfiles - 1);
	data = malloc(file_bytes);
	if (!data)
		return 1;
	for (size_t i = 0; i < file_bytes; i++)
		data[i] = (char)(i * 131 + 7);
	for (unsigned long i = 1; i <= levels; i++)
		dirs += width_at *= fanout;
	top = open(argv[1], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (top < 0)
		die("open", argv[1]);
	/* Busy first, as pfsbench's MPI_Init is: a cold CPU would slow the loop. */
	until = now_us() + (warm ? strtoull(warm, NULL, 10) : 300) * 1000u;
	while (now_us() < until)
		spin++;
	mkdir_us = phase_mkdir(top, &mkdir_cpu);
	create_us = phase_create(top, &create_cpu);
	printf("Mkdir %llu %llu %llu\nCreate %llu %llu %llu\n", dirs, mkdir_us, mkdir_cpu,
	       dirs * nfiles, create_us, create_cpu);
	walk_files(top, "LEVEL0", 0, 1);
	close(top);
	free(data);
	return 0;
}
