/* What the real MPI library loads for itself as it starts stays its own: one copy per real
 * process, constructed once, never per simulated rank. Run as a singleton (no mpirun) with
 * HWLOC_PLUGINS_PATH naming the directory of hwloc_xsimtest.so (loaded_by_mpi_plugin.c): the
 * MPI library's hwloc loads the plugin in MPI_Init, as a singleton's loads its OpenCL plugin
 * and, under it, Mesa's Rusticl and LLVM (under xsim their constructors ran again in each
 * rank, and LLVM aborted: "Option ... registered more than once"). The plugin aborts when
 * constructed twice; here each rank checks that it was loaded (its mark is there) and that
 * MPI works. */
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define XSIMTEST_MARK_FD 917 /* loaded_by_mpi_plugin.c's */

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int rank = 0, size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int ok = 1;
    if (fcntl(XSIMTEST_MARK_FD, F_GETFD) == -1) {
        printf("FAIL rank %d: hwloc_xsimtest.so was not loaded by the MPI library (HWLOC_PLUGINS_PATH?)\n", rank);
        ok = 0;
    }
    int sum = 0;
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (sum != size * (size - 1) / 2) {
        printf("FAIL rank %d: sum of ranks %d, expected %d\n", rank, sum, size * (size - 1) / 2);
        ok = 0;
    }
    int all = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    const char* expected = getenv("XSIM_TEST_EXPECT_SIZE");
    if (expected && atoi(expected) != size) {
        if (rank == 0) printf("FAIL size %d, expected %s\n", size, expected);
        all = 0;
    }
    if (rank == 0 && all) printf("PASS loaded_by_mpi\n");
    MPI_Finalize();
    return all ? 0 : 1;
}
