/* synth.c: synthetic runs through the real writer; see synth.h. */
#include "synth.h"
#include "registry.h"

#include "pfsbench/engine/workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const test_names[] = { "se", "pa", "ua", "ub", "uc", "t6", "t7", "t8" };
static const char *const op_names[] = { "Create", "Write", "Read", "Unlink", "Op5", "Op6" };

int synth_init(struct synth *s, unsigned nranks, unsigned nnodes, unsigned iterations,
	       double scale, double noise, unsigned seed)
{
	const struct pfs_workload *wl = &pfs_workload_create_unlink;
	struct pfs_run_info *ri = &s->ri;

	memset(s, 0, sizeof(*s));
	s->nranks = nranks;
	s->nnodes = nnodes;
	s->ntests = 5;
	s->nops = 4;
	s->iterations = iterations;
	s->scale = scale;
	s->noise = noise;
	s->seed = seed;
	s->nodes = calloc(nnodes, sizeof(*s->nodes));
	s->opts = calloc(1, wl->opts_size);
	if (!s->nodes || !s->opts || !nnodes || nranks % nnodes)
		return -1;
	if (pfs_workload_defaults(wl, s->opts))
		return -1;
	((struct pfs_common_opts *)s->opts)->iterations = iterations;
	snprintf(s->dir, sizeof(s->dir), "/mnt/synth");
	for (unsigned n = 0; n < nnodes; n++) {
		snprintf(s->nodes[n].name, sizeof(s->nodes[n].name), "node%04u", n);
		snprintf(s->nodes[n].addr, sizeof(s->nodes[n].addr), "10.0.%u.%u", n / 250, n % 250 + 1);
		s->nodes[n].nworkers = nranks / nnodes;
		s->nodes[n].leader_rank = (int)(n * (nranks / nnodes));
		s->nodes[n].mem_bytes = 64ull << 30;
	}
	ri->workload = wl;
	ri->opts = s->opts;
	ri->options = wl->options;
	snprintf(ri->dir, sizeof(ri->dir), "%s", s->dir);
	snprintf(ri->run_dir, sizeof(ri->run_dir), "%s", s->dir);
	snprintf(ri->workload_name, sizeof(ri->workload_name), "%s", wl->name);
	snprintf(ri->fstype, sizeof(ri->fstype), "SYNTH");
	snprintf(ri->mount_point, sizeof(ri->mount_point), "/mnt/synth");
	snprintf(ri->mpi_version, sizeof(ri->mpi_version), "none");
	ri->nranks = nranks;
	ri->nnodes = nnodes;
	ri->nodes = s->nodes;
	ri->workers_min = ri->workers_max = nranks / nnodes;
	ri->caches_dropped = true;
	snprintf(ri->command_line, sizeof(ri->command_line), "synthetic");
	snprintf(ri->start_time, sizeof(ri->start_time), "2000-01-01T00:00:00Z");
	snprintf(ri->end_time, sizeof(ri->end_time), "2000-01-01T00:00:01Z");
	return 0;
}

void synth_free(struct synth *s)
{
	free(s->nodes);
	free(s->opts);
	memset(s, 0, sizeof(*s));
}

size_t synth_block_rows(const struct synth *s)
{
	return (size_t)s->nops * s->nranks;
}

/* xorshift32: reproducible noise without libc's rand state. */
static double uniform(unsigned *state)
{
	unsigned x = *state ? *state : 2463534242u;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*state = x;
	return (double)x / 4294967295.0 * 2 - 1;
}

void synth_row(struct synth *s, unsigned test, unsigned iteration, unsigned op, unsigned rank,
	       struct pfs_row *row)
{
	unsigned per_node = s->nranks / s->nnodes;
	uint64_t start = (((uint64_t)test * s->iterations + iteration) * s->nops + op) * 1000000u;

	memset(row, 0, sizeof(*row));
	pfs_row_set_text(row->test, sizeof(row->test), test_names[test % 8]);
	pfs_row_set_text(row->op, sizeof(row->op), op_names[op % 6]);
	pfs_row_set_text(row->node, sizeof(row->node), s->nodes[rank / per_node].name);
	row->iteration = iteration;
	row->node_index = rank / per_node;
	row->worker = rank % per_node + 1;
	row->rank = rank;
	row->step = op;
	row->start_us = start;
	row->elapsed_us = (uint64_t)(100000.0 * s->scale * (1 + s->noise * uniform(&s->seed)));
	row->items = 1000;
	pfs_row_set_text(row->unit, sizeof(row->unit), pfs_unit_name(PFS_UNIT_FILES));
	row->bytes = op == 1 || op == 2 ? 1000u * 4096u : 0;
}

void synth_block(struct synth *s, unsigned test, unsigned iteration, struct pfs_row *rows)
{
	size_t i = 0;

	for (unsigned op = 0; op < s->nops; op++)
		for (unsigned r = 0; r < s->nranks; r++, i++)
			synth_row(s, test, iteration, op, r, &rows[i]);
}

int synth_write(struct synth *s, const char *path)
{
	struct pfs_output o = { .ops = &pfs_output_hdf5 };
	struct pfs_row *rows = malloc(synth_block_rows(s) * sizeof(*rows));
	int rc = -1;

	s->ri.results_path = path;
	if (rows && !o.ops->begin(&o, &s->ri)) {
		rc = 0;
		for (unsigned t = 0; t < s->ntests; t++)
			for (unsigned it = 1; it <= s->iterations; it++) {
				synth_block(s, t, it, rows);
				rc |= o.ops->block(&o, &s->ri, &(struct pfs_block){ .rows = rows, .nrows = synth_block_rows(s) });
			}
		rc |= o.ops->end(&o, &s->ri, PFS_RUN_COMPLETE, "");
	}
	free(rows);
	return rc ? -1 : 0;
}
