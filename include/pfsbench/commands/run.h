/* run.h: a run of a workload as the pfsbench command makes it, in-process
 * (src/commands/run.c), like IOR's ior_run and mdtest_run: the caller
 * gives the communicator and the streams the run's text goes to, so a
 * test can run a workload and read its report without a shell. Above the
 * engine: it finds the workload in a registry and hands the engine the
 * outputs, which the engine never names. */
#ifndef PFSBENCH_COMMANDS_RUN_H
#define PFSBENCH_COMMANDS_RUN_H

#include <mpi.h>
#include <stdio.h>

struct pfs_output_ops;
struct pfs_workload;

/* pfsbench's own run: argv as main's (argv[0] the program, argv[1] a
 * workload's name, or an option for create-unlink's command line), the
 * workload's report and text on out, messages and the progress line on
 * err, the registered outputs (pfs_outputs[]) beside the report.
 * Collective over comm (MPI initialised by the caller). Returns the exit
 * status (PFS_EXIT_*), the same on every rank. */
int pfs_engine_run(int argc, char **argv, MPI_Comm comm, FILE *out, FILE *err);

/* The same with the registries given, NULL-terminated: a test runs a
 * workload or output of its own by listing it in its own registry, the
 * one line that registers it in src/workloads/registry.c or
 * src/outputs/output.c. Options first and no name: workloads[0]. */
int pfs_engine_run_from(const struct pfs_workload *const *workloads,
			const struct pfs_output_ops *const *outputs, int argc, char **argv,
			MPI_Comm comm, FILE *out, FILE *err);

/* One workload's run (argv[0] its name): its report (wl->report) on out,
 * then each of outputs (NULL-terminated), handed to the engine. */
int pfs_engine_run_workload(const struct pfs_workload *wl,
			    const struct pfs_output_ops *const *outputs, int argc, char **argv,
			    MPI_Comm comm, FILE *out, FILE *err);

#endif
