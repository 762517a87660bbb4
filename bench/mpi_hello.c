/* mpi_hello.c: the least an MPI program does (MPI_Init, one MPI_Barrier,
 * MPI_Finalize), for bench-fixed (bench/run-bench-fixed.sh): what mpirun
 * and MPI's own start and end cost, so that what pfsbench adds to them can
 * be told apart. Exits 1 when MPI fails. */
#include <mpi.h>

int main(int argc, char **argv)
{
	if (MPI_Init(&argc, &argv) != MPI_SUCCESS)
		return 1;
	if (MPI_Barrier(MPI_COMM_WORLD) != MPI_SUCCESS)
		return 1;
	return MPI_Finalize() == MPI_SUCCESS ? 0 : 1;
}
