/* privatize: every simulated rank has its own copy of the program's globals.
 *
 * Checks, in every rank: an initialised global array starts with its initial values
 * (whatever other ranks did to theirs); a file-scope static and a function-local static
 * count this rank's calls only; a thread-local counter is per rank; a global set to the
 * rank before a barrier still holds this rank's number after it, when every other rank
 * of the process has run and set its own; a user reduction operation counts its calls in
 * the globals of the rank whose reduction it computes; pages of a large global written by one
 * rank each are that rank's alone; a COMMON-block-sized array that every rank rewrites whole
 * between barriers (xsim remaps such runs of pages at a switch) holds each rank's values. Fails (FAIL lines) when ranks share globals
 * (e.g. -xsim-privatize off with several ranks per real process).
 *
 * Unlike the other test programs this one keeps its state in globals on purpose.
 */
#define _DEFAULT_SOURCE
#include "xsim_test.h"

int initialised[8] = {10, 11, 12, 13, 14, 15, 16, 17};
int my_rank = -1;               /* .bss */
static long calls_file_scope;   /* .bss, file scope */
static __thread int tls_counter; /* thread-local */

static int count_call(void)
{
    static int calls; /* function-local static */
    ++calls_file_scope;
    return ++calls;
}

/* A user reduction operation is application code: it must run on the globals of the rank
 * whose reduction it computes, also when xsim runs it as a message arrives. */
static int op_calls;
static void counting_sum(void *in, void *inout, int *len, MPI_Datatype *type)
{
    int i;
    (void)type;
    ++op_calls;
    for (i = 0; i < *len; ++i) ((int *)inout)[i] += ((int *)in)[i];
}

static void check_user_op(xt_t *t)
{
    MPI_Op op;
    int sum = 0;
    MPI_Op_create(counting_sum, 1, &op);
    MPI_Reduce(&t->rank, &sum, 1, MPI_INT, op, 0, MPI_COMM_WORLD);
    MPI_Op_free(&op);
    if (t->rank == 0) {
        XT_CHECK(t, sum == (int)((long long)t->size * (t->size - 1) / 2), "user-op reduction gave %d", sum);
        XT_CHECK(t, t->size == 1 || op_calls > 0, "the root's operation calls were counted elsewhere (op_calls %d)", op_calls);
    }
    /* Odd ranks are leaves of every reduction tree (and not the root): they never combine. */
    if (t->rank % 2 == 1) XT_CHECK(t, op_calls == 0, "leaf rank counted %d operation calls of other ranks", op_calls);
}

/* Message data moved while other ranks' images are loaded (a message arriving in the
 * scheduler, a rendezvous copy) must land in, and come from, the owner's copy of a global. */
#define BIG 20000 /* doubles: above every eager limit, so sent by rendezvous */
double big_out[BIG], big_in[BIG];
int small_out[4], small_in[4];
long long reduced[2];

static void check_global_buffers(xt_t *t)
{
    const int next = (t->rank + 1) % t->size, prev = (t->rank + t->size - 1) % t->size;
    MPI_Request req[2];
    long long mine[2];
    int i;
    for (i = 0; i < BIG; ++i) big_out[i] = t->rank + i * 1e-6;
    for (i = 0; i < 4; ++i) small_out[i] = 100 * t->rank + i;
    MPI_Irecv(big_in, BIG, MPI_DOUBLE, prev, 7, MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(small_in, 4, MPI_INT, prev, 8, MPI_COMM_WORLD, &req[1]);
    MPI_Barrier(MPI_COMM_WORLD); /* every receive is posted: arrivals find them */
    MPI_Send(big_out, BIG, MPI_DOUBLE, next, 7, MPI_COMM_WORLD);
    MPI_Send(small_out, 4, MPI_INT, next, 8, MPI_COMM_WORLD);
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
    for (i = 0; i < BIG; i += 997)
        XT_CHECK(t, big_in[i] == prev + i * 1e-6, "big_in[%d] is %g, expected %g (from rank %d)", i, big_in[i],
                 prev + i * 1e-6, prev);
    for (i = 0; i < 4; ++i)
        XT_CHECK(t, small_in[i] == 100 * prev + i, "small_in[%d] is %d, expected %d", i, small_in[i], 100 * prev + i);
    mine[0] = t->rank;
    mine[1] = 1;
    reduced[0] = mine[0];
    reduced[1] = mine[1];
    MPI_Allreduce(MPI_IN_PLACE, reduced, 2, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    XT_CHECK(t, reduced[0] == (long long)t->size * (t->size - 1) / 2 && reduced[1] == t->size,
             "allreduce in a global gave %lld %lld", reduced[0], reduced[1]);
}

/* A global of pages that ranks write one each, in different rounds: a page first written by
 * one rank holds the start-up bytes in every other rank's image, also in those of ranks that
 * ran and saved their image before (xsim switches large images by written page). */
#define SPARSE_PAGES 16
#define ROUNDS 4
#define S(p) [p][17] = 's'
static char sparse[SPARSE_PAGES][4096] = {S(0), S(1), S(2),  S(3),  S(4),  S(5),  S(6),  S(7),
                                          S(8), S(9), S(10), S(11), S(12), S(13), S(14), S(15)};

static void check_sparse_pages(xt_t *t)
{
    const int mine = t->rank % SPARSE_PAGES;
    int round, p;
    for (round = 0; round < ROUNDS; ++round) {
        if (t->rank % ROUNDS == round) sparse[mine][17] = (char)(1 + t->rank % 100);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    for (p = 0; p < SPARSE_PAGES; ++p) {
        const char expected = p == mine ? (char)(1 + t->rank % 100) : 's';
        XT_CHECK(t, sparse[p][17] == expected && sparse[p][0] == 0, "sparse page %d holds %d, expected %d", p,
                 sparse[p][17], expected);
    }
}

/* 512 KiB that every rank writes whole, every round, with values of its own. */
#define BLOCK (64 * 1024)
double common_block[BLOCK];

static void check_common_block(xt_t *t)
{
    int round, i, wrong = -1;
    for (round = 0; round < 3; ++round) {
        for (i = 0; i < BLOCK; ++i) common_block[i] = t->rank * 1e6 + round * 1e5 + i;
        MPI_Barrier(MPI_COMM_WORLD); /* every other rank of the process rewrites its own */
        for (i = 0; i < BLOCK && wrong < 0; ++i)
            if (common_block[i] != t->rank * 1e6 + round * 1e5 + i) wrong = i;
        XT_CHECK(t, wrong < 0, "common_block[%d] is %g in round %d, expected %g", wrong,
                 wrong < 0 ? 0.0 : common_block[wrong], round, t->rank * 1e6 + round * 1e5 + (wrong < 0 ? 0 : wrong));
    }
}

int main(int argc, char **argv)
{
    xt_t xt, *t = &xt;
    int i, round;

    xt_init(t, &argc, &argv, "privatize");
    for (i = 0; i < 8; ++i)
        XT_CHECK(t, initialised[i] == 10 + i, "initialised[%d] is %d at start, expected %d", i, initialised[i], 10 + i);
    XT_CHECK(t, my_rank == -1, "my_rank is %d at start, expected -1 (another rank's value?)", my_rank);
    XT_CHECK(t, tls_counter == 0, "thread-local counter is %d at start, expected 0", tls_counter);

    my_rank = t->rank;
    for (i = 0; i < 8; ++i) initialised[i] = 1000 * t->rank + i;
    for (round = 1; round <= 3; ++round) {
        const int n = count_call();
        ++tls_counter;
        MPI_Barrier(MPI_COMM_WORLD); /* every other rank runs in between */
        XT_CHECK(t, n == round, "function-local static counted %d calls in round %d", n, round);
        XT_CHECK(t, calls_file_scope == round, "file-scope static is %ld in round %d", calls_file_scope, round);
        XT_CHECK(t, tls_counter == round, "thread-local counter is %d in round %d", tls_counter, round);
        XT_CHECK(t, my_rank == t->rank, "global my_rank is %d after a barrier, expected %d", my_rank, t->rank);
    }
    for (i = 0; i < 8; ++i)
        XT_CHECK(t, initialised[i] == 1000 * t->rank + i, "initialised[%d] is %d, expected %d", i, initialised[i],
                 1000 * t->rank + i);
    check_user_op(t);
    check_global_buffers(t);
    check_sparse_pages(t);
    check_common_block(t);
    return xt_finish(t, NULL);
}
