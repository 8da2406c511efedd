/* skeleton.h: small helpers shared by the skeleton applications (header only, C99).
 *
 * The skeletons are plain MPI programs. Built with -lxsim they run under xsim and model
 * their compute phases with xsim_compute(); built against MPI alone (no libxsim) they run
 * on a real machine and sleep instead. The xsim API is declared weak here, so the same
 * source links either way: without libxsim, &xsim_active is NULL.
 *
 * Simulated ranks of one real process share globals and statics under xsim: nothing here
 * keeps state outside the caller's stack or heap. */
#ifndef XSIM_SKELETON_H
#define XSIM_SKELETON_H

#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xsim.h"

#pragma weak xsim_active
#pragma weak xsim_compute

/* A compute phase of `seconds`: modeled under xsim, a real sleep otherwise. */
static inline void skel_compute(double seconds)
{
    if (seconds <= 0) return;
    if (xsim_active && xsim_active()) {
        xsim_compute(seconds);
    } else {
        usleep((useconds_t)(seconds * 1e6 + 0.5));
    }
}

/* 1 when receive buffers are written (real MPI, or xsim with -xsim-payload on), 0 in xsim's
 * application-model mode (-xsim-payload off). Found out with one message to self, so every
 * rank agrees and the answer costs the same in both modes. Call it before the timed part. */
static inline int skel_payload_on(MPI_Comm comm)
{
    int rank, out, in = -1;
    MPI_Comm_rank(comm, &rank);
    out = 12345;
    MPI_Sendrecv(&out, 1, MPI_INT, rank, 32000, &in, 1, MPI_INT, rank, 32000, comm, MPI_STATUS_IGNORE);
    return in == 12345;
}

/* Buffers of `bytes` bytes, or NULL when the payload is off (envelopes only: no memory). */
static inline void *skel_alloc(size_t bytes, int payload)
{
    void *p;
    if (!payload || bytes == 0) return NULL;
    p = calloc(1, bytes);
    if (!p) {
        fprintf(stderr, "skeleton: out of memory (%zu bytes)\n", bytes);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return p;
}

/* Start of the timed part: a barrier, then the clock. */
static inline double skel_start(MPI_Comm comm)
{
    MPI_Barrier(comm);
    return MPI_Wtime();
}

/* End of the timed part: a barrier (everyone done), then rank 0 prints
 * "<name>: N ranks, predicted time X s (<details>)". The barrier carries no data, so the
 * result is the same with the payload on or off. */
static inline void skel_finish(MPI_Comm comm, const char *name, double start, const char *details)
{
    int rank, size;
    double elapsed;
    MPI_Barrier(comm);
    elapsed = MPI_Wtime() - start;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    if (rank == 0) {
        printf("%s: %d ranks, predicted time %.9f s (%s)\n", name, size, elapsed, details);
        fflush(stdout);
    }
}

/* Factor n into `ndims` near-equal factors (largest first), like MPI_Dims_create: each
 * prime factor, largest first, goes to the currently smallest dimension. */
static inline void skel_dims(int n, int ndims, int *dims)
{
    int primes[64], count = 0, i, j, p, m = n;
    for (i = 0; i < ndims; ++i) dims[i] = 1;
    for (p = 2; (long long)p * p <= m; ++p)
        while (m % p == 0) { primes[count++] = p; m /= p; }
    if (m > 1) primes[count++] = m;
    for (i = count - 1; i >= 0; --i) { /* primes ascend: walk them largest first */
        int smallest = 0;
        for (j = 1; j < ndims; ++j)
            if (dims[j] < dims[smallest]) smallest = j;
        dims[smallest] *= primes[i];
    }
    for (i = 0; i < ndims; ++i) /* sort descending */
        for (j = i + 1; j < ndims; ++j)
            if (dims[j] > dims[i]) { p = dims[i]; dims[i] = dims[j]; dims[j] = p; }
}

/* A deterministic value in [0, 1) from an integer (splitmix64): task-dependent work
 * without shared random state. */
static inline double skel_hash01(unsigned long long x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return (double)(x >> 11) / 9007199254740992.0;
}

/* Integer and floating-point command-line options of the form "-x VALUE". */
static inline int skel_opt_int(int argc, char **argv, const char *flag, int fallback)
{
    int i;
    for (i = 1; i + 1 < argc; ++i)
        if (strcmp(argv[i], flag) == 0) return atoi(argv[i + 1]);
    return fallback;
}

static inline double skel_opt_double(int argc, char **argv, const char *flag, double fallback)
{
    int i;
    for (i = 1; i + 1 < argc; ++i)
        if (strcmp(argv[i], flag) == 0) return atof(argv[i + 1]);
    return fallback;
}

#endif /* XSIM_SKELETON_H */
