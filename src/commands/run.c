/* run.c: a workload's run as the pfsbench command makes it, in-process
 * (include/pfsbench/commands/run.h): the workload found by name in a
 * registry, its outputs chosen (its report, then every registered output,
 * each on the caller's stream) and handed to the engine, with the reader
 * that writes --output-format json|csv's summary. The one place
 * that knows which outputs a run has; main, ab's rounds and the tests
 * come through here. */
#include "pfsbench/archive/archive.h"
#include "pfsbench/commands/export.h"
#include "pfsbench/commands/run.h"
#include "pfsbench/core/options.h"
#include "pfsbench/core/util.h"
#include "pfsbench/engine/engine.h"
#include "pfsbench/engine/workload.h"
#include "pfsbench/outputs/output.h"

#include <string.h>

/* --output-format json|csv: on rank 0, once the run has ended, its rows
 * as `pfsbench export --json` or `--csv` writes them, read back from the
 * results file the run just wrote: export's own code, so they never
 * differ. */
static int run_summary(FILE *out, const char *results_path, unsigned format)
{
	struct pfs_archive a;
	int rc;

	if (pfs_archive_load(results_path, &a))
		return -1;
	rc = pfs_export_write(out, &a,
			      format == PFS_FORMAT_JSON ? PFS_EXPORT_JSON : PFS_EXPORT_CSV_ROWS);
	if (!rc && (fflush(out) || ferror(out)))
		rc = pfs_error("cannot write the summary of the run");
	pfs_archive_free(&a);
	return rc;
}

/* Outputs of one run: the report and the registered ones. A registry
 * longer than this is a programming error, the same on every rank. */
#define RUN_MAX_OUTPUTS 16

int pfs_engine_run_workload(const struct pfs_workload *wl,
			    const struct pfs_output_ops *const *outputs, int argc, char **argv,
			    MPI_Comm comm, FILE *out, FILE *err)
{
	struct pfs_output list[RUN_MAX_OUTPUTS];
	struct pfs_engine_io io = { .out = out, .err = err, .outputs = list,
				    .summary = run_summary };

	list[io.noutputs++] = (struct pfs_output){ .ops = wl->report, .fp = out, .err = err };
	for (size_t i = 0; outputs[i]; i++) {
		if (io.noutputs == RUN_MAX_OUTPUTS) {
			FILE *old = pfs_messages_to(err);

			pfs_error("more than %d outputs registered", RUN_MAX_OUTPUTS - 1);
			pfs_messages_to(old);
			return PFS_EXIT_FAILED;
		}
		list[io.noutputs++] = (struct pfs_output){ .ops = outputs[i], .fp = out, .err = err };
	}
	return pfs_engine_main(wl, argc, argv, comm, &io);
}

int pfs_engine_run_from(const struct pfs_workload *const *workloads,
			const struct pfs_output_ops *const *outputs, int argc, char **argv,
			MPI_Comm comm, FILE *out, FILE *err)
{
	int rank = 0;

	/* Options first and no name: create_unlink_perf's own command line. */
	if (argc >= 2 && argv[1][0] == '-')
		return pfs_engine_run_workload(workloads[0], outputs, argc, argv, comm, out, err);
	for (size_t i = 0; argc >= 2 && workloads[i]; i++)
		if (!strcmp(workloads[i]->name, argv[1]))
			return pfs_engine_run_workload(workloads[i], outputs, argc - 1, argv + 1,
						       comm, out, err);
	MPI_Comm_rank(comm, &rank);
	if (rank == 0) {
		if (argc < 2)
			fprintf(err, "pfsbench: no workload named\n");
		else
			fprintf(err, "pfsbench: unknown command '%s'\n", argv[1]);
		fprintf(err, "Try 'pfsbench --help'.\n");
	}
	return PFS_EXIT_USAGE;
}

int pfs_engine_run(int argc, char **argv, MPI_Comm comm, FILE *out, FILE *err)
{
	return pfs_engine_run_from(pfs_workloads, pfs_outputs, argc, argv, comm, out, err);
}
