/* rank_crash: one simulated rank dies of a signal between MPI calls (xsim must name it).
 *
 * argv[1]: segv   rank 1 writes through a null pointer
 *          abort  rank 1 calls abort(), as glibc does on heap corruption
 * Every rank first times region "work" (xsim_region_begin/end), which a regions file must
 * still hold after the crash. Every other rank waits in MPI_Barrier. Prints nothing the
 * harness matches.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xsim.h>

int main(int argc, char **argv)
{
    int rank, size;
    volatile int *nowhere = NULL;

    if (argc < 2 || (strcmp(argv[1], "segv") && strcmp(argv[1], "abort"))) {
        fprintf(stderr, "usage: %s segv|abort\n", argv[0]);
        return 2;
    }
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    xsim_region_begin("work");
    MPI_Barrier(MPI_COMM_WORLD);
    xsim_region_end("work");
    if (rank == (size > 1 ? 1 : 0)) {
        if (strcmp(argv[1], "segv") == 0) *nowhere = 1;
        else abort();
    }
    MPI_Barrier(MPI_COMM_WORLD);
    printf("FAIL rank_crash: rank %d passed the second barrier\n", rank);
    MPI_Finalize();
    return 1;
}
