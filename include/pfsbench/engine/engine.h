/* engine.h: runs a workload across the ranks of a communicator. */
#ifndef PFSBENCH_ENGINE_H
#define PFSBENCH_ENGINE_H

#include <mpi.h>

struct pfs_ab;
struct pfs_workload;

/* Parses argv (argv[0] is the subcommand) on rank 0, broadcasts the options,
 * checks the target, runs every selected test for every iteration and
 * reports. Collective over comm. Returns the exit status (PFS_EXIT_*), the
 * same on every rank. */
int pfs_engine_main(const struct pfs_workload *wl, int argc, char **argv, MPI_Comm comm);

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

/* pfsbench ab's rounds (src/commands/ab_run.c), ab's command line parsed
 * (pfs_ab_parse): rank 0 checks both sides' command lines, directories and
 * every run's results file before any run, then A B, B A, A B, ... run,
 * each a whole pfs_engine_main. Collective over comm. Returns the exit
 * status, the same on every rank: 2 when refused, else that of the first
 * run that did not complete, which ends the rounds. */
int pfs_engine_ab(struct pfs_ab *ab, MPI_Comm comm);

#endif
