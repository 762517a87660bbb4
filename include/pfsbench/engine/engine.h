/* engine.h: runs a workload across the ranks of a communicator. */
#ifndef PFSBENCH_ENGINE_H
#define PFSBENCH_ENGINE_H

#include <mpi.h>

struct pfs_workload;

/* Parses argv (argv[0] is the subcommand) on rank 0, broadcasts the options,
 * checks the target, runs every selected test for every iteration and
 * reports. Collective over comm. Returns the exit status (PFS_EXIT_*), the
 * same on every rank. */
int pfs_engine_main(const struct pfs_workload *wl, int argc, char **argv, MPI_Comm comm);

/* The same, for a run whose --output-format may be json or csv: once the
 * run has ended and its results file is complete (or says aborted), rank 0
 * calls summary(path, format) to write the rows on stdout. The engine
 * cannot read results files (that is the reading side's), so the caller
 * above both lends it the reader. summary returns 0 or -1 after a
 * message. pfs_engine_main refuses a format other than text. */
int pfs_engine_main_summary(const struct pfs_workload *wl, int argc, char **argv, MPI_Comm comm,
			    int (*summary)(const char *results_path, unsigned format));

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
