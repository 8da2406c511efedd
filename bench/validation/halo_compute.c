/* A 1-D halo exchange with real compute: each rank owns -m doubles, relaxes them (a 3-point
 * stencil, real arithmetic) and exchanges one boundary value with each neighbour, -n times. */
#include "validation.h"

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const long n = arg_long(argc, argv, "-m", 20000), steps = arg_long(argc, argv, "-n", 500);
    double* u = calloc((size_t)n + 2, sizeof *u);
    double* v = calloc((size_t)n + 2, sizeof *v);
    for (long i = 1; i <= n; ++i) u[i] = (double)(rank * n + i);
    const int left = rank > 0 ? rank - 1 : MPI_PROC_NULL, right = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
    double start = start_timing();
    for (long s = 0; s < steps; ++s) {
        MPI_Sendrecv(&u[1], 1, MPI_DOUBLE, left, 0, &u[n + 1], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Sendrecv(&u[n], 1, MPI_DOUBLE, right, 1, &u[0], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (long i = 1; i <= n; ++i) v[i] = 0.25 * u[i - 1] + 0.5 * u[i] + 0.25 * u[i + 1];
        double* t = u; u = v; v = t;
    }
    report_timing("halo_compute", start, u[n / 2]);
    free(u);
    free(v);
    MPI_Finalize();
    return 0;
}
