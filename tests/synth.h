/* synth.h: synthetic runs for tests and benchmarks, written through the real
 * results writer (pfs_output_hdf5). A run has nranks ranks on nnodes nodes,
 * ntests tests of nops ops each, all nodes at once (one step per op), and
 * iterations iterations. Every row does 1000 files in
 * 100 ms x scale x (1 + noise x u), u uniform in [-1, 1] from seed. */
#ifndef PFSBENCH_SYNTH_H
#define PFSBENCH_SYNTH_H

#include <stddef.h>

#include "pfsbench/outputs/output.h"
#include "pfsbench/core/topology.h"

struct synth {
	unsigned nranks, nnodes, ntests, nops, iterations;
	double scale, noise;
	unsigned seed;
	struct pfs_run_info ri;
	struct pfs_node *nodes;
	void *opts;
	char dir[64];
};

int synth_init(struct synth *s, unsigned nranks, unsigned nnodes, unsigned iterations,
	       double scale, double noise, unsigned seed);
void synth_free(struct synth *s);
size_t synth_block_rows(const struct synth *s);
/* Rank rank's row of op (its step) in one test's iteration. */
void synth_row(struct synth *s, unsigned test, unsigned iteration, unsigned op, unsigned rank,
	       struct pfs_row *row);
/* The rows of one test's iteration, in report order. */
void synth_block(struct synth *s, unsigned test, unsigned iteration, struct pfs_row *rows);
/* The whole run into path. Returns 0 or -1. */
int synth_write(struct synth *s, const char *path);

#endif
