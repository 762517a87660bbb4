/* baseline_create_unlink.c: the least a program can do to create and unlink
 * N files: the same syscalls (openat O_CREAT|O_EXCL, close, unlinkat) on the
 * same names (f0000000000, ...) in one directory, as pfsbench's Create and
 * Unlink phases. `make bench` sets pfsbench against it. Names are counted
 * up in place, the cheapest way there is, so the comparison measures what
 * pfsbench adds, not what snprintf costs.
 * Usage: baseline_create_unlink DIR N   (prints create_us unlink_us) */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static uint64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

static void first_name(char name[12])
{
	snprintf(name, 12, "f%010d", 0);
}

static void bump(char name[12])
{
	int i = 10;

	while (name[i] == '9')
		name[i--] = '0';
	name[i]++;
}

/* noinline: callgrind counts these two functions, inclusive. */
__attribute__((noinline)) static int create_all(int dirfd, unsigned long n)
{
	char name[12];

	first_name(name);
	for (unsigned long i = 0; i < n; i++, bump(name)) {
		int fd = openat(dirfd, name, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644);
		if (fd < 0 || close(fd))
			return -1;
	}
	return 0;
}

__attribute__((noinline)) static int unlink_all(int dirfd, unsigned long n)
{
	char name[12];

	first_name(name);
	for (unsigned long i = 0; i < n; i++, bump(name)) {
		if (unlinkat(dirfd, name, 0))
			return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	uint64_t t0, t1, t2;
	unsigned long n;
	int dirfd;

	if (argc != 3) {
		fprintf(stderr, "usage: %s DIR N\n", argv[0]);
		return 2;
	}
	n = strtoul(argv[2], NULL, 10);
	dirfd = open(argv[1], O_RDONLY | O_DIRECTORY);
	if (dirfd < 0) {
		perror(argv[1]);
		return 1;
	}
	t0 = now_us();
	if (create_all(dirfd, n)) {
		perror("create");
		return 1;
	}
	t1 = now_us();
	if (unlink_all(dirfd, n)) {
		perror("unlink");
		return 1;
	}
	t2 = now_us();
	printf("%llu %llu\n", (unsigned long long)(t1 - t0), (unsigned long long)(t2 - t1));
	return 0;
}
