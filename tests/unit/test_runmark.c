/* test_runmark.c: the run directory's marker, which is all `pfsbench
 * clean` goes by. What the engine writes reads back the same; control
 * characters cannot break a line; a marker of anyone's making (NULs, no
 * newline, another format, a key twice, a value too long, too large, a
 * symbolic link, a FIFO) is refused, never half read; a second marker is
 * never written over the first; a run's lock keeps clean out; worker
 * directory names are <node>.<number> and nothing else. */
#include "cmocka_prelude.h"

#include "pfsbench/core/runmark.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const struct pfs_runmark sample = {
	.format = PFS_RUNMARK_FORMAT,
	.run = "pfsbench.20261201T063000.node1.p42",
	.workload = "create-unlink",
	.started = "2026-12-01T06:30:00Z",
	.node0 = "node1",
	.job = "p42",
	.version = "0.1.0",
};

static int parse(const char *text, struct pfs_runmark *m, char *err)
{
	return pfs_runmark_parse(text, strlen(text), m, err, 256);
}

static void test_round_trip(void **state)
{
	struct pfs_runmark m, odd = sample;
	char buf[PFS_RUNMARK_MAX], err[256];

	(void)state;
	assert_int_equal(pfs_runmark_format(&sample, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "pfsbench-run 1\nrun pfsbench.20261201T063000.node1.p42\n"
				 "workload create-unlink\nstarted 2026-12-01T06:30:00Z\nnode0 node1\n"
				 "job p42\nversion 0.1.0\n");
	assert_int_equal(parse(buf, &m, err), 0);
	assert_memory_equal(&m, &sample, sizeof(m));
	/* a node name with a newline stays one line */
	snprintf(odd.node0, sizeof(odd.node0), "a\nrun x");
	assert_int_equal(pfs_runmark_format(&odd, buf, sizeof(buf)), 0);
	assert_int_equal(parse(buf, &m, err), 0);
	assert_string_equal(m.node0, "a_run x");
	assert_string_equal(m.run, sample.run);
	assert_int_equal(pfs_runmark_format(&sample, buf, 40), -ENAMETOOLONG);
}

static void test_hostile(void **state)
{
	static const char *const bad[] = {
		"",
		"pfsbench-run 1\nrun r\nworkload tree",        /* no last newline */
		"pfsbench-run 2\nrun r\nworkload tree\n",      /* another format */
		"pfsbench-run x\nrun r\nworkload tree\n",
		"pfsbench-run\nrun r\nworkload tree\n",
		"pfsbench-runs 1\nrun r\nworkload tree\n",
		"run r\nworkload tree\n",
		"pfsbench-run 1\nworkload tree\n",             /* no run */
		"pfsbench-run 1\nrun r\n",                     /* no workload */
		"pfsbench-run 1\nrun r\nrun s\nworkload tree\n",
		"pfsbench-run 1\nrun r\nworkload tree\x01\n",
		"pfsbench-run 1\nrun r\nworkload\n",
		"pfsbench-run 1\nrun r\nworkload \n",
		"pfsbench-run 1\nrun r\n\nworkload tree\n",
		"pfsbench-run 1\nrun r\nworkload tree\r\n",
		"pfsbench-run 99999999999999999999999\nrun r\nworkload tree\n",
	};
	struct pfs_runmark m;
	char err[256], big[600];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		if (parse(bad[i], &m, err) != -EINVAL || !err[0])
			fail_msg("accepted or no reason: '%s'", bad[i]);
	}
	/* a NUL inside */
	assert_int_equal(pfs_runmark_parse("pfsbench-run 1\nrun r\0x\nworkload t\n", 34, &m, err,
					   sizeof(err)), -EINVAL);
	/* a value longer than its field */
	snprintf(big, sizeof(big), "pfsbench-run 1\nrun r\nworkload %0400d\n", 0);
	assert_int_equal(parse(big, &m, err), -EINVAL);
	/* a later pfsbench's key of the same format is not ours to judge */
	assert_int_equal(parse("pfsbench-run 1\nrun r\nworkload tree\nlater thing\n", &m, err), 0);
	assert_string_equal(m.workload, "tree");
}

/* A scratch directory, open; removed with everything in it at the end. */
static int scratch(char *dir)
{
	strcpy(dir, "/tmp/test_runmark.XXXXXX");
	assert_non_null(mkdtemp(dir));
	return open(dir, O_RDONLY | O_DIRECTORY);
}

static void scratch_free(const char *dir, int dfd)
{
	char cmd[128];

	close(dfd);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

static void test_create_and_open(void **state)
{
	struct pfs_runmark m;
	char dir[64], err[256];
	int dfd, fd, fd2;

	(void)state;
	dfd = scratch(dir);
	fd = pfs_runmark_create(dfd, &sample);
	assert_true(fd >= 0);
	/* never over an existing one */
	assert_int_equal(pfs_runmark_create(dfd, &sample), -EEXIST);
	/* the run holds the lock: clean stays out */
	assert_int_equal(pfs_runmark_open(dfd, &m, err, sizeof(err)), -EBUSY);
	close(fd);
	fd2 = pfs_runmark_open(dfd, &m, err, sizeof(err));
	assert_true(fd2 >= 0);
	assert_memory_equal(&m, &sample, sizeof(m));
	close(fd2);
	assert_int_equal(unlinkat(dfd, PFS_RUNMARK_NAME, 0), 0);
	assert_int_equal(pfs_runmark_open(dfd, &m, err, sizeof(err)), -ENOENT);
	scratch_free(dir, dfd);
}

static void test_open_hostile(void **state)
{
	struct pfs_runmark m;
	char dir[64], err[256], path[128], text[PFS_RUNMARK_MAX + 10];
	int dfd, fd;

	(void)state;
	dfd = scratch(dir);
	snprintf(path, sizeof(path), "%s/" PFS_RUNMARK_NAME, dir);
	/* a symbolic link to a good marker elsewhere */
	fd = openat(dfd, "elsewhere", O_CREAT | O_WRONLY, 0644);
	assert_true(fd >= 0);
	assert_true(write(fd, "pfsbench-run 1\nrun r\nworkload tree\n", 35) == 35);
	close(fd);
	assert_int_equal(symlinkat("elsewhere", dfd, PFS_RUNMARK_NAME), 0);
	assert_int_equal(pfs_runmark_open(dfd, &m, err, sizeof(err)), -EINVAL);
	assert_int_equal(pfs_runmark_create(dfd, &sample), -EEXIST);
	unlink(path);
	/* a FIFO: refused without waiting for a writer */
	assert_int_equal(mkfifo(path, 0644), 0);
	assert_int_equal(pfs_runmark_open(dfd, &m, err, sizeof(err)), -EINVAL);
	unlink(path);
	/* a directory */
	assert_int_equal(mkdir(path, 0755), 0);
	assert_true(pfs_runmark_open(dfd, &m, err, sizeof(err)) < 0);
	rmdir(path);
	/* larger than a marker may be, though it starts well */
	memset(text, 'x', sizeof(text));
	memcpy(text, "pfsbench-run 1\nrun r\nworkload tree\nx ", 37);
	text[sizeof(text) - 1] = '\n';
	fd = open(path, O_CREAT | O_WRONLY, 0644);
	assert_true(write(fd, text, sizeof(text)) == (ssize_t)sizeof(text));
	close(fd);
	assert_int_equal(pfs_runmark_open(dfd, &m, err, sizeof(err)), -EINVAL);
	scratch_free(dir, dfd);
}

static void test_worker_names(void **state)
{
	static const char *const good[] = { "node1.1", "vm.0", "a.b.12", "lp03.4294967295", "x y.3" };
	static const char *const bad[] = { "node1", "node1.", ".1", "node1.01", "node1.x", "n.1a",
					   "..", ".", "n\n.1", "node.12345678901", "" };

	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		if (!pfs_runmark_worker_name(good[i]))
			fail_msg("refused '%s'", good[i]);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (pfs_runmark_worker_name(bad[i]))
			fail_msg("accepted '%s'", bad[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_create_and_open),
		cmocka_unit_test(test_open_hostile),
		cmocka_unit_test(test_worker_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
