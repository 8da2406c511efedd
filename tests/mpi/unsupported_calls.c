/* unsupported_calls: a call xsim does not simulate stops the run with a message naming it and
 * the rank, never reaching the real library with xsim's handles. Rank 1 makes the call the
 * argument names:
 *   dynamic_processes      MPI_Comm_spawn (mpi.h)
 *   persistent_collective  MPIX_Allreduce_init (Open MPI's extension, <mpi-ext.h>)
 * Anything else, or a call that returns, is a failure (tests/mpi/CMakeLists.txt runs the
 * second only when the MPI has the extension). */
#include <mpi.h>
#if defined(__has_include)
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif
#endif
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    int rank, value = 1, sum = 0;
    MPI_Request request;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (argc < 2) {
        fprintf(stderr, "FAIL unsupported_calls: usage: unsupported_calls dynamic_processes|persistent_collective\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (rank == 1) {
        if (strcmp(argv[1], "dynamic_processes") == 0) {
            MPI_Comm children;
            MPI_Comm_spawn("child", MPI_ARGV_NULL, 1, MPI_INFO_NULL, 0, MPI_COMM_SELF, &children, MPI_ERRCODES_IGNORE);
        } else if (strcmp(argv[1], "persistent_collective") == 0) {
#ifdef OMPI_HAVE_MPI_EXT_PCOLLREQ
            MPIX_Allreduce_init(&value, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &request);
#endif
        }
        fprintf(stderr, "FAIL unsupported_calls: rank 1: %s returned\n", argv[1]);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    (void)request;
    (void)value;
    (void)sum;
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
