/* fault_probe.c: makes each call pfsfault interposes, once through glibc's
 * wrapper and once through syscall(2) as pfsbench does, for
 * tests/fault/test-fault.sh. One line per call:
 *
 *   NAME VIA RESULT MICROSECONDS     (VIA libc or raw; RESULT ok or an errno name)
 *
 *   fault_probe DIR           every call, libc then raw, in DIR
 *   fault_probe DIR NAME N    NAME's call N times, libc and raw by turns (libc first)
 *
 * Files and descriptors the calls need are made with fopen, opendir and
 * dup, which pfsfault does not see, so a rule only ever touches the call
 * under test. SIGUSR1 is caught and does nothing but interrupt a sleep, so
 * a test can check that a delay survives a signal. Exit status 0 unless
 * the setup fails (2). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

struct probe {
	const char *dir;
	int dfd;	/* DIR, from opendir */
	int data_fd;	/* DIR/data, from fopen */
	unsigned i;	/* this call's number, for unique names */
	char name[64];	/* a name in DIR for this call */
	char path[4096]; /* DIR/name */
};

static void setup_failed(const char *what)
{
	fprintf(stderr, "fault_probe: cannot %s: %s\n", what, strerror(errno));
	exit(2);
}

/* Names DIR/<what>.<i>, and makes it a file first when make is set. */
static void name_file(struct probe *p, const char *what, int make)
{
	FILE *f;

	snprintf(p->name, sizeof(p->name), "%s.%u", what, p->i);
	snprintf(p->path, sizeof(p->path), "%s/%s", p->dir, p->name);
	if (make) {
		f = fopen(p->path, "w");
		if (!f || fclose(f))
			setup_failed("create a file");
	}
}

static long do_openat(struct probe *p, int raw)
{
	name_file(p, "openat", 0);
	return raw ? syscall(SYS_openat, p->dfd, p->name, O_CREAT | O_WRONLY | O_CLOEXEC, 0644)
		   : openat(p->dfd, p->name, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
}

static long do_open(struct probe *p, int raw)
{
	name_file(p, "open", 0);
	return raw ? syscall(SYS_open, p->path, O_CREAT | O_WRONLY | O_CLOEXEC, 0644)
		   : open(p->path, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
}

static long do_close(struct probe *p, int raw)
{
	int fd = dup(p->data_fd);

	if (fd < 0)
		setup_failed("dup");
	return raw ? syscall(SYS_close, fd) : close(fd);
}

static long do_read(struct probe *p, int raw)
{
	char c;

	return raw ? syscall(SYS_read, p->data_fd, &c, 1) : read(p->data_fd, &c, 1);
}

static long do_write(struct probe *p, int raw)
{
	return raw ? syscall(SYS_write, p->data_fd, "w", 1) : write(p->data_fd, "w", 1);
}

static long do_pread(struct probe *p, int raw)
{
	char c;

	return raw ? syscall(SYS_pread64, p->data_fd, &c, 1, 0) : pread(p->data_fd, &c, 1, 0);
}

static long do_pwrite(struct probe *p, int raw)
{
	return raw ? syscall(SYS_pwrite64, p->data_fd, "p", 1, 0) : pwrite(p->data_fd, "p", 1, 0);
}

static long do_fsync(struct probe *p, int raw)
{
	return raw ? syscall(SYS_fsync, p->data_fd) : fsync(p->data_fd);
}

static long do_fdatasync(struct probe *p, int raw)
{
	return raw ? syscall(SYS_fdatasync, p->data_fd) : fdatasync(p->data_fd);
}

static long do_unlinkat(struct probe *p, int raw)
{
	name_file(p, "unlinkat", 1);
	return raw ? syscall(SYS_unlinkat, p->dfd, p->name, 0) : unlinkat(p->dfd, p->name, 0);
}

static long do_unlink(struct probe *p, int raw)
{
	name_file(p, "unlink", 1);
	return raw ? syscall(SYS_unlink, p->path) : unlink(p->path);
}

static long do_mkdirat(struct probe *p, int raw)
{
	name_file(p, "mkdirat", 0);
	return raw ? syscall(SYS_mkdirat, p->dfd, p->name, 0755) : mkdirat(p->dfd, p->name, 0755);
}

static long do_mkdir(struct probe *p, int raw)
{
	name_file(p, "mkdir", 0);
	return raw ? syscall(SYS_mkdir, p->path, 0755) : mkdir(p->path, 0755);
}

static long do_rename(struct probe *p, int raw)
{
	char to[sizeof(p->path) + 4];

	name_file(p, "rename", 1);
	snprintf(to, sizeof(to), "%s.to", p->path);
	return raw ? syscall(SYS_rename, p->path, to) : rename(p->path, to);
}

static long do_stat(struct probe *p, int raw)
{
	struct stat st;

	return raw ? syscall(SYS_newfstatat, p->dfd, "data", &st, 0) : fstatat(p->dfd, "data", &st, 0);
}

static long do_getdents64(struct probe *p, int raw)
{
	char buf[4096];
	int fd = dup(p->dfd);
	long rc;

	if (fd < 0)
		setup_failed("dup");
	rc = raw ? syscall(SYS_getdents64, fd, buf, sizeof(buf)) : getdents64(fd, buf, sizeof(buf));
	close(fd);
	return rc;
}

static long do_getrusage(struct probe *p, int raw)
{
	struct rusage ru;

	(void)p;
	return raw ? syscall(SYS_getrusage, RUSAGE_SELF, &ru) : getrusage(RUSAGE_SELF, &ru);
}

static void on_signal(int sig)
{
	(void)sig;
}

static const struct {
	const char *name;
	long (*call)(struct probe *p, int raw);
} probes[] = {
	{ "openat", do_openat },   { "open", do_open },		  { "close", do_close },
	{ "read", do_read },	   { "write", do_write },	  { "pread", do_pread },
	{ "pwrite", do_pwrite },   { "fsync", do_fsync },	  { "fdatasync", do_fdatasync },
	{ "unlinkat", do_unlinkat }, { "unlink", do_unlink },	  { "mkdirat", do_mkdirat },
	{ "mkdir", do_mkdir },	   { "rename", do_rename },	  { "stat", do_stat },
	{ "getdents64", do_getdents64 }, { "getrusage", do_getrusage },
};
#define N_PROBES (sizeof(probes) / sizeof(probes[0]))

static void run(struct probe *p, size_t k, int raw)
{
	struct timespec t0, t1;
	long rc;
	int err;

	p->i++;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	errno = 0;
	rc = probes[k].call(p, raw);
	err = errno;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("%s %s %s %lld\n", probes[k].name, raw ? "raw" : "libc",
	       rc < 0 ? strerrorname_np(err) : "ok",
	       (long long)(t1.tv_sec - t0.tv_sec) * 1000000 + (t1.tv_nsec - t0.tv_nsec) / 1000);
}

int main(int argc, char **argv)
{
	struct probe p = { .dir = argc > 1 ? argv[1] : NULL };
	struct sigaction sa = { .sa_handler = on_signal }; /* no SA_RESTART */
	DIR *d;
	FILE *data;
	char path[4096];
	int status = 0;

	if (argc != 2 && argc != 4) {
		fprintf(stderr, "usage: fault_probe DIR [NAME N]\n");
		return 2;
	}
	if (sigaction(SIGUSR1, &sa, NULL))
		setup_failed("catch SIGUSR1");
	d = opendir(p.dir);
	if (!d)
		setup_failed("open the directory");
	p.dfd = dirfd(d);
	snprintf(path, sizeof(path), "%s/data", p.dir);
	data = fopen(path, "w+");
	if (!data || fputs("data", data) < 0 || fflush(data))
		setup_failed("write DIR/data");
	p.data_fd = fileno(data);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 2) {
		for (size_t k = 0; k < N_PROBES; k++) {
			run(&p, k, 0);
			run(&p, k, 1);
		}
		goto out;
	}
	for (size_t k = 0; k < N_PROBES; k++) {
		if (strcmp(probes[k].name, argv[2]))
			continue;
		for (long n = atol(argv[3]), i = 0; i < n; i++)
			run(&p, k, (int)(i % 2));
		goto out;
	}
	fprintf(stderr, "fault_probe: no call named '%s'\n", argv[2]);
	status = 2;
out:
	/* glibc closes both with calls of its own, which pfsfault does not see */
	fclose(data);
	closedir(d);
	return status;
}
