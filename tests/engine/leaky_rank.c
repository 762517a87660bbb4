/* leaky_rank.c: an MPI program that leaks 4321 bytes on purpose in each
 * rank, in a function of its own, for tests/engine/leak-check.sh: the
 * sanitizer build's leak check must report it, and nothing of Open MPI's. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

static char *volatile kept;

__attribute__((noinline)) static void leak_on_purpose(int rank)
{
	char *p = malloc(4321);

	if (p)
		memset(p, rank, 4321);
	kept = p;
	kept = NULL;
}

int main(int argc, char **argv)
{
	int rank = 0;

	if (MPI_Init(&argc, &argv) != MPI_SUCCESS)
		return 1;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	leak_on_purpose(rank);
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Finalize();
	return 0;
}
