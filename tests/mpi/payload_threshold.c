/* payload_threshold: a real-style code under -xsim-payload auto|<bytes>: small data must
 * arrive exactly, bulk data may be dropped, and virtual times must not change.
 *
 * Phases (rank 0 prints "VTIME <phase> <seconds>" after each, so a comparison of runs
 * checks every phase's time, not only the total):
 *   params   MPI_Bcast of a parameter struct (MPI_BYTE) and of an int array of sizes;
 *   counts   MPI_Allgather of one int per rank (the sizes a code exchanges before a
 *            v-collective), then MPI_Gatherv and MPI_Alltoallv whose blocks are small
 *            (kept under the threshold) or large (HALO doubles: dropped under auto);
 *   reduce   MPI_Allreduce of four doubles (exact dyadic sums), MPI_Reduce and MPI_Bcast
 *            of HALO doubles (bulk);
 *   halo     ITERS exchanges of HALO doubles with both neighbours on a periodic ring
 *            (Isend/Irecv/Waitall, then MPI_Sendrecv), from malloc'ed buffers;
 *   final    MPI_Allreduce of an int after the bulk traffic, and a short message into a
 *            receive with room for 64 KiB (a null buffer in "dropped" mode).
 * Small data is always checked exactly. The bulk data is checked according to the first
 * argument: "checked" (it must have arrived: -xsim-payload on, or a threshold above it),
 * "dropped" (its receive buffers must be untouched: -xsim-payload auto or below HALO x 8
 * bytes) or "unchecked" (the default: a plain MPI run checks nothing bulk). The second
 * argument is HALO (default 2048 doubles, 16 KiB: above auto's 4 KiB). */
#include "xsim_test.h"

#define ITERS 3
#define SMALL_INTS 3   /* small v-blocks: 12 bytes */
#define SENTINEL -7.25 /* what an untouched bulk receive buffer holds */

enum bulk_check { BULK_UNCHECKED, BULK_CHECKED, BULK_DROPPED };

struct params {
    int nx, ny, iters;
    double dt;
    char name[24];
};

/* Per-rank state (on main's stack: globals would be shared by xsim's fibers). */
struct run {
    xt_t *t;
    enum bulk_check bulk;
    int halo;
};

static void phase_time(const struct run *r, const char *phase)
{
    double now;
    MPI_Barrier(MPI_COMM_WORLD);
    now = MPI_Wtime();
    if (r->t->rank == 0) {
        printf("VTIME %s %.17g\n", phase, now); /* round-trips the double: bit for bit */
        fflush(stdout);
    }
}

/* A bulk buffer of n doubles as received: the sender's values, or untouched. */
static void check_bulk(const struct run *r, const double *got, int n, double first, const char *what)
{
    int i, bad = 0;
    if (r->bulk == BULK_UNCHECKED) return;
    for (i = 0; i < n && !bad; ++i) {
        const double want = r->bulk == BULK_CHECKED ? first + i : SENTINEL;
        if (got[i] != want) {
            xt_fail(r->t, "%s: element %d is %g, expected %g (%s)", what, i, got[i], want,
                    r->bulk == BULK_CHECKED ? "data must arrive" : "data must be dropped");
            bad = 1;
        }
    }
}

static void fill(double *buf, int n, double first)
{
    int i;
    for (i = 0; i < n; ++i) buf[i] = first + i;
}

static void params_phase(const struct run *r)
{
    struct params p;
    int sizes[4] = {0, 0, 0, 0};
    memset(&p, 0, sizeof p);
    if (r->t->rank == 0) {
        p.nx = 512;
        p.ny = 384;
        p.iters = ITERS;
        p.dt = 0.015625;
        strcpy(p.name, "payload-threshold");
        sizes[0] = r->halo;
        sizes[1] = 7;
        sizes[2] = -3;
        sizes[3] = 1 << 20;
    }
    MPI_Bcast(&p, (int)sizeof p, MPI_BYTE, 0, MPI_COMM_WORLD);
    MPI_Bcast(sizes, 4, MPI_INT, 0, MPI_COMM_WORLD);
    XT_CHECK(r->t, p.nx == 512 && p.ny == 384 && p.iters == ITERS && p.dt == 0.015625,
             "parameter struct: nx %d ny %d iters %d dt %g", p.nx, p.ny, p.iters, p.dt);
    XT_CHECK(r->t, strcmp(p.name, "payload-threshold") == 0, "parameter struct: name '%.23s'", p.name);
    XT_CHECK(r->t, sizes[0] == r->halo && sizes[1] == 7 && sizes[2] == -3 && sizes[3] == (1 << 20),
             "sizes: %d %d %d %d", sizes[0], sizes[1], sizes[2], sizes[3]);
}

/* Rank q's block for rank j: small when q + j is even, else HALO doubles' worth of ints. */
static int block_ints(const struct run *r, int q, int j) { return (q + j) % 2 == 0 ? SMALL_INTS : 2 * r->halo; }
static int block_value(int q, int j, int i) { return q * 1000003 + j * 101 + i; }

static void counts_phase(const struct run *r)
{
    const int me = r->t->rank, p = r->t->size;
    int *all = malloc(sizeof(int) * (size_t)p);
    int *scounts = malloc(sizeof(int) * (size_t)p), *sdispls = malloc(sizeof(int) * (size_t)p);
    int *rcounts = malloc(sizeof(int) * (size_t)p), *rdispls = malloc(sizeof(int) * (size_t)p);
    int *sendbuf, *recvbuf, *gathered = NULL;
    int i, j, stotal = 0, rtotal = 0, mine = me % 5 + 1, bad;
    if (!all || !scounts || !sdispls || !rcounts || !rdispls) xt_fatal(r->t, "out of memory");

    MPI_Allgather(&mine, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD);
    for (j = 0, bad = 0; j < p && !bad; ++j)
        if (all[j] != j % 5 + 1) bad = 1, xt_fail(r->t, "allgather: block %d is %d, expected %d", j, all[j], j % 5 + 1);

    /* Alltoallv: block j of rank me is block_ints(me, j) ints. */
    for (j = 0; j < p; ++j) {
        scounts[j] = block_ints(r, me, j);
        sdispls[j] = stotal;
        stotal += scounts[j];
        rcounts[j] = block_ints(r, j, me);
        rdispls[j] = rtotal;
        rtotal += rcounts[j];
    }
    sendbuf = malloc(sizeof(int) * (size_t)stotal);
    recvbuf = malloc(sizeof(int) * (size_t)rtotal);
    if (!sendbuf || !recvbuf) xt_fatal(r->t, "out of memory");
    for (j = 0; j < p; ++j)
        for (i = 0; i < scounts[j]; ++i) sendbuf[sdispls[j] + i] = block_value(me, j, i);
    for (i = 0; i < rtotal; ++i) recvbuf[i] = -1;
    MPI_Alltoallv(sendbuf, scounts, sdispls, MPI_INT, recvbuf, rcounts, rdispls, MPI_INT, MPI_COMM_WORLD);
    for (j = 0, bad = 0; j < p && !bad; ++j) {
        const int small = rcounts[j] == SMALL_INTS;
        for (i = 0; i < rcounts[j] && !bad; ++i) {
            const int got = recvbuf[rdispls[j] + i];
            if (small || r->bulk == BULK_CHECKED) {
                if (got != block_value(j, me, i)) bad = 1, xt_fail(r->t, "alltoallv: block from %d [%d] is %d", j, i, got);
            } else if (r->bulk == BULK_DROPPED && got != -1) {
                bad = 1, xt_fail(r->t, "alltoallv: large block from %d was written under a threshold", j);
            }
        }
    }

    /* Gatherv to rank 0 of each rank's block for rank 0 (small for even ranks). */
    if (me == 0) {
        gathered = malloc(sizeof(int) * (size_t)rtotal);
        if (!gathered) xt_fatal(r->t, "out of memory");
        for (i = 0; i < rtotal; ++i) gathered[i] = -1;
    }
    MPI_Gatherv(sendbuf + sdispls[0], scounts[0], MPI_INT, gathered, rcounts, rdispls, MPI_INT, 0, MPI_COMM_WORLD);
    for (j = 0, bad = 0; me == 0 && j < p && !bad; ++j) {
        const int small = rcounts[j] == SMALL_INTS;
        for (i = 0; i < rcounts[j] && !bad; ++i) {
            const int got = gathered[rdispls[j] + i];
            if (small || r->bulk == BULK_CHECKED) {
                if (got != block_value(j, 0, i)) bad = 1, xt_fail(r->t, "gatherv: block of %d [%d] is %d", j, i, got);
            } else if (r->bulk == BULK_DROPPED && got != -1) {
                bad = 1, xt_fail(r->t, "gatherv: large block of %d was written under a threshold", j);
            }
        }
    }
    free(gathered);
    free(sendbuf);
    free(recvbuf);
    free(all);
    free(scounts);
    free(sdispls);
    free(rcounts);
    free(rdispls);
}

static void reduce_phase(const struct run *r)
{
    const int me = r->t->rank, p = r->t->size;
    double mine[4], sum[4];
    double *big = malloc(sizeof(double) * (size_t)r->halo), *result = malloc(sizeof(double) * (size_t)r->halo);
    int k, i;
    if (!big || !result) xt_fatal(r->t, "out of memory");
    for (k = 0; k < 4; ++k) mine[k] = me * 0.5 + k * 0.25;
    MPI_Allreduce(mine, sum, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    for (k = 0; k < 4; ++k) {
        /* sum over q of q/2 + k/4: dyadic, exact in double */
        const double want = 0.25 * (double)p * (double)(p - 1) + 0.25 * k * p;
        XT_CHECK(r->t, sum[k] == want, "allreduce[%d] = %.17g, expected %.17g", k, sum[k], want);
    }
    /* Bulk reduce: every rank contributes i + me; the root gets sum_q (i + q). */
    for (i = 0; i < r->halo; ++i) {
        big[i] = i + me;
        result[i] = SENTINEL;
    }
    MPI_Reduce(big, result, r->halo, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (me == 0 && r->bulk != BULK_UNCHECKED) {
        for (i = 0; i < r->halo; ++i) {
            const double want = r->bulk == BULK_CHECKED ? (double)p * i + 0.5 * p * (p - 1) : SENTINEL;
            if (result[i] != want) {
                xt_fail(r->t, "reduce: element %d is %g, expected %g", i, result[i], want);
                break;
            }
        }
    }
    /* Bulk broadcast from the last rank. */
    if (me == p - 1) fill(big, r->halo, 100.0);
    else for (i = 0; i < r->halo; ++i) big[i] = SENTINEL;
    MPI_Bcast(big, r->halo, MPI_DOUBLE, p - 1, MPI_COMM_WORLD);
    if (me != p - 1) check_bulk(r, big, r->halo, 100.0, "bcast");
    free(big);
    free(result);
}

static void halo_phase(const struct run *r)
{
    const int me = r->t->rank, p = r->t->size, n = r->halo;
    const int left = (me - 1 + p) % p, right = (me + 1) % p;
    /* Send and receive faces on the heap: a real code's bulk, touched only through MPI on receive. */
    double *to_left = malloc(sizeof(double) * (size_t)n), *to_right = malloc(sizeof(double) * (size_t)n);
    double *from_left = malloc(sizeof(double) * (size_t)n), *from_right = malloc(sizeof(double) * (size_t)n);
    MPI_Request req[4];
    int it, i;
    if (!to_left || !to_right || !from_left || !from_right) xt_fatal(r->t, "out of memory");
    for (it = 0; it < ITERS; ++it) {
        fill(to_left, n, 1e6 * me + 1000.0 * it);
        fill(to_right, n, 1e6 * me + 1000.0 * it + 500.0);
        for (i = 0; i < n; ++i) from_left[i] = from_right[i] = SENTINEL;
        MPI_Irecv(from_left, n, MPI_DOUBLE, left, 10 + it, MPI_COMM_WORLD, &req[0]);
        MPI_Irecv(from_right, n, MPI_DOUBLE, right, 20 + it, MPI_COMM_WORLD, &req[1]);
        MPI_Isend(to_right, n, MPI_DOUBLE, right, 10 + it, MPI_COMM_WORLD, &req[2]);
        MPI_Isend(to_left, n, MPI_DOUBLE, left, 20 + it, MPI_COMM_WORLD, &req[3]);
        MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
        check_bulk(r, from_left, n, 1e6 * left + 1000.0 * it + 500.0, "halo from the left");
        check_bulk(r, from_right, n, 1e6 * right + 1000.0 * it, "halo from the right");
        /* One small message along with the bulk: its data must always arrive. */
        {
            int token = me * 7 + it, got = -1;
            MPI_Status st;
            MPI_Sendrecv(&token, 1, MPI_INT, right, 30 + it, &got, 1, MPI_INT, left, 30 + it, MPI_COMM_WORLD, &st);
            XT_CHECK(r->t, got == left * 7 + it, "token from %d is %d", left, got);
        }
    }
    for (i = 0; i < n; ++i) from_left[i] = SENTINEL;
    MPI_Sendrecv(to_right, n, MPI_DOUBLE, right, 40, from_left, n, MPI_DOUBLE, left, 40, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    check_bulk(r, from_left, n, 1e6 * left + 1000.0 * (ITERS - 1) + 500.0, "sendrecv from the left");
    free(to_left);
    free(to_right);
    free(from_left);
    free(from_right);
}

int main(int argc, char **argv)
{
    xt_t t;
    struct run r;
    int one = 1, total = 0;
    xt_init(&t, &argc, &argv, "payload_threshold");
    r.t = &t;
    r.bulk = BULK_UNCHECKED;
    r.halo = 2048;
    if (argc > 1 && strcmp(argv[1], "checked") == 0) r.bulk = BULK_CHECKED;
    else if (argc > 1 && strcmp(argv[1], "dropped") == 0) r.bulk = BULK_DROPPED;
    else if (argc > 1 && strcmp(argv[1], "unchecked") != 0) xt_fatal(&t, "unknown mode '%s'", argv[1]);
    if (argc > 2) r.halo = atoi(argv[2]);
    if (r.halo < 1) xt_fatal(&t, "halo size must be at least 1");

    params_phase(&r);
    phase_time(&r, "params");
    counts_phase(&r);
    phase_time(&r, "counts");
    reduce_phase(&r);
    phase_time(&r, "reduce");
    halo_phase(&r);
    phase_time(&r, "halo");
    MPI_Allreduce(&one, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    XT_CHECK(&t, total == t.size, "final allreduce: %d, expected %d", total, t.size);
    {
        /* A receive with room for bulk data gets a short message: under a threshold its
         * buffer may be null (the data of its size would not move), and the short message's
         * data is then dropped rather than written through the null pointer. */
        char note[8] = "payload", *room = r.bulk == BULK_DROPPED ? NULL : malloc(65536);
        int count = -1;
        MPI_Status st;
        if (r.bulk != BULK_DROPPED && !room) xt_fatal(&t, "out of memory");
        MPI_Sendrecv(note, 8, MPI_CHAR, (t.rank + 1) % t.size, 50, room, 65536, MPI_CHAR,
                     (t.rank - 1 + t.size) % t.size, 50, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_CHAR, &count);
        XT_CHECK(&t, count == 8, "short message into a large receive: count %d", count);
        XT_CHECK(&t, !room || strcmp(room, "payload") == 0, "short message into a large receive: wrong data");
        free(room);
    }
    return xt_finish(&t, NULL);
}
