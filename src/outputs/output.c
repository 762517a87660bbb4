/* output.c: the registry of outputs every run writes, and the row budget
 * every report's row lines go through. */
#include "pfsbench/outputs/output.h"
#include "pfsbench/core/util.h"

#include <inttypes.h>
#include <limits.h>

/* The results file (src/outputs/hdf5.c): writes ri->results_path,
 * appending and flushing each block, so an interrupted run keeps its rows
 * (PFS_OUTPUT_RESULTS_FILE). Its begin writes through the descriptor of the
 * empty regular file the engine's preflight created (ri->results_file,
 * pfs_results_path_claim), never through its name, and nothing else. */
extern const struct pfs_output_ops pfs_output_hdf5;

const struct pfs_output_ops *const pfs_outputs[] = {
	&pfs_output_hdf5,
	NULL,
};

FILE *pfs_output_err(const struct pfs_output *o)
{
	return o->err ? o->err : stderr;
}

bool pfs_output_row(struct pfs_output *o)
{
	struct pfs_row_budget *b = o->budget;

	if (!b)
		return true;
	if (b->printed < b->lines_max) {
		b->printed++;
		return true;
	}
	b->left_out++;
	return false;
}

bool pfs_output_rows_left(const struct pfs_output *o)
{
	return !o->budget || o->budget->printed < o->budget->lines_max;
}

void pfs_output_rows_note(const struct pfs_output *o)
{
	const struct pfs_row_budget *b = o->budget;
	char path[PFS_PRINTABLE_SIZE(PATH_MAX)];

	if (!b || !b->left_out)
		return;
	pfs_printable(path, sizeof(path), b->path ? b->path : "FILE");
	fprintf(o->fp,
		"... %" PRIu64 " more row lines not printed (show prints the first %" PRIu64
		"): pfsbench show --all '%s' prints them all, pfsbench export '%s' --csv every "
		"row's fields\n",
		b->left_out, b->lines_max, path, path);
}
