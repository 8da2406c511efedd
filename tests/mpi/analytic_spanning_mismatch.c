/* Erroneous calls of the analytic rooted, reduce-scatter and prefix collectives whose data
 * crosses real processes (colls/spanning_exchange.cpp): one rank (the last, on another
 * process than rank 0 when run with -np 2) passes half the count of the others. The call
 * must end in an error naming the mismatch, not hang, crash or return a wrong result.
 * Usage: analytic_spanning_mismatch <reduce|gather|scatter|reduce_scatter_block|scan>,
 * run with that collective forced to analytic (XSIM_COLL_<NAME>=analytic). */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int rank = 0, size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char* mode = argc > 1 ? argv[1] : "";
    const int n = rank == size - 1 ? 2 : 4; /* the last rank disagrees */
    int in[64] = {0}, out[64] = {0};
    if (strcmp(mode, "reduce") == 0) {
        MPI_Reduce(in, out, n, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    } else if (strcmp(mode, "gather") == 0) {
        MPI_Gather(in, n, MPI_INT, out, 4, MPI_INT, 0, MPI_COMM_WORLD);
    } else if (strcmp(mode, "scatter") == 0) {
        MPI_Scatter(in, 4, MPI_INT, out, n, MPI_INT, 0, MPI_COMM_WORLD);
    } else if (strcmp(mode, "reduce_scatter_block") == 0) {
        MPI_Reduce_scatter_block(in, out, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    } else if (strcmp(mode, "scan") == 0) {
        MPI_Scan(in, out, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    } else {
        if (rank == 0) printf("FAIL analytic_spanning_mismatch: unknown mode '%s'\n", mode);
        MPI_Finalize();
        return 1;
    }
    /* The rank that detects the mismatch (the root of reduce and gather, the last rank of
     * scatter and scan, every rank of reduce_scatter_block) ends the run with the error
     * (MPI_ERRORS_ARE_FATAL): a run that gets here and exits 0 fails the test. */
    MPI_Finalize();
    return 0;
}
