/* cg: the communication of NAS CG (conjugate gradient on a 2-D process grid) as a skeleton.
 *
 * The N ranks form a near-square rows x cols grid (rank = row * cols + col). Each rank owns
 * a segment of `-n` doubles of the vectors. Per CG iteration (NAS CG's conj_grad loop):
 *   1. sparse matrix-vector product: compute, then sum the partial results across the
 *      process row in ceil(log2 cols) Sendrecv steps (partner col XOR 2^k, recursive
 *      halving: the segment halves every step, as in NAS CG);
 *   2. transpose exchange: Sendrecv of the segment with the transposed position (to the
 *      rank holding (row, col) in column-major order, from its inverse);
 *   3. two dot products: compute, MPI_Allreduce(SUM) of 2 doubles;
 *   4. vector updates (axpy): compute.
 * Outer iterations (-o, default 2) each run -i inner iterations (default 5; NAS uses 25) and
 * end with a residual norm: MPI_Allreduce of 1 double.
 * Options: -o outer, -i inner, -n segment doubles (2048), -t matvec seconds (2e-4),
 *   -v vector-update seconds (2e-5). Data-independent control flow: payload on/off agree. */
#include "skeleton.h"

int main(int argc, char **argv)
{
    int rank, size, dims[2], outer, inner, k, payload;
    char details[160];
    double start, dots[2], sums[2], norm, global_norm;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int outer_iterations = skel_opt_int(argc, argv, "-o", 2);
    const int inner_iterations = skel_opt_int(argc, argv, "-i", 5);
    const int segment = skel_opt_int(argc, argv, "-n", 2048);
    const double matvec_s = skel_opt_double(argc, argv, "-t", 2e-4);
    const double axpy_s = skel_opt_double(argc, argv, "-v", 2e-5);
    if (outer_iterations < 0 || inner_iterations < 0 || segment < 1) {
        if (rank == 0) fprintf(stderr, "cg: bad options (-o >= 0, -i >= 0, -n >= 1)\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }

    skel_dims(size, 2, dims); /* dims[0] >= dims[1] */
    const int cols = dims[0], rows = dims[1];
    const int row = rank / cols, col = rank % cols;
    /* transpose: (row, col) in row-major order -> its index in column-major order */
    const int transpose_to = col * rows + row;
    const int transpose_from = (rank % rows) * cols + rank / rows;
    int steps = 0;
    while ((1 << steps) < cols) ++steps;

    payload = skel_payload_on(MPI_COMM_WORLD);
    double *w = skel_alloc(sizeof(double) * segment, payload);
    double *buf = skel_alloc(sizeof(double) * segment, payload);

    start = skel_start(MPI_COMM_WORLD);
    for (outer = 0; outer < outer_iterations; ++outer) {
        for (inner = 0; inner < inner_iterations; ++inner) {
            /* q = A p: local part, then the sum across the process row */
            skel_compute(matvec_s);
            int length = segment;
            for (k = 0; k < steps; ++k) {
                const int partner_col = col ^ (1 << k);
                const int partner = partner_col < cols ? row * cols + partner_col : MPI_PROC_NULL;
                length = length > 1 ? (length + 1) / 2 : 1;
                MPI_Sendrecv(w, length, MPI_DOUBLE, partner, 100 + k, buf, length, MPI_DOUBLE, partner, 100 + k,
                             MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                skel_compute(axpy_s * length / segment); /* add the received half */
            }
            /* transpose exchange of the reduced segment */
            MPI_Sendrecv(w, length, MPI_DOUBLE, transpose_to, 200, buf, length, MPI_DOUBLE, transpose_from, 200,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            /* rho = r.r and d = p.q */
            skel_compute(axpy_s);
            dots[0] = 1.0 + rank % 3;
            dots[1] = 2.0;
            MPI_Allreduce(dots, sums, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
            /* z += alpha p; r -= alpha q; p = r + beta p */
            skel_compute(3 * axpy_s);
        }
        /* ||r|| */
        skel_compute(matvec_s);
        norm = 1.0;
        MPI_Allreduce(&norm, &global_norm, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    }
    snprintf(details, sizeof details, "grid %dx%d, %d x %d iterations, %d-double segments", rows, cols,
             outer_iterations, inner_iterations, segment);
    skel_finish(MPI_COMM_WORLD, "cg", start, details);
    free(w);
    free(buf);
    MPI_Finalize();
    return 0;
}
