/* One-sided result buffers freed before the call that completes their operations: erroneous
 * (MPI-4.0 section 12.3), done by mpi4py 3.1.4's test_rma (MPI_Free_mem of the result of
 * MPI_Fetch_and_op before the fence), and harmless natively where Open MPI completes small
 * operations at the call. Under xsim the fetched data arrives later: MPI_Free_mem must keep
 * such a block until then (no crash, no write into memory reused since), and say so once.
 * Each rank targets its successor: MPI_Get (contiguous and strided), MPI_Get_accumulate and
 * MPI_Fetch_and_op into one MPI_Alloc_mem block freed before the fence, then MPI_Fetch_and_op
 * into a block freed before MPI_Win_unlock. A block allocated right after each early free
 * (where malloc reuses the freed one) must keep its contents; the windows' data must be
 * what the operations made it. Correct frees come first (after the fence; after MPI_Wait of
 * MPI_Rget's request, before the unlock), on a window named "correct": the warning (checked by
 * the test's --expect-stderr) must name the other, "early". */
#include "conformance.h"

#define CELLS 4
#define RESULTS 8

/* A block of `n` ints from MPI_Alloc_mem, each `value`. */
static int* alloc_ints(conf_t* t, int n, int value) {
    int* p = NULL;
    int i;
    CONF_CALL(t, MPI_Alloc_mem((MPI_Aint)(n * sizeof(int)), MPI_INFO_NULL, &p));
    if (!p) {
        fprintf(stderr, "MPI_Alloc_mem failed\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    for (i = 0; i < n; i++) p[i] = value;
    return p;
}

static void check_sentinel(conf_t* t, const int* block, int n, int value, const char* when) {
    int i;
    for (i = 0; i < n; i++)
        CONF_CHECK(t, block[i] == value, "%s: a block allocated after the early free holds %d at %d, expected %d",
                   when, block[i], i, value);
}

int main(int argc, char** argv) {
    conf_t t;
    int *cells, *result, *sentinel, *origin;
    int succ, pred, i, one = 1, add, replace;
    MPI_Datatype strided;
    MPI_Request request;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    conf_init(&t, "rma_freed_result");
    succ = (t.rank + 1) % t.size;
    pred = (t.rank + t.size - 1) % t.size;
    CONF_CALL(&t, MPI_Type_vector(2, 1, 2, MPI_INT, &strided));
    CONF_CALL(&t, MPI_Type_commit(&strided));

    /* A correct use first: the result block is freed after the fence. */
    cells = alloc_ints(&t, CELLS, 0);
    CONF_CALL(&t, MPI_Win_create(cells, CELLS * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    CONF_CALL(&t, MPI_Win_set_name(win, "correct"));
    result = alloc_ints(&t, 1, -1);
    CONF_CALL(&t, MPI_Win_fence(0, win));
    CONF_CALL(&t, MPI_Fetch_and_op(&one, result, MPI_INT, succ, 0, MPI_SUM, win));
    CONF_CALL(&t, MPI_Win_fence(0, win));
    CONF_CHECK(&t, result[0] == 0, "correct use: fetched %d, expected 0", result[0]);
    CONF_CALL(&t, MPI_Free_mem(result));
    CONF_CALL(&t, MPI_Win_fence(0, win));
    CONF_CHECK(&t, cells[0] == 1, "correct use: cell 0 holds %d, expected 1", cells[0]);
    /* MPI_Rget's own request completed: its result block may be freed before the unlock. */
    result = alloc_ints(&t, 1, -1);
    CONF_CALL(&t, MPI_Win_lock(MPI_LOCK_SHARED, succ, 0, win));
    CONF_CALL(&t, MPI_Rget(result, 1, MPI_INT, succ, 0, 1, MPI_INT, win, &request));
    CONF_CALL(&t, MPI_Wait(&request, MPI_STATUS_IGNORE));
    CONF_CHECK(&t, result[0] == 1, "correct use: MPI_Rget fetched %d, expected 1", result[0]);
    CONF_CALL(&t, MPI_Free_mem(result));
    CONF_CALL(&t, MPI_Win_unlock(succ, win));
    CONF_CALL(&t, MPI_Barrier(MPI_COMM_WORLD));
    CONF_CALL(&t, MPI_Win_free(&win));
    CONF_CALL(&t, MPI_Free_mem(cells));

    /* The erroneous uses. */
    cells = alloc_ints(&t, CELLS, 0);
    for (i = 0; i < CELLS; i++) cells[i] = t.rank * 100 + i;
    CONF_CALL(&t, MPI_Win_create(cells, CELLS * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    CONF_CALL(&t, MPI_Win_set_name(win, "early"));
    CONF_CALL(&t, MPI_Win_fence(0, win));
    result = alloc_ints(&t, RESULTS, -1);
    origin = alloc_ints(&t, 2, 0);
    origin[0] = succ + 1;       /* added to the successor's cell 2 */
    origin[1] = 10 * (succ + 1); /* added to its cell 3 */
    CONF_CALL(&t, MPI_Get(result, 2, MPI_INT, succ, 0, 2, MPI_INT, win));
    CONF_CALL(&t, MPI_Get(result + 4, 1, strided, succ, 0, 2, MPI_INT, win));
    CONF_CALL(&t, MPI_Get_accumulate(&origin[0], 1, MPI_INT, result + 2, 1, MPI_INT, succ, 2, 1, MPI_INT, MPI_SUM,
                                     win));
    CONF_CALL(&t, MPI_Fetch_and_op(&origin[1], result + 3, MPI_INT, succ, 3, MPI_SUM, win));
    CONF_CALL(&t, MPI_Free_mem(result));  /* erroneous: four operations still write it */
    CONF_CALL(&t, MPI_Free_mem(origin));  /* erroneous too: they read it (copied at the call under xsim) */
    sentinel = alloc_ints(&t, RESULTS, 0x5a5a5a5a);
    CONF_CALL(&t, MPI_Win_fence(0, win));
    check_sentinel(&t, sentinel, RESULTS, 0x5a5a5a5a, "fence");
    CONF_CALL(&t, MPI_Free_mem(sentinel));

    /* Passive target: the result freed before MPI_Win_unlock. */
    CONF_CALL(&t, MPI_Win_fence(0, win)); /* ends the fence epoch */
    replace = -(t.rank + 1);            /* the successor's cell 1 becomes -(its predecessor + 1) */
    result = alloc_ints(&t, 1, -1);
    CONF_CALL(&t, MPI_Win_lock(MPI_LOCK_EXCLUSIVE, succ, 0, win));
    CONF_CALL(&t, MPI_Fetch_and_op(&replace, result, MPI_INT, succ, 1, MPI_REPLACE, win));
    CONF_CALL(&t, MPI_Free_mem(result));
    sentinel = alloc_ints(&t, 1, 0x3c3c3c3c);
    CONF_CALL(&t, MPI_Win_unlock(succ, win));
    check_sentinel(&t, sentinel, 1, 0x3c3c3c3c, "unlock");
    CONF_CALL(&t, MPI_Free_mem(sentinel));
    CONF_CALL(&t, MPI_Barrier(MPI_COMM_WORLD));

    /* Every rank's window, as its predecessor's operations left it. */
    CONF_CALL(&t, MPI_Win_lock(MPI_LOCK_SHARED, t.rank, 0, win));
    add = t.rank + 1;
    CONF_CHECK(&t, cells[0] == t.rank * 100, "cell 0 holds %d, expected %d", cells[0], t.rank * 100);
    CONF_CHECK(&t, cells[1] == -(pred + 1), "cell 1 holds %d, expected %d", cells[1], -(pred + 1));
    CONF_CHECK(&t, cells[2] == t.rank * 100 + 2 + add, "cell 2 holds %d, expected %d", cells[2],
               t.rank * 100 + 2 + add);
    CONF_CHECK(&t, cells[3] == t.rank * 100 + 3 + 10 * add, "cell 3 holds %d, expected %d", cells[3],
               t.rank * 100 + 3 + 10 * add);
    CONF_CALL(&t, MPI_Win_unlock(t.rank, win));
    CONF_CALL(&t, MPI_Win_free(&win));
    CONF_CALL(&t, MPI_Free_mem(cells));
    CONF_CALL(&t, MPI_Type_free(&strided));
    return conf_finish(&t);
}
