/* halo: 1-D periodic halo exchange with a 3-point stencil.
 *
 * The global periodic domain has M = 64*N cells; rank r owns cells
 * g = 64r .. 64r+63 in u[1..64] with ghosts u[0] and u[65]. Initial values
 * u0(g) = (37g + 11) mod 101. Each iteration exchanges ghosts with the left and
 * right neighbours (Isend/Irecv) and applies u' = u[i-1]/4 + u[i]/2 + u[i+1]/4.
 * After k iterations the exact solution is
 *     u_k(g) = sum_{j=0..2k} C(2k,j) u0((g-k+j) mod M) / 4^k,
 * a dyadic rational that doubles represent exactly, so every cell and the
 * local checksum are compared for equality against this closed form.
 *
 * The exchange is completed three ways, ITERS iterations each:
 *   A: MPI_Waitall;  B: MPI_Waitany loop (each index exactly once, then
 *   MPI_UNDEFINED);  C: MPI_Testsome polling loop (bounded; then MPI_UNDEFINED).
 * Tags encode the iteration and direction, and receive statuses are checked,
 * so a message matched to the wrong iteration or neighbour is detected.
 * N == 1 and N == 2 work (a rank may be its own / both neighbours).
 */
#define _DEFAULT_SOURCE
#include "xsim_test.h"

#define L 64
#define ITERS 3
#define TAG_RIGHTWARD(it) (100 + 2 * (it))    /* my u[L] -> right neighbour's u[0] */
#define TAG_LEFTWARD(it) (100 + 2 * (it) + 1) /* my u[1] -> left neighbour's u[L+1] */

/* Per-rank state (on main's stack: globals would be shared by xsim's fibers). */
struct halo {
    xt_t *t;
    double u[L + 2], unew[L + 2];
    int left_nb, right_nb;
};

static double u0(long long g, long long m)
{
    g %= m;
    if (g < 0) g += m;
    return (double)((g * 37 + 11) % 101);
}

static double exact(long long g, int k, long long m)
{
    /* sum_j C(2k,j) u0(g-k+j) / 4^k; C(2k,j) is computed incrementally (exact in double). */
    double c = 1.0, s = 0.0, scale = 1.0;
    int j;
    for (j = 0; j <= 2 * k; ++j) {
        s += c * u0(g - k + j, m);
        c = c * (double)(2 * k - j) / (double)(j + 1);
    }
    for (j = 0; j < k; ++j) scale *= 4.0;
    return s / scale;
}

static void post(struct halo *h, int it, MPI_Request req[4])
{
    MPI_Irecv(&h->u[0], 1, MPI_DOUBLE, h->left_nb, TAG_RIGHTWARD(it), MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(&h->u[L + 1], 1, MPI_DOUBLE, h->right_nb, TAG_LEFTWARD(it), MPI_COMM_WORLD, &req[1]);
    MPI_Isend(&h->u[1], 1, MPI_DOUBLE, h->left_nb, TAG_LEFTWARD(it), MPI_COMM_WORLD, &req[2]);
    MPI_Isend(&h->u[L], 1, MPI_DOUBLE, h->right_nb, TAG_RIGHTWARD(it), MPI_COMM_WORLD, &req[3]);
}

static void check_recv_status(struct halo *h, int it, int idx, const MPI_Status *st)
{
    xt_t *t = h->t;
    int count = -1;
    if (idx == 0) {
        XT_CHECK(t, st->MPI_SOURCE == h->left_nb && st->MPI_TAG == TAG_RIGHTWARD(it),
                 "iter %d left ghost: status src %d tag %d, expected %d %d", it, st->MPI_SOURCE,
                 st->MPI_TAG, h->left_nb, TAG_RIGHTWARD(it));
    } else if (idx == 1) {
        XT_CHECK(t, st->MPI_SOURCE == h->right_nb && st->MPI_TAG == TAG_LEFTWARD(it),
                 "iter %d right ghost: status src %d tag %d, expected %d %d", it, st->MPI_SOURCE,
                 st->MPI_TAG, h->right_nb, TAG_LEFTWARD(it));
    } else {
        return;
    }
    MPI_Get_count(st, MPI_DOUBLE, &count);
    XT_CHECK(t, count == 1, "iter %d ghost %d: count %d", it, idx, count);
}

static void exchange_waitall(struct halo *h, int it)
{
    xt_t *t = h->t;
    MPI_Request req[4];
    MPI_Status st[4];
    int i;
    post(h, it, req);
    MPI_Waitall(4, req, st);
    for (i = 0; i < 4; ++i) XT_CHECK(t, req[i] == MPI_REQUEST_NULL, "Waitall left request %d active", i);
    check_recv_status(h, it, 0, &st[0]);
    check_recv_status(h, it, 1, &st[1]);
}

static void exchange_waitany(struct halo *h, int it)
{
    xt_t *t = h->t;
    MPI_Request req[4];
    MPI_Status st;
    int done[4] = {0, 0, 0, 0};
    int k, idx;
    post(h, it, req);
    for (k = 0; k < 4; ++k) {
        MPI_Waitany(4, req, &idx, &st);
        if (idx < 0 || idx >= 4) xt_fatal(t, "iter %d: Waitany returned index %d", it, idx);
        XT_CHECK(t, !done[idx], "iter %d: Waitany returned index %d twice", it, idx);
        XT_CHECK(t, req[idx] == MPI_REQUEST_NULL, "iter %d: Waitany left request %d active", it, idx);
        done[idx] = 1;
        check_recv_status(h, it, idx, &st);
    }
    MPI_Waitany(4, req, &idx, &st);
    XT_CHECK(t, idx == MPI_UNDEFINED, "iter %d: Waitany on inactive requests gave index %d", it, idx);
}

static void exchange_testsome(struct halo *h, int it)
{
    xt_t *t = h->t;
    MPI_Request req[4];
    MPI_Status st[4];
    int idx[4];
    int done[4] = {0, 0, 0, 0};
    int ndone = 0, outcount, k;
    long polls = 0;
    post(h, it, req);
    while (ndone < 4) {
        if (++polls > XT_POLL_LIMIT) xt_fatal(t, "iter %d: Testsome polling did not terminate", it);
        MPI_Testsome(4, req, &outcount, idx, st);
        if (outcount == MPI_UNDEFINED)
            xt_fatal(t, "iter %d: Testsome gave MPI_UNDEFINED with %d pending", it, 4 - ndone);
        for (k = 0; k < outcount; ++k) {
            if (idx[k] < 0 || idx[k] >= 4) xt_fatal(t, "iter %d: Testsome index %d", it, idx[k]);
            XT_CHECK(t, !done[idx[k]], "iter %d: Testsome returned index %d twice", it, idx[k]);
            done[idx[k]] = 1;
            ++ndone;
            check_recv_status(h, it, idx[k], &st[k]);
        }
    }
    MPI_Testsome(4, req, &outcount, idx, st);
    XT_CHECK(t, outcount == MPI_UNDEFINED, "iter %d: Testsome on inactive requests gave %d", it, outcount);
}

static void step(struct halo *h)
{
    int i;
    for (i = 1; i <= L; ++i) h->unew[i] = 0.25 * h->u[i - 1] + 0.5 * h->u[i] + 0.25 * h->u[i + 1];
    for (i = 1; i <= L; ++i) h->u[i] = h->unew[i];
}

static void check(struct halo *h, int k, const char *variant)
{
    xt_t *t = h->t;
    const long long m = (long long)L * t->size, base = (long long)L * t->rank;
    double sum = 0.0, want_sum = 0.0;
    int i, bad = 0;
    for (i = 1; i <= L; ++i) {
        double want = exact(base + i - 1, k, m);
        sum += h->u[i];
        want_sum += want;
        if (h->u[i] != want && !bad) {
            xt_fail(t, "%s after %d iterations: cell %lld = %.17g, expected %.17g", variant, k,
                    base + i - 1, h->u[i], want);
            bad = 1;
        }
    }
    XT_CHECK(t, sum == want_sum, "%s after %d iterations: checksum %.17g, expected %.17g", variant, k,
             sum, want_sum);
}

int main(int argc, char **argv)
{
    xt_t xt, *t = &xt;
    struct halo hs, *h = &hs;
    long long m, base;
    int i, it, k = 0;

    xt_init(t, &argc, &argv, "halo");
    h->t = t;
    h->left_nb = (t->rank - 1 + t->size) % t->size;
    h->right_nb = (t->rank + 1) % t->size;
    m = (long long)L * t->size;
    base = (long long)L * t->rank;
    for (i = 1; i <= L; ++i) h->u[i] = u0(base + i - 1, m);
    h->u[0] = h->u[L + 1] = -1.0;
    check(h, 0, "initial");

    for (it = 0; it < ITERS; ++it, ++k) { exchange_waitall(h, k); step(h); }
    check(h, k, "Waitall");
    for (it = 0; it < ITERS; ++it, ++k) { exchange_waitany(h, k); step(h); }
    check(h, k, "Waitany");
    for (it = 0; it < ITERS; ++it, ++k) { exchange_testsome(h, k); step(h); }
    check(h, k, "Testsome");

    return xt_finish(t, NULL);
}
