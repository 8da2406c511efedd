/* What the analytic-collective test programs (analytic_spanning*.c) share: a rank's failure
 * count and report, the contribution of rank r at index i, and staggered arrivals. */
#ifndef XSIM_TESTS_ANALYTIC_CHECKS_H
#define XSIM_TESTS_ANALYTIC_CHECKS_H
#include <mpi.h>
#include <stdio.h>

#include "xsim.h"

typedef struct {
    int rank;
    long failures;
} check_t;

static inline void fail(check_t* t, const char* what, int at, double got, double want) {
    if (t->failures++ < 5)
        fprintf(stderr, "rank %d: %s: element %d is %g, expected %g\n", t->rank, what, at, got, want);
}

/* Each rank's contribution: distinct per (rank, index), exact in a double. */
static inline double value(int rank, int i) { return rank * 1000.0 + i + 0.5; }

/* Ranks arrive at different virtual times: the last arrival decides every completion. */
static inline void stagger(MPI_Comm comm, int salt) {
    int r = 0;
    MPI_Comm_rank(comm, &r);
    xsim_compute(1e-6 * (double)((r * 7 + salt) % 5));
}

#endif
