/* escape_results: writes two results files, through the real writer, whose
 * text talks to a terminal or a spreadsheet: node names, tests, ops,
 * fstype, target and run directories, label, notes and the nodes'
 * counters hold ESC sequences (set the title, clear the screen, switch to
 * the alternate screen), the C1 byte 0x9b raw and as UTF-8, invalid UTF-8,
 * a raw newline followed by "Done." (a forged line of the report), and
 * cells a spreadsheet would run as formulas (=, +, -, @, tab).
 * Usage: escape_results A.h5 B.h5 (tests/archive/escape.sh) */
#include "../registry.h"
#include "../synth.h"

#include "pfsbench/core/results.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TITLE "\033]0;title\a"
#define CLEAR "\033[2J"
#define ALT "\033[?1049h"

static const char *const nodes[] = {
	"n1\nDone.\nFAKE",
	TITLE "n2\xe2\x80\xae" CLEAR ALT "\xe2\x80\xa8", /* U+202E RLO, U+2028 */
	"=cmd|' /C calc'!A0",
	"n4\x9b" "6n\xc2\x9b" "2J\xff\xfe",
};
/* PFS_TEST_NAME_MAX 8, PFS_OP_NAME_MAX 16, NUL included */
static const char *const tests[] = { "@x", "\tx" };
static const char *const ops[] = { "=HYPERLINK(\"h\")", "+1", "-x", CLEAR "\x9bOp" };

static int write_one(const char *path, unsigned seed)
{
	struct pfs_output o = { .ops = &pfs_output_hdf5 };
	struct synth s;
	struct pfs_row *rows;
	size_t nrows;
	int rc = 0;

	if (synth_init(&s, 4, 4, 2, 1.0, 0.2, seed))
		return 1;
	s.ntests = 2;
	for (unsigned n = 0; n < 4; n++) {
		snprintf(s.nodes[n].name, sizeof(s.nodes[n].name), "%s", nodes[n]);
		snprintf(s.nodes[n].fsstats, sizeof(s.nodes[n].fsstats), "gfs2 " TITLE "\n%s",
			 "Done.");
		snprintf(s.nodes[n].blockdev, sizeof(s.nodes[n].blockdev),
			 "drbd1 (147:1); drbd 8.4 cs:" CLEAR "\nFAKE\n%s", "Done.");
	}
	snprintf(s.ri.fstype, sizeof(s.ri.fstype), TITLE "EXT4" CLEAR "\x9b");
	snprintf(s.ri.dir, sizeof(s.ri.dir), "/mnt/" ALT "\nDone.\n\xc2\x9b\xff/x");
	snprintf(s.ri.run_dir, sizeof(s.ri.run_dir), "/mnt/" ALT "/pfsbench." CLEAR);
	snprintf(s.ri.mount_point, sizeof(s.ri.mount_point), "-x" CLEAR);
	snprintf(s.ri.label, sizeof(s.ri.label), "=HYPERLINK(\"http://x\",\"y\")" TITLE);
	snprintf(s.ri.run_note, sizeof(s.ri.run_note), "note " ALT "\nDone.");
	s.ri.caches_dropped = false;
	snprintf(s.ri.caches_note, sizeof(s.ri.caches_note), "caches " CLEAR "\nDone.\n@x");
	nrows = synth_block_rows(&s);
	rows = calloc(nrows, sizeof(*rows));
	if (!rows)
		return 1;
	s.ri.results_path = path;
	if (o.ops->begin(&o, &s.ri))
		return 1;
	for (unsigned t = 0; t < s.ntests; t++)
		for (unsigned it = 1; it <= s.iterations; it++) {
			synth_block(&s, t, it, rows);
			for (size_t i = 0; i < nrows; i++) {
				struct pfs_row *r = &rows[i];

				pfs_row_set_text(r->test, sizeof(r->test), tests[t]);
				pfs_row_set_text(r->op, sizeof(r->op), ops[r->step % 4]);
				pfs_row_set_text(r->node, sizeof(r->node), nodes[r->node_index]);
			}
			rc |= o.ops->block(&o, &s.ri,
					   &(struct pfs_block){ .rows = rows, .nrows = nrows });
		}
	rc |= o.ops->end(&o, &s.ri, PFS_RUN_COMPLETE, "");
	free(rows);
	synth_free(&s);
	return rc ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: escape_results A.h5 B.h5\n");
		return 2;
	}
	return write_one(argv[1], 7) || write_one(argv[2], 8) ? 1 : 0;
}
