/* large_message: one large message each way between rank 0 and rank 1 (bench/large_message.sh
 * runs it). With `mpirun -np 2 ... -xsim-np 2` the two ranks are in different real processes,
 * so the data crosses xsim's link between them (PMPI), as a 2-process native run's does.
 *
 *   large_message MIB     each rank sends MIB MiB to the other with one MPI_Sendrecv, in
 *                         elements of a 1 MiB contiguous type (counts stay ints beyond 2 GiB)
 *
 * Both buffers are filled by the program (their first touch is the program's, natively too);
 * every rank checks every byte it received; rank 0 prints the MPI_Sendrecv's seconds as the
 * bench programs' "predicted time" line (bench/common.sh, predicted_time). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char pattern(int source, size_t i) { return (unsigned char)(source * 131 + i * 7 + (i >> 20)); }

int main(int argc, char **argv)
{
    int rank, size, bad = 0, any_bad = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const long mib = argc > 1 ? atol(argv[1]) : 0;
    if (size != 2 || mib <= 0 || mib > (1L << 20)) {
        if (rank == 0) fprintf(stderr, "large_message: usage: large_message MIB (1 .. 2^20), on exactly 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    const size_t bytes = (size_t)mib << 20;
    unsigned char *out = malloc(bytes), *in = malloc(bytes);
    if (!out || !in) {
        fprintf(stderr, "large_message: rank %d cannot allocate 2 x %zu bytes\n", rank, bytes);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    for (size_t i = 0; i < bytes; ++i) out[i] = pattern(rank, i);
    memset(in, 0, bytes);
    MPI_Datatype mebibyte;
    MPI_Type_contiguous(1 << 20, MPI_BYTE, &mebibyte);
    MPI_Type_commit(&mebibyte);
    const int partner = 1 - rank;
    MPI_Barrier(MPI_COMM_WORLD);
    const double start = MPI_Wtime();
    MPI_Sendrecv(out, (int)mib, mebibyte, partner, 0, in, (int)mib, mebibyte, partner, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    const double elapsed = MPI_Wtime() - start;
    for (size_t i = 0; i < bytes && !bad; ++i)
        if (in[i] != pattern(partner, i)) {
            fprintf(stderr, "large_message: rank %d: byte %zu is %u, expected %u\n", rank, i, in[i], pattern(partner, i));
            bad = 1;
        }
    MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0)
        printf("large_message: 2 ranks, predicted time %.6f s (the MPI_Sendrecv, MPI_Wtime), %ld MiB each way, %s\n",
               elapsed, mib, any_bad ? "WRONG DATA" : "data checked");
    MPI_Type_free(&mebibyte);
    free(out);
    free(in);
    MPI_Finalize();
    return any_bad;
}
