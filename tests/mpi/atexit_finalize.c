/* atexit_finalize: a program that finalizes MPI from an exit handler, registering MPI_Finalize
 * itself with atexit right after MPI_Init, and returns from main (or calls exit(0) with
 * argument "exit") without calling it. IQ-TREE (iqtree2-mpi) does this; natively the C
 * library's exit runs MPI_Finalize. xsim stopped such a run ("returned from main without
 * calling MPI_Finalize"): the handler, a function of libxsim, went to the C library and ran
 * at the real process's exit, outside every rank, after the check.
 *
 * With argument "wrapped" the handler is a function of the program that calls MPI_Finalize
 * (IQ-TREE's way): with one rank per process (no privatization) it went to the C library too.
 *
 * Every rank checks an MPI_Allreduce of its rank, then returns. Rank 0 prints the PASS line
 * before returning; the run passes only if every rank's MPI_Finalize ran (xsim ends the run
 * otherwise).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void finalize_mpi(void)
{
    MPI_Finalize();
}

int main(int argc, char **argv)
{
    int rank, size, sum = 0, finalized = 1;
    MPI_Init(&argc, &argv);
    const int wrapped = argc > 1 && strcmp(argv[1], "wrapped") == 0;
    if (atexit(wrapped ? finalize_mpi : (void (*)(void))MPI_Finalize) != 0) {
        printf("FAIL atexit_finalize: atexit failed\n");
        return 1;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Finalized(&finalized);
    if (sum != size * (size - 1) / 2 || finalized) {
        printf("FAIL atexit_finalize: rank %d: sum %d (expected %d), finalized %d\n", rank, sum,
               size * (size - 1) / 2, finalized);
        fflush(stdout);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (rank == 0) {
        printf("PASS atexit_finalize\n");
        fflush(stdout);
    }
    if (argc > 1 && strcmp(argv[1], "exit") == 0) exit(0);
    return 0; /* MPI_Finalize runs from the exit handler */
}
