/* A known sequence of MPI calls for -xsim-trace (issue 11); tests/mpi/check_trace.sh knows
 * the records it must give. Each of ITER iterations: a nonblocking ring (MPI_Irecv from
 * rank-1, MPI_Isend of BYTES to rank+1, MPI_Waitall), an MPI_Allreduce of one int, then
 * blocking MPI_Send from each even rank to the odd rank above it (MPI_Recv there). At the
 * end one MPI_Barrier on a communicator of the even ranks and one of the odd ranks
 * (MPI_Comm_split). Ranks compute different times (xsim_compute), so waits differ.
 * usage: trace_pattern ITER BYTES   (an even number of ranks) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xsim.h"

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int rank = 0, size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc != 3 || atoi(argv[1]) < 1 || atoi(argv[2]) < 1 || size % 2 != 0) {
        if (rank == 0) fprintf(stderr, "usage: trace_pattern ITER BYTES (ITER, BYTES >= 1; an even number of ranks)\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    const int iterations = atoi(argv[1]), bytes = atoi(argv[2]);
    char* out = malloc((size_t)bytes);
    char* in = malloc((size_t)bytes);
    const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    for (int i = 0; i < iterations; ++i) {
        xsim_compute(1e-6 * (rank % 7 + 1));
        MPI_Request requests[2];
        memset(out, (rank + i) & 0x7f, (size_t)bytes);
        MPI_Irecv(in, bytes, MPI_BYTE, prev, i, MPI_COMM_WORLD, &requests[0]);
        MPI_Isend(out, bytes, MPI_BYTE, next, i, MPI_COMM_WORLD, &requests[1]);
        MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
        if (in[0] != (char)((prev + i) & 0x7f)) {
            fprintf(stderr, "rank %d: ring message %d from rank %d holds %d\n", rank, i, prev, in[0]);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        int one = 1, sum = 0;
        MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        if (sum != size) {
            fprintf(stderr, "rank %d: allreduce gave %d\n", rank, sum);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        if (rank % 2 == 0) MPI_Send(out, bytes, MPI_BYTE, rank + 1, 1000 + i, MPI_COMM_WORLD);
        else MPI_Recv(in, bytes, MPI_BYTE, rank - 1, 1000 + i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    MPI_Barrier(half);
    MPI_Comm_free(&half);
    free(out);
    free(in);
    double t = MPI_Wtime();
    if (rank == 0) printf("VTIME %.9f\nPASS trace_pattern\n", t);
    MPI_Finalize();
    return 0;
}
