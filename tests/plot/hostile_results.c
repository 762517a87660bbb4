/* hostile_results: writes a results file, through the real writer, whose
 * names try to break out of gnuplot's and HTML's syntax: nodes, tests and
 * ops with quotes, newlines, gnuplot's system(), a data block's end marker,
 * macros and HTML tags, and provenance that holds markup. It has progress
 * ticks and latency cells spread over three decades, so every picture is
 * drawn from it with a shape to see.
 * Usage: hostile_results OUT.h5 */
#include "../registry.h"
#include "../synth.h"

#include "pfsbench/core/histogram.h"
#include "pfsbench/core/results.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const nodes[] = {
	"n1\"); system(\"touch PWNED\"); print(\"",
	"<script>alert(1)</script>",
	"n3'\nEOD\n@x `touch PWNED`",
};
static const char *const tests[] = { "s'e\n", "<b>" };
static const char *const ops[] = { "Cr\"eate", "<i>Unlink", "W\nEOD", "Rd&amp;" };

int main(int argc, char **argv)
{
	struct pfs_output o = { .ops = &pfs_output_hdf5 };
	struct synth s;
	struct pfs_row *rows;
	struct pfs_tick *ticks;
	struct pfs_lat_cell *cells;
	size_t nrows, nticks, ncells;
	int rc = 0;

	if (argc != 2 || synth_init(&s, 3, 3, 2, 1.0, 0.2, 7)) {
		fprintf(stderr, "usage: hostile_results OUT.h5\n");
		return 2;
	}
	s.ntests = 2;
	for (unsigned n = 0; n < 3; n++)
		snprintf(s.nodes[n].name, sizeof(s.nodes[n].name), "%s", nodes[n]);
	snprintf(s.ri.fstype, sizeof(s.ri.fstype), "<img src=x onerror=alert(1)>");
	snprintf(s.ri.mount_point, sizeof(s.ri.mount_point), "/mnt/\"quoted\"\n<br>");
	snprintf(s.ri.command_line, sizeof(s.ri.command_line), "pfsbench -m '</pre><script>x</script>'");
	nrows = synth_block_rows(&s);
	rows = calloc(nrows, sizeof(*rows));
	ticks = calloc(nrows * 3, sizeof(*ticks));
	cells = calloc(nrows * 3, sizeof(*cells));
	if (!rows || !ticks || !cells)
		return 1;
	s.ri.results_path = argv[1];
	if (o.ops->begin(&o, &s.ri))
		return 1;
	for (unsigned t = 0; t < s.ntests; t++)
		for (unsigned it = 1; it <= s.iterations; it++) {
			synth_block(&s, t, it, rows);
			nticks = ncells = 0;
			for (size_t i = 0; i < nrows; i++) {
				struct pfs_row *r = &rows[i];

				pfs_row_set_text(r->test, sizeof(r->test), tests[t]);
				pfs_row_set_text(r->op, sizeof(r->op), ops[r->step % 4]);
				pfs_row_set_text(r->node, sizeof(r->node), nodes[r->node_index]);
				/* Two ticks an op, at a third and two thirds of it. */
				for (unsigned k = 1; k <= 2; k++) {
					struct pfs_tick *tk = &ticks[nticks++];

					pfs_row_set_text(tk->test, sizeof(tk->test), r->test);
					tk->iteration = r->iteration;
					tk->step = r->step;
					tk->rank = r->rank;
					tk->time_us = r->start_us + r->elapsed_us * k / 3;
					tk->items = r->items * k / 3;
				}
				/* A third of the items at 1 us, a third at 30 us, the
				 * rest at 2 ms. */
				static const uint64_t lat_ns[] = { 1000, 30000, 2000000 };
				uint64_t left = r->items;

				r->lat_count = r->items;
				r->lat_min_ns = r->lat_max_ns = 0;
				for (unsigned k = 0; k < 3 && left; k++) {
					uint64_t c = k < 2 ? r->items / 3 : left;

					if (!c)
						continue;
					left -= c;
					r->lat_min_ns = r->lat_min_ns ? r->lat_min_ns : lat_ns[k];
					r->lat_max_ns = lat_ns[k];
					cells[ncells++] = (struct pfs_lat_cell){
						.row = i, .bucket = pfs_hist_bucket(lat_ns[k]), .count = c
					};
				}
			}
			rc |= o.ops->block(&o, &s.ri,
					   &(struct pfs_block){ .rows = rows, .nrows = nrows, .lat = cells,
								.nlat = ncells, .ticks = ticks,
								.nticks = nticks });
		}
	rc |= o.ops->end(&o, &s.ri, PFS_RUN_COMPLETE, "");
	free(rows);
	free(ticks);
	free(cells);
	synth_free(&s);
	return rc ? 1 : 0;
}
