/* latency_ops_results: writes a results file, through the real writer, of
 * N rows on one rank, each its own (test, op) that recorded latency: N
 * ops in N / 4 tests, the most distinct latency groups a file of N rows
 * can hold. Before the latency picture grouped by sorting and capped its
 * groups, it searched the groups seen for each row (quadratic) and kept a
 * 36 KB histogram for each (tests/plot/latency-ops.sh).
 * Usage: latency_ops_results OUT.h5 N */
#include "../registry.h"
#include "../synth.h"

#include "pfsbench/core/histogram.h"
#include "pfsbench/core/results.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	struct pfs_output o = { .ops = &pfs_output_hdf5 };
	struct synth s;
	struct pfs_row *rows = NULL, *first = NULL;
	struct pfs_lat_cell *cells = NULL;
	size_t n = argc == 3 ? strtoul(argv[2], NULL, 10) : 0;
	char name[32];
	int rc = 1;

	if (!n || synth_init(&s, 1, 1, 1, 1.0, 0.0, 3)) {
		fprintf(stderr, "usage: latency_ops_results OUT.h5 N\n");
		return 2;
	}
	rows = calloc(n, sizeof(*rows));
	cells = calloc(n, sizeof(*cells));
	first = calloc(synth_block_rows(&s), sizeof(*first));
	if (!rows || !cells || !first)
		goto out;
	synth_block(&s, 0, 1, first); /* a row to copy */
	for (size_t i = 0; i < n; i++) {
		struct pfs_row *r = &rows[i];

		*r = *first;
		snprintf(name, sizeof(name), "t%zu", i / 4);
		pfs_row_set_text(r->test, sizeof(r->test), name);
		snprintf(name, sizeof(name), "op%zu", i);
		pfs_row_set_text(r->op, sizeof(r->op), name);
		r->step = (uint32_t)(i % 4);
		r->start_us = (uint64_t)i * 200000u;
		/* every item at 10 us + i ns: one cell */
		r->lat_count = r->items;
		r->lat_min_ns = r->lat_max_ns = 10000 + i;
		cells[i] = (struct pfs_lat_cell){ .row = i, .bucket = pfs_hist_bucket(10000 + i),
						  .count = r->items };
	}
	s.ri.results_path = argv[1];
	if (!o.ops->begin(&o, &s.ri))
		rc = o.ops->block(&o, &s.ri,
				  &(struct pfs_block){ .rows = rows, .nrows = n, .lat = cells, .nlat = n }) |
		     o.ops->end(&o, &s.ri, PFS_RUN_COMPLETE, "") ? 1 : 0;
out:
	free(rows);
	free(cells);
	free(first);
	synth_free(&s);
	return rc;
}
