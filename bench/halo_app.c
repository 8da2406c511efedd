/* halo_app: the communication of a real 2-D stencil code, for -xsim-payload thresholds.
 * Rank 0 reads the run's parameters (argv) and broadcasts them as a struct; every rank
 * mallocs one block of four send faces and one of four receive faces (FACE doubles each,
 * default 8192: 64 KiB, the bulk), exchanges them with its four neighbours on a periodic
 * 2-D grid every iteration, "computes" (usleep: virtual time under xsim) and agrees on a
 * residual with MPI_Allreduce. The faces are touched only through MPI, as a code that packs
 * into and unpacks from them would touch them only around its calls: so what a rank costs
 * in memory is what the MPI layer writes into them. The residual comes from rank-local
 * values (dyadic: exact) and is checked on every rank, as the broadcast parameters are;
 * with -xsim-payload auto both stay exact while the faces are dropped.
 *   halo_app [-f FACE] [-i ITERATIONS] [-c COMPUTE_US]
 * Rank 0 prints "halo_app: N ranks, predicted time X s, results checked". Plain MPI. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct params {
    int face, iterations, compute_us;
    double tolerance;
};

int main(int argc, char **argv)
{
    struct params p;
    int rank, size, dims[2] = {0, 0}, periods[2] = {1, 1}, nb[4], d, it, i, errors = 0, all_errors = 0;
    MPI_Comm grid;
    MPI_Request req[8];
    double *send, *recv, t0, t1;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    memset(&p, 0, sizeof p);
    if (rank == 0) {
        p.face = 8192;
        p.iterations = 5;
        p.compute_us = 100;
        p.tolerance = 0.0009765625;
        for (i = 1; i + 1 < argc; i += 2) {
            if (strcmp(argv[i], "-f") == 0) p.face = atoi(argv[i + 1]);
            else if (strcmp(argv[i], "-i") == 0) p.iterations = atoi(argv[i + 1]);
            else if (strcmp(argv[i], "-c") == 0) p.compute_us = atoi(argv[i + 1]);
        }
    }
    MPI_Bcast(&p, (int)sizeof p, MPI_BYTE, 0, MPI_COMM_WORLD);
    if (p.face < 1 || p.iterations < 1 || p.tolerance != 0.0009765625) {
        fprintf(stderr, "halo_app: rank %d received bad parameters (face %d, iterations %d)\n", rank, p.face,
                p.iterations);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Dims_create(size, 2, dims);
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
    MPI_Cart_shift(grid, 0, 1, &nb[0], &nb[1]);
    MPI_Cart_shift(grid, 1, 1, &nb[2], &nb[3]);
    send = malloc(sizeof(double) * 4 * (size_t)p.face);
    recv = malloc(sizeof(double) * 4 * (size_t)p.face);
    if (!send || !recv) {
        fprintf(stderr, "halo_app: rank %d: out of memory\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Barrier(grid);
    t0 = MPI_Wtime();
    for (it = 0; it < p.iterations; ++it) {
        double local = rank * 0.5 + it, residual = 0.0, want;
        for (d = 0; d < 4; ++d) {
            /* Face d goes to neighbour d and comes back from it: tag by direction. */
            MPI_Irecv(recv + (size_t)d * p.face, p.face, MPI_DOUBLE, nb[d], d ^ 1, grid, &req[d]);
            MPI_Isend(send + (size_t)d * p.face, p.face, MPI_DOUBLE, nb[d], d, grid, &req[4 + d]);
        }
        MPI_Waitall(8, req, MPI_STATUSES_IGNORE);
        usleep((useconds_t)p.compute_us);
        MPI_Allreduce(&local, &residual, 1, MPI_DOUBLE, MPI_SUM, grid);
        want = 0.25 * (double)size * (double)(size - 1) + (double)it * size;
        if (residual != want) ++errors;
    }
    t1 = MPI_Wtime();
    MPI_Reduce(&errors, &all_errors, 1, MPI_INT, MPI_SUM, 0, grid);
    if (rank == 0) {
        printf("halo_app: %d ranks, predicted time %.9f s, %s\n", size, t1 - t0,
               all_errors ? "results WRONG" : "results checked");
        fflush(stdout);
    }
    free(send);
    free(recv);
    MPI_Comm_free(&grid);
    MPI_Finalize();
    return all_errors ? 1 : 0;
}
