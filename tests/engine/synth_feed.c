/* synth_feed.c: rank 0's side of a block at N ranks, in one process. The
 * engine's own code (src/engine/gather.c: pfs_gather_room and
 * pfs_gather_deliver, the results file's output) takes a test iteration
 * of made-up records from N ranks on M nodes, as a gather would hand them
 * to rank 0, and writes the results file; no other rank exists. Only the
 * MPI receive is replaced: the feed writes each rank's records where the
 * gather would land them, the ticks round by round. Run on one rank (tests/engine/synth-feed.sh,
 * bench/run-bench-scale.sh):
 *   mpirun -np 1 synth_feed FILE N M CELLS TICKS FSSTATS
 * FILE the results file to create; N ranks on M nodes (N a multiple of
 * M); one test (create-unlink's pa) of S = 4 steps, one row per rank and
 * step (k = 1), CELLS latency cells per row, TICKS ticks per rank and
 * step, FSSTATS filesystem counters per node and step (on each node's
 * first rank). It says, on one line: the records, the block's bytes, rank
 * 0's peak memory (VmHWM) before the block and after the file is
 * closed, and the time from the records' arrival to the file closed
 * (ordering, writing, closing). docs/scale.md, "10,000 synthetic ranks". */
#include "../../src/engine/internal.h"
#include "../registry.h"
#include "../synth.h"

#include "pfsbench/core/util.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define STEPS 4
#define TEST 1 /* synth's test names: "pa" */

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The process's peak resident memory (VmHWM), kB; -1 unknown. */
static long peak_kb(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kb = -1;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "VmHWM: %ld kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}

static unsigned arg(const char *s, unsigned min)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);

	if (*s < '0' || *s > '9' || *end || v < min || v > 1000000) {
		fprintf(stderr, "synth_feed: '%s' is no number from %u to 1000000\n", s, min);
		exit(2);
	}
	return (unsigned)v;
}

/* What every rank would send for the block: its counts, as the gather of
 * counts leaves them in e->gather_counts. */
static void say_counts(struct pfs_engine *e, unsigned per_node, unsigned cells, unsigned ticks,
		       unsigned fsstats)
{
	for (int r = 0; r < e->nranks; r++) {
		int *c = e->gather_counts + (size_t)r * GATHER_KINDS;

		c[0] = STEPS;
		c[1] = (int)(STEPS * cells);
		c[2] = (int)(STEPS * ticks);
		c[3] = r % (int)per_node ? 0 : (int)(STEPS * fsstats);
	}
}

/* Each rank's records where its gather would land them: in round w of
 * the ticks (the block's own gathers in round 0), the ranks whose ticks
 * come in it, their ticks (and in round 0 every rank's other records). */
static void receive(struct synth *s, struct pfs_engine *e, struct pfs_gathered *g, unsigned cells,
		    unsigned ticks, unsigned fsstats, int w)
{
	unsigned per_node = s->nranks / s->nnodes;
	struct pfs_row row;

	for (int r = 0; r < e->nranks; r++) {
		struct pfs_row *rows = w ? NULL : g->rows + g->firsts[0][r];
		struct pfs_lat_cell *cell = w ? NULL : g->cells + g->firsts[1][r];
		struct pfs_tick *tick = g->ticks + g->firsts[2][r];
		struct pfs_fsstat *fs = w ? NULL : g->fsstats + g->firsts[3][r];

		if (w && g->round_of[r] != w)
			continue;
		for (unsigned st = 0; st < STEPS; st++) {
			synth_row(s, TEST, 1, st, (unsigned)r, &row);
			if (rows)
				rows[st] = row;
			for (unsigned i = 0; cell && i < cells; i++)
				*cell++ = (struct pfs_lat_cell){ st, 1000 + i, 1 + (r + i) % 13 };
			for (unsigned i = 0; g->round_of[r] == w && i < ticks; i++, tick++) {
				memset(tick, 0, sizeof(*tick));
				pfs_row_set_text(tick->test, sizeof(tick->test), row.test);
				tick->iteration = 1;
				tick->step = st;
				tick->rank = (uint32_t)r;
				tick->time_us = row.start_us + (uint64_t)i * PFS_TICK_US;
				tick->items = row.items * (i + 1) / ticks;
				tick->bytes = row.bytes * (i + 1) / ticks;
			}
			for (unsigned i = 0; fs && r % (int)per_node == 0 && i < fsstats; i++, fs++) {
				memset(fs, 0, sizeof(*fs));
				pfs_row_set_text(fs->test, sizeof(fs->test), row.test);
				fs->iteration = 1;
				fs->step = st;
				fs->node_index = (uint32_t)r / per_node;
				(void)pfs_format(fs->name, sizeof(fs->name), "synth.counter%03u", i);
				fs->value = (uint64_t)r * 1000 + i;
			}
		}
	}
}

int main(int argc, char **argv)
{
	struct pfs_output o = { .ops = &pfs_output_hdf5 };
	struct pfs_engine e;
	struct pfs_gathered g;
	struct synth s;
	enum pfs_order order = PFS_ORDER_PLAN;
	unsigned n, m, cells, ticks, fsstats;
	long before, after;
	double t0, t1;
	int rc;

	MPI_Init(&argc, &argv);
	if (argc != 7) {
		fprintf(stderr, "usage: synth_feed FILE N M CELLS TICKS FSSTATS\n");
		return 2;
	}
	n = arg(argv[2], 1);
	m = arg(argv[3], 1);
	cells = arg(argv[4], 0);
	ticks = arg(argv[5], 0);
	fsstats = arg(argv[6], 0);
	if (synth_init(&s, n, m, 1, 1.0, 0.03, 7)) {
		fprintf(stderr, "synth_feed: N must be a multiple of M\n");
		return 2;
	}
	s.ri.rows_planned = (uint64_t)n * STEPS;
	s.ri.results_path = argv[1];
	for (const struct pfs_test *t = s.ri.workload->tests; t->name; t++)
		if (!strcmp(t->name, "pa"))
			order = t->order;

	before = peak_kb();
	memset(&e, 0, sizeof(e));
	e.comm = MPI_COMM_WORLD;
	e.rank = 0;
	e.nranks = (int)n;
	e.wl = s.ri.workload;
	e.opts = s.opts;
	e.ri = s.ri;
	e.outputs = &o;
	e.noutputs = 1;
	e.test = "pa";
	e.iteration = 1;
	(void)pfs_format(e.results_path, sizeof(e.results_path), "%s", argv[1]);
	if (pfs_gather_init(&e) || o.ops->begin(&o, &e.ri)) {
		fprintf(stderr, "synth_feed: cannot begin %s\n", argv[1]);
		return 1;
	}
	say_counts(&e, n / m, cells, ticks, fsstats);
	rc = pfs_gather_room(&e, &g);
	if (!rc) {
		double made = 0;

		pfs_gather_round(&e, &g, 0);
		receive(&s, &e, &g, cells, ticks, fsstats, 0);
		t0 = now_s();
		rc = pfs_gather_deliver(&e, order, &g);
		/* The ticks' other rounds, as pfs_gather_block takes them;
		 * their making is not timed. */
		for (int w = 1; w < g.rounds && !rc; w++) {
			double t = now_s();

			pfs_gather_round(&e, &g, w);
			receive(&s, &e, &g, cells, ticks, fsstats, w);
			made += now_s() - t;
			rc = pfs_gather_deliver_ticks(&e, &g);
		}
		pfs_gathered_free(&g);
		rc |= o.ops->end(&o, &e.ri, rc ? PFS_RUN_ABORTED : PFS_RUN_COMPLETE, "");
		t1 = now_s() - made;
		after = peak_kb();
		printf("synth_feed: %u ranks on %u nodes; %" PRIu64 " rows, %" PRIu64
		       " latency cells, %" PRIu64 " ticks, %" PRIu64 " fsstats, %" PRIu64
		       " bytes in the block (ticks in %u rounds); peak memory %ld kB before it, "
		       "%ld kB after; records' arrival to the results file closed: %.3f s\n",
		       n, m, e.gathered.rows, e.gathered.cells, e.gathered.ticks,
		       e.gathered.fsstats, e.gathered.block_max_bytes, e.gathered.tick_rounds, before,
		       after, t1 - t0);
	}
	pfs_gather_free(&e);
	synth_free(&s);
	MPI_Finalize();
	return rc ? 1 : 0;
}
