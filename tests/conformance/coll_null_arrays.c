/* v and w collectives given a NULL counts, displacements or datatypes array
 * where the call needs one: MPI_ERR_ARG (as Open MPI reports it), never
 * MPI_SUCCESS having done nothing, a lost block or a hung rank. Every rank
 * passes the NULL array, so every rank fails locally and none is left waiting;
 * the rooted calls run on MPI_COMM_SELF, where the caller is the root (the only
 * rank the arrays matter to). Then the same calls with all their arrays still
 * work, so no failed call left anything behind. The standard calls a NULL array
 * erroneous without naming the outcome: the checks run under xsim only (Open
 * MPI 4.1 gives MPI_ERR_COUNT for some, accepts a NULL displacements array in
 * others and crashes in MPI_Allgatherv). */
#include "conformance.h"

#define N_MAX 4096

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    conf_t t;
    conf_init(&t, "coll_null_arrays");
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    const int n = t.size;
    if (n > N_MAX) {
        conf_fail(&t, "at most %d ranks", N_MAX);
        return conf_finish(&t);
    }
    int* counts = conf_alloc(sizeof(int) * (size_t)n);
    int* displs = conf_alloc(sizeof(int) * (size_t)n);
    MPI_Datatype* types = conf_alloc(sizeof(MPI_Datatype) * (size_t)n);
    int* out = conf_alloc(sizeof(int) * (size_t)n);
    int* in = conf_alloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; ++i) {
        counts[i] = 1;
        displs[i] = i;
        types[i] = MPI_INT;
        out[i] = t.rank * 1000 + i;
    }
    int one = 1, zero = 0, mine = t.rank;
    MPI_Request req;
    int* bdispls = conf_alloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; ++i) bdispls[i] = i * (int)sizeof(int);

    if (conf_under_xsim()) {
        /* Rooted (root = the only rank of MPI_COMM_SELF). */
        CONF_EXPECT_CLASS(&t, MPI_ERR_ARG, MPI_Gatherv(&mine, 1, MPI_INT, in, NULL, &zero, MPI_INT, 0, MPI_COMM_SELF));
        CONF_EXPECT_CLASS(&t, MPI_ERR_ARG, MPI_Gatherv(&mine, 1, MPI_INT, in, &one, NULL, MPI_INT, 0, MPI_COMM_SELF));
        CONF_EXPECT_CLASS(&t, MPI_ERR_ARG,
                          MPI_Igatherv(&mine, 1, MPI_INT, in, NULL, &zero, MPI_INT, 0, MPI_COMM_SELF, &req));
        CONF_EXPECT_CLASS(&t, MPI_ERR_ARG, MPI_Scatterv(out, NULL, &zero, MPI_INT, in, 1, MPI_INT, 0, MPI_COMM_SELF));
        CONF_EXPECT_CLASS(&t, MPI_ERR_ARG, MPI_Scatterv(out, &one, NULL, MPI_INT, in, 1, MPI_INT, 0, MPI_COMM_SELF));
        CONF_EXPECT_CLASS(&t, MPI_ERR_ARG,
                          MPI_Iscatterv(out, NULL, &zero, MPI_INT, in, 1, MPI_INT, 0, MPI_COMM_SELF, &req));

        /* Every rank needs the arrays. */
        CONF_EXPECT_CLASS(&t, MPI_ERR_ARG,
                          MPI_Allgatherv(&mine, 1, MPI_INT, in, NULL, displs, MPI_INT, MPI_COMM_WORLD));
        CONF_EXPECT_CLASS(&t, MPI_ERR_ARG,
                          MPI_Allgatherv(&mine, 1, MPI_INT, in, counts, NULL, MPI_INT, MPI_COMM_WORLD));
        CONF_EXPECT_CLASS(&t, MPI_ERR_ARG,
                          MPI_Iallgatherv(&mine, 1, MPI_INT, in, NULL, displs, MPI_INT, MPI_COMM_WORLD, &req));
        CONF_EXPECT_CLASS(&t, MPI_ERR_ARG,
                          MPI_Alltoallv(out, counts, displs, MPI_INT, in, NULL, displs, MPI_INT, MPI_COMM_WORLD));
        CONF_EXPECT_CLASS(&t, MPI_ERR_ARG,
                          MPI_Alltoallv(out, counts, displs, MPI_INT, in, counts, NULL, MPI_INT, MPI_COMM_WORLD));
        CONF_EXPECT_CLASS(&t, MPI_ERR_ARG,
                          MPI_Alltoallv(out, NULL, displs, MPI_INT, in, counts, displs, MPI_INT, MPI_COMM_WORLD));
        CONF_EXPECT_CLASS(
            &t, MPI_ERR_ARG,
            MPI_Ialltoallv(out, counts, displs, MPI_INT, in, NULL, displs, MPI_INT, MPI_COMM_WORLD, &req));
        CONF_EXPECT_CLASS(&t, MPI_ERR_ARG,
                          MPI_Alltoallw(out, counts, bdispls, types, in, counts, bdispls, NULL, MPI_COMM_WORLD));
        CONF_EXPECT_CLASS(&t, MPI_ERR_ARG,
                          MPI_Alltoallw(out, counts, bdispls, NULL, in, counts, bdispls, types, MPI_COMM_WORLD));
        CONF_EXPECT_CLASS(&t, MPI_ERR_ARG,
                          MPI_Alltoallw(out, NULL, bdispls, types, in, counts, bdispls, types, MPI_COMM_WORLD));
        CONF_EXPECT_CLASS(&t, MPI_ERR_ARG,
                          MPI_Alltoallw(out, counts, bdispls, types, in, counts, NULL, types, MPI_COMM_WORLD));
        CONF_EXPECT_CLASS(&t, MPI_ERR_ARG,
                          MPI_Ialltoallw(out, counts, bdispls, types, in, counts, bdispls, NULL, MPI_COMM_WORLD, &req));
        CONF_EXPECT_CLASS(&t, MPI_ERR_ARG, MPI_Reduce_scatter(out, in, NULL, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
        CONF_EXPECT_CLASS(&t, MPI_ERR_ARG, MPI_Ireduce_scatter(out, in, NULL, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req));
    }

    /* With their arrays the same calls work, and see only their own messages. */
    CONF_CALL(&t, MPI_Gatherv(&mine, 1, MPI_INT, in, &one, &zero, MPI_INT, 0, MPI_COMM_SELF));
    CONF_CHECK(&t, in[0] == t.rank, "MPI_Gatherv on MPI_COMM_SELF gave %d", in[0]);
    CONF_CALL(&t, MPI_Allgatherv(&mine, 1, MPI_INT, in, counts, displs, MPI_INT, MPI_COMM_WORLD));
    for (int i = 0; i < n; ++i) CONF_CHECK(&t, in[i] == i, "MPI_Allgatherv block %d is %d", i, in[i]);
    CONF_CALL(&t, MPI_Alltoallw(out, counts, bdispls, types, in, counts, bdispls, types, MPI_COMM_WORLD));
    for (int i = 0; i < n; ++i) CONF_CHECK(&t, in[i] == i * 1000 + t.rank, "MPI_Alltoallw block %d is %d", i, in[i]);
    CONF_CALL(&t, MPI_Reduce_scatter(out, in, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    {
        long expected = 0;
        for (int r = 0; r < n; ++r) expected += r * 1000 + t.rank;
        CONF_CHECK(&t, in[0] == expected, "MPI_Reduce_scatter gave %d, expected %ld", in[0], expected);
    }
    free(counts);
    free(displs);
    free(bdispls);
    free(types);
    free(out);
    free(in);
    return conf_finish(&t);
}
