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

#endif
