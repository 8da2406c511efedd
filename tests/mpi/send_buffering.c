/* send_buffering: ABySS-P's pattern, a program that counts on MPI_Send buffering.
 *
 * Every rank posts one MPI_Irecv (from any source, for a buffer of BYTES), then sends BYTES
 * with a blocking MPI_Send to rank+1 and only then waits for its receive. MPI_Send may
 * block until the matching receive is posted (MPI 4.1, 3.4), but each receive here is
 * already posted, so the send needs no buffering at all: it must complete, whatever the
 * size, and the ring exchange must finish (checked). A second round does what ABySS-P does
 * after its first message: the receive is not posted again before the next MPI_Send, so
 * every rank is in MPI_Send and none posts a receive. That completes only if the messages
 * are sent eagerly (BYTES at most the path's eager limit); above it, the run deadlocks
 * (natively it hangs: Open MPI's btl_vader_eager_limit is 4096 B, its headers included,
 * so 4000 B pass and 4096 B hang) and xsim must say so and
 * why.
 *
 * usage: send_buffering BYTES
 * Prints "PASS send_buffering" on rank 0 when both rounds complete with the right data.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static void check(const unsigned char *buf, int bytes, int from, int round, int rank)
{
    for (int i = 0; i < bytes; ++i) {
        if (buf[i] != (unsigned char)(from * 7 + round + i)) {
            printf("FAIL send_buffering: rank %d round %d byte %d is %d, expected %d\n", rank, round, i, buf[i],
                   (unsigned char)(from * 7 + round + i));
            fflush(stdout);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc != 2 || atoi(argv[1]) <= 0) {
        if (rank == 0) fprintf(stderr, "usage: send_buffering BYTES (a positive message size)\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    const int bytes = atoi(argv[1]);
    unsigned char *out = malloc((size_t)bytes), *in = malloc((size_t)bytes);
    const int next = (rank + 1) % size, prev = (rank - 1 + size) % size;

    for (int round = 0; round < 2; ++round) {
        MPI_Request req = MPI_REQUEST_NULL;
        MPI_Status st;
        if (round == 0) MPI_Irecv(in, bytes, MPI_BYTE, MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, &req);
        for (int i = 0; i < bytes; ++i) out[i] = (unsigned char)(rank * 7 + round + i);
        MPI_Send(out, bytes, MPI_BYTE, next, 2, MPI_COMM_WORLD);
        if (round == 0) MPI_Wait(&req, &st);
        else MPI_Recv(in, bytes, MPI_BYTE, MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, &st);
        int count = -1;
        MPI_Get_count(&st, MPI_BYTE, &count);
        if (st.MPI_SOURCE != prev || count != bytes) {
            printf("FAIL send_buffering: rank %d round %d got %d bytes from %d, expected %d from %d\n", rank, round,
                   count, st.MPI_SOURCE, bytes, prev);
            fflush(stdout);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        check(in, bytes, prev, round, rank);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) printf("PASS send_buffering\n");
    free(out);
    free(in);
    MPI_Finalize();
    return 0;
}
