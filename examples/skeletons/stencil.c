/* stencil: a 2-D or 3-D Jacobi-like stencil skeleton (built twice: stencil2d, stencil3d).
 *
 * The N ranks form a near-square (2-D) or near-cubic (3-D) grid computed by hand (no
 * MPI_Cart_*); boundaries are not periodic (MPI_PROC_NULL at the faces). Each rank owns a
 * block of side^2 (2-D) or side^3 (3-D) cells. Every iteration:
 *   post Irecv + Isend of one face (side or side^2 doubles) to each neighbour, Waitall,
 *   compute (cells x seconds-per-cell),
 *   every `-r` iterations an MPI_Allreduce(MAX) of one double (the residual).
 * Options (after xsim's): -d 2|3 (default: from the program name), -i iterations (10),
 *   -s side (2-D 256, 3-D 32), -t seconds per cell update (5e-9), -r residual period (5).
 * No control flow depends on received data, so -xsim-payload on and off predict the same time. */
#include "skeleton.h"

#ifndef STENCIL_DIMS
#define STENCIL_DIMS 2
#endif

int main(int argc, char **argv)
{
    int rank, size, d, i, iter, dims[3], coord[3], stride[3], nreq, payload;
    MPI_Request req[12];
    char details[160];
    double start, residual, global_residual;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int ndims = skel_opt_int(argc, argv, "-d", STENCIL_DIMS);
    const int iterations = skel_opt_int(argc, argv, "-i", 10);
    const int side = skel_opt_int(argc, argv, "-s", ndims == 2 ? 256 : 32);
    const double per_cell = skel_opt_double(argc, argv, "-t", 5e-9);
    const int residual_every = skel_opt_int(argc, argv, "-r", 5);
    if ((ndims != 2 && ndims != 3) || iterations < 0 || side < 1 || residual_every < 1) {
        if (rank == 0) fprintf(stderr, "stencil: bad options (-d 2|3, -i >= 0, -s >= 1, -r >= 1)\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    const double cells = ndims == 2 ? (double)side * side : (double)side * side * side;
    const int face = ndims == 2 ? side : side * side; /* doubles per face */

    /* rank = c0 + dims0 * (c1 + dims1 * c2): dimension 0 fastest */
    skel_dims(size, ndims, dims);
    for (d = 0, stride[0] = 1; d < ndims; ++d) {
        if (d > 0) stride[d] = stride[d - 1] * dims[d - 1];
        coord[d] = (rank / stride[d]) % dims[d];
    }

    payload = skel_payload_on(MPI_COMM_WORLD);
    double *send_face = skel_alloc(sizeof(double) * face, payload);          /* same data to all */
    double *recv_face = skel_alloc(sizeof(double) * face * 2 * ndims, payload); /* one per neighbour */
    for (i = 0; payload && i < face; ++i) send_face[i] = rank + i * 1e-6;

    start = skel_start(MPI_COMM_WORLD);
    for (iter = 0; iter < iterations; ++iter) {
        nreq = 0;
        for (d = 0; d < ndims; ++d) {
            const int lower = coord[d] > 0 ? rank - stride[d] : MPI_PROC_NULL;
            const int upper = coord[d] < dims[d] - 1 ? rank + stride[d] : MPI_PROC_NULL;
            double *from_lower = recv_face ? recv_face + (size_t)face * (2 * d) : NULL;
            double *from_upper = recv_face ? recv_face + (size_t)face * (2 * d + 1) : NULL;
            /* tag 2d: travelling up; 2d+1: travelling down */
            MPI_Irecv(from_lower, face, MPI_DOUBLE, lower, 2 * d, MPI_COMM_WORLD, &req[nreq++]);
            MPI_Irecv(from_upper, face, MPI_DOUBLE, upper, 2 * d + 1, MPI_COMM_WORLD, &req[nreq++]);
            MPI_Isend(send_face, face, MPI_DOUBLE, upper, 2 * d, MPI_COMM_WORLD, &req[nreq++]);
            MPI_Isend(send_face, face, MPI_DOUBLE, lower, 2 * d + 1, MPI_COMM_WORLD, &req[nreq++]);
        }
        MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE);
        skel_compute(cells * per_cell);
        if ((iter + 1) % residual_every == 0) {
            residual = 1.0 / (1.0 + iter + rank % 7);
            MPI_Allreduce(&residual, &global_residual, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        }
    }
    if (ndims == 2)
        snprintf(details, sizeof details, "grid %dx%d, %d^2 cells per rank, %d iterations", dims[0], dims[1],
                 side, iterations);
    else
        snprintf(details, sizeof details, "grid %dx%dx%d, %d^3 cells per rank, %d iterations", dims[0], dims[1],
                 dims[2], side, iterations);
    skel_finish(MPI_COMM_WORLD, ndims == 2 ? "stencil2d" : "stencil3d", start, details);
    free(send_face);
    free(recv_face);
    MPI_Finalize();
    return 0;
}
