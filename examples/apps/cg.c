/*
 * cg.c -- a conjugate-gradient benchmark in the style of the NAS Parallel Benchmarks' CG.
 *
 * As in NAS CG, an inverse power iteration estimates the smallest eigenvalue of a sparse
 * symmetric positive definite matrix: each outer iteration solves A z = x with 25 conjugate
 * gradient steps, then zeta = 1 / (x . z) and x = z / ||z||.
 *
 * Written the way the original is: the CSR matrix, the vectors, the halo buffers, the row range
 * and the dot-product partial sums are file-scope globals, and the global arrays and scalars are
 * what MPI sends from and receives into (MPI_Sendrecv halos, MPI_Allreduce of dot products);
 * options come from getopt in every rank.
 *
 * The matrix is the 5-point Laplacian of an nx x ny grid (Dirichlet) plus a diagonal term in
 * [0.5, 1.5) hashed from the global row number, so it does not depend on the decomposition.
 * Rows are distributed in contiguous blocks of at least nx rows, so a matrix-vector product
 * needs nx values from each neighbouring rank.
 *
 * Answers: the number of nonzeros (exact) and zeta (relative tolerance 1e-10; dot products are
 * summed in a decomposition-dependent order). Self-checks: the last CG residual is small and
 * zeta lies within the Gershgorin bounds of the matrix.
 *
 * usage: cg [-x nx] [-y ny] [-i outer iterations] [-c cg iterations]
 */
#define _POSIX_C_SOURCE 200809L /* getopt */
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* Parameters (NAS: npbparams.h). */
int nx = 32, ny = 512;
int niter = 15, cgitmax = 25;

int me, nprocs;
long naa;               /* matrix order nx * ny */
long firstrow, lastrow; /* this rank's rows, inclusive */
int nrows;
int left_nbr, right_nbr;

/* CSR matrix with global column indices. */
int *rowstr;
long *colidx;
double *a;
long nzz; /* local nonzeros */

/* Vectors over the local rows; p_ext has nx halo values on each side. */
double *x, *z, *p, *q, *r, *p_ext;

/* Dot-product partial sums and their totals, reduced straight from and into globals. */
double d_local[2], d_global[2];

static double row_shift(long g)
{
    uint64_t h = (uint64_t)g * 0x9E3779B97F4A7C15ULL;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 32;
    return 0.5 + (double)(h >> 11) * (1.0 / 9007199254740992.0);
}

static void die(const char *text)
{
    if (me == 0)
        fprintf(stderr, "cg: %s\nusage: cg [-x nx] [-y ny] [-i outer iterations] [-c cg iterations]\n", text);
    MPI_Finalize();
    exit(2);
}

static int positive(const char *text)
{
    char *end;
    long v = strtol(text, &end, 10);
    if (*text == '\0' || *end != '\0' || v < 1 || v > 1000000)
        die("option values must be integers in [1, 1000000]");
    return (int)v;
}

void parse_options(int argc, char **argv)
{
    int c;
    while ((c = getopt(argc, argv, "x:y:i:c:")) != -1) {
        switch (c) {
        case 'x': nx = positive(optarg); break;
        case 'y': ny = positive(optarg); break;
        case 'i': niter = positive(optarg); break;
        case 'c': cgitmax = positive(optarg); break;
        default: die("unknown option");
        }
    }
    if (optind < argc)
        die("unexpected argument");
}

void setup(void)
{
    long i, base, extra;
    naa = (long)nx * ny;
    base = naa / nprocs;
    extra = naa % nprocs;
    if (base < nx)
        die("each rank needs at least nx rows (nx * ny >= nx * ranks): use a larger -y");
    firstrow = me * base + (me < extra ? me : extra);
    nrows = (int)(base + (me < extra ? 1 : 0));
    lastrow = firstrow + nrows - 1;
    left_nbr = me > 0 ? me - 1 : MPI_PROC_NULL;
    right_nbr = me < nprocs - 1 ? me + 1 : MPI_PROC_NULL;

    rowstr = malloc(sizeof(int) * (size_t)(nrows + 1));
    colidx = malloc(sizeof(long) * (size_t)nrows * 5);
    a = malloc(sizeof(double) * (size_t)nrows * 5);
    x = malloc(sizeof(double) * (size_t)nrows);
    z = malloc(sizeof(double) * (size_t)nrows);
    p = malloc(sizeof(double) * (size_t)nrows);
    q = malloc(sizeof(double) * (size_t)nrows);
    r = malloc(sizeof(double) * (size_t)nrows);
    p_ext = malloc(sizeof(double) * (size_t)(nrows + 2 * nx));
    if (!rowstr || !colidx || !a || !x || !z || !p || !q || !r || !p_ext) {
        fprintf(stderr, "cg: rank %d: out of memory\n", me);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }

    /* makea: 5-point Laplacian plus a hashed diagonal shift, columns in ascending order. */
    nzz = 0;
    for (i = 0; i < nrows; i++) {
        long g = firstrow + i, gi = g % nx, gj = g / nx;
        rowstr[i] = (int)nzz;
        if (gj > 0) { colidx[nzz] = g - nx; a[nzz++] = -1.0; }
        if (gi > 0) { colidx[nzz] = g - 1; a[nzz++] = -1.0; }
        colidx[nzz] = g; a[nzz++] = 4.0 + row_shift(g);
        if (gi < nx - 1) { colidx[nzz] = g + 1; a[nzz++] = -1.0; }
        if (gj < ny - 1) { colidx[nzz] = g + nx; a[nzz++] = -1.0; }
    }
    rowstr[nrows] = (int)nzz;
}

/* Two dot products in one reduction, from and into the global partial sums. */
static void dot2(const double *u1, const double *v1, const double *u2, const double *v2)
{
    int i;
    d_local[0] = d_local[1] = 0.0;
    for (i = 0; i < nrows; i++) {
        d_local[0] += u1[i] * v1[i];
        if (u2)
            d_local[1] += u2[i] * v2[i];
    }
    MPI_Allreduce(d_local, d_global, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

/* q = A p, with the nx halo values of p on each side received into p_ext. */
static void matvec(void)
{
    int i, k;
    for (i = 0; i < nrows; i++)
        p_ext[nx + i] = p[i];
    MPI_Sendrecv(&p_ext[nx], nx, MPI_DOUBLE, left_nbr, 1, &p_ext[nx + nrows], nx, MPI_DOUBLE,
                 right_nbr, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&p_ext[nrows], nx, MPI_DOUBLE, right_nbr, 2, &p_ext[0], nx, MPI_DOUBLE,
                 left_nbr, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (i = 0; i < nrows; i++) {
        double sum = 0.0;
        for (k = rowstr[i]; k < rowstr[i + 1]; k++)
            sum += a[k] * p_ext[colidx[k] - firstrow + nx];
        q[i] = sum;
    }
}

/* NAS conj_grad: solve A z = x from z = 0; returns ||x - A z||. */
double conj_grad(void)
{
    int i, cgit;
    double rho, rho0, alpha, beta, rnorm;

    for (i = 0; i < nrows; i++) {
        q[i] = 0.0;
        z[i] = 0.0;
        r[i] = x[i];
        p[i] = r[i];
    }
    dot2(r, r, NULL, NULL);
    rho = d_global[0];
    for (cgit = 1; cgit <= cgitmax; cgit++) {
        matvec();
        dot2(p, q, NULL, NULL);
        alpha = rho / d_global[0];
        rho0 = rho;
        for (i = 0; i < nrows; i++) {
            z[i] += alpha * p[i];
            r[i] -= alpha * q[i];
        }
        dot2(r, r, NULL, NULL);
        rho = d_global[0];
        beta = rho / rho0;
        for (i = 0; i < nrows; i++)
            p[i] = r[i] + beta * p[i];
    }
    /* Explicit residual ||x - A z||. */
    for (i = 0; i < nrows; i++)
        p[i] = z[i];
    matvec();
    for (i = 0; i < nrows; i++)
        r[i] = x[i] - q[i];
    dot2(r, r, NULL, NULL);
    rnorm = sqrt(d_global[0]);
    return rnorm;
}

int main(int argc, char **argv)
{
    int it, i;
    double zeta = 0.0, rnorm = 0.0, t0, t, dmin, dmax;
    long nz_total = 0;
    int ok;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    parse_options(argc, argv);
    setup();
    MPI_Allreduce(&nzz, &nz_total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);

    if (me == 0) {
        printf("\n\n NAS-style Parallel Benchmark -- CG Benchmark\n\n");
        printf(" Size: %11ld (%d x %d grid)\n", naa, nx, ny);
        printf(" Iterations: %5d x %d CG steps\n", niter, cgitmax);
        printf(" Number of processes: %5d\n\n", nprocs);
    }

    for (i = 0; i < nrows; i++)
        x[i] = 1.0;
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    for (it = 1; it <= niter; it++) {
        rnorm = conj_grad();
        /* zeta = 1 / (x . z); x = z / ||z|| (NAS uses shift + 1 / (x . z)). */
        dot2(x, z, z, z);
        zeta = 1.0 / d_global[0];
        for (i = 0; i < nrows; i++)
            x[i] = z[i] / sqrt(d_global[1]);
        if (me == 0)
            printf("    %5d       %20.14e%20.13e\n", it, rnorm, zeta);
    }
    t = MPI_Wtime() - t0;

    /* Gershgorin: every eigenvalue lies in [min diag - 4, max diag + 4], diag in [4.5, 5.5). */
    dmin = 0.5;
    dmax = 9.5;
    ok = nz_total == 5 * naa - 2 * nx - 2 * ny && zeta >= dmin && zeta <= dmax && rnorm < 1e-6;
    if (me == 0) {
        printf(" CG Benchmark Completed\n");
        printf(" Time in seconds = %12.6f\n", t);
        printf(" Final residual  = %12.4e\n", rnorm);
        printf("RESULT nonzeros exact %ld\n", nz_total);
        printf("RESULT zeta rel 1e-10 %.15e\n", zeta);
        printf("RESULT verification exact %s\n", ok ? "SUCCESSFUL" : "UNSUCCESSFUL");
    }
    free(rowstr);
    free(colidx);
    free(a);
    free(x);
    free(z);
    free(p);
    free(q);
    free(r);
    free(p_ext);
    MPI_Finalize();
    return ok ? 0 : 1;
}
