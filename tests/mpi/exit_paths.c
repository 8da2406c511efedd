/* exit_paths: a rank leaves the program abnormally; the run must fail, not hang.
 *
 * argv[1] selects what the victim rank (rank 1, or rank 0 when N == 1) does
 * after a first barrier, while every other rank enters a second MPI_Barrier:
 *   return_without_finalize  returns 0 from main without calling MPI_Finalize
 *   exit_nonzero             calls exit(3)
 *   abort                    calls MPI_Abort(MPI_COMM_WORLD, 7)
 *   abort_unnamed            calls MPI_Abort(c, 7) on c, an MPI_Comm_split of the world
 *                            into halves (no name set: the message gives its size)
 * Under xsim each must end with a clear message on stderr and a non-zero exit
 * status. The expected-failure patterns are matched by the harness; this
 * program deliberately prints nothing that could satisfy them by itself
 * (no mode names, no "exit"/"abort"/"finalize" words). An unknown mode prints
 * a usage line and exits 2 before MPI_Init. If the surviving ranks ever get
 * past the second barrier (they must not: the victim never enters it), they
 * print an UNEXPECTED line and exit 0, which the harness counts as a failure.
 */
#define _DEFAULT_SOURCE
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { M_RETURN, M_EXIT, M_ABORT, M_ABORT_UNNAMED };

int main(int argc, char **argv)
{
    int rank, size, victim, mode, v;
    MPI_Comm half;

    if (argc < 2) {
        fprintf(stderr, "usage: %s return_without_finalize|exit_nonzero|abort|abort_unnamed\n", argv[0]);
        return 2;
    }
    if (strcmp(argv[1], "return_without_finalize") == 0) mode = M_RETURN;
    else if (strcmp(argv[1], "exit_nonzero") == 0) mode = M_EXIT;
    else if (strcmp(argv[1], "abort") == 0) mode = M_ABORT;
    else if (strcmp(argv[1], "abort_unnamed") == 0) mode = M_ABORT_UNNAMED;
    else {
        fprintf(stderr, "usage: %s return_without_finalize|exit_nonzero|abort|abort_unnamed\n", argv[0]);
        return 2;
    }

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    victim = size > 1 ? 1 : 0;

    /* Some valid traffic first. */
    v = rank;
    MPI_Sendrecv_replace(&v, 1, MPI_INT, (rank + 1) % size, 1, (rank - 1 + size) % size, 1,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Comm_split(MPI_COMM_WORLD, rank < (size + 1) / 2, rank, &half);

    if (rank == victim) {
        switch (mode) {
        case M_RETURN:
            return 0;
        case M_EXIT:
            exit(3);
        case M_ABORT_UNNAMED:
            MPI_Abort(half, 7);
            return 0; /* not reached */
        default:
            MPI_Abort(MPI_COMM_WORLD, 7);
            return 0; /* not reached */
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    printf("UNEXPECTED rank %d: second barrier completed without rank %d\n", rank, victim);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
