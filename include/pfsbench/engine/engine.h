/* engine.h: runs a workload across the ranks of a communicator. */
#ifndef PFSBENCH_ENGINE_H
#define PFSBENCH_ENGINE_H

#include <mpi.h>
#include <stddef.h>
#include <stdio.h>

struct pfs_output;
struct pfs_workload;

/* Where a run writes, as its caller chose: the engine names no output and
 * no stream of its own. The pfsbench command hands it the workload's
 * report and the registered outputs on stdout and stderr
 * (src/commands/run.c); a test hands it memory streams and outputs of its
 * own. Every rank passes its streams (workers print there too); the
 * outputs are used on rank 0 only. */
struct pfs_engine_io {
	FILE *out; /* --help, --version, --dry-run */
	FILE *err; /* messages, the progress line, where the results file is */
	/* Begun in this order, each block handed to each, ended in this
	 * order; each output's priv is its own between begin and end. */
	struct pfs_output *outputs;
	size_t noutputs;
	/* --output-format json|csv: on rank 0, once the run has ended and its
	 * results file is complete (or says aborted), writes the rows on out
	 * from that file at results_path; 0, or -1 after a message. The
	 * engine cannot read results files (that is the reading side's), so
	 * the caller lends it the reader. NULL: such a run is refused. */
	int (*summary)(FILE *out, const char *results_path, unsigned format);
};

/* Parses argv (argv[0] is the subcommand) on rank 0, broadcasts the options,
 * checks the target, runs every selected test for every iteration and
 * hands each iteration's rows to io's outputs. Collective over comm.
 * Returns the exit status (PFS_EXIT_*), the same on every rank. */
int pfs_engine_main(const struct pfs_workload *wl, int argc, char **argv, MPI_Comm comm,
		    const struct pfs_engine_io *io);

/* A workload's command line (argv[0] is the command's name) into opts, a
 * zeroed struct of wl->opts_size: its defaults, the options, the tests
 * chosen (-t, all when left out; their names written back into the
 * test_list), then the workload's checks of the values against each
 * other. What rank 0 of every run does before anything else, with no MPI
 * and no filesystem: PFS_PARSE_OK, PFS_PARSE_HELP or PFS_PARSE_VERSION,
 * or a negative errno with the message in err (tests/unit/test_refusals.c
 * holds each workload's refusals to it). */
int pfs_engine_parse(const struct pfs_workload *wl, void *opts, int argc, char **argv, char *err,
		      size_t errlen);

#endif
