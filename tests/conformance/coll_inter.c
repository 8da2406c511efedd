/* Collectives on an intercommunicator (MPI-4 section 6.2.2: data moves between the groups)
 * and the intercommunicator constructors that MPI_Comm_split and MPI_Comm_create are on one.
 * Groups: WORLD's evens and odds (sizes differ at odd N), joined by MPI_Intercomm_create.
 * Every rank contributes values derived from its world rank, so each result is checked
 * against the other group's members exactly: Bcast, Reduce and Gather(v) / Scatter(v) from
 * a root in each group in turn (MPI_ROOT / MPI_PROC_NULL / the root's remote rank),
 * Allreduce, Allgather(v), Alltoall(v,w), Reduce_scatter(_block), Barrier, four nonblocking
 * ones outstanding at once; then an
 * intercommunicator split by world rank modulo 3 and one created from each group's first
 * half, with an Allreduce across each. Needs at least 2 ranks (CTest runs it from N=2). */
#include "conformance.h"

/* World rank of remote rank i: the evens' rank i is 2i, the odds' 2i + 1. */
static int remote_world(int even, int i) { return even ? 2 * i + 1 : 2 * i; }

static int least_common_multiple(int a, int b) {
    int x = a, y = b;
    while (y != 0) {
        const int r = x % y;
        x = y, y = r;
    }
    return a / x * b;
}

static void check_sum(conf_t* t, const char* what, long got, long expected) {
    CONF_CHECK(t, got == expected, "%s: got %ld, expected %ld", what, got, expected);
}

int main(int argc, char** argv) {
    conf_t t;
    MPI_Comm side, inter;
    int rank, size, even, local_rank, local_size, remote_size, i, root_side;
    long remote_sum = 0;
    MPI_Init(&argc, &argv);
    conf_init(&t, "coll_inter");
    rank = t.rank;
    size = t.size;
    if (!conf_evens_and_odds(&t, &side, &inter)) return conf_finish(&t);
    even = rank % 2 == 0;
    MPI_Comm_rank(side, &local_rank);
    MPI_Comm_size(side, &local_size);
    MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
    MPI_Comm_remote_size(inter, &remote_size);
    for (i = 0; i < remote_size; i++) remote_sum += remote_world(even, i);

    /* Rooted collectives from each group's last rank in turn. */
    for (root_side = 0; root_side < 2; root_side++) {
        const int in_root_group = even == (root_side == 0);
        const int root_group_size = in_root_group ? local_size : remote_size;
        const int root_local = root_group_size - 1;
        const int root_world = (root_side == 0 ? 0 : 1) + 2 * root_local;
        const int root_arg = in_root_group ? (local_rank == root_local ? MPI_ROOT : MPI_PROC_NULL) : root_local;
        long v[2] = {rank, 2L * rank}, out[2] = {-1, -1};
        long* many = (long*)conf_alloc(2 * sizeof(long) * (size_t)(remote_size + 1));
        int* counts = (int*)conf_alloc(sizeof(int) * (size_t)(remote_size + 1));
        int* displs = (int*)conf_alloc(sizeof(int) * (size_t)(remote_size + 1));
        for (i = 0; i < remote_size; i++) counts[i] = 1 + i % 2, displs[i] = 2 * i;

        /* Bcast */
        if (root_arg == MPI_ROOT) out[0] = 11, out[1] = rank;
        CONF_CALL(&t, MPI_Bcast(out, 2, MPI_LONG, root_arg, inter));
        if (!in_root_group)
            CONF_CHECK(&t, out[0] == 11 && out[1] == root_world, "Bcast: got %ld %ld", out[0], out[1]);
        else if (root_arg == MPI_PROC_NULL)
            CONF_CHECK(&t, out[0] == -1, "Bcast changed the buffer of a non-root in the root's group");

        /* Reduce: the root gets the sums over the other group. */
        out[0] = out[1] = -1;
        CONF_CALL(&t, MPI_Reduce(v, out, 2, MPI_LONG, MPI_SUM, root_arg, inter));
        if (root_arg == MPI_ROOT) {
            check_sum(&t, "Reduce", out[0], remote_sum);
            check_sum(&t, "Reduce (second element)", out[1], 2 * remote_sum);
        }

        /* Gather / Scatter: one long per rank; Gatherv / Scatterv: 1 or 2 longs (displacement 2i). */
        for (i = 0; i < 2 * remote_size; i++) many[i] = -1;
        CONF_CALL(&t, MPI_Gather(v, 1, MPI_LONG, many, 1, MPI_LONG, root_arg, inter));
        if (root_arg == MPI_ROOT)
            for (i = 0; i < remote_size; i++)
                CONF_CHECK(&t, many[i] == remote_world(even, i), "Gather block %d: %ld", i, many[i]);
        CONF_CALL(&t, MPI_Gatherv(v, 1 + local_rank % 2, MPI_LONG, many, counts, displs, MPI_LONG, root_arg, inter));
        if (root_arg == MPI_ROOT)
            for (i = 0; i < remote_size; i++)
                CONF_CHECK(&t, many[2 * i] == remote_world(even, i) && (i % 2 == 0 || many[2 * i + 1] == 2L * remote_world(even, i)),
                           "Gatherv block %d: %ld %ld", i, many[2 * i], many[2 * i + 1]);
        if (root_arg == MPI_ROOT)
            for (i = 0; i < remote_size; i++) many[2 * i] = 1000 + i, many[2 * i + 1] = 2000 + i;
        out[0] = out[1] = -1;
        CONF_CALL(&t, MPI_Scatter(many, 2, MPI_LONG, out, 2, MPI_LONG, root_arg, inter));
        if (!in_root_group)
            CONF_CHECK(&t, out[0] == 1000 + local_rank && out[1] == 2000 + local_rank, "Scatter: %ld %ld", out[0], out[1]);
        out[0] = out[1] = -1;
        CONF_CALL(&t, MPI_Scatterv(many, counts, displs, MPI_LONG, out, 1 + local_rank % 2, MPI_LONG, root_arg, inter));
        if (!in_root_group)
            CONF_CHECK(&t, out[0] == 1000 + local_rank && (local_rank % 2 == 0 ? out[1] == -1 : out[1] == 2000 + local_rank),
                       "Scatterv: %ld %ld", out[0], out[1]);
        free(many);
        free(counts);
        free(displs);
    }

    /* Allreduce: each group gets the other's sum. */
    {
        long v = rank, sum = -1;
        CONF_CALL(&t, MPI_Allreduce(&v, &sum, 1, MPI_LONG, MPI_SUM, inter));
        check_sum(&t, "Allreduce", sum, remote_sum);
    }
    /* Allgather(v) and Alltoall(v,w): block i comes from remote rank i. */
    {
        long* got = (long*)conf_alloc(2 * sizeof(long) * (size_t)remote_size);
        long* send = (long*)conf_alloc(2 * sizeof(long) * (size_t)remote_size);
        int* counts = (int*)conf_alloc(sizeof(int) * (size_t)remote_size);
        int* displs = (int*)conf_alloc(sizeof(int) * (size_t)remote_size);
        int* scounts = (int*)conf_alloc(sizeof(int) * (size_t)remote_size);
        int* sdispls = (int*)conf_alloc(sizeof(int) * (size_t)remote_size);
        int* wcounts = (int*)conf_alloc(sizeof(int) * (size_t)remote_size);
        int* wdispls = (int*)conf_alloc(sizeof(int) * (size_t)remote_size);
        MPI_Datatype* types = (MPI_Datatype*)conf_alloc(sizeof(MPI_Datatype) * (size_t)remote_size);
        long mine = rank;
        for (i = 0; i < remote_size; i++) got[i] = -1;
        CONF_CALL(&t, MPI_Allgather(&mine, 1, MPI_LONG, got, 1, MPI_LONG, inter));
        for (i = 0; i < remote_size; i++) CONF_CHECK(&t, got[i] == remote_world(even, i), "Allgather block %d: %ld", i, got[i]);
        for (i = 0; i < remote_size; i++) counts[i] = 1, displs[i] = remote_size - 1 - i, got[i] = -1;
        CONF_CALL(&t, MPI_Allgatherv(&mine, 1, MPI_LONG, got, counts, displs, MPI_LONG, inter));
        for (i = 0; i < remote_size; i++)
            CONF_CHECK(&t, got[remote_size - 1 - i] == remote_world(even, i), "Allgatherv block %d: %ld", i,
                       got[remote_size - 1 - i]);
        /* Alltoall: to remote i goes 100 * rank + i. */
        for (i = 0; i < remote_size; i++) send[i] = 100L * rank + i, got[i] = -1;
        CONF_CALL(&t, MPI_Alltoall(send, 1, MPI_LONG, got, 1, MPI_LONG, inter));
        for (i = 0; i < remote_size; i++)
            CONF_CHECK(&t, got[i] == 100L * remote_world(even, i) + local_rank, "Alltoall block %d: %ld", i, got[i]);
        for (i = 0; i < remote_size; i++) scounts[i] = 1, sdispls[i] = remote_size - 1 - i, send[remote_size - 1 - i] = 100L * rank + i;
        for (i = 0; i < remote_size; i++) got[i] = -1;
        CONF_CALL(&t, MPI_Alltoallv(send, scounts, sdispls, MPI_LONG, got, counts, displs, MPI_LONG, inter));
        for (i = 0; i < remote_size; i++)
            CONF_CHECK(&t, got[remote_size - 1 - i] == 100L * remote_world(even, i) + local_rank, "Alltoallv block %d", i);
        for (i = 0; i < remote_size; i++) {
            wcounts[i] = 1, types[i] = MPI_LONG;
            wdispls[i] = (int)sizeof(long) * i;
            send[i] = 100L * rank + i, got[i] = -1;
        }
        CONF_CALL(&t, MPI_Alltoallw(send, wcounts, wdispls, types, got, wcounts, wdispls, types, inter));
        for (i = 0; i < remote_size; i++)
            CONF_CHECK(&t, got[i] == 100L * remote_world(even, i) + local_rank, "Alltoallw block %d", i);
        free(got), free(send), free(counts), free(displs), free(scounts), free(sdispls), free(wcounts), free(wdispls);
        free(types);
    }
    /* Reduce_scatter(_block): both groups reduce the same number of elements, the least
     * common multiple of the group sizes (their product when they differ by one, as at odd N;
     * at N = 1000 a product of 250,000 elements a rank made this the suite's longest test);
     * element k of world rank r's input is r + k. */
    {
        const int count = least_common_multiple(local_size, remote_size);
        const int block = count / local_size;
        long* in = (long*)conf_alloc(sizeof(long) * (size_t)count);
        long* out = (long*)conf_alloc(sizeof(long) * (size_t)count);
        int* rcounts = (int*)conf_alloc(sizeof(int) * (size_t)local_size);
        int k, left = count;
        for (k = 0; k < count; k++) in[k] = rank + k;
        CONF_CALL(&t, MPI_Reduce_scatter_block(in, out, block, MPI_LONG, MPI_SUM, inter));
        for (k = 0; k < block; k++)
            check_sum(&t, "Reduce_scatter_block", out[k], remote_sum + (long)remote_size * (local_rank * block + k));
        /* Reduce_scatter: rank j of the group gets 1 element, the last one the rest. */
        for (i = 0; i < local_size; i++) rcounts[i] = i == local_size - 1 ? left : 1, left -= 1;
        CONF_CALL(&t, MPI_Reduce_scatter(in, out, rcounts, MPI_LONG, MPI_SUM, inter));
        check_sum(&t, "Reduce_scatter", out[0], remote_sum + (long)remote_size * local_rank);
        free(in), free(out), free(rcounts);
    }
    CONF_CALL(&t, MPI_Barrier(inter));

    /* Nonblocking forms, several outstanding at once and completed together: Iallreduce,
     * Ibcast from the evens' first rank, Ialltoall, Ireduce_scatter_block. */
    {
        long v = rank, sum = -1, data[2] = {-1, -1};
        const int block = least_common_multiple(local_size, remote_size) / local_size;
        long* send = (long*)conf_alloc(sizeof(long) * (size_t)remote_size);
        long* got = (long*)conf_alloc(sizeof(long) * (size_t)remote_size);
        long* in = (long*)conf_alloc(sizeof(long) * (size_t)(local_size * block));
        long* out = (long*)conf_alloc(sizeof(long) * (size_t)block);
        MPI_Request reqs[4];
        const int root = even ? (local_rank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
        for (i = 0; i < remote_size; i++) send[i] = 100L * rank + i, got[i] = -1;
        for (i = 0; i < local_size * block; i++) in[i] = rank + i;
        if (root == MPI_ROOT) data[0] = 5, data[1] = 6;
        CONF_CALL(&t, MPI_Iallreduce(&v, &sum, 1, MPI_LONG, MPI_SUM, inter, &reqs[0]));
        CONF_CALL(&t, MPI_Ibcast(data, 2, MPI_LONG, root, inter, &reqs[1]));
        CONF_CALL(&t, MPI_Ialltoall(send, 1, MPI_LONG, got, 1, MPI_LONG, inter, &reqs[2]));
        CONF_CALL(&t, MPI_Ireduce_scatter_block(in, out, block, MPI_LONG, MPI_SUM, inter, &reqs[3]));
        CONF_CALL(&t, MPI_Waitall(4, reqs, MPI_STATUSES_IGNORE));
        check_sum(&t, "Iallreduce", sum, remote_sum);
        if (!even) CONF_CHECK(&t, data[0] == 5 && data[1] == 6, "Ibcast: got %ld %ld", data[0], data[1]);
        for (i = 0; i < remote_size; i++)
            CONF_CHECK(&t, got[i] == 100L * remote_world(even, i) + local_rank, "Ialltoall block %d: %ld", i, got[i]);
        for (i = 0; i < block; i++)
            check_sum(&t, "Ireduce_scatter_block", out[i], remote_sum + (long)remote_size * (local_rank * block + i));
        free(send), free(got), free(in), free(out);
    }

    /* MPI_Comm_split of the intercommunicator by world rank modulo 3: each part joins the
     * remote members of its color (none: MPI_COMM_NULL); key = -rank reverses the order. */
    {
        MPI_Comm part;
        const int color = rank % 3;
        long expected = 0, got = -1, v = rank;
        int n = 0, psize = 0, prank = -1, premote = 0, r;
        CONF_CALL(&t, MPI_Comm_split(inter, color, -rank, &part));
        for (i = 0; i < remote_size; i++)
            if (remote_world(even, i) % 3 == color) expected += remote_world(even, i), n++;
        for (r = 0; r < size; r++)
            if (r % 2 == rank % 2 && r % 3 == color) psize++, prank += r >= rank;
        if (n == 0) {
            CONF_CHECK(&t, part == MPI_COMM_NULL, "split: a part without remote members is not MPI_COMM_NULL");
        } else if (part == MPI_COMM_NULL) {
            conf_fail(&t, "split: MPI_COMM_NULL for color %d with %d remote members", color, n);
        } else {
            MPI_Comm_size(part, &r);
            CONF_CHECK(&t, r == psize, "split: local size %d, expected %d", r, psize);
            MPI_Comm_rank(part, &r);
            CONF_CHECK(&t, r == prank, "split: rank %d, expected %d (key -rank)", r, prank);
            MPI_Comm_remote_size(part, &premote);
            CONF_CHECK(&t, premote == n, "split: remote size %d, expected %d", premote, n);
            CONF_CALL(&t, MPI_Allreduce(&v, &got, 1, MPI_LONG, MPI_SUM, part));
            check_sum(&t, "Allreduce across a split part", got, expected);
            CONF_CALL(&t, MPI_Comm_free(&part));
        }
    }
    /* MPI_Comm_create of the intercommunicator: each group's first half (rounded up). */
    {
        MPI_Group local_group, half;
        MPI_Comm created;
        int range[1][3];
        const int mine = (local_size + 1) / 2, theirs = (remote_size + 1) / 2;
        MPI_Comm_group(inter, &local_group);
        range[0][0] = 0, range[0][1] = mine - 1, range[0][2] = 1;
        MPI_Group_range_incl(local_group, 1, range, &half);
        CONF_CALL(&t, MPI_Comm_create(inter, half, &created));
        if (local_rank >= mine) {
            CONF_CHECK(&t, created == MPI_COMM_NULL, "create: a non-member got a communicator");
        } else if (created == MPI_COMM_NULL) {
            conf_fail(&t, "create: a member got MPI_COMM_NULL");
        } else {
            long v = rank, got = -1, expected = 0;
            int r;
            for (i = 0; i < theirs; i++) expected += remote_world(even, i);
            MPI_Comm_remote_size(created, &r);
            CONF_CHECK(&t, r == theirs, "create: remote size %d, expected %d", r, theirs);
            CONF_CALL(&t, MPI_Allreduce(&v, &got, 1, MPI_LONG, MPI_SUM, created));
            check_sum(&t, "Allreduce across a created intercommunicator", got, expected);
            CONF_CALL(&t, MPI_Comm_free(&created));
        }
        MPI_Group_free(&half);
        MPI_Group_free(&local_group);
    }
    CONF_CALL(&t, MPI_Comm_free(&inter));
    CONF_CALL(&t, MPI_Comm_free(&side));
    return conf_finish(&t);
}
