/* -xsim-trace of nonblocking collectives (check_trace_nonblocking.sh): ITER times an
 * MPI_Iallreduce and an MPI_Ibarrier on MPI_COMM_WORLD, a little compute while they run, then
 * one MPI_Waitall; the sum is checked. Each rank must show, per iteration, two OTF2
 * NonBlockingCollectiveRequest records at the MPI_I* calls and two NonBlockingCollectiveComplete
 * (ALLREDUCE, BARRIER) with the same request ids inside the wait; the JSON trace, two
 * "... completed" instants per iteration. Prints the virtual time, so traced and untraced
 * runs can be compared. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "xsim.h"

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int rank = 0, size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc != 2 || atoi(argv[1]) < 1) {
        if (rank == 0) fprintf(stderr, "usage: trace_nonblocking ITER (>= 1)\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    const int iterations = atoi(argv[1]);
    for (int i = 0; i < iterations; ++i) {
        int mine = rank + i, sum = 0;
        MPI_Request requests[2];
        MPI_Iallreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &requests[0]);
        MPI_Ibarrier(MPI_COMM_WORLD, &requests[1]);
        xsim_compute(1e-6 * (rank % 3 + 1));
        MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
        if (sum != size * (size - 1) / 2 + size * i) {
            fprintf(stderr, "rank %d: iallreduce %d gave %d\n", rank, i, sum);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
    double t = MPI_Wtime();
    if (rank == 0) printf("VTIME %.9f\nPASS trace_nonblocking\n", t);
    MPI_Finalize();
    return 0;
}
