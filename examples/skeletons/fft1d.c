/* fft1d: a distributed 1-D FFT (the "six-step" transpose algorithm) as a skeleton.
 *
 * A transform of n = N * m complex points, m = b * N per rank: the ranks hold an N x m
 * matrix and alternate local FFTs with global transposes. Per transform:
 *   transpose (MPI_Alltoall of b complex doubles per pair: small blocks),
 *   local FFTs (5 m log2 m flops), twiddle factors (6 m flops),
 *   transpose, local FFTs, transpose.
 * Compute phases are modeled at -f flop/s. Options: -i transforms (1), -b complex values
 * per rank pair (1 = 16 bytes), -f flop/s (1e9).
 * Per-rank memory with the payload on is 2 x N x b x 16 bytes (send and receive matrices);
 * with -xsim-payload off the buffers are NULL. Under xsim every Alltoall of N ranks moves
 * N log2 N messages (Bruck) or N^2 (pairwise, large blocks): mind the rank count. */
#include "skeleton.h"

int main(int argc, char **argv)
{
    int rank, size, transform, payload;
    char details[160];
    double start;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int transforms = skel_opt_int(argc, argv, "-i", 1);
    const int block = skel_opt_int(argc, argv, "-b", 1);
    const double flop_rate = skel_opt_double(argc, argv, "-f", 1e9);
    if (transforms < 0 || block < 1 || flop_rate <= 0) {
        if (rank == 0) fprintf(stderr, "fft1d: bad options (-i >= 0, -b >= 1, -f > 0)\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    const double m = (double)block * size; /* local points */
    const double fft_s = 5.0 * m * (m > 1 ? log2(m) : 1.0) / flop_rate;
    const double twiddle_s = 6.0 * m / flop_rate;
    const int count = 2 * block; /* doubles per rank pair (complex = 2 doubles) */

    payload = skel_payload_on(MPI_COMM_WORLD);
    double *a = skel_alloc(sizeof(double) * (size_t)count * size, payload);
    double *b = skel_alloc(sizeof(double) * (size_t)count * size, payload);

    start = skel_start(MPI_COMM_WORLD);
    for (transform = 0; transform < transforms; ++transform) {
        MPI_Alltoall(a, count, MPI_DOUBLE, b, count, MPI_DOUBLE, MPI_COMM_WORLD);
        skel_compute(fft_s + twiddle_s);
        MPI_Alltoall(b, count, MPI_DOUBLE, a, count, MPI_DOUBLE, MPI_COMM_WORLD);
        skel_compute(fft_s);
        MPI_Alltoall(a, count, MPI_DOUBLE, b, count, MPI_DOUBLE, MPI_COMM_WORLD);
    }
    snprintf(details, sizeof details, "%d transform(s) of %.0f points, %d-byte blocks", transforms, m * size,
             count * 8);
    skel_finish(MPI_COMM_WORLD, "fft1d", start, details);
    free(a);
    free(b);
    MPI_Finalize();
    return 0;
}
