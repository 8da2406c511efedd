/* ring_allreduce: the reference program of the xsim benchmarks (bench/scale.sh,
 * bench/smpi_compare.sh). A plain MPI C99 program, no xsim header:
 *
 *   ITERATIONS times (10; -iterations N changes it): MPI_Sendrecv of RING_INTS ints to the right neighbour (receiving from
 *   the left one), then MPI_Allreduce(MPI_SUM) of one double.
 *
 * Every rank checks what it received. With xsim's -xsim-payload off receive buffers are not
 * written; the program notices (buffers still hold their sentinel) and skips the checks.
 * Rank 0 prints the predicted (simulated) time of the loop:
 *   ring_allreduce: N ranks, predicted time X s (...)
 * Run: mpirun -np 2 ./ring_allreduce -xsim-np 1048576 -xsim-compute none [-iterations N]
 *      smpirun -np 1024 -platform p.xml -hostfile h.txt ./ring_allreduce_smpi */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ITERATIONS 10 /* default */
#define RING_INTS 4 /* 16 bytes per ring message */
#define SENTINEL (-123456789)

int main(int argc, char **argv)
{
    int rank, size, iteration, i, errors = 0, unchecked = 0, iterations = ITERATIONS;
    int send[RING_INTS], recv[RING_INTS];
    double contribution, sum, expected, start, elapsed;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (i = 1; i < argc; ++i) {
        char *end = NULL;
        long value;
        if (strcmp(argv[i], "-iterations") != 0) continue;
        value = i + 1 < argc ? strtol(argv[i + 1], &end, 10) : -1;
        if (i + 1 >= argc || *end != '\0' || value < 1 || value > 1000000) {
            if (rank == 0) fprintf(stderr, "ring_allreduce: -iterations wants a whole number from 1 to 1000000\n");
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        iterations = (int)value;
    }
    const int right = (rank + 1) % size, left = (rank - 1 + size) % size;
    /* sum over r of (r + it) = N(N-1)/2 + N*it, exact in a double for N <= 2^26 */
    MPI_Barrier(MPI_COMM_WORLD);
    start = MPI_Wtime();
    for (iteration = 0; iteration < iterations; ++iteration) {
        for (i = 0; i < RING_INTS; ++i) {
            send[i] = rank * 7 + iteration + i;
            recv[i] = SENTINEL;
        }
        MPI_Sendrecv(send, RING_INTS, MPI_INT, right, iteration, recv, RING_INTS, MPI_INT, left, iteration,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (recv[0] == SENTINEL) {
            ++unchecked;
        } else {
            for (i = 0; i < RING_INTS; ++i)
                if (recv[i] != left * 7 + iteration + i) ++errors;
        }

        contribution = (double)rank + iteration;
        sum = -1.0;
        MPI_Allreduce(&contribution, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        expected = (double)size * (size - 1) / 2.0 + (double)size * iteration;
        if (sum == -1.0) { /* never a valid sum: all contributions are >= 0 */
            ++unchecked;
        } else if (sum != expected) {
            ++errors;
        }
    }
    elapsed = MPI_Wtime() - start;

    if (errors) {
        fprintf(stderr, "ring_allreduce: rank %d: %d wrong results\n", rank, errors);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (rank == 0)
        printf("ring_allreduce: %d ranks, predicted time %.9f s (%d iterations of %d-byte ring Sendrecv + "
               "Allreduce of 1 double; results %s)\n",
               size, elapsed, iterations, (int)(RING_INTS * sizeof(int)),
               unchecked ? "not checked: payload off" : "checked");
    MPI_Finalize();
    return 0;
}
