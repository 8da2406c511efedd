/* Nonblocking collectives (MPI-3): every I-collective gives exactly what its blocking form
 * gives, on MPI_COMM_WORLD, MPI_COMM_SELF and a communicator from MPI_Comm_split (one freed
 * while a collective on it is outstanding, too), with and without MPI_IN_PLACE, short and
 * long messages, completed by MPI_Wait, by MPI_Test loops and by MPI_Request_get_status;
 * several of them outstanding at once on one communicator, mixed with point-to-point requests in
 * one array (Waitall, Waitany, Waitsome, Testall, Testany, Testsome); blocking collectives
 * issued while nonblocking ones are outstanding; MPI_Request_free.
 *   coll_nonblocking [xsim] [one-mode]
 * one-mode: each collective is completed in one of the three ways besides its blocking
 * reference (rotating over the collectives), not in all three: for 1000 ranks, where the
 * all-to-all family alone is 50 M messages; the completion calls do not depend on the
 * communicator's size and are all checked at N = 1, 7 and 16.
 * xsim: also checks what the standard leaves open and xsim defines (MPI_Cancel of a
 * collective request fails with MPI_ERR_REQUEST) and that virtual time models overlap:
 * MPI_Ibarrier + computing X seconds + MPI_Wait takes max(barrier, X), measured against
 * the blocking barrier from the same start (with -xsim-compute none). */
#define _DEFAULT_SOURCE
#include <time.h>

#include "conformance.h"

enum { BARRIER, BCAST, REDUCE, ALLREDUCE, GATHER, GATHERV, SCATTER, SCATTERV, ALLGATHER, ALLGATHERV, ALLTOALL,
       ALLTOALLV, ALLTOALLW, REDUCE_SCATTER, REDUCE_SCATTER_BLOCK, SCAN, EXSCAN, NCOLL };
static const char* const kNames[NCOLL] = {
    "barrier",   "bcast",     "reduce",     "allreduce",      "gather",
    "gatherv",   "scatter",   "scatterv",   "allgather",      "allgatherv",
    "alltoall",  "alltoallv", "alltoallw",  "reduce_scatter", "reduce_scatter_block",
    "scan",      "exscan"};
/* How the nonblocking form is completed. */
enum { BLOCKING, WAIT, TEST_LOOP, GET_STATUS_LOOP, NMODES };

/* One collective call's arguments and buffers (ints). `n` is the vector length of
 * reductions and bcast, `blk` the block of per-rank collectives. */
typedef struct {
    MPI_Comm comm;
    int rank, size, n, blk, inplace;
    int *in, *out;          /* in: input, out: results (both of len ints) */
    long len;
    int *counts, *displs, *wdispls, *rcounts; /* v layouts: block i has counts[i] ints */
    MPI_Datatype* types;
} call_t;

static int root_of(const call_t* c, int coll) { return (coll + c->n) % c->size; }

static void fill(call_t* c, int coll) {
    long i;
    for (i = 0; i < c->len; i++) {
        c->in[i] = c->rank * 1000003 + (int)i * 7 + coll;
        c->out[i] = -1 - (int)i;
    }
    /* In place: the data is where the result goes. */
    if (c->inplace) memcpy(c->out, c->in, (size_t)c->len * sizeof(int));
}

/* Whether the collective accepts MPI_IN_PLACE on this rank (rooted ones: at the root). */
static int inplace_allowed(const call_t* c, int coll) {
    switch (coll) {
        case BARRIER: case BCAST: return 0;
        case REDUCE: case GATHER: case GATHERV: case SCATTER: case SCATTERV: return c->rank == root_of(c, coll);
        default: return 1;
    }
}

/* Starts (req != NULL) or runs collective `coll`. */
static int call(call_t* c, int coll, MPI_Request* req) {
    const int root = root_of(c, coll), p = c->size, me = c->rank, ip = c->inplace && inplace_allowed(c, coll);
    const void* sb = ip ? MPI_IN_PLACE : c->in;
    int* own = c->out + (long)me * c->blk;   /* this rank's block in an in-place gather */
    switch (coll) {
        case BARRIER: return req ? MPI_Ibarrier(c->comm, req) : MPI_Barrier(c->comm);
        case BCAST: {
            if (me == root) memcpy(c->out, c->in, (size_t)c->n * sizeof(int));
            return req ? MPI_Ibcast(c->out, c->n, MPI_INT, root, c->comm, req)
                       : MPI_Bcast(c->out, c->n, MPI_INT, root, c->comm);
        }
        case REDUCE:
            return req ? MPI_Ireduce(sb, c->out, c->n, MPI_INT, MPI_SUM, root, c->comm, req)
                       : MPI_Reduce(sb, c->out, c->n, MPI_INT, MPI_SUM, root, c->comm);
        case ALLREDUCE:
            return req ? MPI_Iallreduce(sb, c->out, c->n, MPI_INT, MPI_MAX, c->comm, req)
                       : MPI_Allreduce(sb, c->out, c->n, MPI_INT, MPI_MAX, c->comm);
        case GATHER:
            if (ip) memcpy(own, c->in, (size_t)c->blk * sizeof(int));
            return req ? MPI_Igather(sb, c->blk, MPI_INT, c->out, c->blk, MPI_INT, root, c->comm, req)
                       : MPI_Gather(sb, c->blk, MPI_INT, c->out, c->blk, MPI_INT, root, c->comm);
        case GATHERV:
            if (ip) memcpy(c->out + c->displs[me], c->in, (size_t)c->counts[me] * sizeof(int));
            return req ? MPI_Igatherv(sb, c->counts[me], MPI_INT, c->out, c->counts, c->displs, MPI_INT, root,
                                      c->comm, req)
                       : MPI_Gatherv(sb, c->counts[me], MPI_INT, c->out, c->counts, c->displs, MPI_INT, root, c->comm);
        case SCATTER:
            return req ? MPI_Iscatter(c->in, c->blk, MPI_INT, ip ? MPI_IN_PLACE : (void*)c->out, c->blk, MPI_INT,
                                      root, c->comm, req)
                       : MPI_Scatter(c->in, c->blk, MPI_INT, ip ? MPI_IN_PLACE : (void*)c->out, c->blk, MPI_INT, root,
                                     c->comm);
        case SCATTERV:
            return req ? MPI_Iscatterv(c->in, c->counts, c->displs, MPI_INT, ip ? MPI_IN_PLACE : (void*)c->out,
                                       c->counts[me], MPI_INT, root, c->comm, req)
                       : MPI_Scatterv(c->in, c->counts, c->displs, MPI_INT, ip ? MPI_IN_PLACE : (void*)c->out,
                                      c->counts[me], MPI_INT, root, c->comm);
        case ALLGATHER:
            if (ip) memcpy(own, c->in, (size_t)c->blk * sizeof(int));
            return req ? MPI_Iallgather(sb, c->blk, MPI_INT, c->out, c->blk, MPI_INT, c->comm, req)
                       : MPI_Allgather(sb, c->blk, MPI_INT, c->out, c->blk, MPI_INT, c->comm);
        case ALLGATHERV:
            if (ip) memcpy(c->out + c->displs[me], c->in, (size_t)c->counts[me] * sizeof(int));
            return req ? MPI_Iallgatherv(sb, c->counts[me], MPI_INT, c->out, c->counts, c->displs, MPI_INT, c->comm,
                                         req)
                       : MPI_Allgatherv(sb, c->counts[me], MPI_INT, c->out, c->counts, c->displs, MPI_INT, c->comm);
        case ALLTOALL:
            return req ? MPI_Ialltoall(sb, c->blk, MPI_INT, c->out, c->blk, MPI_INT, c->comm, req)
                       : MPI_Alltoall(sb, c->blk, MPI_INT, c->out, c->blk, MPI_INT, c->comm);
        case ALLTOALLV:
            /* v layout (gaps between blocks), the same count for every pair. */
            return req ? MPI_Ialltoallv(sb, c->rcounts, c->displs, MPI_INT, c->out, c->rcounts, c->displs, MPI_INT,
                                        c->comm, req)
                       : MPI_Alltoallv(sb, c->rcounts, c->displs, MPI_INT, c->out, c->rcounts, c->displs, MPI_INT,
                                       c->comm);
        case ALLTOALLW:
            return req ? MPI_Ialltoallw(sb, c->rcounts, c->wdispls, c->types, c->out, c->rcounts, c->wdispls,
                                        c->types, c->comm, req)
                       : MPI_Alltoallw(sb, c->rcounts, c->wdispls, c->types, c->out, c->rcounts, c->wdispls, c->types,
                                       c->comm);
        case REDUCE_SCATTER:
            return req ? MPI_Ireduce_scatter(sb, c->out, c->counts, MPI_INT, MPI_SUM, c->comm, req)
                       : MPI_Reduce_scatter(sb, c->out, c->counts, MPI_INT, MPI_SUM, c->comm);
        case REDUCE_SCATTER_BLOCK:
            return req ? MPI_Ireduce_scatter_block(sb, c->out, c->blk, MPI_INT, MPI_SUM, c->comm, req)
                       : MPI_Reduce_scatter_block(sb, c->out, c->blk, MPI_INT, MPI_SUM, c->comm);
        case SCAN:
            return req ? MPI_Iscan(sb, c->out, c->n, MPI_INT, MPI_SUM, c->comm, req)
                       : MPI_Scan(sb, c->out, c->n, MPI_INT, MPI_SUM, c->comm);
        case EXSCAN:
            return req ? MPI_Iexscan(sb, c->out, c->n, MPI_INT, MPI_SUM, c->comm, req)
                       : MPI_Exscan(sb, c->out, c->n, MPI_INT, MPI_SUM, c->comm);
    }
    (void)p;
    return MPI_ERR_OTHER;
}

static void sleep_for(double seconds);

/* Between polls a program computes: 20 us (under xsim, virtual time, so polling loops
 * over long collectives on many ranks take a bounded number of switches). */
static void compute_a_little(void) { sleep_for(20e-6); }

/* Runs `coll` to completion in `mode`. */
static void complete(conf_t* t, call_t* c, int coll, int mode) {
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Status st;
    int flag = 0;
    if (mode == BLOCKING) {
        CONF_CALL(t, call(c, coll, NULL));
        return;
    }
    CONF_CALL(t, call(c, coll, &req));
    CONF_CHECK(t, req != MPI_REQUEST_NULL, "%s: no request", kNames[coll]);
    switch (mode) {
        case WAIT: CONF_CALL(t, MPI_Wait(&req, &st)); break;
        case TEST_LOOP:
            for (;;) {
                CONF_CALL(t, MPI_Test(&req, &flag, &st));
                if (flag) break;
                compute_a_little();
            }
            break;
        case GET_STATUS_LOOP:
            /* Request_get_status leaves the request to be completed by a wait. */
            for (;;) {
                CONF_CALL(t, MPI_Request_get_status(req, &flag, &st));
                if (flag) break;
                compute_a_little();
            }
            CONF_CHECK(t, req != MPI_REQUEST_NULL, "%s: Request_get_status freed the request", kNames[coll]);
            CONF_CALL(t, MPI_Wait(&req, MPI_STATUS_IGNORE));
            break;
    }
    CONF_CHECK(t, req == MPI_REQUEST_NULL, "%s: request not freed on completion", kNames[coll]);
    flag = 1;
    MPI_Test_cancelled(&st, &flag);
    CONF_CHECK(t, flag == 0, "%s: completed collective reported as cancelled", kNames[coll]);
}

/* Exscan's result on rank 0 is undefined. */
static int comparable(const call_t* c, int coll) { return !(coll == EXSCAN && c->rank == 0); }

static void check_same(conf_t* t, const call_t* c, int coll, const int* ref, const char* how) {
    long i;
    if (!comparable(c, coll)) return;
    for (i = 0; i < c->len; i++)
        if (ref[i] != c->out[i]) {
            conf_fail(t, "%s (%s, n=%d, %s%s): element %ld is %d, blocking gave %d", kNames[coll],
                      c->comm == MPI_COMM_SELF ? "self" : c->comm == MPI_COMM_WORLD ? "world" : "split", c->n, how, c->inplace ? ", in place" : "", i,
                      c->out[i], ref[i]);
            return;
        }
}

static void setup(call_t* c, MPI_Comm comm, int n, int blk) {
    int i;
    MPI_Comm_rank(comm, &c->rank);
    MPI_Comm_size(comm, &c->size);
    c->comm = comm;
    c->n = n;
    c->blk = blk;
    c->counts = (int*)conf_alloc((size_t)c->size * sizeof(int));
    c->rcounts = (int*)conf_alloc((size_t)c->size * sizeof(int));
    c->displs = (int*)conf_alloc((size_t)c->size * sizeof(int));
    c->wdispls = (int*)conf_alloc((size_t)c->size * sizeof(int));
    c->types = (MPI_Datatype*)conf_alloc((size_t)c->size * sizeof(MPI_Datatype));
    for (i = 0; i < c->size; i++) {
        c->counts[i] = blk - (i % 3 == 1 ? blk : 0) + (i % 3 == 2 ? 1 : 0); /* some empty, some longer */
        c->rcounts[i] = blk;
        c->displs[i] = i * (blk + 1);
        c->wdispls[i] = c->displs[i] * (int)sizeof(int);
        c->types[i] = MPI_INT;
    }
    c->len = (long)c->size * (blk + 1) + n + 1;
    c->in = (int*)conf_alloc((size_t)c->len * sizeof(int));
    c->out = (int*)conf_alloc((size_t)c->len * sizeof(int));
}

static void teardown(call_t* c) {
    free(c->counts);
    free(c->rcounts);
    free(c->displs);
    free(c->wdispls);
    free(c->types);
    free(c->in);
    free(c->out);
}

/* Every collective, every completion mode (or one, rotating: one_mode), against the
 * blocking form. */
static int one_mode;
static void each_against_blocking(conf_t* t, MPI_Comm comm, int n, int blk) {
    call_t c;
    int coll, mode, ip;
    int* ref;
    setup(&c, comm, n, blk);
    ref = (int*)conf_alloc((size_t)c.len * sizeof(int));
    for (coll = 0; coll < NCOLL; coll++)
        for (ip = 0; ip < 2; ip++) {
            c.inplace = ip;
            if (ip && coll <= BCAST) continue;
            fill(&c, coll);
            complete(t, &c, coll, BLOCKING);
            memcpy(ref, c.out, (size_t)c.len * sizeof(int));
            for (mode = WAIT; mode < NMODES; mode++) {
                if (one_mode && mode != WAIT + (coll + ip) % (NMODES - WAIT)) continue;
                fill(&c, coll);
                complete(t, &c, coll, mode);
                check_same(t, &c, coll, ref, mode == WAIT ? "wait" : mode == TEST_LOOP ? "test loop" : "get_status");
            }
        }
    free(ref);
    teardown(&c);
}

/* Several collectives outstanding at once on one communicator, with point-to-point
 * requests in the same array, completed in different ways; and blocking collectives
 * started while nonblocking ones are outstanding. Results must equal the blocking ones. */
#define NOVER 6
static void overlapping(conf_t* t, int n, int blk, int how) {
    static const int colls[NOVER] = {BCAST, ALLREDUCE, ALLTOALL, GATHER, SCAN, REDUCE_SCATTER_BLOCK};
    call_t c[NOVER];
    int* ref[NOVER];
    MPI_Request reqs[NOVER + 3];
    int i, left, right, sendv, recvv = -1, done = 0, flag, idx, outcount, indices[NOVER + 3];
    for (i = 0; i < NOVER; i++) {
        setup(&c[i], MPI_COMM_WORLD, n, blk);
        c[i].inplace = i % 2;
        ref[i] = (int*)conf_alloc((size_t)c[i].len * sizeof(int));
        fill(&c[i], colls[i]);
        complete(t, &c[i], colls[i], BLOCKING);
        memcpy(ref[i], c[i].out, (size_t)c[i].len * sizeof(int));
        fill(&c[i], colls[i]);
    }
    left = (t->rank + t->size - 1) % t->size;
    right = (t->rank + 1) % t->size;
    sendv = t->rank * 11 + how;
    CONF_CALL(t, MPI_Irecv(&recvv, 1, MPI_INT, left, 55, MPI_COMM_WORLD, &reqs[0]));
    for (i = 0; i < NOVER; i++) {
        CONF_CALL(t, call(&c[i], colls[i], &reqs[i + 1]));
        if (i == 2) {  /* a blocking collective in the middle of nonblocking ones */
            int one = 1, sum = 0;
            CONF_CALL(t, MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
            CONF_CHECK(t, sum == t->size, "blocking Allreduce among nonblocking ones gave %d", sum);
        }
    }
    CONF_CALL(t, MPI_Isend(&sendv, 1, MPI_INT, right, 55, MPI_COMM_WORLD, &reqs[NOVER + 1]));
    CONF_CALL(t, MPI_Ibarrier(MPI_COMM_WORLD, &reqs[NOVER + 2]));
    switch (how) {
        case 0: CONF_CALL(t, MPI_Waitall(NOVER + 3, reqs, MPI_STATUSES_IGNORE)); break;
        case 1:
            for (done = 0; done < NOVER + 3; done++) {
                CONF_CALL(t, MPI_Waitany(NOVER + 3, reqs, &idx, MPI_STATUS_IGNORE));
                CONF_CHECK(t, idx >= 0 && idx < NOVER + 3 && reqs[idx] == MPI_REQUEST_NULL, "Waitany index %d", idx);
            }
            break;
        case 2:
            while (done < NOVER + 3) {
                CONF_CALL(t, MPI_Waitsome(NOVER + 3, reqs, &outcount, indices, MPI_STATUSES_IGNORE));
                CONF_CHECK(t, outcount > 0, "Waitsome completed %d", outcount);
                if (outcount > 0) done += outcount;
                else break;
            }
            break;
        case 3:
            flag = 0;
            while (!flag) {
                CONF_CALL(t, MPI_Testall(NOVER + 3, reqs, &flag, MPI_STATUSES_IGNORE));
                if (!flag) compute_a_little();
            }
            break;
        case 4:
            while (done < NOVER + 3) {
                CONF_CALL(t, MPI_Testany(NOVER + 3, reqs, &idx, &flag, MPI_STATUS_IGNORE));
                if (flag && idx != MPI_UNDEFINED) done++;
                else compute_a_little();
            }
            break;
        default:
            while (done < NOVER + 3) {
                CONF_CALL(t, MPI_Testsome(NOVER + 3, reqs, &outcount, indices, MPI_STATUSES_IGNORE));
                if (outcount > 0) done += outcount;
                else compute_a_little();
            }
            break;
    }
    for (i = 0; i < NOVER + 3; i++) CONF_CHECK(t, reqs[i] == MPI_REQUEST_NULL, "overlap %d: request %d left", how, i);
    CONF_CHECK(t, recvv == left * 11 + how, "overlap %d: point-to-point got %d, expected %d", how, recvv,
               left * 11 + how);
    for (i = 0; i < NOVER; i++) {
        check_same(t, &c[i], colls[i], ref[i], "overlapped");
        free(ref[i]);
        teardown(&c[i]);
    }
}

/* MPI_Request_free on nonblocking collectives: they still complete, and the collectives
 * after them on the communicator are not disturbed. */
static void freed(conf_t* t) {
    MPI_Request r;
    int v = t->rank, sum = -1, max = -1, i;
    CONF_CALL(t, MPI_Ibarrier(MPI_COMM_WORLD, &r));
    CONF_CALL(t, MPI_Request_free(&r));
    CONF_CHECK(t, r == MPI_REQUEST_NULL, "Request_free left the handle");
    CONF_CALL(t, MPI_Iallreduce(&v, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r));
    CONF_CALL(t, MPI_Wait(&r, MPI_STATUS_IGNORE));
    CONF_CHECK(t, sum == t->size * (t->size - 1) / 2, "Iallreduce after a freed Ibarrier gave %d", sum);
    /* A finished one freed (it completes at once on one rank; later elsewhere). */
    CONF_CALL(t, MPI_Iallreduce(&v, &max, 1, MPI_INT, MPI_MAX, MPI_COMM_SELF, &r));
    for (i = 0; i < 3; i++) MPI_Barrier(MPI_COMM_WORLD);
    CONF_CALL(t, MPI_Request_free(&r));
    CONF_CHECK(t, max == t->rank, "Iallreduce on MPI_COMM_SELF gave %d", max);
}

static void sleep_for(double seconds) {
    struct timespec ts;
    if (seconds <= 0) return;
    ts.tv_sec = (time_t)seconds;
    ts.tv_nsec = (long)((seconds - (double)ts.tv_sec) * 1e9);
    nanosleep(&ts, NULL);
}

/* Under xsim (-xsim-compute none): every rank sleeps until one common virtual time, a
 * millisecond after the latest rank got here (nanosleep: to within a nanosecond). */
static void line_up_in_time(void) {
    double mine = MPI_Wtime(), latest = 0;
    MPI_Allreduce(&mine, &latest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    sleep_for(latest + 1e-3 - MPI_Wtime());
}

/* Virtual time under xsim: the collective progresses while the rank computes, so
 * Ibarrier + compute(x) + Wait takes max(barrier, x), from the same start. */
static void overlap_time(conf_t* t) {
    double t0, alone, x, with, expect, read;
    int k;
    /* A clock read costs `read` of virtual time (processor.clock_read_cost), charged before
     * it reads: every interval between two reads holds one. */
    t0 = MPI_Wtime();
    read = MPI_Wtime() - t0;
    line_up_in_time();
    t0 = MPI_Wtime();
    MPI_Barrier(MPI_COMM_WORLD);
    alone = MPI_Wtime() - t0;
    for (k = 0; k < 2; k++) {
        MPI_Request r;
        /* Compute longer than the barrier takes (k = 0) or shorter (k = 1). */
        x = k == 0 ? 3 * alone + 1e-6 : alone / 4;
        line_up_in_time();
        t0 = MPI_Wtime();
        MPI_Ibarrier(MPI_COMM_WORLD, &r);
        sleep_for(x);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        with = MPI_Wtime() - t0;
        expect = alone > x + read ? alone : x + read; /* alone and with both hold one read */
        /* Starts agree to a nanosecond (nanosleep), and so do the barriers' ends. */
        CONF_CHECK(t, with > expect - 3e-9 && with < expect + 3e-9,
                   "Ibarrier + %.9f s of compute + Wait took %.9f s, expected max(barrier %.9f, compute) = %.9f", x,
                   with, alone, expect);
        if (t->rank == 0) printf("OVERLAP compute %.9f barrier %.9f total %.9f\n", x, alone, with);
    }
}

/* A communicator freed while a nonblocking collective on it is outstanding: the
 * collective still completes (MPI_Comm_free only marks it for deallocation). */
static void comm_freed_meanwhile(conf_t* t) {
    MPI_Comm dup;
    MPI_Request r;
    int v = t->rank + 1, sum = -1;
    CONF_CALL(t, MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CONF_CALL(t, MPI_Iallreduce(&v, &sum, 1, MPI_INT, MPI_SUM, dup, &r));
    CONF_CALL(t, MPI_Comm_free(&dup));
    CONF_CALL(t, MPI_Wait(&r, MPI_STATUS_IGNORE));
    CONF_CHECK(t, sum == t->size * (t->size + 1) / 2, "Iallreduce on a freed communicator gave %d", sum);
}

static void cancel_is_an_error(conf_t* t) {
    MPI_Request r;
    int rc, cls = MPI_SUCCESS;
    CONF_CALL(t, MPI_Ibarrier(MPI_COMM_WORLD, &r));
    rc = MPI_Cancel(&r);
    if (rc != MPI_SUCCESS) MPI_Error_class(rc, &cls);
    CONF_CHECK(t, cls == MPI_ERR_REQUEST, "MPI_Cancel of an Ibarrier request returned class %d", cls);
    CONF_CALL(t, MPI_Wait(&r, MPI_STATUS_IGNORE));
}

int main(int argc, char** argv) {
    conf_t t;
    int how, i, xsim = 0;
    int blk_long;
    MPI_Init(&argc, &argv);
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "xsim") == 0) xsim = 1;
        else if (strcmp(argv[i], "one-mode") == 0) one_mode = 1;
    }
    conf_init(&t, "coll_nonblocking");
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    /* Long: past the eager limits and into the long-message algorithms, without letting
     * per-rank blocks of all-to-all grow with p beyond a few KiB per rank. */
    blk_long = t.size <= 16 ? 1200 : 4096 / t.size + 1;
    each_against_blocking(&t, MPI_COMM_WORLD, 3, 2);
    each_against_blocking(&t, MPI_COMM_WORLD, 5000, blk_long);
    each_against_blocking(&t, MPI_COMM_SELF, 5000, 1200);
    {
        /* A derived communicator: two halves, ranks in reverse order. */
        MPI_Comm half;
        CONF_CALL(&t, MPI_Comm_split(MPI_COMM_WORLD, t.rank % 2, t.size - t.rank, &half));
        MPI_Comm_set_errhandler(half, MPI_ERRORS_RETURN);
        each_against_blocking(&t, half, 3, 2);
        each_against_blocking(&t, half, 5000, blk_long);
        CONF_CALL(&t, MPI_Comm_free(&half));
    }
    comm_freed_meanwhile(&t);
    for (how = 0; how < 6; how++) overlapping(&t, how % 2 ? 3000 : 4, how % 2 ? blk_long : 3, how);
    freed(&t);
    if (xsim) {
        cancel_is_an_error(&t);
        overlap_time(&t);
    }
    return conf_finish(&t);
}
