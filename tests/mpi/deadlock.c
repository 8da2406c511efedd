/* deadlock: a program that deadlocks on purpose (xsim must detect it).
 *
 * After one valid exchange and barrier, ranks 0 and 1 each MPI_Recv from the
 * other (no matching sends exist) while all other ranks wait in MPI_Barrier.
 * With N == 1, rank 0 receives from itself. Under xsim the run must end with a
 * non-zero exit status and a report containing the word "deadlock" (the
 * harness masks the executable's name before matching).
 *
 * DO NOT run on real MPI without a timeout: it hangs by design.
 * This program itself never prints the word it is matched against; if a
 * receive ever returns, it prints a FAIL line and aborts.
 */
#define _DEFAULT_SOURCE
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, size, v = 0, w = -1;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* Some valid traffic first, so the hang happens mid-run. */
    v = rank;
    MPI_Sendrecv(&v, 1, MPI_INT, (rank + 1) % size, 1, &w, 1, MPI_INT, (rank - 1 + size) % size, 1,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (w != (rank - 1 + size) % size) {
        printf("FAIL recv_cycle: rank %d: warm-up exchange got %d\n", rank, w);
        fflush(stdout);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    usleep(1000);
    MPI_Barrier(MPI_COMM_WORLD);

    if (rank == 0 || rank == 1) {
        int peer = (size == 1) ? 0 : 1 - rank;
        MPI_Recv(&v, 1, MPI_INT, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        /* Unreachable with a correct MPI: nobody sends tag 2. */
        printf("FAIL recv_cycle: rank %d: MPI_Recv from %d returned although nothing was sent\n", rank,
               peer);
        fflush(stdout);
        MPI_Abort(MPI_COMM_WORLD, 1);
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
        printf("FAIL recv_cycle: rank %d: MPI_Barrier completed without ranks 0 and 1\n", rank);
        fflush(stdout);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Finalize();
    return 0;
}
