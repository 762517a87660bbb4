/* bench_archive: times the results writer and compare on synthetic runs of
 * RANKS ranks x 5 tests x 4 ops x 2 iterations, and reports peak memory.
 * Usage: bench_archive RANKS DIR. Writes DIR/base.h5 and DIR/slow.h5 (2x
 * slower), then loads both and prints the comparison to /dev/null. The
 * write time counts the writer's calls only, not the making of rows. */
#include "../tests/registry.h"
#include "../tests/synth.h"

#include "pfsbench/archive/archive.h"
#include "pfsbench/analysis/compare.h"
#include "pfsbench/core/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>

static long maxrss_kib(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

/* Seconds spent in the writer for one whole run. */
static int timed_write(struct synth *s, const char *path, double *seconds)
{
	struct pfs_output o = { .ops = &pfs_output_hdf5 };
	struct pfs_row *rows = malloc(synth_block_rows(s) * sizeof(*rows));
	uint64_t spent = 0, t0;
	int rc;

	if (!rows)
		return -1;
	s->ri.results_path = path;
	t0 = pfs_now_us();
	rc = o.ops->begin(&o, &s->ri);
	spent += pfs_now_us() - t0;
	for (unsigned t = 0; !rc && t < s->ntests; t++)
		for (unsigned it = 1; !rc && it <= s->iterations; it++) {
			synth_block(s, t, it, rows);
			t0 = pfs_now_us();
			rc = o.ops->block(&o, &s->ri, &(struct pfs_block){ .rows = rows, .nrows = synth_block_rows(s) });
			spent += pfs_now_us() - t0;
		}
	t0 = pfs_now_us();
	rc |= o.ops->end(&o, &s->ri, PFS_RUN_COMPLETE, "");
	spent += pfs_now_us() - t0;
	free(rows);
	*seconds = (double)spent / 1e6;
	return rc;
}

int main(int argc, char **argv)
{
	char paths[2][4096];
	struct pfs_archive runs[2];
	const char *names[2] = { paths[0], paths[1] };
	struct synth s;
	struct stat st;
	double wsec[2];
	unsigned nranks;
	uint64_t t0;
	FILE *null;
	struct pfs_cmp_opts opts = { PFS_CMP_TEXT, false, PFS_CMP_MARGIN, 0, false };

	if (argc != 3 || (nranks = (unsigned)atoi(argv[1])) == 0) {
		fprintf(stderr, "usage: bench_archive RANKS DIR\n");
		return 2;
	}
	for (int i = 0; i < 2; i++) {
		snprintf(paths[i], sizeof(paths[i]), "%s/%s.h5", argv[2], i ? "slow" : "base");
		remove(paths[i]);
		if (synth_init(&s, nranks, nranks >= 20 ? nranks / 20 : 1, 2, i ? 2.0 : 1.0, 0.05,
			       (unsigned)i + 1) ||
		    timed_write(&s, paths[i], &wsec[i]))
			return 1;
		synth_free(&s);
	}
	stat(paths[0], &st);
	printf("ranks %u rows %u: write %.3f s, %.3f s; file %.1f MiB; peak RSS after writing %ld KiB\n",
	       nranks, nranks * 5 * 4 * 2, wsec[0], wsec[1], (double)st.st_size / (1 << 20), maxrss_kib());
	null = fopen("/dev/null", "w");
	t0 = pfs_now_us();
	if (!null || pfs_archive_load(paths[0], &runs[0]) || pfs_archive_load(paths[1], &runs[1]))
		return 1;
	printf("ranks %u: load both %.3f s", nranks, (double)(pfs_now_us() - t0) / 1e6);
	t0 = pfs_now_us();
	if (pfs_compare_print(null, runs, names, 2, &opts))
		return 1;
	printf(", compare %.3f s; peak RSS after compare %ld KiB\n", (double)(pfs_now_us() - t0) / 1e6,
	       maxrss_kib());
	pfs_archive_free(&runs[0]);
	pfs_archive_free(&runs[1]);
	fclose(null);
	return 0;
}
