/* Analytic collectives with data on communicators that span real processes, the rooted,
 * reduce-scatter and prefix ones (colls/spanning_exchange.cpp): Gather, Gatherv, Scatter,
 * Scatterv, Reduce, Reduce_scatter, Reduce_scatter_block, Scan and Exscan, each with a
 * commutative op and those that reduce also with a non-commutative user op, on
 * MPI_COMM_WORLD and split communicators (odd/even ranks, WORLD reversed, and "interleaved",
 * whose consecutive ranks alternate between the two halves of WORLD and so between real
 * processes), blocking and nonblocking. Ranks arrive at different virtual times
 * (xsim_compute); before the scans the delay rises with the rank, so a low rank of one
 * process can leave long before the last member of another arrives: its result is only
 * right if the lower ranks' inputs cross the processes as they arrive. Every rank checks
 * its results; rank 0 prints "VTIME <step> <seconds>", which must be the same on any
 * number of real processes. Run with these collectives forced to analytic
 * (XSIM_COLL_<NAME>=analytic) and -xsim-compute none. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analytic_checks.h"

static void expect(check_t* t, const char* label, const char* coll, int at, double got, double want) {
    char what[96];
    if (got == want) return;
    snprintf(what, sizeof what, "%s %s", label, coll);
    fail(t, what, at, got, want);
}

/* Non-commutative and associative, on pairs (MPI_Type_contiguous(2, MPI_DOUBLE)): (m, c)
 * is the map x -> m x + c and a op b their composition a(b(x)) = (a.m b.m, a.m b.c + a.c).
 * The rank order of a reduction shows in the result. */
static void compose(void* in, void* inout, int* len, MPI_Datatype* type) {
    (void)type;
    const double* a = (const double*)in;
    double* b = (double*)inout;
    for (int i = 0; i < *len; ++i) {
        b[2 * i + 1] = a[2 * i] * b[2 * i + 1] + a[2 * i + 1];
        b[2 * i] = a[2 * i] * b[2 * i];
    }
}
static double pair_m(int rank) { return (double)(rank % 2 + 1); }
static double pair_c(int rank, int i) { return (double)(rank % 3 + i); }
/* x_first op ... op x_last, element i, as (m, c). */
static void composed(int first, int last, int i, double* m, double* c) {
    *m = 1.0;
    *c = 0.0;
    for (int s = first; s <= last; ++s) {
        *c = *m * pair_c(s, i) + *c;
        *m = *m * pair_m(s);
    }
}
/* Rank r's input of `count` pairs: element i is (pair_m(r), pair_c(r, i)). */
static void fill_pairs(double* buf, int r, int count) {
    for (int i = 0; i < count; ++i) {
        buf[2 * i] = pair_m(r);
        buf[2 * i + 1] = pair_c(r, i);
    }
}
/* Pairs [0, count) of `got` are x_first op ... op x_last of elements offset + i. */
static void expect_composed(check_t* t, const char* label, const char* coll, const double* got, int count,
                            int offset, int first, int last) {
    char m_what[64], c_what[64];
    snprintf(m_what, sizeof m_what, "%s m", coll);
    snprintf(c_what, sizeof c_what, "%s c", coll);
    for (int i = 0; i < count; ++i) {
        double m = 0, c = 0;
        composed(first, last, offset + i, &m, &c);
        expect(t, label, m_what, i, got[2 * i], m);
        expect(t, label, c_what, i, got[2 * i + 1], c);
    }
}

/* Higher ranks arrive later. */
static void rising(MPI_Comm comm) {
    int r = 0;
    MPI_Comm_rank(comm, &r);
    xsim_compute(1e-6 * (double)r);
}

static void run_all(check_t* t, MPI_Comm comm, const char* label, int nonblocking) {
    int r = 0, p = 0, world = 0;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &p);
    MPI_Comm_rank(MPI_COMM_WORLD, &world);
    const int n = 3; /* elements per block */
    const size_t cap = (size_t)(4 * n) * (size_t)p;
    double* mine = malloc(sizeof(double) * cap);
    double* all = malloc(sizeof(double) * cap);
    int* counts = malloc(sizeof(int) * (size_t)p);
    int* displs = malloc(sizeof(int) * (size_t)p);
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Datatype pair;
    MPI_Type_contiguous(2, MPI_DOUBLE, &pair);
    MPI_Type_commit(&pair);
    MPI_Op op;
    MPI_Op_create(compose, 0, &op);
#define CALL(blocking, nb) \
    if (nonblocking) {     \
        nb;                \
        MPI_Wait(&req, MPI_STATUS_IGNORE); \
    } else {               \
        blocking;          \
    }
    int total = 0;
    for (int s = 0; s < p; ++s) {
        counts[s] = s % 3 + 1;
        displs[s] = total;
        total += counts[s];
    }

    /* Gather to the middle rank */
    stagger(comm, 0);
    int root = p / 2;
    for (int i = 0; i < n; ++i) mine[i] = value(r, i);
    for (size_t i = 0; i < cap; ++i) all[i] = -1.0;
    CALL(MPI_Gather(mine, n, MPI_DOUBLE, all, n, MPI_DOUBLE, root, comm),
         MPI_Igather(mine, n, MPI_DOUBLE, all, n, MPI_DOUBLE, root, comm, &req));
    if (r == root)
        for (int s = 0; s < p; ++s)
            for (int i = 0; i < n; ++i) expect(t, label, "gather", s * n + i, all[s * n + i], value(s, i));

    /* Gatherv to the last rank, in place: rank s gives s % 3 + 1 elements */
    stagger(comm, 1);
    root = p - 1;
    for (size_t i = 0; i < cap; ++i) all[i] = -1.0;
    for (int i = 0; i < counts[r]; ++i) {
        mine[i] = value(r, i);
        if (r == root) all[displs[r] + i] = value(r, i);
    }
    CALL(MPI_Gatherv(r == root ? MPI_IN_PLACE : mine, counts[r], MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, root,
                     comm),
         MPI_Igatherv(r == root ? MPI_IN_PLACE : mine, counts[r], MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, root,
                      comm, &req));
    if (r == root)
        for (int s = 0; s < p; ++s)
            for (int i = 0; i < counts[s]; ++i)
                expect(t, label, "gatherv", displs[s] + i, all[displs[s] + i], value(s, i));

    /* Scatter from rank 1: block d holds value(d, i) */
    stagger(comm, 2);
    root = 1 % p;
    for (int d = 0; d < p; ++d)
        for (int i = 0; i < n; ++i) all[d * n + i] = r == root ? value(d, i) : -1.0;
    for (int i = 0; i < n; ++i) mine[i] = -1.0;
    CALL(MPI_Scatter(all, n, MPI_DOUBLE, mine, n, MPI_DOUBLE, root, comm),
         MPI_Iscatter(all, n, MPI_DOUBLE, mine, n, MPI_DOUBLE, root, comm, &req));
    for (int i = 0; i < n; ++i) expect(t, label, "scatter", i, mine[i], value(r, i));

    /* Scatterv from the last rank: rank d gets d % 3 + 1 elements */
    stagger(comm, 3);
    root = p - 1;
    for (int d = 0; d < p; ++d)
        for (int i = 0; i < counts[d]; ++i) all[displs[d] + i] = r == root ? value(d, i) : -1.0;
    for (int i = 0; i < n; ++i) mine[i] = -1.0;
    CALL(MPI_Scatterv(all, counts, displs, MPI_DOUBLE, mine, counts[r], MPI_DOUBLE, root, comm),
         MPI_Iscatterv(all, counts, displs, MPI_DOUBLE, mine, counts[r], MPI_DOUBLE, root, comm, &req));
    for (int i = 0; i < counts[r]; ++i) expect(t, label, "scatterv", i, mine[i], value(r, i));

    /* Reduce, sum, to rank 0 */
    stagger(comm, 4);
    for (int i = 0; i < n; ++i) mine[i] = value(r, i);
    for (int i = 0; i < n; ++i) all[i] = -1.0;
    CALL(MPI_Reduce(mine, all, n, MPI_DOUBLE, MPI_SUM, 0, comm),
         MPI_Ireduce(mine, all, n, MPI_DOUBLE, MPI_SUM, 0, comm, &req));
    if (r == 0)
        for (int i = 0; i < n; ++i) {
            double want = 0;
            for (int s = 0; s < p; ++s) want += value(s, i);
            expect(t, label, "reduce sum", i, all[i], want);
        }

    /* Reduce, non-commutative, in place at the last rank */
    stagger(comm, 0);
    root = p - 1;
    double* in = r == root ? all : mine;
    fill_pairs(in, r, n);
    CALL(MPI_Reduce(r == root ? MPI_IN_PLACE : mine, all, n, pair, op, root, comm),
         MPI_Ireduce(r == root ? MPI_IN_PLACE : mine, all, n, pair, op, root, comm, &req));
    if (r == root) expect_composed(t, label, "reduce non-commutative", all, n, 0, 0, p - 1);

    /* Reduce_scatter, sum: rank d receives counts[d] elements at displs[d] */
    stagger(comm, 1);
    for (int i = 0; i < total; ++i) mine[i] = value(r, i);
    for (int i = 0; i < n; ++i) all[i] = -1.0;
    CALL(MPI_Reduce_scatter(mine, all, counts, MPI_DOUBLE, MPI_SUM, comm),
         MPI_Ireduce_scatter(mine, all, counts, MPI_DOUBLE, MPI_SUM, comm, &req));
    for (int i = 0; i < counts[r]; ++i) {
        double want = 0;
        for (int s = 0; s < p; ++s) want += value(s, displs[r] + i);
        expect(t, label, "reduce_scatter sum", i, all[i], want);
    }

    /* Reduce_scatter, non-commutative, in place */
    stagger(comm, 2);
    fill_pairs(all, r, total);
    CALL(MPI_Reduce_scatter(MPI_IN_PLACE, all, counts, pair, op, comm),
         MPI_Ireduce_scatter(MPI_IN_PLACE, all, counts, pair, op, comm, &req));
    expect_composed(t, label, "reduce_scatter non-commutative", all, counts[r], displs[r], 0, p - 1);

    /* Reduce_scatter_block, sum, n elements each */
    stagger(comm, 3);
    for (int i = 0; i < n * p; ++i) mine[i] = value(r, i);
    for (int i = 0; i < n; ++i) all[i] = -1.0;
    CALL(MPI_Reduce_scatter_block(mine, all, n, MPI_DOUBLE, MPI_SUM, comm),
         MPI_Ireduce_scatter_block(mine, all, n, MPI_DOUBLE, MPI_SUM, comm, &req));
    for (int i = 0; i < n; ++i) {
        double want = 0;
        for (int s = 0; s < p; ++s) want += value(s, r * n + i);
        expect(t, label, "reduce_scatter_block sum", i, all[i], want);
    }

    /* Scan, sum; higher ranks arrive later */
    rising(comm);
    for (int i = 0; i < n; ++i) mine[i] = value(r, i);
    CALL(MPI_Scan(mine, all, n, MPI_DOUBLE, MPI_SUM, comm), MPI_Iscan(mine, all, n, MPI_DOUBLE, MPI_SUM, comm, &req));
    for (int i = 0; i < n; ++i) {
        double want = 0;
        for (int s = 0; s <= r; ++s) want += value(s, i);
        expect(t, label, "scan sum", i, all[i], want);
    }

    /* Scan, non-commutative, in place */
    rising(comm);
    fill_pairs(all, r, n);
    CALL(MPI_Scan(MPI_IN_PLACE, all, n, pair, op, comm), MPI_Iscan(MPI_IN_PLACE, all, n, pair, op, comm, &req));
    expect_composed(t, label, "scan non-commutative", all, n, 0, 0, r);

    /* Exscan, sum (rank 0's result is undefined) */
    rising(comm);
    for (int i = 0; i < n; ++i) mine[i] = value(r, i);
    CALL(MPI_Exscan(mine, all, n, MPI_DOUBLE, MPI_SUM, comm),
         MPI_Iexscan(mine, all, n, MPI_DOUBLE, MPI_SUM, comm, &req));
    if (r > 0)
        for (int i = 0; i < n; ++i) {
            double want = 0;
            for (int s = 0; s < r; ++s) want += value(s, i);
            expect(t, label, "exscan sum", i, all[i], want);
        }

    /* Exscan, non-commutative */
    stagger(comm, 4);
    fill_pairs(mine, r, n);
    CALL(MPI_Exscan(mine, all, n, pair, op, comm), MPI_Iexscan(mine, all, n, pair, op, comm, &req));
    if (r > 0) expect_composed(t, label, "exscan non-commutative", all, n, 0, 0, r - 1);

    /* Rounding shows how a sum is bracketed, which must not depend on the placement: sums of
     * 1/(r + 3 + i) (inexact in binary) by Reduce, Reduce_scatter_block and Scan. Rank 0
     * prints the bits of its Reduce result and of the last rank's piece and Scan result on
     * an ORDER line, which compare_p.sh requires identical on any number of processes. */
    stagger(comm, 1);
    for (int i = 0; i < n * p; ++i) mine[i] = 1.0 / (double)(r + 3 + i);
    double sums[3 * 3]; /* reduce, piece, scan */
    CALL(MPI_Reduce(mine, sums, n, MPI_DOUBLE, MPI_SUM, 0, comm),
         MPI_Ireduce(mine, sums, n, MPI_DOUBLE, MPI_SUM, 0, comm, &req));
    CALL(MPI_Reduce_scatter_block(mine, sums + n, n, MPI_DOUBLE, MPI_SUM, comm),
         MPI_Ireduce_scatter_block(mine, sums + n, n, MPI_DOUBLE, MPI_SUM, comm, &req));
    CALL(MPI_Scan(mine, sums + 2 * n, n, MPI_DOUBLE, MPI_SUM, comm),
         MPI_Iscan(mine, sums + 2 * n, n, MPI_DOUBLE, MPI_SUM, comm, &req));
    if (p > 1 && r == p - 1) MPI_Send(sums + n, 2 * n, MPI_DOUBLE, 0, 7, comm);
    if (p > 1 && r == 0) MPI_Recv(sums + n, 2 * n, MPI_DOUBLE, p - 1, 7, comm, MPI_STATUS_IGNORE);
    if (r == 0 && world == 0) {
        printf("ORDER %s%s rounding", label, nonblocking ? " nonblocking" : "");
        for (int i = 0; i < 3 * n; ++i) printf(" %a", sums[i]);
        printf("\n");
    }

    if (world == 0) printf("VTIME %s%s %.12f\n", label, nonblocking ? " nonblocking" : "", MPI_Wtime());
    MPI_Op_free(&op);
    MPI_Type_free(&pair);
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
    MPI_Comm odd_even, reversed, interleaved;
    MPI_Comm_split(MPI_COMM_WORLD, t.rank % 2, t.rank, &odd_even);
    MPI_Comm_split(MPI_COMM_WORLD, 0, size - t.rank, &reversed);
    /* WORLD rank w < size/2 becomes 2w, the others 2(w - size/2) + 1 */
    const int half = (size + 1) / 2;
    MPI_Comm_split(MPI_COMM_WORLD, 0, t.rank < half ? 2 * t.rank : 2 * (t.rank - half) + 1, &interleaved);
    for (int nb = 0; nb < 2; ++nb) {
        run_all(&t, MPI_COMM_WORLD, "world", nb);
        run_all(&t, odd_even, "odd_even", nb);
        run_all(&t, reversed, "reversed", nb);
        run_all(&t, interleaved, "interleaved", nb);
    }
    MPI_Comm_free(&odd_even);
    MPI_Comm_free(&reversed);
    MPI_Comm_free(&interleaved);
    long failures = 0;
    MPI_Reduce(&t.failures, &failures, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    if (t.rank == 0) {
        printf("VTIME end %.12f\n", MPI_Wtime());
        if (failures) printf("FAIL analytic_spanning_rooted: %ld wrong elements\n", failures);
        else printf("PASS analytic_spanning_rooted\n");
    }
    MPI_Finalize();
    return failures ? 1 : 0;
}
