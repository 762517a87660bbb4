/* ab_run.h: the rounds of `pfsbench ab` (src/commands/ab_run.c), a driver
 * above the engine: each run is a whole pfs_engine_run_workload. Apart from ab.h,
 * which holds ab's command line without MPI. */
#ifndef PFSBENCH_AB_RUN_H
#define PFSBENCH_AB_RUN_H

#include <mpi.h>

struct pfs_ab;

/* pfsbench ab's rounds (src/commands/ab_run.c), ab's command line parsed
 * (pfs_ab_parse): rank 0 checks both sides' command lines, directories and
 * every run's results file before any run, then A B, B A, A B, ... run,
 * each a whole pfs_engine_run_workload. Collective over comm. Returns the exit
 * status, the same on every rank: 2 when refused, else that of the first
 * run that did not complete, which ends the rounds. */
int pfs_ab_rounds(struct pfs_ab *ab, MPI_Comm comm);

#endif
