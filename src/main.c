/* main.c: the choice of subcommand; MPI start and end for the workloads.
 * Commands that only read result files run without MPI. */
#include "pfsbench/commands/ab.h"
#include "pfsbench/commands/ab_run.h"
#include "pfsbench/commands/commands.h"
#include "pfsbench/commands/run.h"
#include "pfsbench/core/util.h"
#include "pfsbench/engine/engine.h"
#include "pfsbench/engine/workload.h"

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
	fprintf(out, "  %-14s %s\n", "ab",
		"two configurations of a workload in alternating rounds, then compared");
	for (size_t i = 0; pfs_commands[i]; i++)
		fprintf(out, "  %-14s %s\n", pfs_commands[i]->name, pfs_commands[i]->summary);
	fprintf(out, "\nWith options and no command, pfsbench runs create-unlink.\n"
		     "'pfsbench COMMAND --help' lists a command's options; see pfsbench(1).\n");
}

/* pfsbench ab: the rounds (src/commands/ab_run.c), then rank 0 compares the A
 * runs with the B runs as `pfsbench compare A1 A2 ... -- B1 B2 ...` does.
 * ab's own options need no filesystem: every rank parses the same argv
 * alike, and rank 0 alone speaks. */
static int ab_main(int argc, char **argv, int rank)
{
	struct pfs_ab ab;
	char err[PFS_USAGE_MAX] = "", **cargv;
	int rc = pfs_ab_parse(&ab, argc, argv, pfs_workload_find, err, sizeof(err)), cargc, status;

	if (rc == PFS_PARSE_HELP && rank == 0)
		pfs_ab_usage(stdout);
	else if (rc < 0 && rank == 0)
		fprintf(stderr, "pfsbench ab: %s\nTry 'pfsbench ab --help'.\n", err);
	status = rc < 0 ? PFS_EXIT_USAGE : rc ? PFS_EXIT_OK : pfs_ab_rounds(&ab, MPI_COMM_WORLD);
	if (rc == PFS_PARSE_OK && status == PFS_EXIT_OK) {
		if (rank == 0) {
			cargv = pfs_ab_compare_argv(&ab, &cargc);
			pfs_ab_say(stdout, "A against B:", cargc, cargv);
			status = pfs_command_compare.main(cargc, cargv);
		}
		MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
	}
	pfs_ab_free(&ab);
	return status;
}

/* Returns the exit status; every rank returns the same. */
static int dispatch(int argc, char **argv, int rank)
{
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
	if (!strcmp(argv[1], "ab"))
		return ab_main(argc - 1, argv + 1, rank);
	/* A workload by name, or options first and no command:
	 * create_unlink_perf's own command line. */
	return pfs_engine_run(argc, argv, MPI_COMM_WORLD, stdout, stderr);
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
	/* A rank's stdout and stderr are two pipes that mpirun relays apart;
	 * where both go to one file (> log 2>&1, Slurm's slurm-%j.out), a
	 * write that ends inside a line lets the other stream's next chunk in.
	 * So each write ends at a newline: bonnie's tables, printed figure by
	 * figure on stderr, would otherwise be split (tests/mpi/whole-lines.sh).
	 * After MPI_Init, which under MPICH makes stdout unbuffered, and before
	 * anything is printed; with buffers of our own, since glibc given NULL
	 * keeps the 1-byte buffer an unbuffered stream has. They live as long
	 * as the streams (static: exit flushes after main returns). What does
	 * not end a line (the progress line's \r) is flushed by its writer. */
	static char out_buf[BUFSIZ], err_buf[BUFSIZ];

	setvbuf(stdout, out_buf, _IOLBF, sizeof(out_buf));
	setvbuf(stderr, err_buf, _IOLBF, sizeof(err_buf));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	status = dispatch(argc, argv, rank);
	fflush(stdout);
	MPI_Finalize();
	return status;
}
