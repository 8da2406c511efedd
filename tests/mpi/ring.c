/* ring: token ring and ring shifts.
 *
 * 1. A long long token travels 0 -> 1 -> ... -> N-1 -> 0; each rank adds its
 *    rank. Every rank checks the partial sum it receives (r(r-1)/2) and rank 0
 *    checks the full sum N(N-1)/2. An int copy of the token is kept modulo a
 *    prime in the same message to exercise MPI_INT next to MPI_LONG_LONG.
 * 2. Ring shifts of a double array with MPI_Sendrecv: SHIFTS steps to the
 *    right, then SHIFTS steps to the left; after each step the array must hold
 *    the values of the rank s places away (periodic), and status/count are checked.
 * N == 1 is valid: rank 0 is its own neighbour (Sendrecv to itself).
 */
#define _DEFAULT_SOURCE
#include "xsim_test.h"

#define LEN 16
#define SHIFTS 3
#define MODP 1000003LL
#define TAG_TOKEN 1
#define TAG_TOKEN_I 2
#define TAG_RIGHT 3
#define TAG_LEFT 4

static double value(int owner, int i)
{
    return (double)owner * 1000.0 + (double)i + 0.5; /* exact in double for owner < 2^40 */
}

static void token_ring(xt_t *t)
{
    const int rank = t->rank, n = t->size;
    long long token = 0;
    int itoken = 0;
    MPI_Status st;
    int count;

    if (n == 1) {
        /* Single rank: pass the token to itself. */
        long long out = 0;
        MPI_Sendrecv(&out, 1, MPI_LONG_LONG, 0, TAG_TOKEN, &token, 1, MPI_LONG_LONG, 0, TAG_TOKEN,
                     MPI_COMM_WORLD, &st);
        XT_CHECK(t, token == 0, "self token %lld != 0", token);
        XT_CHECK(t, st.MPI_SOURCE == 0 && st.MPI_TAG == TAG_TOKEN, "self token status src %d tag %d",
                 st.MPI_SOURCE, st.MPI_TAG);
        return;
    }

    if (rank == 0) {
        MPI_Send(&token, 1, MPI_LONG_LONG, 1, TAG_TOKEN, MPI_COMM_WORLD);
        MPI_Send(&itoken, 1, MPI_INT, 1, TAG_TOKEN_I, MPI_COMM_WORLD);
        MPI_Recv(&token, 1, MPI_LONG_LONG, n - 1, TAG_TOKEN, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_LONG_LONG, &count);
        XT_CHECK(t, count == 1, "token count %d", count);
        XT_CHECK(t, st.MPI_SOURCE == n - 1 && st.MPI_TAG == TAG_TOKEN, "token status src %d tag %d",
                 st.MPI_SOURCE, st.MPI_TAG);
        MPI_Recv(&itoken, 1, MPI_INT, n - 1, TAG_TOKEN_I, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        {
            long long want = (long long)n * (long long)(n - 1) / 2;
            XT_CHECK(t, token == want, "final token %lld, expected N(N-1)/2 = %lld", token, want);
            XT_CHECK(t, (long long)itoken == want % MODP, "final int token %d, expected %lld", itoken,
                     want % MODP);
        }
    } else {
        long long want = (long long)rank * (long long)(rank - 1) / 2;
        MPI_Recv(&token, 1, MPI_LONG_LONG, rank - 1, TAG_TOKEN, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_LONG_LONG, &count);
        XT_CHECK(t, count == 1, "token count %d", count);
        XT_CHECK(t, st.MPI_SOURCE == rank - 1 && st.MPI_TAG == TAG_TOKEN, "token status src %d tag %d",
                 st.MPI_SOURCE, st.MPI_TAG);
        XT_CHECK(t, token == want, "received token %lld, expected %lld", token, want);
        MPI_Recv(&itoken, 1, MPI_INT, rank - 1, TAG_TOKEN_I, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        XT_CHECK(t, (long long)itoken == want % MODP, "received int token %d, expected %lld", itoken,
                 want % MODP);
        token += rank;
        itoken = (int)(((long long)itoken + rank) % MODP);
        MPI_Send(&token, 1, MPI_LONG_LONG, (rank + 1) % n, TAG_TOKEN, MPI_COMM_WORLD);
        MPI_Send(&itoken, 1, MPI_INT, (rank + 1) % n, TAG_TOKEN_I, MPI_COMM_WORLD);
    }
}

static void ring_shift(xt_t *t)
{
    const int rank = t->rank, n = t->size;
    const int right = (rank + 1) % n, left = (rank - 1 + n) % n;
    double a[LEN], b[LEN];
    int i, s, count, owner;
    MPI_Status st;

    for (i = 0; i < LEN; ++i) a[i] = value(rank, i);
    owner = rank;
    /* Shift right: after step s, a holds the values of rank (rank - s) mod n. */
    for (s = 1; s <= SHIFTS; ++s) {
        for (i = 0; i < LEN; ++i) b[i] = -1.0;
        MPI_Sendrecv(a, LEN, MPI_DOUBLE, right, TAG_RIGHT, b, LEN, MPI_DOUBLE, left, TAG_RIGHT,
                     MPI_COMM_WORLD, &st);
        owner = (int)(((long long)rank - s % n + n) % n);
        MPI_Get_count(&st, MPI_DOUBLE, &count);
        XT_CHECK(t, count == LEN, "right shift %d: count %d", s, count);
        XT_CHECK(t, st.MPI_SOURCE == left && st.MPI_TAG == TAG_RIGHT,
                 "right shift %d: status src %d tag %d, expected %d %d", s, st.MPI_SOURCE, st.MPI_TAG,
                 left, TAG_RIGHT);
        for (i = 0; i < LEN; ++i)
            if (b[i] != value(owner, i)) {
                xt_fail(t, "right shift %d: b[%d] = %.1f, expected %.1f", s, i, b[i], value(owner, i));
                break;
            }
        memcpy(a, b, sizeof a);
    }
    /* Shift back left the same number of steps: must return to our own values. */
    for (s = SHIFTS - 1; s >= 0; --s) {
        for (i = 0; i < LEN; ++i) b[i] = -1.0;
        MPI_Sendrecv(a, LEN, MPI_DOUBLE, left, TAG_LEFT, b, LEN, MPI_DOUBLE, right, TAG_LEFT,
                     MPI_COMM_WORLD, &st);
        owner = (int)(((long long)rank - s % n + n) % n);
        XT_CHECK(t, st.MPI_SOURCE == right && st.MPI_TAG == TAG_LEFT,
                 "left shift to %d: status src %d tag %d", s, st.MPI_SOURCE, st.MPI_TAG);
        for (i = 0; i < LEN; ++i)
            if (b[i] != value(owner, i)) {
                xt_fail(t, "left shift to offset %d: b[%d] = %.1f, expected %.1f", s, i, b[i],
                        value(owner, i));
                break;
            }
        memcpy(a, b, sizeof a);
    }
    XT_CHECK(t, owner == rank, "after shifting back owner %d != rank", owner);
}

int main(int argc, char **argv)
{
    xt_t xt, *t = &xt;
    xt_init(t, &argc, &argv, "ring");
    token_ring(t);
    ring_shift(t);
    return xt_finish(t, NULL);
}
