/* deadlock_pattern: every rank blocks in MPI_Ssend in a regular pattern (xsim must group
 * the deadlock report by pattern, not print one line per rank).
 *
 * argv[1]: ring      each rank sends to rank+1 (mod size), nobody receives
 *          pairwise  even ranks send to rank+1, odd ranks to rank-1
 *          scattered rank r sends to (3r+1) mod size: a different offset per rank
 * One valid exchange comes first (16 bytes per rank that did move); the synchronous
 * sends of 4000 bytes never match, so their data never moves.
 * DO NOT run on real MPI without a timeout: it hangs by design. It never prints the
 * words the harness matches; if a send ever returns it prints a FAIL line.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    int rank, size, peer, warm[4] = {0, 1, 2, 3}, got[4];
    static int block[1000];

    if (argc < 2 || (strcmp(argv[1], "ring") && strcmp(argv[1], "pairwise") && strcmp(argv[1], "scattered"))) {
        fprintf(stderr, "usage: %s ring|pairwise|scattered\n", argv[0]);
        return 2;
    }
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Sendrecv(warm, 4, MPI_INT, (rank + 1) % size, 1, got, 4, MPI_INT, (rank + size - 1) % size, 1,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (strcmp(argv[1], "ring") == 0) peer = (rank + 1) % size;
    else if (strcmp(argv[1], "pairwise") == 0) peer = rank % 2 == 0 ? (rank + 1) % size : rank - 1;
    else peer = (int)((3LL * rank + 1) % size);
    MPI_Ssend(block, 1000, MPI_INT, peer, 0, MPI_COMM_WORLD);
    printf("FAIL deadlock_pattern: rank %d: MPI_Ssend to %d returned without a receive\n", rank, peer);
    MPI_Finalize();
    return 1;
}
