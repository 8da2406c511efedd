/* unsupported_calls: a call xsim does not simulate stops the run with a message naming it and
 * the rank, never reaching the real library with xsim's handles. Rank 1 makes the call the
 * argument names:
 *   dynamic_processes      MPI_Comm_spawn (mpi.h)
 * Anything else, or a call that returns, is a failure. (Open MPI's persistent collectives,
 * MPIX_*_init, were the other case until xsim simulated them: tests/conformance/coll_persistent.c.) */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (argc < 2) {
        fprintf(stderr, "FAIL unsupported_calls: usage: unsupported_calls dynamic_processes\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (rank == 1) {
        if (strcmp(argv[1], "dynamic_processes") == 0) {
            MPI_Comm children;
            MPI_Comm_spawn("child", MPI_ARGV_NULL, 1, MPI_INFO_NULL, 0, MPI_COMM_SELF, &children, MPI_ERRCODES_IGNORE);
        }
        fprintf(stderr, "FAIL unsupported_calls: rank 1: %s returned\n", argv[1]);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
