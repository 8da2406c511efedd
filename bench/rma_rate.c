/* rma_rate: one-sided operations per second (bench/rma_rate.sh). Every rank does ITERATIONS
 * MPI_Fetch_and_op (+1) to pseudo-random targets, each followed by MPI_Win_flush, under
 * MPI_Win_lock_all(MPI_MODE_NOCHECK); then the counters' sum must be ranks x ITERATIONS.
 * Prints "OPS <sum> EXPECTED <n> VTIME <s>" on rank 0; exits 1 when the sum is wrong. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, iterations = argc > 1 ? atoi(argv[1]) : 100;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long *counter = NULL;
    MPI_Win win;
    MPI_Win_allocate(sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &counter, &win);
    *counter = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
    unsigned state = (unsigned)rank * 2654435761u + 1u;
    long one = 1, old = 0;
    for (int i = 0; i < iterations; ++i) {
        state = state * 1103515245u + 12345u;
        int target = (int)(state % (unsigned)size);
        MPI_Fetch_and_op(&one, &old, MPI_LONG, target, 0, MPI_SUM, win);
        MPI_Win_flush(target, win);
    }
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    long total = 0;
    MPI_Reduce(counter, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    int wrong = 0;
    if (rank == 0) {
        printf("OPS %ld EXPECTED %ld VTIME %.9f\n", total, (long)size * iterations, MPI_Wtime() - t0);
        wrong = total != (long)size * iterations;
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return wrong;
}
