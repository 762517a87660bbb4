/* baseline_names.c: the same create and unlink loop as
 * baseline_create_unlink.c (openat O_CREAT|O_EXCL|O_NOFOLLOW, close;
 * unlinkat) over names of one of three styles, to tell what the names
 * alone cost a filesystem's directory (make bench-names):
 *   f       f0000000000, f0000000001, ...  pfsbench create-unlink's
 *   mdtest  file.mdtest.0.0, file.mdtest.0.1, ...  mdtest's (rank 0)
 *   short   f0, f1, ...  a prefix of one letter, no padding
 *   tagged  f0000000000.0.1, ...  create-unlink --shared-dir's (node 0,
 *           worker 1): f's names made as long as mdtest's
 * Every name is made before the clock starts, so the loops differ in the
 * names the kernel hashes and compares, not in the work of making them.
 * Usage: baseline_names DIR N STYLE
 * Prints "create_us unlink_us create_cpu_us unlink_cpu_us": wall and CPU
 * (user + system) time of each loop. Keeps the CPU busy for WARM_MS
 * milliseconds first (default 300), as baseline_create_unlink does. */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "bench_loop.h"

#define NAME_LEN 32

int main(int argc, char **argv)
{
	const char *fmt;
	uint64_t t0, t1, t2, c0, c1, c2;
	unsigned long n;
	char *names;
	int dirfd;

	if (argc != 4) {
		fprintf(stderr, "usage: %s DIR N f|mdtest|short|tagged\n", argv[0]);
		return 2;
	}
	if (!strcmp(argv[3], "f"))
		fmt = "f%010lu";
	else if (!strcmp(argv[3], "mdtest"))
		fmt = "file.mdtest.0.%lu";
	else if (!strcmp(argv[3], "short"))
		fmt = "f%lu";
	else if (!strcmp(argv[3], "tagged"))
		fmt = "f%010lu.0.1";
	else {
		fprintf(stderr, "%s: unknown style '%s'\n", argv[0], argv[3]);
		return 2;
	}
	n = strtoul(argv[2], NULL, 10);
	names = malloc(n * NAME_LEN);
	if (!n || !names)
		return 2;
	for (unsigned long i = 0; i < n; i++)
		snprintf(names + i * NAME_LEN, NAME_LEN, fmt, i);
	dirfd = open_dir_warm(argv[1]);
	t0 = now_us();
	c0 = cpu_us();
	for (unsigned long i = 0; i < n; i++) {
		int fd = openat(dirfd, names + i * NAME_LEN,
				O_CREAT | O_EXCL | O_NOFOLLOW | O_WRONLY | O_CLOEXEC, 0644);

		if (fd < 0 || close(fd)) {
			perror("create");
			return 1;
		}
	}
	t1 = now_us();
	c1 = cpu_us();
	for (unsigned long i = 0; i < n; i++) {
		if (unlinkat(dirfd, names + i * NAME_LEN, 0)) {
			perror("unlink");
			return 1;
		}
	}
	t2 = now_us();
	c2 = cpu_us();
	printf("%llu %llu %llu %llu\n", (unsigned long long)(t1 - t0), (unsigned long long)(t2 - t1),
	       (unsigned long long)(c1 - c0), (unsigned long long)(c2 - c1));
	free(names);
	close(dirfd);
	return 0;
}
