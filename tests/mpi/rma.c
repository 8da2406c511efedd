/* One-sided communication (MPI-4.0 chapter 12): every kind of window, every operation and
 * every synchronization, each checked against values every rank can compute.
 *   fence:    MPI_Win_create; MPI_Put around a ring; MPI_Get through a vector target type;
 *             MPI_Accumulate (MPI_SUM) of every rank into rank 0.
 *   mixed:    a lock right after a fence; MPI_MAXLOC accumulate on MPI_DOUBLE_INT (a pair type).
 *   passive:  MPI_Win_allocate; MPI_Fetch_and_op on a counter under MPI_Win_lock_all
 *             (each rank gets a distinct ticket); MPI_Compare_and_swap under exclusive locks;
 *             MPI_Get_accumulate; MPI_Win_flush.
 *   pscw:     rank 0 exposes its window to all others (post/wait), they put (start/complete);
 *             then again with MPI_MODE_NOCHECK.
 *   dynamic:  MPI_Win_create_dynamic + two adjacent MPI_Win_attach regions one put spans,
 *             addresses exchanged by MPI_Sendrecv.
 *   shared:   MPI_Win_allocate_shared over MPI_COMM_SELF, then over a node's ranks (which span
 *             two real processes under xsim at P2.N4: shared memory both map), MPI_Win_shared_query.
 *   attribute: MPI_Win_create_keyval, set/get, delete callbacks at replacement and MPI_Win_free.
 *   request:  MPI_Rput, MPI_Rget (waited for) and MPI_Raccumulate (freed at once).
 *   errors:   an operation outside an epoch gives MPI_ERR_RMA_SYNC (MPI_ERRORS_RETURN), and a
 *             handler of MPI_Win_create_errhandler sees it.
 * Plain MPI: it passes on Open MPI 4.1 with --mca osc sm,pt2pt, but for the part "mixed" (its
 * pt2pt component has no MAXLOC on pair types; its default, rdma, crashes here). */
#include "xsim_test.h"

static void fence_tests(xt_t *t)
{
    int win_buf[4] = {-1, -1, -1, -1};
    MPI_Win win;
    MPI_Win_create(win_buf, sizeof win_buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    const int next = (t->rank + 1) % t->size, prev = (t->rank + t->size - 1) % t->size;

    /* Put: my rank into slot 0 of the next rank. */
    MPI_Win_fence(0, win);
    MPI_Put(&t->rank, 1, MPI_INT, next, 0, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    if (win_buf[0] != prev) xt_fail(t, "fence put: slot 0 holds %d, expected %d", win_buf[0], prev);

    /* Get through a vector target type: slots 0 and 2 of the next rank. */
    win_buf[2] = 1000 + t->rank;
    MPI_Datatype every_other;
    MPI_Type_vector(2, 1, 2, MPI_INT, &every_other);
    MPI_Type_commit(&every_other);
    int got[2] = {0, 0};
    MPI_Win_fence(0, win);
    MPI_Get(got, 2, MPI_INT, next, 0, 1, every_other, win);
    MPI_Win_fence(0, win);
    if (got[0] != t->rank || got[1] != 1000 + next)
        xt_fail(t, "fence get: got %d %d, expected %d %d", got[0], got[1], t->rank, 1000 + next);
    MPI_Type_free(&every_other);

    /* Accumulate: every rank adds rank + 1 to slot 3 of rank 0. */
    win_buf[3] = 0;
    MPI_Win_fence(0, win);
    int add = t->rank + 1;
    MPI_Accumulate(&add, 1, MPI_INT, 0, 3, 1, MPI_INT, MPI_SUM, win);
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    if (t->rank == 0 && win_buf[3] != t->size * (t->size + 1) / 2)
        xt_fail(t, "fence accumulate: %d, expected %d", win_buf[3], t->size * (t->size + 1) / 2);
    MPI_Win_free(&win);
    if (win != MPI_WIN_NULL) xt_fail(t, "MPI_Win_free did not set MPI_WIN_NULL");
}

/* A fence that no operation follows opens no epoch: a lock or general active target may come
 * next. MAXLOC on a pair type with a hole (MPI_DOUBLE_INT) combines element by element. */
static void mixed_tests(xt_t *t)
{
    struct { double value; int rank; } pairs[2] = {{-1e9, -1}, {-1e9, -1}}, mine[2];
    MPI_Win win;
    MPI_Win_create(pairs, sizeof pairs, sizeof pairs[0], MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
    mine[0].value = t->rank;
    mine[0].rank = t->rank;
    mine[1].value = -t->rank;
    mine[1].rank = t->rank;
    MPI_Accumulate(mine, 2, MPI_DOUBLE_INT, 0, 0, 2, MPI_DOUBLE_INT, MPI_MAXLOC, win);
    MPI_Win_unlock(0, win);
    MPI_Barrier(MPI_COMM_WORLD);
    if (t->rank == 0 && (pairs[0].value != t->size - 1 || pairs[0].rank != t->size - 1 || pairs[1].value != 0 ||
                         pairs[1].rank != 0))
        xt_fail(t, "MAXLOC on MPI_DOUBLE_INT: {%g,%d} {%g,%d}, expected {%d,%d} {0,0}", pairs[0].value, pairs[0].rank,
                pairs[1].value, pairs[1].rank, t->size - 1, t->size - 1);
    MPI_Win_free(&win);
}

static void passive_tests(xt_t *t)
{
    long long *mem = NULL;
    MPI_Win win;
    MPI_Win_allocate(3 * sizeof(long long), sizeof(long long), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
    int flag = 0, *flavor = NULL;
    MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &flavor, &flag);
    if (!flag || *flavor != MPI_WIN_FLAVOR_ALLOCATE) xt_fail(t, "MPI_WIN_CREATE_FLAVOR is not ALLOCATE");
    void *base = NULL;
    MPI_Win_get_attr(win, MPI_WIN_BASE, &base, &flag);
    if (!flag || base != mem) xt_fail(t, "MPI_WIN_BASE is not the allocated memory");
    mem[0] = 0; /* the counter (rank 0's) */
    mem[1] = -1;
    mem[2] = 0;
    MPI_Barrier(MPI_COMM_WORLD);

    /* Tickets: each rank takes one from rank 0's counter. */
    long long one = 1, ticket = -1;
    MPI_Win_lock_all(0, win);
    MPI_Fetch_and_op(&one, &ticket, MPI_LONG_LONG, 0, 0, MPI_SUM, win);
    MPI_Win_flush(0, win);
    MPI_Win_unlock_all(win);
    if (ticket < 0 || ticket >= t->size) xt_fail(t, "ticket %lld out of range", ticket);
    long long ticket_sum = 0;
    MPI_Allreduce(&ticket, &ticket_sum, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (ticket_sum != (long long)t->size * (t->size - 1) / 2)
        xt_fail(t, "tickets are not distinct: their sum is %lld", ticket_sum);

    /* Compare-and-swap: the first rank to find -1 in rank 0's slot 1 writes its rank there. */
    long long mine = t->rank, expect = -1, old = 0;
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
    MPI_Compare_and_swap(&mine, &expect, &old, MPI_LONG_LONG, 0, 1, win);
    MPI_Win_unlock(0, win);
    int winner = old == -1;
    int winners = 0;
    MPI_Allreduce(&winner, &winners, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (winners != 1) xt_fail(t, "compare-and-swap: %d ranks found the slot empty", winners);

    /* Get_accumulate: each rank adds 10 to its right neighbour's slot 2, reading what was there. */
    const int next = (t->rank + 1) % t->size;
    long long ten = 10, before = -1;
    MPI_Win_lock(MPI_LOCK_SHARED, next, 0, win);
    MPI_Get_accumulate(&ten, 1, MPI_LONG_LONG, &before, 1, MPI_LONG_LONG, next, 2, 1, MPI_LONG_LONG, MPI_SUM, win);
    MPI_Win_unlock(next, win);
    MPI_Barrier(MPI_COMM_WORLD);
    if (before != 0) xt_fail(t, "get_accumulate read %lld, expected 0", before);
    if (mem[2] != 10) xt_fail(t, "slot 2 holds %lld after one get_accumulate, expected 10", mem[2]);
    if (t->rank == 0 && mem[0] != t->size) xt_fail(t, "counter %lld, expected %d", mem[0], t->size);
    MPI_Win_free(&win);
}

static void pscw_tests(xt_t *t)
{
    if (t->size < 2) return;
    int *slots = calloc((size_t)t->size, sizeof(int));
    MPI_Win win;
    MPI_Win_create(slots, (MPI_Aint)(t->size * sizeof(int)), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Group world, others, zero;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int zero_rank = 0;
    MPI_Group_excl(world, 1, &zero_rank, &others);
    MPI_Group_incl(world, 1, &zero_rank, &zero);
    if (t->rank == 0) {
        MPI_Win_post(others, 0, win);
        MPI_Win_wait(win);
        for (int r = 1; r < t->size; ++r)
            if (slots[r] != 7 * r) xt_fail(t, "pscw: slot %d holds %d, expected %d", r, slots[r], 7 * r);
    } else {
        int value = 7 * t->rank;
        MPI_Win_start(zero, 0, win);
        MPI_Put(&value, 1, MPI_INT, 0, t->rank, 1, MPI_INT, win);
        MPI_Win_complete(win);
    }
    /* Again with MPI_MODE_NOCHECK on both sides: the barrier orders post before start. */
    if (t->rank == 0) {
        MPI_Win_post(others, MPI_MODE_NOCHECK, win);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Win_wait(win);
        for (int r = 1; r < t->size; ++r)
            if (slots[r] != 9 * r) xt_fail(t, "pscw nocheck: slot %d holds %d, expected %d", r, slots[r], 9 * r);
    } else {
        int value = 9 * t->rank;
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Win_start(zero, MPI_MODE_NOCHECK, win);
        MPI_Put(&value, 1, MPI_INT, 0, t->rank, 1, MPI_INT, win);
        MPI_Win_complete(win);
    }
    MPI_Group_free(&world);
    MPI_Group_free(&others);
    MPI_Group_free(&zero);
    MPI_Win_free(&win);
    free(slots);
}

static void dynamic_tests(xt_t *t)
{
    MPI_Win win;
    MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    double region[2] = {0, 0};
    /* Two adjacent regions: an access may span both. */
    MPI_Win_attach(win, region, sizeof region[0]);
    MPI_Win_attach(win, &region[1], sizeof region[1]);
    MPI_Aint mine, next_address;
    MPI_Get_address(&region[0], &mine);
    const int next = (t->rank + 1) % t->size, prev = (t->rank + t->size - 1) % t->size;
    MPI_Sendrecv(&mine, 1, MPI_AINT, prev, 5, &next_address, 1, MPI_AINT, next, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    double values[2] = {0.25 + t->rank, 0.5 + t->rank};
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, next, 0, win);
    MPI_Put(values, 2, MPI_DOUBLE, next, next_address, 2, MPI_DOUBLE, win);
    MPI_Win_unlock(next, win);
    MPI_Barrier(MPI_COMM_WORLD);
    if (region[0] != 0.25 + prev || region[1] != 0.5 + prev)
        xt_fail(t, "dynamic put: %g %g, expected %g %g", region[0], region[1], 0.25 + prev, 0.5 + prev);
    MPI_Win_detach(win, region);
    MPI_Win_detach(win, &region[1]);
    MPI_Win_free(&win);
}

static void shared_tests(xt_t *t)
{
    int *mine = NULL;
    MPI_Win win;
    MPI_Win_allocate_shared(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_SELF, &mine, &win);
    *mine = 40 + t->rank;
    MPI_Aint size = 0;
    int unit = 0, *seen = NULL;
    MPI_Win_shared_query(win, 0, &size, &unit, &seen);
    if (seen != mine || size != sizeof(int) || unit != sizeof(int) || *seen != 40 + t->rank)
        xt_fail(t, "MPI_Win_shared_query does not give this rank's memory");
    MPI_Win_free(&win);

    /* Over a node's ranks (MPI_COMM_TYPE_SHARED), which may span real processes under xsim:
     * each writes its int, then reads its neighbours' through MPI_Win_shared_query. */
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    int node_rank, node_size;
    MPI_Comm_rank(node, &node_rank);
    MPI_Comm_size(node, &node_size);
    MPI_Win_allocate_shared(sizeof(int), sizeof(int), MPI_INFO_NULL, node, &mine, &win);
    *mine = 1000 + t->rank;
    MPI_Win_sync(win);
    MPI_Barrier(node);
    MPI_Win_sync(win);
    int *first = NULL;
    MPI_Win_shared_query(win, 0, &size, &unit, &first);
    for (int r = 0; r < node_size; ++r) {
        int *theirs = NULL, their_rank;
        MPI_Group node_group, world_group;
        MPI_Win_shared_query(win, r, &size, &unit, &theirs);
        MPI_Comm_group(node, &node_group);
        MPI_Comm_group(MPI_COMM_WORLD, &world_group);
        MPI_Group_translate_ranks(node_group, 1, &r, world_group, &their_rank);
        MPI_Group_free(&node_group);
        MPI_Group_free(&world_group);
        if (theirs != first + r || *theirs != 1000 + their_rank)
            xt_fail(t, "node member %d's int: %d at offset %td, expected %d at %d", r, theirs ? *theirs : -1,
                    theirs - first, 1000 + their_rank, r);
    }
    MPI_Win_free(&win);
    MPI_Comm_free(&node);
}

static void request_tests(xt_t *t)
{
    int slots[3] = {t->rank, 0, 0};
    MPI_Win win;
    MPI_Win_create(slots, sizeof slots, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    const int next = (t->rank + 1) % t->size, prev = (t->rank + t->size - 1) % t->size;
    MPI_Win_lock_all(0, win);
    MPI_Request requests[2], freed;
    int value = 100 + t->rank, got = -1, one = 1;
    MPI_Rput(&value, 1, MPI_INT, next, 1, 1, MPI_INT, win, &requests[0]);
    MPI_Rget(&got, 1, MPI_INT, next, 0, 1, MPI_INT, win, &requests[1]);
    MPI_Raccumulate(&one, 1, MPI_INT, next, 2, 1, MPI_INT, MPI_SUM, win, &freed);
    MPI_Request_free(&freed); /* completed by the unlock below all the same */
    MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
    if (got != next) xt_fail(t, "MPI_Rget: %d, expected %d", got, next);
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    if (slots[1] != 100 + prev || slots[2] != 1)
        xt_fail(t, "MPI_Rput/MPI_Raccumulate: slots hold %d %d, expected %d 1", slots[1], slots[2], 100 + prev);
    MPI_Win_free(&win);
}

static int deleted_value(MPI_Win win, int keyval, void *value, void *extra)
{
    (void)win;
    (void)keyval;
    *(int *)extra += *(int *)value;
    return MPI_SUCCESS;
}

/* A window's own attribute: set, read, replaced (the delete callback sees the old value),
 * deleted by MPI_Win_free. */
static void attribute_tests(xt_t *t)
{
    int x = 0, deleted = 0, first = 3, second = 5, keyval, flag = 0;
    int *seen = NULL;
    MPI_Win win;
    MPI_Win_create(&x, sizeof x, sizeof x, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, deleted_value, &keyval, &deleted);
    MPI_Win_set_attr(win, keyval, &first);
    MPI_Win_get_attr(win, keyval, &seen, &flag);
    if (!flag || seen != &first) xt_fail(t, "MPI_Win_get_attr does not give the value set");
    MPI_Win_set_attr(win, keyval, &second);
    if (deleted != 3) xt_fail(t, "replacing an attribute called the delete callback with %d, expected 3", deleted);
    MPI_Win_free_keyval(&keyval);
    if (keyval != MPI_KEYVAL_INVALID) xt_fail(t, "MPI_Win_free_keyval did not set MPI_KEYVAL_INVALID");
    MPI_Win_free(&win);
    if (deleted != 8) xt_fail(t, "MPI_Win_free called the delete callbacks for %d, expected 3 + 5", deleted);
}

static void record_error(MPI_Win *win, int *code, ...)
{
    int *seen = NULL, flag = 0;
    MPI_Win_get_attr(*win, MPI_WIN_BASE, &seen, &flag);
    *seen = *code; /* the window's one int */
}

static void error_tests(xt_t *t)
{
    int x = 0;
    MPI_Win win;
    MPI_Win_create(&x, sizeof x, sizeof x, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    int rc = MPI_Put(&x, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
    int cls = -1;
    MPI_Error_class(rc, &cls);
    if (cls != MPI_ERR_RMA_SYNC) xt_fail(t, "a put outside an epoch returned class %d, expected MPI_ERR_RMA_SYNC", cls);
    rc = MPI_Win_unlock(0, win);
    MPI_Error_class(rc, &cls);
    if (cls != MPI_ERR_RMA_SYNC) xt_fail(t, "an unlock without lock returned class %d, expected MPI_ERR_RMA_SYNC", cls);
    rc = MPI_Win_lock(12345, 0, 0, win);
    MPI_Error_class(rc, &cls);
    if (cls != MPI_ERR_LOCKTYPE) xt_fail(t, "a bad lock type returned class %d, expected MPI_ERR_LOCKTYPE", cls);
    /* A handler of MPI_Win_create_errhandler gets the window and the code. */
    MPI_Errhandler handler;
    MPI_Win_create_errhandler(record_error, &handler);
    MPI_Win_set_errhandler(win, handler);
    MPI_Errhandler_free(&handler);
    MPI_Win_unlock(0, win);
    if (x != MPI_ERR_RMA_SYNC) xt_fail(t, "the window's handler saw %d, expected MPI_ERR_RMA_SYNC", x);
    MPI_Win_free(&win);
}

/* Rank 0's view of single operations to `peer` (lock taken with MPI_MODE_NOCHECK, so no
 * lock traffic but in RMALOCK): tests/mpi/CMakeLists.txt checks the printed times against
 * closed forms of the machine (MPI_Get: request + reply with the data; MPI_Put: the data +
 * the acknowledgement; MPI_Win_lock + MPI_Win_unlock: the lock's round trip). */
static void timing(xt_t *t, int peer, int bytes)
{
    char *mem = calloc((size_t)bytes + 1, 1), *local = calloc((size_t)bytes + 1, 1);
    MPI_Win win;
    MPI_Win_create(mem, bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    if (t->rank == 0) {
        MPI_Win_lock(MPI_LOCK_SHARED, peer, MPI_MODE_NOCHECK, win);
        double t0 = MPI_Wtime();
        MPI_Get(local, bytes, MPI_BYTE, peer, 0, bytes, MPI_BYTE, win);
        MPI_Win_flush(peer, win);
        double t1 = MPI_Wtime();
        MPI_Put(local, bytes, MPI_BYTE, peer, 0, bytes, MPI_BYTE, win);
        MPI_Win_flush(peer, win);
        double t2 = MPI_Wtime();
        MPI_Win_unlock(peer, win);
        double t3 = MPI_Wtime();
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, peer, 0, win);
        MPI_Win_unlock(peer, win);
        double t4 = MPI_Wtime();
        printf("RMAGET %d %.12f\nRMAPUT %d %.12f\nRMALOCK %.12f\n", bytes, t1 - t0, bytes, t2 - t1, t4 - t3);
    }
    MPI_Win_free(&win);
    free(mem);
    free(local);
}

int main(int argc, char **argv)
{
    xt_t t;
    xt_init(&t, &argc, &argv, "rma");
    /* A part's name as the argument runs only that part. */
    const char *only = argc > 1 ? argv[1] : "";
    if (!strcmp(only, "timing")) {
        if (argc < 4 || atoi(argv[2]) >= t.size) xt_fatal(&t, "usage: rma timing PEER BYTES, PEER < ranks");
        timing(&t, atoi(argv[2]), atoi(argv[3]));
        return xt_finish(&t, NULL);
    }
#define PART(name) if (!*only || !strcmp(only, #name)) name##_tests(&t)
    PART(fence);
    PART(mixed);
    PART(passive);
    PART(pscw);
    PART(dynamic);
    PART(shared);
    PART(request);
    PART(attribute);
    PART(error);
    return xt_finish(&t, NULL);
}
