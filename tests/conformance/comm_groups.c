/* Communicators and groups: dup, split (regular, irregular, MPI_UNDEFINED, nested),
 * split_type, create, create_group, free, compare, names, attributes with copy/delete
 * callbacks, user error handlers, and every MPI_Group_* call. Checks results on every
 * rank; communication on each new communicator is checked with collectives and p2p. */
#include "conformance.h"

/* Attribute callbacks count into an int owned by the rank (extra_state). */
static int count_copy(MPI_Comm comm, int keyval, void* extra, void* in, void* out, int* flag) {
    (void)comm; (void)keyval;
    ++*(int*)extra;
    *(void**)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}
static int count_delete(MPI_Comm comm, int keyval, void* value, void* extra) {
    (void)comm; (void)keyval; (void)value;
    ++*(int*)extra;
    return MPI_SUCCESS;
}

/* The error handler reports through the error code it received (no globals: every
 * simulated rank of a process shares them). It stores the class in the comm's name. */
static void name_the_error(MPI_Comm* comm, int* code, ...) {
    char name[32];
    snprintf(name, sizeof name, "error %d", *code);
    MPI_Comm_set_name(*comm, name);
}

/* Sum of `value` over the communicator, and a ring exchange checked against ranks. */
static void check_comm(conf_t* t, MPI_Comm comm, int expect_size, long expect_sum, long value, const char* what) {
    int size, rank, left, right, got = -1;
    long sum = 0;
    MPI_Status st;
    MPI_Comm_size(comm, &size);
    MPI_Comm_rank(comm, &rank);
    CONF_CHECK(t, size == expect_size, "%s: size %d, expected %d", what, size, expect_size);
    CONF_CALL(t, MPI_Allreduce(&value, &sum, 1, MPI_LONG, MPI_SUM, comm));
    CONF_CHECK(t, sum == expect_sum, "%s: sum %ld, expected %ld", what, sum, expect_sum);
    right = (rank + 1) % size;
    left = (rank + size - 1) % size;
    CONF_CALL(t, MPI_Sendrecv(&rank, 1, MPI_INT, right, 5, &got, 1, MPI_INT, MPI_ANY_SOURCE, 5, comm, &st));
    CONF_CHECK(t, got == left && st.MPI_SOURCE == left, "%s: ring got %d from %d, expected %d", what, got,
               st.MPI_SOURCE, left);
}

int main(int argc, char** argv) {
    conf_t t;
    MPI_Comm dup, half, third, quarter, even_comm, odd_comm, shared, none;
    MPI_Group world_group, even_group, odd_group, g;
    int rank, size, r, n, cmp, flag, keyval, copies = 0, deletes = 0, len;
    long s;
    char name[MPI_MAX_OBJECT_NAME];
    void* value;
    int* tag_ub;
    MPI_Errhandler handler;

    MPI_Init(&argc, &argv);
    conf_init(&t, "comm_groups");
    rank = t.rank;
    size = t.size;

    /* Dup: congruent, same ranks, separate message space. */
    CONF_CALL(&t, MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CONF_CALL(&t, MPI_Comm_compare(MPI_COMM_WORLD, dup, &cmp));
    CONF_CHECK(&t, cmp == MPI_CONGRUENT, "dup compares %d", cmp);
    CONF_CALL(&t, MPI_Comm_compare(dup, dup, &cmp));
    CONF_CHECK(&t, cmp == MPI_IDENT, "dup vs itself %d", cmp);
    check_comm(&t, dup, size, (long)size * (size - 1) / 2, rank, "dup");
    if (size > 1) {
        /* The message on WORLD must not satisfy the receive on dup, and vice versa. */
        int a = -1, b = -1, to = (rank + 1) % size, from = (rank + size - 1) % size;
        int mine_world = 1000 + rank, mine_dup = 2000 + rank;
        MPI_Request req[2];
        CONF_CALL(&t, MPI_Irecv(&a, 1, MPI_INT, from, 9, dup, &req[0]));
        CONF_CALL(&t, MPI_Irecv(&b, 1, MPI_INT, from, 9, MPI_COMM_WORLD, &req[1]));
        CONF_CALL(&t, MPI_Send(&mine_world, 1, MPI_INT, to, 9, MPI_COMM_WORLD));
        CONF_CALL(&t, MPI_Send(&mine_dup, 1, MPI_INT, to, 9, dup));
        CONF_CALL(&t, MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
        CONF_CHECK(&t, a == 2000 + from && b == 1000 + from, "dup isolation: got %d and %d", a, b);
    }

    /* Regular split (halves), reversed order by key. */
    CONF_CALL(&t, MPI_Comm_split(MPI_COMM_WORLD, rank < size / 2, -rank, &half));
    {
        int lower = rank < size / 2, members = lower ? size / 2 : size - size / 2;
        int first = lower ? 0 : size / 2;
        long sum = 0;
        for (r = first; r < first + members; r++) sum += r;
        check_comm(&t, half, members, sum, rank, "halves");
        MPI_Comm_rank(half, &r);
        CONF_CHECK(&t, r == first + members - 1 - rank, "halves: rank %d", r);
        CONF_CALL(&t, MPI_Comm_compare(MPI_COMM_WORLD, half, &cmp));
        CONF_CHECK(&t, size == 1 ? cmp == MPI_SIMILAR || cmp == MPI_CONGRUENT : cmp == MPI_UNEQUAL,
                   "halves compare %d", cmp);
    }

    /* Irregular split (rank * 7 mod 3), some ranks opt out, then split again (nested). */
    {
        int color = (rank % 5 == 4) ? MPI_UNDEFINED : (rank * 7) % 3;
        CONF_CALL(&t, MPI_Comm_split(MPI_COMM_WORLD, color, rank % 4, &third));
        if (color == MPI_UNDEFINED) {
            CONF_CHECK(&t, third == MPI_COMM_NULL, "undefined color got a communicator");
        } else {
            int members = 0, before = 0;
            long sum = 0;
            for (r = 0; r < size; r++) {
                if (r % 5 == 4 || (r * 7) % 3 != color) continue;
                members++;
                sum += r;
                if (r % 4 < rank % 4 || (r % 4 == rank % 4 && r < rank)) before++;
            }
            check_comm(&t, third, members, sum, rank, "irregular");
            MPI_Comm_rank(third, &r);
            CONF_CHECK(&t, r == before, "irregular: rank %d, expected %d", r, before);
            /* Nested: split the piece by its own parity; Bcast from its rank 0. */
            CONF_CALL(&t, MPI_Comm_split(third, r % 2, 0, &quarter));
            {
                int qsize, qrank, root_world = rank;
                MPI_Comm_size(quarter, &qsize);
                MPI_Comm_rank(quarter, &qrank);
                CONF_CHECK(&t, qsize == (members + 1 - r % 2) / 2, "nested size %d", qsize);
                CONF_CALL(&t, MPI_Bcast(&root_world, 1, MPI_INT, 0, quarter));
                CONF_CHECK(&t, qrank != 0 || root_world == rank, "nested bcast root");
                CONF_CALL(&t, MPI_Comm_free(&quarter));
            }
            CONF_CALL(&t, MPI_Comm_free(&third));
            CONF_CHECK(&t, third == MPI_COMM_NULL, "free did not null the handle");
        }
    }

    /* Nonblocking dup, completed by a Wait after other traffic. */
    {
        MPI_Comm idup;
        MPI_Request req;
        CONF_CALL(&t, MPI_Comm_idup(MPI_COMM_WORLD, &idup, &req));
        CONF_CALL(&t, MPI_Barrier(MPI_COMM_WORLD));
        CONF_CALL(&t, MPI_Wait(&req, MPI_STATUS_IGNORE));
        check_comm(&t, idup, size, (long)size * (size - 1) / 2, rank, "idup");
        CONF_CALL(&t, MPI_Comm_free(&idup));
    }

    /* Everyone MPI_UNDEFINED. */
    CONF_CALL(&t, MPI_Comm_split(MPI_COMM_WORLD, MPI_UNDEFINED, 0, &none));
    CONF_CHECK(&t, none == MPI_COMM_NULL, "all-undefined split gave a communicator");

    /* Shared-memory split: the node pieces partition the world. */
    CONF_CALL(&t, MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shared));
    {
        int lsize, lrank, leader_sizes = 0, mine;
        MPI_Comm_size(shared, &lsize);
        MPI_Comm_rank(shared, &lrank);
        mine = lrank == 0 ? lsize : 0;
        CONF_CALL(&t, MPI_Allreduce(&mine, &leader_sizes, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
        CONF_CHECK(&t, leader_sizes == size, "shared pieces cover %d of %d ranks", leader_sizes, size);
        CONF_CALL(&t, MPI_Comm_free(&shared));
    }

    /* Groups. */
    CONF_CALL(&t, MPI_Comm_group(MPI_COMM_WORLD, &world_group));
    MPI_Group_size(world_group, &n);
    MPI_Group_rank(world_group, &r);
    CONF_CHECK(&t, n == size && r == rank, "world group %d/%d", r, n);
    {
        int range[1][3] = {{0, size - 1, 2}};
        CONF_CALL(&t, MPI_Group_range_incl(world_group, 1, range, &even_group));
        CONF_CALL(&t, MPI_Group_range_excl(world_group, 1, range, &odd_group));
    }
    MPI_Group_size(even_group, &n);
    CONF_CHECK(&t, n == (size + 1) / 2, "even group size %d", n);
    MPI_Group_rank(even_group, &r);
    CONF_CHECK(&t, r == (rank % 2 ? MPI_UNDEFINED : rank / 2), "even group rank %d", r);
    {
        int in[3] = {0, MPI_PROC_NULL, size - 1}, out[3];
        CONF_CALL(&t, MPI_Group_translate_ranks(world_group, 3, in, even_group, out));
        CONF_CHECK(&t, out[0] == 0 && out[1] == MPI_PROC_NULL &&
                           out[2] == ((size - 1) % 2 ? MPI_UNDEFINED : (size - 1) / 2),
                   "translate %d %d %d", out[0], out[1], out[2]);
    }
    CONF_CALL(&t, MPI_Group_union(odd_group, even_group, &g));
    CONF_CALL(&t, MPI_Group_compare(g, world_group, &cmp));
    CONF_CHECK(&t, cmp == (size <= 1 ? MPI_IDENT : MPI_SIMILAR), "union compare %d", cmp);
    MPI_Group_free(&g);
    CONF_CHECK(&t, g == MPI_GROUP_NULL, "group free did not null the handle");
    CONF_CALL(&t, MPI_Group_intersection(odd_group, even_group, &g));
    MPI_Group_size(g, &n);
    CONF_CHECK(&t, n == 0 && g == MPI_GROUP_EMPTY, "intersection size %d", n);
    MPI_Group_free(&g);
    CONF_CALL(&t, MPI_Group_difference(world_group, odd_group, &g));
    CONF_CALL(&t, MPI_Group_compare(g, even_group, &cmp));
    CONF_CHECK(&t, cmp == MPI_IDENT, "difference compare %d", cmp);
    MPI_Group_free(&g);
    {
        int pick[2] = {size - 1, 0}, excl[1] = {0};
        CONF_CALL(&t, MPI_Group_incl(world_group, size > 1 ? 2 : 1, pick, &g));
        MPI_Group_rank(g, &r);
        CONF_CHECK(&t, r == (rank == size - 1 ? 0 : rank == 0 ? (size > 1 ? 1 : 0) : MPI_UNDEFINED),
                   "incl rank %d", r);
        MPI_Group_free(&g);
        CONF_CALL(&t, MPI_Group_excl(world_group, 1, excl, &g));
        MPI_Group_rank(g, &r);
        CONF_CHECK(&t, r == rank - 1 || (rank == 0 && r == MPI_UNDEFINED), "excl rank %d", r);
        MPI_Group_free(&g);
    }
    /* Errors come back with the standard's classes. */
    {
        int bad[1] = {size};
        int err = MPI_Group_incl(world_group, 1, bad, &g), cls;
        MPI_Error_class(err, &cls);
        CONF_CHECK(&t, cls == MPI_ERR_RANK, "incl of rank %d: class %d", size, cls);
        err = MPI_Group_size(MPI_GROUP_NULL, &n);
        MPI_Error_class(err, &cls);
        CONF_CHECK(&t, cls == MPI_ERR_GROUP, "MPI_GROUP_NULL: class %d", cls);
        err = MPI_Comm_free(&none);
        MPI_Error_class(err, &cls);
        CONF_CHECK(&t, cls == MPI_ERR_COMM, "free of MPI_COMM_NULL: class %d", cls);
    }

    /* Comm_create over WORLD: evens get a communicator, odds MPI_COMM_NULL. */
    CONF_CALL(&t, MPI_Comm_create(MPI_COMM_WORLD, even_group, &even_comm));
    if (rank % 2 == 0) {
        long sum = 0;
        for (r = 0; r < size; r += 2) sum += r;
        check_comm(&t, even_comm, (size + 1) / 2, sum, rank, "create");
        CONF_CALL(&t, MPI_Comm_free(&even_comm));
    } else {
        CONF_CHECK(&t, even_comm == MPI_COMM_NULL, "odd rank got the even communicator");
    }
    /* Comm_create_group: only the odd ranks call. */
    if (rank % 2 == 1) {
        long sum = 0;
        for (r = 1; r < size; r += 2) sum += r;
        CONF_CALL(&t, MPI_Comm_create_group(MPI_COMM_WORLD, odd_group, 17, &odd_comm));
        check_comm(&t, odd_comm, size / 2, sum, rank, "create_group");
        CONF_CALL(&t, MPI_Comm_free(&odd_comm));
    }
    MPI_Group_free(&even_group);
    MPI_Group_free(&odd_group);
    MPI_Group_free(&world_group);

    /* Names. */
    MPI_Comm_get_name(MPI_COMM_WORLD, name, &len);
    CONF_CHECK(&t, strcmp(name, "MPI_COMM_WORLD") == 0, "world name '%s'", name);
    MPI_Comm_set_name(half, "halves");
    MPI_Comm_get_name(half, name, &len);
    CONF_CHECK(&t, strcmp(name, "halves") == 0 && len == 6, "name '%s'", name);

    /* Attributes: copied on dup by the copy callback, deleted on free. */
    CONF_CALL(&t, MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &flag));
    CONF_CHECK(&t, flag && *tag_ub >= 32767, "MPI_TAG_UB");
    CONF_CALL(&t, MPI_Comm_create_keyval(count_copy, count_delete, &keyval, &copies));
    CONF_CALL(&t, MPI_Comm_set_attr(half, keyval, &deletes));
    {
        MPI_Comm copy;
        CONF_CALL(&t, MPI_Comm_dup(half, &copy));
        CONF_CHECK(&t, copies == 1, "copy callback ran %d times", copies);
        CONF_CALL(&t, MPI_Comm_get_attr(copy, keyval, &value, &flag));
        CONF_CHECK(&t, flag && value == (void*)&deletes, "attribute not copied");
        CONF_CALL(&t, MPI_Comm_free(&copy));
        CONF_CHECK(&t, copies == 2, "delete callback ran %d times", copies - 1);
        CONF_CALL(&t, MPI_Comm_delete_attr(half, keyval));
        CONF_CALL(&t, MPI_Comm_get_attr(half, keyval, &value, &flag));
        CONF_CHECK(&t, !flag, "deleted attribute still set");
    }
    CONF_CALL(&t, MPI_Comm_free_keyval(&keyval));
    CONF_CHECK(&t, keyval == MPI_KEYVAL_INVALID, "free_keyval did not reset the keyval");

    /* A user error handler is called with the communicator and returns. */
    CONF_CALL(&t, MPI_Comm_create_errhandler(name_the_error, &handler));
    CONF_CALL(&t, MPI_Comm_set_errhandler(dup, handler));
    {
        int err = MPI_Send(&rank, 1, MPI_INT, size + 3, 0, dup), cls;
        MPI_Error_class(err, &cls);
        CONF_CHECK(&t, cls == MPI_ERR_RANK, "send to a bad rank: class %d", cls);
        MPI_Comm_get_name(dup, name, &len);
        snprintf(name + 40, 20, "error %d", MPI_ERR_RANK);
        CONF_CHECK(&t, strcmp(name, name + 40) == 0, "handler saw '%s'", name);
    }
    MPI_Errhandler_free(&handler);

    /* No parent; hints are accepted and none are reported back. */
    {
        MPI_Comm parent = MPI_COMM_WORLD;
        MPI_Info info;
        int keys = -1;
        CONF_CALL(&t, MPI_Comm_get_parent(&parent));
        CONF_CHECK(&t, parent == MPI_COMM_NULL, "a parent communicator");
        CONF_CALL(&t, MPI_Comm_get_info(half, &info));
        MPI_Info_get_nkeys(info, &keys);
        CONF_CHECK(&t, keys == 0, "get_info has %d keys", keys);
        CONF_CALL(&t, MPI_Comm_set_info(half, info));
        MPI_Info_free(&info);
    }
    CONF_CALL(&t, MPI_Comm_disconnect(&half));
    CONF_CHECK(&t, half == MPI_COMM_NULL, "disconnect did not null the handle");
    CONF_CALL(&t, MPI_Comm_free(&dup));
    (void)s;
    return conf_finish(&t);
}
