/* test_archive.c: the results writer and reader round trip, the reader's
 * verdicts on bad files, where results may go, and compare's call-outs. */
#include "cmocka_prelude.h"

#include "../registry.h"
#include "../synth.h"

#include "pfsbench/analysis/compare.h"
#include "pfsbench/archive/archive.h"
#include "pfsbench/core/resultpath.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

struct fixture {
	char dir[64];
	char path[128];
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	snprintf(f->dir, sizeof(f->dir), "/tmp/pfsbench-test-archive.XXXXXX");
	if (!mkdtemp(f->dir))
		return -1;
	snprintf(f->path, sizeof(f->path), "%s/run.h5", f->dir);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	char cmd[160];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->dir);
	if (system(cmd))
		return -1;
	free(f);
	return 0;
}

static void write_synth(const char *path, unsigned nranks, unsigned nnodes, double scale,
			unsigned seed)
{
	struct synth s;

	assert_int_equal(synth_init(&s, nranks, nnodes, 2, scale, 0.03, seed), 0);
	assert_int_equal(synth_write(&s, path), 0);
	synth_free(&s);
}

static void test_rows_and_provenance_round_trip(void **state)
{
	struct fixture *f = *state;
	struct pfs_archive a;
	struct pfs_row *want;
	struct synth s;
	size_t i = 0;

	write_synth(f->path, 4, 2, 1.0, 7);
	assert_int_equal(pfs_archive_load(f->path, &a), 0);
	assert_int_equal(a.nrows, 5 * 4 * 2 * 4);
	assert_int_equal(a.nnodes, 2);
	assert_string_equal(a.nodes[1].name, "node0001");
	assert_true(a.nodes[1].mem_bytes == 64ull << 30);
	assert_int_equal(a.schema_version, PFS_SCHEMA_VERSION);
	assert_string_equal(pfs_archive_get(&a, "status"), "complete");
	assert_string_equal(pfs_archive_get(&a, "fstype"), "SYNTH");
	assert_string_equal(pfs_archive_get(&a, "ranks"), "4");
	assert_string_equal(pfs_archive_get(&a, "caches_dropped"), "true");
	assert_string_equal(pfs_archive_get(&a, "no-such-attribute"), "");
	assert_int_equal(a.status, PFS_RUN_COMPLETE);
	assert_int_equal(a.ri.workers_min, 2);
	/* Every option of the workload's table, but not the results path. */
	assert_true(a.nparams > 3);
	for (size_t p = 0; p < a.nparams; p++) {
		assert_string_not_equal(a.params[p].key, "results");
		if (!strcmp(a.params[p].key, "iterations"))
			assert_string_equal(a.params[p].value, "2");
	}
	/* The same rows, in the same order, field for field. */
	assert_int_equal(synth_init(&s, 4, 2, 2, 1.0, 0.03, 7), 0);
	want = calloc(synth_block_rows(&s), sizeof(*want));
	assert_non_null(want);
	for (unsigned t = 0; t < s.ntests; t++)
		for (unsigned it = 1; it <= s.iterations; it++) {
			synth_block(&s, t, it, want);
			for (size_t r = 0; r < synth_block_rows(&s); r++, i++)
				assert_memory_equal(&a.rows[i], &want[r], sizeof(*want));
		}
	free(want);
	synth_free(&s);
	pfs_archive_free(&a);
}

static void test_bad_files_are_refused(void **state)
{
	struct fixture *f = *state;
	char path[160];
	struct pfs_archive a;
	struct stat st;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/missing.h5", f->dir);
	assert_int_equal(pfs_archive_load(path, &a), -ENOENT);

	snprintf(path, sizeof(path), "%s/text.h5", f->dir);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs("not hdf5\n", fp);
	fclose(fp);
	assert_int_equal(pfs_archive_load(path, &a), -EINVAL);

	write_synth(f->path, 4, 2, 1.0, 1);
	assert_int_equal(stat(f->path, &st), 0);
	assert_int_equal(truncate(f->path, st.st_size / 2), 0);
	assert_int_equal(pfs_archive_load(f->path, &a), -EIO);
	assert_null(a.rows);
}

static void test_a_killed_run_reads_as_aborted(void **state)
{
	struct fixture *f = *state;
	struct pfs_output o = { .ops = &pfs_output_hdf5 };
	struct pfs_archive a;
	struct pfs_row rows[8];
	struct synth s;

	pid_t pid;
	int status;

	/* begin and one block, never end: what a SIGKILL leaves, in a
	 * process that then ends without a word (its lock on the file goes
	 * with it: a file a live writer holds is refused as locked). */
	assert_int_equal(synth_init(&s, 2, 1, 1, 1.0, 0, 1), 0);
	s.ri.results_path = f->path;
	synth_block(&s, 0, 1, rows);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (o.ops->begin(&o, &s.ri) ||
		    o.ops->block(&o, &s.ri, &(struct pfs_block){ .rows = rows, .nrows = synth_block_rows(&s) }))
			_exit(1);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_int_equal(pfs_archive_load(f->path, &a), 0);
	assert_int_equal(a.nrows, synth_block_rows(&s));
	assert_int_equal(a.status, PFS_RUN_ABORTED);
	assert_string_equal(pfs_archive_get(&a, "status"), "running");
	pfs_archive_free(&a);
	/* the same, ended: the reason is kept */
	assert_int_equal(unlink(f->path), 0);
	assert_int_equal(o.ops->begin(&o, &s.ri), 0);
	assert_int_equal(o.ops->block(&o, &s.ri, &(struct pfs_block){ .rows = rows, .nrows = synth_block_rows(&s) }), 0);
	assert_int_equal(o.ops->end(&o, &s.ri, PFS_RUN_ABORTED, "interrupted by SIGTERM"), 0);
	assert_int_equal(pfs_archive_load(f->path, &a), 0);
	assert_string_equal(a.reason, "interrupted by SIGTERM");
	pfs_archive_free(&a);
	synth_free(&s);
}

static void test_results_path_rules(void **state)
{
	struct fixture *f = *state;
	char path[PATH_MAX], why[512], sub[128];

	assert_int_equal(pfs_results_path(path, sizeof(path), "", "create-unlink"), 0);
	assert_int_equal(strncmp(path, "pfsbench-create-unlink-", 23), 0);
	assert_string_equal(path + strlen(path) - 4, "Z.h5");
	/* A second run within the same second gets the next free name. */
	if (chdir(f->dir) == 0) {
		char first[PATH_MAX];
		FILE *fp;

		assert_int_equal(pfs_results_path(first, sizeof(first), NULL, "w"), 0);
		fp = fopen(first, "w");
		assert_non_null(fp);
		fclose(fp);
		assert_int_equal(pfs_results_path(path, sizeof(path), NULL, "w"), 0);
		assert_string_not_equal(path, first);
		if (!strncmp(path, first, strlen(first) - 3)) /* the same second */
			assert_string_equal(path + strlen(path) - 5, "-2.h5");
		assert_int_equal(chdir("/"), 0);
	}
	assert_int_equal(pfs_results_path(path, sizeof(path), "x.h5", "w"), 0);
	assert_string_equal(path, "x.h5");

	snprintf(sub, sizeof(sub), "%s/target", f->dir);
	assert_int_equal(mkdir(sub, 0755), 0);
	snprintf(path, sizeof(path), "%s/r.h5", sub);
	assert_int_equal(pfs_results_path_check(path, sub, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "inside the directory under test"));
	snprintf(path, sizeof(path), "%s/target/../target/r.h5", f->dir);
	assert_int_equal(pfs_results_path_check(path, sub, why, sizeof(why)), -EINVAL);
	snprintf(path, sizeof(path), "%s/r.h5", f->dir);
	assert_int_equal(pfs_results_path_check(path, sub, why, sizeof(why)), 0);
	/* A sibling whose name starts with the target's is not inside it. */
	snprintf(path, sizeof(path), "%s/target2", f->dir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/target2/r.h5", f->dir);
	assert_int_equal(pfs_results_path_check(path, sub, why, sizeof(why)), 0);
	write_synth(f->path, 2, 1, 1.0, 1);
	assert_int_equal(pfs_results_path_check(f->path, sub, why, sizeof(why)), -EEXIST);
	snprintf(path, sizeof(path), "%s/no/such/dir/r.h5", f->dir);
	assert_int_equal(pfs_results_path_check(path, sub, why, sizeof(why)), -ENOENT);
	/* A dangling symlink is a name taken; a file is no directory. */
	snprintf(path, sizeof(path), "%s/dangling.h5", f->dir);
	assert_int_equal(symlink("/nonexistent/pfsbench-test", path), 0);
	assert_int_equal(pfs_results_path_check(path, sub, why, sizeof(why)), -EEXIST);
	assert_non_null(strstr(why, "(a symbolic link)"));
	snprintf(path, sizeof(path), "%s/r.h5", f->path);
	assert_int_equal(pfs_results_path_check(path, sub, why, sizeof(why)), -ENOTDIR);
	assert_non_null(strstr(why, "Not a directory"));

	/* The next default name, for the loser of a race for one. */
	snprintf(path, sizeof(path), "pfsbench-tree-20261201T041500Z.h5");
	assert_int_equal(pfs_results_path_next(path, sizeof(path), "tree"), 0);
	assert_string_equal(path, "pfsbench-tree-20261201T041500Z-2.h5");
	assert_int_equal(pfs_results_path_next(path, sizeof(path), "tree"), 0);
	assert_string_equal(path, "pfsbench-tree-20261201T041500Z-3.h5");
	snprintf(path, sizeof(path), "pfsbench-tree-20261201T041500Z-999.h5");
	assert_int_equal(pfs_results_path_next(path, sizeof(path), "tree"), 0);
	assert_int_equal(pfs_results_path_next(path, sizeof(path), "tree"), -1);
	snprintf(path, sizeof(path), "mine.h5");
	assert_int_equal(pfs_results_path_next(path, sizeof(path), "tree"), -1);

	/* Taking a name: exclusive, never through a symlink; a default name
	 * taken by another run gives way to the next. */
	if (chdir(f->dir) == 0) {
		struct pfs_results_file rf;
		struct stat st, made;

		snprintf(path, sizeof(path), "pfsbench-tree-20261201T041500Z.h5");
		assert_int_equal(pfs_results_path_claim(path, sizeof(path), "tree", &rf, why,
							 sizeof(why)), 0);
		assert_int_equal(lstat(path, &st), 0);
		assert_true(S_ISREG(st.st_mode) && st.st_size == 0);
		/* the descriptor is the file made, open */
		assert_int_equal(fstat(rf.fd, &made), 0);
		assert_true(made.st_ino == st.st_ino && made.st_dev == st.st_dev);
		assert_string_equal(rf.name, path);
		pfs_results_file_close(&rf);
		assert_int_equal(rf.fd, -1);
		snprintf(path, sizeof(path), "pfsbench-tree-20261201T041500Z.h5");
		assert_int_equal(pfs_results_path_claim(path, sizeof(path), "tree", &rf, why,
							 sizeof(why)), 0);
		assert_string_equal(path, "pfsbench-tree-20261201T041500Z-2.h5");
		/* removed only while its name is still that file */
		assert_int_equal(rename("pfsbench-tree-20261201T041500Z-2.h5", "moved.h5"), 0);
		assert_int_equal(close(open("pfsbench-tree-20261201T041500Z-2.h5",
					    O_CREAT | O_EXCL | O_WRONLY, 0644)), 0);
		assert_int_equal(pfs_results_file_remove(&rf), -ESTALE);
		assert_int_equal(lstat("pfsbench-tree-20261201T041500Z-2.h5", &st), 0);
		assert_int_equal(lstat("moved.h5", &st), 0);
		snprintf(path, sizeof(path), "pfsbench-tree-20261201T041500Z.h5");
		assert_int_equal(pfs_results_path_claim(path, sizeof(path), NULL, &rf, why,
							 sizeof(why)), -EEXIST);
		assert_int_equal(rf.fd, -1);
		assert_int_equal(rf.dirfd, -1);
		snprintf(path, sizeof(path), "dangling.h5");
		assert_int_equal(pfs_results_path_claim(path, sizeof(path), NULL, &rf, why,
							 sizeof(why)), -EEXIST);
		snprintf(path, sizeof(path), "fresh.h5");
		assert_int_equal(pfs_results_path_claim(path, sizeof(path), NULL, &rf, why,
							 sizeof(why)), 0);
		assert_int_equal(pfs_results_file_remove(&rf), 0);
		assert_int_equal(lstat("fresh.h5", &st), -1);
		assert_int_equal(lstat("/nonexistent/pfsbench-test", &st), -1);
		assert_int_equal(chdir("/"), 0);
	}
}

/* Loads a synthetic run and gives its statistics. */
/* Three iterations: two leave a t interval with about 1 degree of freedom. */
static void stats_of(const char *path, unsigned nranks, double scale, unsigned seed,
		     struct pfs_archive *a, struct pfs_cmp_run *run)
{
	struct synth s;

	assert_int_equal(synth_init(&s, nranks, 2, 3, scale, 0.03, seed), 0);
	assert_int_equal(synth_write(&s, path), 0);
	synth_free(&s);
	assert_int_equal(pfs_archive_load(path, a), 0);
	assert_int_equal(pfs_compare_stats(a, run), 0);
	assert_int_equal(run->n, 5 * 4);
}

/* Runs as replicates: 3 runs a side, each of 8 ranks with a few per cent
 * of noise; a change of 2x either way is called out on every line, 5 %
 * never. */
static void test_compare_calls_out_2x_not_noise(void **state)
{
	struct fixture *f = *state;
	static const struct { double scale; bool loud; } cases[] = {
		{ 1.0, false }, { 1.05, false }, { 2.0, true }, { 0.5, true },
	};
	struct pfs_archive arch[6];
	struct pfs_cmp_run st[6];
	struct pfs_cmp_table t;
	const size_t sides[2] = { 3, 3 };
	char path[160];

	for (unsigned r = 0; r < 3; r++) {
		snprintf(path, sizeof(path), "%s/base%u.h5", f->dir, r);
		stats_of(path, 8, 1.0, r + 1, &arch[r], &st[r]);
	}
	/* 1000 files in about 100 ms on each of 8 ranks, all at once. */
	assert_true(st[0].lines[0].rate > 8 * 1000 * 0.9 / 0.1 &&
		    st[0].lines[0].rate < 8 * 1000 * 1.1 / 0.1);
	/* The iterations are the replicates, and vary by a few percent. */
	assert_int_equal(st[0].lines[0].replicates, 3);
	assert_true(st[0].lines[0].noise >= 0 && st[0].lines[0].noise < 0.05);
	assert_int_equal(st[0].lines[0].step_us >= 90000 && st[0].lines[0].step_us <= 110000, 1);
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		for (unsigned r = 3; r < 6; r++) {
			snprintf(path, sizeof(path), "%s/other%zu-%u.h5", f->dir, c, r);
			stats_of(path, 8, cases[c].scale, (unsigned)(10 * c + r), &arch[r], &st[r]);
		}
		assert_int_equal(pfs_compare_table(st, sides, 2, PFS_CMP_MARGIN, &t), 0);
		assert_int_equal(t.nlines, 20);
		for (size_t l = 0; l < t.nlines; l++) {
			assert_int_equal(t.cells[2 * l + 1].runs, 3);
			assert_int_equal(t.v[2 * l + 1].called_out, cases[c].loud);
		}
		pfs_compare_table_free(&t);
		for (unsigned r = 3; r < 6; r++) {
			pfs_compare_run_free(&st[r]);
			pfs_archive_free(&arch[r]);
		}
	}
	for (unsigned r = 0; r < 3; r++) {
		pfs_compare_run_free(&st[r]);
		pfs_archive_free(&arch[r]);
	}
}

/* One iteration: no replicates within the run (its nodes' rates are not:
 * a slow node is the change, not noise), and each node's own time. */
static void test_compare_one_iteration(void **state)
{
	struct fixture *f = *state;
	struct synth s;
	struct pfs_archive a;
	struct pfs_cmp_run run;

	assert_int_equal(synth_init(&s, 8, 4, 1, 1.0, 0.03, 7), 0);
	assert_int_equal(synth_write(&s, f->path), 0);
	synth_free(&s);
	assert_int_equal(pfs_archive_load(f->path, &a), 0);
	assert_int_equal(pfs_compare_stats(&a, &run), 0);
	assert_int_equal(run.lines[0].iterations, 1);
	assert_int_equal(run.lines[0].replicates, 1);
	assert_true(run.lines[0].noise < 0);
	assert_int_equal(run.nnodes, 4);
	for (unsigned nd = 0; nd < 4; nd++)
		assert_true(run.lines[0].node_us[nd] > 90000 && run.lines[0].node_us[nd] < 110000);
	pfs_compare_run_free(&run);
	pfs_archive_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_rows_and_provenance_round_trip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_files_are_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_a_killed_run_reads_as_aborted, setup, teardown),
		cmocka_unit_test_setup_teardown(test_results_path_rules, setup, teardown),
		cmocka_unit_test_setup_teardown(test_compare_calls_out_2x_not_noise, setup, teardown),
		cmocka_unit_test_setup_teardown(test_compare_one_iteration, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
