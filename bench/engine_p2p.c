/* engine_p2p: the raw point-to-point speed of xsim's engine (bench/engine_p2p.sh runs it).
 * A plain MPI C99 program; run it under xsim with -xsim-report and divide the report's
 * messages and context_switches by its wall_time_s.
 *
 *   -mode shift (default): ROUNDS times, every rank sends SIZE bytes to its right neighbour
 *        and receives from its left one (MPI_Sendrecv): N messages in flight per round;
 *        every rank blocks once per round, so about one context switch per message.
 *   -mode token: one token goes around the ring ROUNDS times (MPI_Recv then MPI_Send):
 *        only one rank can run at a time, the worst case of one switch per message.
 * Options: -mode shift|token, -rounds R (10), -size BYTES (8), -type bytes|vector (bytes):
 * with vector, shift sends one MPI_Type_vector(4, 2, 8, MPI_INT) element (32 bytes of data
 * out of 104), the path of a halo exchange's derived type, instead of SIZE chars.
 * No collectives, no compute: only the engine's message path and fiber switches.
 * Rank 0 prints: engine_p2p: N ranks, predicted time X s (... messages ...) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    int rank, size, round, i, token = 0, rounds = 10, bytes = 8;
    const char *mode = "shift", *type = "bytes";
    MPI_Datatype vector;
    char send[256], recv[256]; /* small: touched stack pages cost memory per rank */
    double start, elapsed;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (i = 1; i + 1 < argc; ++i) {
        if (strcmp(argv[i], "-mode") == 0) mode = argv[i + 1];
        if (strcmp(argv[i], "-rounds") == 0) rounds = atoi(argv[i + 1]);
        if (strcmp(argv[i], "-size") == 0) bytes = atoi(argv[i + 1]);
        if (strcmp(argv[i], "-type") == 0) type = argv[i + 1];
    }
    if (bytes < 0 || bytes > (int)sizeof send || rounds < 0 || (strcmp(mode, "shift") && strcmp(mode, "token")) ||
        (strcmp(type, "bytes") && strcmp(type, "vector"))) {
        if (rank == 0)
            fprintf(stderr, "engine_p2p: -mode shift|token, -rounds >= 0, 0 <= -size <= 256, -type bytes|vector\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Type_vector(4, 2, 8, MPI_INT, &vector); /* extent 104 bytes: fits in send and recv */
    MPI_Type_commit(&vector);
    memset(send, 1, sizeof send);
    const int right = (rank + 1) % size, left = (rank - 1 + size) % size;

    start = MPI_Wtime();
    if (strcmp(mode, "shift") == 0) {
        const int vectors = strcmp(type, "vector") == 0;
        const int count = vectors ? 1 : bytes;
        const MPI_Datatype t = vectors ? vector : MPI_CHAR;
        if (vectors) bytes = 32;
        for (round = 0; round < rounds; ++round)
            MPI_Sendrecv(send, count, t, right, round, recv, count, t, left, round, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (size > 1) {
        for (round = 0; round < rounds; ++round) {
            if (rank == 0) {
                MPI_Send(&token, 1, MPI_INT, right, round, MPI_COMM_WORLD);
                MPI_Recv(&token, 1, MPI_INT, left, round, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(&token, 1, MPI_INT, left, round, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(&token, 1, MPI_INT, right, round, MPI_COMM_WORLD);
            }
        }
    }
    elapsed = MPI_Wtime() - start;
    if (rank == 0)
        printf("engine_p2p: %d ranks, predicted time %.9f s (mode %s, %d rounds, %lld messages of %d bytes%s)\n", size,
               elapsed, mode, rounds, (long long)size * rounds, strcmp(mode, "shift") == 0 ? bytes : 4,
               strcmp(mode, "shift") == 0 && strcmp(type, "vector") == 0 ? " in a vector type" : "");
    MPI_Type_free(&vector);
    MPI_Finalize();
    return 0;
}
