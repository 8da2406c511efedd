/* One MPI_Allgather of TOTAL bytes in all (default 65536; TOTAL / p bytes per rank), its
 * result checked on every rank. Above 50000 bytes the selector picks the ring (p(p-1)
 * messages to simulate); from -xsim-analytic-ranks ranks up (default 4096) the default runs
 * the analytic algorithm instead (p ceil(log2 p) skeleton messages): its
 * virtual time tells which ran (compare_choice.sh).
 * Usage: allgather_default [TOTAL] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int rank = 0, size = 0, bad = 0, all_bad = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const long total = argc > 1 ? atol(argv[1]) : 65536;
    const int block = (int)(total / size > 0 ? total / size : 1);
    unsigned char* mine = malloc((size_t)block);
    unsigned char* all = malloc((size_t)block * (size_t)size);
    if (!mine || !all) {
        fprintf(stderr, "allgather_default: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (int i = 0; i < block; i++) mine[i] = (unsigned char)(rank * 7 + i);
    MPI_Allgather(mine, block, MPI_BYTE, all, block, MPI_BYTE, MPI_COMM_WORLD);
    for (int r = 0; r < size && !bad; r++)
        for (int i = 0; i < block; i++)
            if (all[(size_t)r * block + i] != (unsigned char)(r * 7 + i)) {
                fprintf(stderr, "rank %d: block %d byte %d is %d, expected %d\n", rank, r, i, all[(size_t)r * block + i],
                        (unsigned char)(r * 7 + i));
                bad = 1;
                break;
            }
    /* Point-to-point, so the report's collective messages are the allgather's alone. */
    if (rank == 0) {
        all_bad = bad;
        for (int r = 1; r < size; r++) {
            int b = 0;
            MPI_Recv(&b, 1, MPI_INT, r, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            all_bad |= b;
        }
        printf("VTIME %.12f\n", MPI_Wtime());
        printf(all_bad ? "FAIL allgather_default\n" : "PASS allgather_default\n");
    } else {
        MPI_Send(&bad, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    free(mine);
    free(all);
    MPI_Finalize();
    return all_bad;
}
