/* main.c: the choice of subcommand; MPI start and end for the workloads.
 * Commands that only read result files run without MPI. */
#include "pfsbench/commands.h"
#include "pfsbench/engine.h"
#include "pfsbench/util.h"
#include "pfsbench/workload.h"

#include "config.h"

#include <mpi.h>
#include <stdio.h>
#include <string.h>

static void usage(FILE *out)
{
	fprintf(out, "Usage: pfsbench [COMMAND] [OPTIONS]\n"
		     "A parallel filesystem benchmark; run it under mpirun, one rank per worker.\n\n"
		     "Commands:\n");
	for (size_t i = 0; pfs_workloads[i]; i++)
		fprintf(out, "  %-14s %s\n", pfs_workloads[i]->name, pfs_workloads[i]->summary);
	for (size_t i = 0; pfs_commands[i]; i++)
		fprintf(out, "  %-14s %s\n", pfs_commands[i]->name, pfs_commands[i]->summary);
	fprintf(out, "\nWith options and no command, pfsbench runs create-unlink.\n"
		     "'pfsbench COMMAND --help' lists a command's options; see pfsbench(1).\n");
}

/* Returns the exit status; every rank returns the same. */
static int dispatch(int argc, char **argv, int rank)
{
	const struct pfs_workload *wl;

	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		if (rank == 0)
			usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? PFS_EXIT_USAGE : PFS_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		if (rank == 0)
			printf("pfsbench %s\n", PACKAGE_VERSION);
		return PFS_EXIT_OK;
	}
	/* Options first and no command: create_unlink_perf's own command line. */
	if (argv[1][0] == '-')
		return pfs_engine_main(&pfs_workload_create_unlink, argc, argv, MPI_COMM_WORLD);
	wl = pfs_workload_find(argv[1]);
	if (wl)
		return pfs_engine_main(wl, argc - 1, argv + 1, MPI_COMM_WORLD);
	if (rank == 0)
		fprintf(stderr, "pfsbench: unknown command '%s'\nTry 'pfsbench --help'.\n", argv[1]);
	return PFS_EXIT_USAGE;
}

int main(int argc, char **argv)
{
	const struct pfs_command *cmd = argc > 1 ? pfs_command_find(argv[1]) : NULL;
	int rank = 0, status;

	if (cmd)
		return cmd->main(argc - 1, argv + 1);
	if (MPI_Init(&argc, &argv) != MPI_SUCCESS) {
		fprintf(stderr, "pfsbench: MPI_Init failed\n");
		return PFS_EXIT_FAILED;
	}
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	status = dispatch(argc, argv, rank);
	fflush(stdout);
	MPI_Finalize();
	return status;
}
