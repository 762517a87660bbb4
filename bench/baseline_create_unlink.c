/* baseline_create_unlink.c: the least a program can do to create and unlink
 * N files: the same syscalls (openat O_CREAT|O_EXCL|O_NOFOLLOW, close,
 * unlinkat) on the same names (f0000000000, ...) in one directory, as
 * pfsbench's Create and Unlink phases. `make bench` sets pfsbench against
 * it. Names are counted up in place, the cheapest way there is, so the
 * comparison measures what pfsbench adds, not what snprintf costs.
 * Usage: baseline_create_unlink DIR N [shared]
 * Prints "create_us unlink_us create_cpu_us unlink_cpu_us": wall and CPU
 * (user + system) time of each loop. With "shared" (for make bench-shared,
 * as create-unlink --shared-dir --stat on one rank), the names carry a
 * worker's tag (f0000000000.0.1), a loop of fstatat(AT_SYMLINK_NOFOLLOW)
 * of every file runs between the two, and "stat_us stat_cpu_us" follow. Before them it keeps the CPU busy for
 * WARM_MS milliseconds (default 300), as pfsbench's MPI_Init does before its
 * loops: a cold start would give the loop a slower CPU than pfsbench gets. */
#include <fcntl.h>
#include <stdbool.h>
#include <string.h>
#include <sys/resource.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bench_loop.h"

/* f, 10 digits, a tag of at most 8 characters, NUL. */
#define NAME_MAX_LEN 20
static const char *tag = "";

static void first_name(char name[NAME_MAX_LEN])
{
	snprintf(name, NAME_MAX_LEN, "f%010d%s", 0, tag);
}

static void bump(char name[NAME_MAX_LEN])
{
	int i = 10;

	while (name[i] == '9')
		name[i--] = '0';
	name[i]++;
}

/* noinline: callgrind counts these two functions, inclusive. */
__attribute__((noinline)) static int create_all(int dirfd, unsigned long n)
{
	char name[NAME_MAX_LEN];

	first_name(name);
	for (unsigned long i = 0; i < n; i++, bump(name)) {
		int fd = openat(dirfd, name, O_CREAT | O_EXCL | O_NOFOLLOW | O_WRONLY | O_CLOEXEC,
				0644);
		if (fd < 0 || close(fd))
			return -1;
	}
	return 0;
}

__attribute__((noinline)) static int stat_all(int dirfd, unsigned long n)
{
	char name[NAME_MAX_LEN];
	struct stat st;

	first_name(name);
	for (unsigned long i = 0; i < n; i++, bump(name)) {
		if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW))
			return -1;
	}
	return 0;
}

__attribute__((noinline)) static int unlink_all(int dirfd, unsigned long n)
{
	char name[NAME_MAX_LEN];

	first_name(name);
	for (unsigned long i = 0; i < n; i++, bump(name)) {
		if (unlinkat(dirfd, name, 0))
			return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	uint64_t t0, t1, t2, c0, c1, c2, ts = 0, cs = 0;
	bool shared = argc == 4 && !strcmp(argv[3], "shared");
	unsigned long n;
	int dirfd;

	if (argc != 3 && !shared) {
		fprintf(stderr, "usage: %s DIR N [shared]\n", argv[0]);
		return 2;
	}
	if (shared)
		tag = ".0.1";
	n = strtoul(argv[2], NULL, 10);
	dirfd = open_dir_warm(argv[1]);
	t0 = now_us();
	c0 = cpu_us();
	if (create_all(dirfd, n)) {
		perror("create");
		return 1;
	}
	t1 = now_us();
	c1 = cpu_us();
	if (shared) {
		if (stat_all(dirfd, n)) {
			perror("stat");
			return 1;
		}
		ts = now_us();
		cs = cpu_us();
	}
	if (unlink_all(dirfd, n)) {
		perror("unlink");
		return 1;
	}
	t2 = now_us();
	c2 = cpu_us();
	if (!shared) {
		printf("%llu %llu %llu %llu\n", (unsigned long long)(t1 - t0),
		       (unsigned long long)(t2 - t1), (unsigned long long)(c1 - c0),
		       (unsigned long long)(c2 - c1));
		return 0;
	}
	printf("%llu %llu %llu %llu %llu %llu\n", (unsigned long long)(t1 - t0),
	       (unsigned long long)(t2 - ts), (unsigned long long)(c1 - c0),
	       (unsigned long long)(c2 - cs), (unsigned long long)(ts - t1),
	       (unsigned long long)(cs - c1));
	return 0;
}
