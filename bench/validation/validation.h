/* Shared by the validation programs: each measures its own time with MPI_Wtime between two
 * barriers, natively and under xsim alike, and rank 0 prints
 *   <name>: N ranks, predicted time X s
 * (under xsim X is the simulated time; natively it is measured). Compute is real work
 * (a fixed floating-point loop), so xsim's measured-compute mode times it on the host. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* About `us` microseconds of arithmetic on this machine's reference speed; the result is
 * returned so the work cannot be optimised away. */
static double busy_work(long iterations) {
    double x = 1.0;
    for (long i = 0; i < iterations; ++i) x = x * 1.0000001 + 1e-9;
    return x;
}

static double start_timing(void) {
    MPI_Barrier(MPI_COMM_WORLD);
    return MPI_Wtime();
}

static void report_timing(const char* name, double start, double checksum) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double elapsed = MPI_Wtime() - start;
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    double sum;
    MPI_Reduce(&checksum, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) printf("%s: %d ranks, predicted time %.9f s (checksum %.6g)\n", name, size, elapsed, sum);
}

static long arg_long(int argc, char** argv, const char* flag, long fallback) {
    for (int i = 1; i + 1 < argc; ++i)
        if (!strcmp(argv[i], flag)) return atol(argv[i + 1]);
    return fallback;
}
