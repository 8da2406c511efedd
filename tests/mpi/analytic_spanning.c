/* Analytic collectives with data on communicators that span real processes
 * (colls/spanning_exchange.cpp): Allgather, Allgatherv, Allreduce (a commutative op and a
 * non-commutative user op), Bcast from a non-zero root, Alltoall, Alltoallv, Barrier, on
 * MPI_COMM_WORLD and on split communicators (odd/even ranks, and WORLD reversed), blocking
 * and nonblocking. Ranks arrive at different virtual times (xsim_compute), so a result can
 * only be right if the data waits for the latest arrival. Every rank checks its results;
 * rank 0 prints "VTIME <step> <seconds>" (its clock after each step), which must be the same
 * on any number of real processes. Run with the collectives forced to analytic
 * (XSIM_COLL_<NAME>=analytic) and -xsim-compute none. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analytic_checks.h"

/* Non-commutative and associative: elements are pairs (m, c), the affine maps x -> m x + c,
 * and a op b is their composition a(b(x)) = (a.m b.m, a.m b.c + a.c). The rank order of a
 * reduction shows in the result. */
static void compose(void* in, void* inout, int* len, MPI_Datatype* type) {
    (void)type;
    const double* a = (const double*)in;
    double* b = (double*)inout;
    for (int i = 0; i + 1 < *len; i += 2) {
        b[i + 1] = a[i] * b[i + 1] + a[i + 1];
        b[i] = a[i] * b[i];
    }
}

static void run_all(check_t* t, MPI_Comm comm, const char* label, int nonblocking) {
    int r = 0, p = 0, world = 0;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &p);
    MPI_Comm_rank(MPI_COMM_WORLD, &world);
    const int n = 3; /* elements per block */
    double* mine = malloc(sizeof(double) * (size_t)n * (size_t)p);
    double* all = malloc(sizeof(double) * (size_t)n * (size_t)p);
    int* counts = malloc(sizeof(int) * (size_t)p);
    int* displs = malloc(sizeof(int) * (size_t)p);
    MPI_Request req = MPI_REQUEST_NULL;
    char what[96];
#define WAIT() \
    if (nonblocking) MPI_Wait(&req, MPI_STATUS_IGNORE)
#define CALL(blocking, nb) \
    if (nonblocking) nb; else blocking; \
    WAIT()

    /* Allgather */
    stagger(comm, 0);
    for (int i = 0; i < n; ++i) mine[i] = value(r, i);
    memset(all, 0, sizeof(double) * (size_t)n * (size_t)p);
    CALL(MPI_Allgather(mine, n, MPI_DOUBLE, all, n, MPI_DOUBLE, comm),
         MPI_Iallgather(mine, n, MPI_DOUBLE, all, n, MPI_DOUBLE, comm, &req));
    snprintf(what, sizeof what, "%s allgather", label);
    for (int s = 0; s < p; ++s)
        for (int i = 0; i < n; ++i)
            if (all[s * n + i] != value(s, i)) fail(t, what, s * n + i, all[s * n + i], value(s, i));

    /* Allgatherv: rank s gives s % 3 + 1 elements */
    stagger(comm, 1);
    int total = 0;
    for (int s = 0; s < p; ++s) {
        counts[s] = s % 3 + 1;
        displs[s] = total;
        total += counts[s];
    }
    for (int i = 0; i < counts[r]; ++i) mine[i] = value(r, i);
    memset(all, 0, sizeof(double) * (size_t)n * (size_t)p);
    CALL(MPI_Allgatherv(mine, counts[r], MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, comm),
         MPI_Iallgatherv(mine, counts[r], MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, comm, &req));
    snprintf(what, sizeof what, "%s allgatherv", label);
    for (int s = 0; s < p; ++s)
        for (int i = 0; i < counts[s]; ++i)
            if (all[displs[s] + i] != value(s, i)) fail(t, what, displs[s] + i, all[displs[s] + i], value(s, i));

    /* Allreduce, sum */
    stagger(comm, 2);
    for (int i = 0; i < n; ++i) mine[i] = value(r, i);
    CALL(MPI_Allreduce(mine, all, n, MPI_DOUBLE, MPI_SUM, comm),
         MPI_Iallreduce(mine, all, n, MPI_DOUBLE, MPI_SUM, comm, &req));
    snprintf(what, sizeof what, "%s allreduce sum", label);
    for (int i = 0; i < n; ++i) {
        double want = 0;
        for (int s = 0; s < p; ++s) want += value(s, i);
        if (all[i] != want) fail(t, what, i, all[i], want);
    }

    /* Allreduce, non-commutative, in place: x_0 op x_1 op ... op x_{p-1} */
    stagger(comm, 3);
    MPI_Op op;
    MPI_Op_create(compose, 0, &op);
    const double m_of = (double)(r % 2 + 1), c_of = (double)(r % 3);
    all[0] = m_of;
    all[1] = c_of;
    CALL(MPI_Allreduce(MPI_IN_PLACE, all, 2, MPI_DOUBLE, op, comm),
         MPI_Iallreduce(MPI_IN_PLACE, all, 2, MPI_DOUBLE, op, comm, &req));
    MPI_Op_free(&op);
    snprintf(what, sizeof what, "%s allreduce non-commutative", label);
    {
        double m = 1.0, c = 0.0; /* the identity, then x_0, x_1, ... applied on the right */
        for (int s = 0; s < p; ++s) {
            const double ms = (double)(s % 2 + 1), cs = (double)(s % 3);
            c = m * cs + c;
            m = m * ms;
        }
        if (all[0] != m) fail(t, what, 0, all[0], m);
        if (all[1] != c) fail(t, what, 1, all[1], c);
    }

    /* Bcast from the last rank */
    stagger(comm, 4);
    const int root = p - 1;
    for (int i = 0; i < n; ++i) all[i] = r == root ? value(root, i) : -1.0;
    CALL(MPI_Bcast(all, n, MPI_DOUBLE, root, comm), MPI_Ibcast(all, n, MPI_DOUBLE, root, comm, &req));
    snprintf(what, sizeof what, "%s bcast", label);
    for (int i = 0; i < n; ++i)
        if (all[i] != value(root, i)) fail(t, what, i, all[i], value(root, i));

    /* Alltoall: block d of rank s holds value(s, d) */
    stagger(comm, 0);
    for (int d = 0; d < p; ++d) mine[d] = value(r, d);
    CALL(MPI_Alltoall(mine, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, comm),
         MPI_Ialltoall(mine, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, comm, &req));
    snprintf(what, sizeof what, "%s alltoall", label);
    for (int s = 0; s < p; ++s)
        if (all[s] != value(s, r)) fail(t, what, s, all[s], value(s, r));

    /* Alltoallv: rank s sends (s + d) % 2 + 1 elements to d */
    stagger(comm, 1);
    int* sc = malloc(sizeof(int) * (size_t)p);
    int* sd = malloc(sizeof(int) * (size_t)p);
    int at = 0, rt = 0;
    for (int d = 0; d < p; ++d) {
        sc[d] = (r + d) % 2 + 1;
        sd[d] = at;
        for (int i = 0; i < sc[d]; ++i) mine[at + i] = value(r, d * 10 + i);
        at += sc[d];
        counts[d] = (d + r) % 2 + 1;
        displs[d] = rt;
        rt += counts[d];
    }
    CALL(MPI_Alltoallv(mine, sc, sd, MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, comm),
         MPI_Ialltoallv(mine, sc, sd, MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, comm, &req));
    snprintf(what, sizeof what, "%s alltoallv", label);
    for (int s = 0; s < p; ++s)
        for (int i = 0; i < counts[s]; ++i)
            if (all[displs[s] + i] != value(s, r * 10 + i))
                fail(t, what, displs[s] + i, all[displs[s] + i], value(s, r * 10 + i));
    free(sc);
    free(sd);

    /* Barrier */
    stagger(comm, 2);
    CALL(MPI_Barrier(comm), MPI_Ibarrier(comm, &req));

    if (world == 0) printf("VTIME %s%s %.12f\n", label, nonblocking ? " nonblocking" : "", MPI_Wtime());
    free(mine);
    free(all);
    free(counts);
    free(displs);
}

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    check_t t = {0, 0};
    int size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &t.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm odd_even, reversed;
    MPI_Comm_split(MPI_COMM_WORLD, t.rank % 2, t.rank, &odd_even);
    MPI_Comm_split(MPI_COMM_WORLD, 0, size - t.rank, &reversed);
    for (int nb = 0; nb < 2; ++nb) {
        run_all(&t, MPI_COMM_WORLD, "world", nb);
        run_all(&t, odd_even, "odd_even", nb);
        run_all(&t, reversed, "reversed", nb);
    }
    MPI_Comm_free(&odd_even);
    MPI_Comm_free(&reversed);
    long failures = 0;
    MPI_Reduce(&t.failures, &failures, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    if (t.rank == 0) {
        printf("VTIME end %.12f\n", MPI_Wtime());
        if (failures) printf("FAIL analytic_spanning: %ld wrong elements\n", failures);
        else printf("PASS analytic_spanning\n");
    }
    MPI_Finalize();
    return failures ? 1 : 0;
}
