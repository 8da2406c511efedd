/* ring_exchange: a plain MPI program (no xsim header) that every rank runs:
 * ITERATIONS times, compute for a while (usleep stands for the compute phase), exchange
 * a halo of HALO doubles with both ring neighbours, and synchronize with a barrier.
 * Each rank checks the values it received; rank 0 prints the predicted run time.
 * Under xsim: mpirun -np 2 ./ring_exchange -xsim-np 131072 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define ITERATIONS 10
#define HALO 128

int main(int argc, char **argv)
{
    int rank, size, iteration, i, errors = 0;
    double send_left[HALO], send_right[HALO], from_left[HALO], from_right[HALO];
    double start, elapsed;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int left = (rank - 1 + size) % size, right = (rank + 1) % size;

    MPI_Barrier(MPI_COMM_WORLD);
    start = MPI_Wtime();
    for (iteration = 0; iteration < ITERATIONS; ++iteration) {
        usleep(100); /* the compute phase: 100 us per iteration */
        for (i = 0; i < HALO; ++i) {
            send_left[i] = rank + iteration * 0.5 + i * 1e-3;
            send_right[i] = -send_left[i];
        }
        MPI_Sendrecv(send_right, HALO, MPI_DOUBLE, right, 0, from_left, HALO, MPI_DOUBLE, left, 0,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Sendrecv(send_left, HALO, MPI_DOUBLE, left, 1, from_right, HALO, MPI_DOUBLE, right, 1,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (i = 0; i < HALO; ++i) {
            if (from_left[i] != -(left + iteration * 0.5 + i * 1e-3)) ++errors;
            if (from_right[i] != right + iteration * 0.5 + i * 1e-3) ++errors;
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    elapsed = MPI_Wtime() - start;
    if (errors) {
        fprintf(stderr, "rank %d: %d wrong halo values\n", rank, errors);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (rank == 0)
        printf("ring_exchange: %d ranks, %d iterations of compute + halo exchange + barrier: "
               "predicted time %.6f s (%.2f us per iteration)\n",
               size, ITERATIONS, elapsed, elapsed / ITERATIONS * 1e6);
    MPI_Finalize();
    return 0;
}
