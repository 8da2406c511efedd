/* fftw_mpi_state: FFTW's MPI transforms (libfftw3_mpi) keep their state in the serial
 * library (libfftw3: the planner, to which fftw_mpi_init adds the MPI solvers, and which
 * fftw_mpi_cleanup frees with fftw_cleanup), which natively each process has for itself.
 * Every rank plans and runs a distributed 3-D r2c transform (in place, as in FFTW's manual)
 * and checks its slab against a serial plan of its own; then all ranks but 0 clean up while
 * rank 0 still holds its plans: it must be able to run its serial plan again, plan anew and
 * destroy them all (with the state shared by a process's ranks, the others' cleanup had freed
 * the planner and its MPI solvers under rank 0, whose new plan took that memory: SIGSEGV in
 * fftw_destroy_plan of the distributed plan). */
#include <fftw3-mpi.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "xsim_test.h"

enum { L = 32, M = 24, N = 20, NC = N / 2 + 1 };

static double value(ptrdiff_t i, ptrdiff_t j, ptrdiff_t k, int round)
{
    return sin(0.3 * (double)i + 1.0 + round) * cos(0.17 * (double)(j * j)) + 0.01 * (double)k;
}

static void serial_input(double *in, int round)
{
    for (ptrdiff_t i = 0; i < L; ++i)
        for (ptrdiff_t j = 0; j < M; ++j)
            for (ptrdiff_t k = 0; k < N; ++k) in[(i * M + j) * N + k] = value(i, j, k, round);
}

int main(int argc, char **argv)
{
    xt_t xt, *t = &xt;
    ptrdiff_t n0, start, alloc;
    xt_init(t, &argc, &argv, "fftw_mpi_state");
    fftw_mpi_init();
    alloc = fftw_mpi_local_size_3d(L, M, NC, MPI_COMM_WORLD, &n0, &start);
    double *data = fftw_alloc_real(2 * (size_t)alloc + 2);
    fftw_complex *slab = (fftw_complex *)data;
    fftw_plan dist = fftw_mpi_plan_dft_r2c_3d(L, M, N, data, slab, MPI_COMM_WORLD, FFTW_ESTIMATE);
    XT_CHECK(t, dist != NULL, "fftw_mpi_plan_dft_r2c_3d returned NULL");
    for (ptrdiff_t i = 0; i < n0; ++i)
        for (ptrdiff_t j = 0; j < M; ++j)
            for (ptrdiff_t k = 0; k < N; ++k) data[(i * M + j) * 2 * NC + k] = value(start + i, j, k, 0);
    fftw_execute(dist);
    /* and a 2-D complex transform with its transposed output, forward then back */
    ptrdiff_t m0, m0start, m1, m1start, n2 = L + 3, n3 = M + 5;
    ptrdiff_t alloc2 = fftw_mpi_local_size_2d_transposed(n2, n3, MPI_COMM_WORLD, &m0, &m0start, &m1, &m1start);
    fftw_complex *c = fftw_alloc_complex((size_t)alloc2 + 1);
    fftw_plan fw = fftw_mpi_plan_dft_2d(n2, n3, c, c, MPI_COMM_WORLD, FFTW_FORWARD, FFTW_ESTIMATE | FFTW_MPI_TRANSPOSED_OUT);
    fftw_plan bw = fftw_mpi_plan_dft_2d(n2, n3, c, c, MPI_COMM_WORLD, FFTW_BACKWARD, FFTW_ESTIMATE | FFTW_MPI_TRANSPOSED_IN);
    XT_CHECK(t, fw != NULL && bw != NULL, "fftw_mpi_plan_dft_2d returned NULL");
    for (ptrdiff_t x = 0; x < m0 * n3; ++x) {
        c[x][0] = value(m0start + x / n3, x % n3, 1, 0);
        c[x][1] = value(x % n3, m0start + x / n3, 2, 0);
    }
    fftw_execute(fw);
    fftw_execute(bw);
    double back = 0;
    for (ptrdiff_t x = 0; x < m0 * n3; ++x)
        back = fmax(back, fmax(fabs(c[x][0] / (double)(n2 * n3) - value(m0start + x / n3, x % n3, 1, 0)),
                               fabs(c[x][1] / (double)(n2 * n3) - value(x % n3, m0start + x / n3, 2, 0))));
    XT_CHECK(t, back < 1e-12, "rank %d: 2-D forward and backward transforms are off by %g", t->rank, back);

    double *in = fftw_alloc_real(L * M * N);
    fftw_complex *out = fftw_alloc_complex(L * M * NC);
    fftw_plan serial = fftw_plan_dft_r2c_3d(L, M, N, in, out, FFTW_ESTIMATE);
    XT_CHECK(t, serial != NULL, "fftw_plan_dft_r2c_3d returned NULL");
    serial_input(in, 0);
    fftw_execute(serial);
    double err = 0;
    for (ptrdiff_t x = 0; x < n0 * M * NC; ++x) {
        const double *a = out[start * M * NC + x], *b = slab[x];
        err = fmax(err, fmax(fabs(a[0] - b[0]), fabs(a[1] - b[1])));
    }
    XT_CHECK(t, err < 1e-9, "rank %d: distributed and serial transforms differ by %g", t->rank, err);

    /* Every rank but 0 is done with FFTW; rank 0 still holds its plans. */
    MPI_Barrier(MPI_COMM_WORLD);
    if (t->rank != 0) {
        fftw_destroy_plan(dist);
        fftw_destroy_plan(fw);
        fftw_destroy_plan(bw);
        fftw_destroy_plan(serial);
        fftw_mpi_cleanup();
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (t->rank == 0) {
        double direct = 0;
        serial_input(in, 1);
        for (ptrdiff_t x = 0; x < L * M * N; ++x) direct += in[x];
        fftw_execute(serial);
        XT_CHECK(t, fabs(out[0][0] - direct) < 1e-9 * fabs(direct) + 1e-9,
                 "rank 0: serial plan after the others' cleanup: DC term %g, expected %g", out[0][0], direct);
        /* a new plan, out of place the other way round, made after the others' cleanup */
        fftw_complex *half = fftw_alloc_complex(L * M * NC);
        double *real = fftw_alloc_real(L * M * N);
        fftw_plan inverse = fftw_plan_dft_c2r_3d(L, M, N, half, real, FFTW_ESTIMATE);
        XT_CHECK(t, inverse != NULL, "fftw_plan_dft_c2r_3d returned NULL");
        for (ptrdiff_t x = 0; x < L * M * NC; ++x) {
            half[x][0] = out[x][0];
            half[x][1] = out[x][1];
        }
        fftw_execute(inverse);
        double round_trip = 0;
        for (ptrdiff_t x = 0; x < L * M * N; ++x) round_trip = fmax(round_trip, fabs(real[x] / (double)(L * M * N) - in[x]));
        XT_CHECK(t, round_trip < 1e-12, "rank 0: c2r of the r2c is off by %g", round_trip);
        fftw_destroy_plan(inverse);
        fftw_free(half);
        fftw_free(real);
        fftw_destroy_plan(serial);
        fftw_destroy_plan(dist);
        fftw_destroy_plan(fw);
        fftw_destroy_plan(bw);
        fftw_mpi_cleanup();
    }
    fftw_free(data);
    fftw_free(c);
    fftw_free(in);
    fftw_free(out);
    return xt_finish(t, NULL);
}
