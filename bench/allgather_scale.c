/* allgather_scale: one MPI_Allgather of about TOTAL bytes in all (each rank contributes
 * TOTAL / size bytes, at least 1), repeated ITERS times, the result checked on every rank.
 * Rank 0 prints "predicted <virtual seconds>" and the block size.
 * Usage: allgather_scale [TOTAL=65536] [ITERS=1] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
    int rank, size, iter, r, bad = 0, all_bad = 0;
    long total = argc > 1 ? atol(argv[1]) : 65536;
    int iters = argc > 2 ? atoi(argv[2]) : 1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int block = (int)(total / size > 0 ? total / size : 1);
    unsigned char* mine = malloc((size_t)block);
    unsigned char* all = malloc((size_t)block * (size_t)size);
    if (!mine || !all) {
        fprintf(stderr, "allgather_scale: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    double t0 = MPI_Wtime();
    for (iter = 0; iter < iters; iter++) {
        for (r = 0; r < block; r++) mine[r] = (unsigned char)(rank * 7 + r + iter);
        MPI_Allgather(mine, block, MPI_BYTE, all, block, MPI_BYTE, MPI_COMM_WORLD);
        for (r = 0; r < size && !bad; r++)
            for (int i = 0; i < block; i++)
                if (all[(size_t)r * block + i] != (unsigned char)(r * 7 + i + iter)) bad = 1;
    }
    double t = MPI_Wtime() - t0;
    MPI_Reduce(&bad, &all_bad, 1, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("block %d bytes, total %ld bytes, %d ranks, results %s\n", block, (long)block * size, size,
               all_bad ? "WRONG" : "ok");
        printf("predicted %.9f\n", t);
    }
    free(mine);
    free(all);
    MPI_Finalize();
    return all_bad;
}
