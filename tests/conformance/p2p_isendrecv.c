/* MPI-4.0's nonblocking send-receive, MPI_Isendrecv and MPI_Isendrecv_replace (xsim.h
 * declares them for an older MPI): a ring with short and long (rendezvous) messages of a
 * basic and a vector type, completed by MPI_Wait, MPI_Waitall, MPI_Test and MPI_Waitany;
 * the receive's status; MPI_PROC_NULL peers on a chain; truncation; MPI_Request_free;
 * MPI_Cancel (which xsim lets fail); and the error class of every bad argument under
 * MPI_ERRORS_RETURN, after which no half of the failed call may be left posted (a stray
 * receive would take the next message), also for MPI_Sendrecv and MPI_Sendrecv_replace.
 * Then a timed ring, by MPI_Sendrecv / MPI_Sendrecv_replace or, with the argument
 * "nonblocking", by MPI_Isendrecv / MPI_Isendrecv_replace + MPI_Wait: rank 0 prints TIME
 * lines that must be identical (compare_nonblocking.sh).
 * Argument "nopayload": run under -xsim-payload off (data is not checked). */
#include "conformance.h"

#if MPI_VERSION < 4
#if defined(__has_include)
#if __has_include(<xsim.h>)
#include <xsim.h>
#define HAVE_XSIM_H 1
#endif
#endif
#ifndef HAVE_XSIM_H
int MPI_Isendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void* recvbuf,
                  int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Request* request);
int MPI_Isendrecv_replace(void* buf, int count, MPI_Datatype datatype, int dest, int sendtag, int source, int recvtag,
                          MPI_Comm comm, MPI_Request* request);
#endif
/* An MPI before 4.0 on its own (Open MPI 4.1) lacks both: weak, so the program still
 * links there, and then only checks that xsim is not the library. */
#pragma weak MPI_Isendrecv
#pragma weak MPI_Isendrecv_replace
#define ISENDRECV_DEFINED() (MPI_Isendrecv != NULL && MPI_Isendrecv_replace != NULL)
#else
#define ISENDRECV_DEFINED() 1
#endif

static int right(const conf_t* t) { return (t->rank + 1) % t->size; }
static int left(const conf_t* t) { return (t->rank + t->size - 1) % t->size; }

/* The status of a receive of `n` elements of `type` from `source` with `tag`. */
static void check_status(conf_t* t, const char* what, const MPI_Status* s, MPI_Datatype type, int source, int tag,
                         int n) {
    int count = -1;
    MPI_Get_count(s, type, &count);
    CONF_CHECK(t, s->MPI_SOURCE == source && s->MPI_TAG == tag && count == n,
               "%s: status source %d tag %d count %d, expected %d %d %d", what, s->MPI_SOURCE, s->MPI_TAG, count,
               source, tag, n);
}

/* Element i of rank r's data, or -1 where none must have arrived. */
static long wrong_elements(int kind, const void* buf, long n, int from) {
    long i, wrong = 0;
    for (i = 0; i < n; i++)
        if (!conf_holds(kind, buf, i, conf_value(from, i))) wrong++;
    return wrong;
}

/* One ring step, MPI_Isendrecv or MPI_Isendrecv_replace, completed by MPI_Wait. */
static void ring(conf_t* t, int payload, int replace, int kind, long n) {
    MPI_Datatype gappy = conf_gappy_type(), type = conf_type(kind, gappy);
    char* send = (char*)conf_alloc((size_t)n * conf_extent(kind));
    char* recv = (char*)conf_alloc((size_t)n * conf_extent(kind));
    MPI_Request r = MPI_REQUEST_NULL;
    MPI_Status s;
    const char* what = replace ? "MPI_Isendrecv_replace" : "MPI_Isendrecv";
    long i;
    conf_poison(kind, send, n);
    conf_poison(kind, recv, n);
    for (i = 0; i < n; i++) conf_put(kind, send, i, conf_value(t->rank, i));
    if (replace)
        CONF_CALL(t, MPI_Isendrecv_replace(send, (int)n, type, right(t), 11, left(t), 11, MPI_COMM_WORLD, &r));
    else
        CONF_CALL(t, MPI_Isendrecv(send, (int)n, type, right(t), 11, recv, (int)n, type, left(t), 11, MPI_COMM_WORLD,
                                   &r));
    CONF_CALL(t, MPI_Wait(&r, &s));
    CONF_CHECK(t, r == MPI_REQUEST_NULL, "%s: MPI_Wait left the handle", what);
    check_status(t, what, &s, type, left(t), 11, (int)n);
    if (payload) {
        long wrong = wrong_elements(kind, replace ? send : recv, n, left(t));
        CONF_CHECK(t, wrong == 0, "%s %s n=%ld: %ld elements wrong", what, conf_type_name(kind), n, wrong);
        if (!replace) {
            for (wrong = 0, i = 0; i < n; i++) wrong += !conf_holds(kind, send, i, conf_value(t->rank, i));
            CONF_CHECK(t, wrong == 0, "%s changed the send buffer", what);
        }
    }
    free(send);
    free(recv);
    MPI_Type_free(&gappy);
}

/* Both directions in flight at once (a halo exchange), completed by Waitall, Test and
 * Waitany. */
static void halo(conf_t* t, int payload, long n) {
    int* out = (int*)conf_alloc(sizeof(int) * (size_t)n);
    int* from_left = (int*)conf_alloc(sizeof(int) * (size_t)n);
    int* from_right = (int*)conf_alloc(sizeof(int) * (size_t)n);
    MPI_Request r[2];
    MPI_Status s[2];
    int round, flag = 0, index = -1, done = 0;
    long i, wrong = 0;
    for (i = 0; i < n; i++) out[i] = (int)conf_value(t->rank, i);
    for (round = 0; round < 3; round++) {
        for (i = 0; i < n; i++) from_left[i] = from_right[i] = -1;
        CONF_CALL(t, MPI_Isendrecv(out, (int)n, MPI_INT, right(t), 13, from_left, (int)n, MPI_INT, left(t), 13,
                                   MPI_COMM_WORLD, &r[0]));
        CONF_CALL(t, MPI_Isendrecv(out, (int)n, MPI_INT, left(t), 14, from_right, (int)n, MPI_INT, right(t), 14,
                                   MPI_COMM_WORLD, &r[1]));
        if (round == 0) {
            CONF_CALL(t, MPI_Waitall(2, r, s));
        } else if (round == 1) {
            for (flag = 0; !flag;) CONF_CALL(t, MPI_Test(&r[0], &flag, &s[0]));
            for (flag = 0; !flag;) CONF_CALL(t, MPI_Test(&r[1], &flag, &s[1]));
        } else {
            for (done = 0; done < 2; done++) {
                MPI_Status any;
                CONF_CALL(t, MPI_Waitany(2, r, &index, &any));
                if (index == 0 || index == 1) s[index] = any;
                else conf_fail(t, "MPI_Waitany index %d", index);
            }
        }
        check_status(t, "halo from the left", &s[0], MPI_INT, left(t), 13, (int)n);
        check_status(t, "halo from the right", &s[1], MPI_INT, right(t), 14, (int)n);
        if (payload)
            for (i = 0; i < n; i++)
                wrong += from_left[i] != (int)conf_value(left(t), i) || from_right[i] != (int)conf_value(right(t), i);
    }
    CONF_CHECK(t, wrong == 0, "halo exchange n=%ld: %ld ints wrong", n, wrong);
    free(out);
    free(from_left);
    free(from_right);
}

/* A chain: the first rank receives from MPI_PROC_NULL, the last sends to it. */
static void chain(conf_t* t, int payload) {
    const int to = t->rank + 1 < t->size ? t->rank + 1 : MPI_PROC_NULL;
    const int from = t->rank > 0 ? t->rank - 1 : MPI_PROC_NULL;
    int out[3] = {t->rank, 2 * t->rank, 3 * t->rank}, in[3] = {-1, -1, -1}, flag = 0;
    MPI_Request r;
    MPI_Status s;
    CONF_CALL(t, MPI_Isendrecv(out, 3, MPI_INT, to, 15, in, 3, MPI_INT, from, 15, MPI_COMM_WORLD, &r));
    CONF_CALL(t, MPI_Wait(&r, &s));
    if (from == MPI_PROC_NULL) {
        check_status(t, "chain receive from MPI_PROC_NULL", &s, MPI_INT, MPI_PROC_NULL, MPI_ANY_TAG, 0);
        CONF_CHECK(t, in[0] == -1 && in[2] == -1, "a receive from MPI_PROC_NULL wrote the buffer");
    } else {
        check_status(t, "chain", &s, MPI_INT, from, 15, 3);
        CONF_CHECK(t, !payload || (in[0] == from && in[2] == 3 * from), "chain data from %d: %d %d", from, in[0],
                   in[2]);
    }
    /* _replace: the first rank keeps its own data. */
    CONF_CALL(t, MPI_Isendrecv_replace(out, 3, MPI_INT, to, 16, from, 16, MPI_COMM_WORLD, &r));
    CONF_CALL(t, MPI_Wait(&r, &s));
    if (from == MPI_PROC_NULL)
        CONF_CHECK(t, out[0] == t->rank && out[2] == 3 * t->rank, "MPI_Isendrecv_replace from MPI_PROC_NULL changed the buffer");
    else
        CONF_CHECK(t, !payload || (out[0] == from && out[2] == 3 * from), "chain _replace data from %d", from);
    /* Both peers MPI_PROC_NULL: complete at once. */
    CONF_CALL(t, MPI_Isendrecv(out, 3, MPI_INT, MPI_PROC_NULL, 0, in, 3, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &r));
    CONF_CALL(t, MPI_Test(&r, &flag, &s));
    CONF_CHECK(t, flag == 1 && r == MPI_REQUEST_NULL, "MPI_Isendrecv with MPI_PROC_NULL peers is not complete at once");
    check_status(t, "both peers MPI_PROC_NULL", &s, MPI_INT, MPI_PROC_NULL, MPI_ANY_TAG, 0);
}

/* Truncation, and a freed request whose exchange still happens. */
static void truncation_and_free(conf_t* t, int payload) {
    int out[4] = {1, 2, 3, 4}, in[4] = {0, 0, 0, 0}, rc;
    MPI_Request r;
    CONF_CALL(t, MPI_Isendrecv(out, 4, MPI_INT, right(t), 17, in, 2, MPI_INT, left(t), 17, MPI_COMM_WORLD, &r));
    rc = MPI_Wait(&r, MPI_STATUS_IGNORE);
    CONF_CHECK(t, conf_error_class(rc) == MPI_ERR_TRUNCATE, "4 ints into a receive of 2: class %d", conf_error_class(rc));
    /* Freed while active; the next exchange on the same tag matches the next message. */
    CONF_CALL(t, MPI_Isendrecv(out, 4, MPI_INT, right(t), 18, in, 4, MPI_INT, left(t), 18, MPI_COMM_WORLD, &r));
    CONF_CALL(t, MPI_Request_free(&r));
    CONF_CHECK(t, r == MPI_REQUEST_NULL, "MPI_Request_free left the handle");
    out[0] = 100 + t->rank;
    CONF_CALL(t, MPI_Sendrecv(out, 4, MPI_INT, right(t), 18, in, 4, MPI_INT, left(t), 18, MPI_COMM_WORLD,
                              MPI_STATUS_IGNORE));
    CONF_CHECK(t, !payload || in[0] == 100 + left(t), "after a freed MPI_Isendrecv: got %d", in[0]);
    /* xsim does not cancel a send-receive (the standard lets a cancel fail): it completes
     * normally, with its data. */
    if (conf_under_xsim()) {
        MPI_Status s;
        int cancelled = -1;
        out[0] = 200 + t->rank;
        CONF_CALL(t, MPI_Isendrecv(out, 4, MPI_INT, right(t), 23, in, 4, MPI_INT, left(t), 23, MPI_COMM_WORLD, &r));
        CONF_CALL(t, MPI_Cancel(&r));
        CONF_CALL(t, MPI_Wait(&r, &s));
        CONF_CALL(t, MPI_Test_cancelled(&s, &cancelled));
        CONF_CHECK(t, cancelled == 0 && (!payload || in[0] == 200 + left(t)),
                   "a cancelled MPI_Isendrecv: cancelled %d, data %d", cancelled, in[0]);
    }
}

/* After the failed calls of bad_arguments: one exchange on `tag`. A receive left posted
 * by a failed call would take the message (this receive would then never complete); a
 * send let go by one (it carries 900 + its sender) would arrive here first. */
static void exchange_after_failures(conf_t* t, int payload, int tag) {
    int out = 500 + t->rank, in = -1;
    CONF_CALL(t, MPI_Sendrecv(&out, 1, MPI_INT, right(t), tag, &in, 1, MPI_INT, left(t), tag, MPI_COMM_WORLD,
                              MPI_STATUS_IGNORE));
    CONF_CHECK(t, !payload || in == 500 + left(t), "tag %d after the failed calls: received %d, not %d", tag, in,
               500 + left(t));
}

/* Bad arguments: the class the standard names, and no half of a failed call posted. */
static void bad_arguments(conf_t* t, int payload) {
    int x[4] = {900 + t->rank, 0, 0, 0}, y[4] = {0, 0, 0, 0};
    const int to = right(t), from = left(t), n = t->size;
    MPI_Request r;
    MPI_Datatype uncommitted;
    MPI_Type_contiguous(2, MPI_INT, &uncommitted);
    /* A bad send half beside a valid receive half from `from` with tag 19. */
    CONF_EXPECT_CLASS(t, MPI_ERR_RANK, MPI_Isendrecv(x, 1, MPI_INT, n, 19, y, 1, MPI_INT, from, 19, MPI_COMM_WORLD, &r));
    CONF_EXPECT_CLASS(t, MPI_ERR_RANK, MPI_Isendrecv(x, 1, MPI_INT, -5, 19, y, 1, MPI_INT, from, 19, MPI_COMM_WORLD, &r));
    CONF_EXPECT_CLASS(t, MPI_ERR_TAG, MPI_Isendrecv(x, 1, MPI_INT, to, -3, y, 1, MPI_INT, from, 19, MPI_COMM_WORLD, &r));
    CONF_EXPECT_CLASS(t, MPI_ERR_TAG,
                 MPI_Isendrecv(x, 1, MPI_INT, to, MPI_ANY_TAG, y, 1, MPI_INT, from, 19, MPI_COMM_WORLD, &r));
    CONF_EXPECT_CLASS(t, MPI_ERR_COUNT, MPI_Isendrecv(x, -1, MPI_INT, to, 19, y, 1, MPI_INT, from, 19, MPI_COMM_WORLD, &r));
    CONF_EXPECT_CLASS(t, MPI_ERR_TYPE,
                 MPI_Isendrecv(x, 1, MPI_DATATYPE_NULL, to, 19, y, 1, MPI_INT, from, 19, MPI_COMM_WORLD, &r));
    CONF_EXPECT_CLASS(t, MPI_ERR_TYPE, MPI_Isendrecv(x, 1, uncommitted, to, 19, y, 1, MPI_INT, from, 19, MPI_COMM_WORLD, &r));
    CONF_EXPECT_CLASS(t, MPI_ERR_RANK, MPI_Isendrecv_replace(x, 1, MPI_INT, n, 19, from, 19, MPI_COMM_WORLD, &r));
    CONF_EXPECT_CLASS(t, MPI_ERR_TAG, MPI_Isendrecv_replace(x, 1, MPI_INT, to, -4, from, 19, MPI_COMM_WORLD, &r));
    CONF_EXPECT_CLASS(t, MPI_ERR_RANK,
                 MPI_Sendrecv(x, 1, MPI_INT, n, 19, y, 1, MPI_INT, from, 19, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CONF_EXPECT_CLASS(t, MPI_ERR_TAG,
                 MPI_Sendrecv(x, 1, MPI_INT, to, -3, y, 1, MPI_INT, from, 19, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CONF_EXPECT_CLASS(t, MPI_ERR_RANK, MPI_Sendrecv_replace(x, 1, MPI_INT, n, 19, from, 19, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    exchange_after_failures(t, payload, 19);
    /* A bad receive half beside a valid send half to `to` with tag 26. */
    CONF_EXPECT_CLASS(t, MPI_ERR_RANK,
                 MPI_Isendrecv(x, 1, MPI_INT, to, 26, y, 1, MPI_INT, n + 1, 26, MPI_COMM_WORLD, &r));
    CONF_EXPECT_CLASS(t, MPI_ERR_TAG, MPI_Isendrecv(x, 1, MPI_INT, to, 26, y, 1, MPI_INT, from, -7, MPI_COMM_WORLD, &r));
    CONF_EXPECT_CLASS(t, MPI_ERR_COUNT, MPI_Isendrecv(x, 1, MPI_INT, to, 26, y, -2, MPI_INT, from, 26, MPI_COMM_WORLD, &r));
    CONF_EXPECT_CLASS(t, MPI_ERR_TYPE,
                 MPI_Isendrecv(x, 1, MPI_INT, to, 26, y, 1, MPI_DATATYPE_NULL, from, 26, MPI_COMM_WORLD, &r));
    CONF_EXPECT_CLASS(t, MPI_ERR_RANK, MPI_Isendrecv_replace(x, 1, MPI_INT, to, 26, n, 26, MPI_COMM_WORLD, &r));
    CONF_EXPECT_CLASS(t, MPI_ERR_TAG, MPI_Isendrecv_replace(x, 1, MPI_INT, to, 26, from, -7, MPI_COMM_WORLD, &r));
    CONF_EXPECT_CLASS(t, MPI_ERR_RANK, MPI_Sendrecv(x, 1, MPI_INT, to, 26, y, 1, MPI_INT, n, 26, MPI_COMM_WORLD,
                                               MPI_STATUS_IGNORE));
    CONF_EXPECT_CLASS(t, MPI_ERR_RANK,
                 MPI_Sendrecv_replace(x, 1, MPI_INT, to, 26, n, 26, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CONF_EXPECT_CLASS(t, MPI_ERR_TAG,
                 MPI_Sendrecv_replace(x, 1, MPI_INT, to, 26, from, -7, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    exchange_after_failures(t, payload, 26);
    /* Arguments of the whole call. */
    CONF_EXPECT_CLASS(t, MPI_ERR_COUNT, MPI_Isendrecv_replace(x, -1, MPI_INT, to, 19, from, 19, MPI_COMM_WORLD, &r));
    CONF_EXPECT_CLASS(t, MPI_ERR_TYPE, MPI_Isendrecv_replace(x, 1, uncommitted, to, 19, from, 19, MPI_COMM_WORLD, &r));
    CONF_EXPECT_CLASS(t, MPI_ERR_COMM, MPI_Isendrecv(x, 1, MPI_INT, to, 19, y, 1, MPI_INT, from, 19, MPI_COMM_NULL, &r));
    CONF_EXPECT_CLASS(t, MPI_ERR_COMM, MPI_Isendrecv_replace(x, 1, MPI_INT, to, 19, from, 19, MPI_COMM_NULL, &r));
    CONF_EXPECT_CLASS(t, MPI_ERR_ARG, MPI_Isendrecv(x, 1, MPI_INT, to, 19, y, 1, MPI_INT, from, 19, MPI_COMM_WORLD, NULL));
    CONF_EXPECT_CLASS(t, MPI_ERR_ARG, MPI_Isendrecv_replace(x, 1, MPI_INT, to, 19, from, 19, MPI_COMM_WORLD, NULL));
    MPI_Type_free(&uncommitted);
}

/* Ring rounds timed at rank 0: the blocking calls, or the nonblocking ones + MPI_Wait. */
static void timed(conf_t* t, int nonblocking, long n) {
    int* out = (int*)conf_alloc(sizeof(int) * (size_t)n);
    int* in = (int*)conf_alloc(sizeof(int) * (size_t)n);
    double start;
    int round;
    long i;
    MPI_Request r;
    for (i = 0; i < n; i++) out[i] = (int)i;
    CONF_CALL(t, MPI_Barrier(MPI_COMM_WORLD));
    start = MPI_Wtime();
    for (round = 0; round < 3; round++) {
        if (nonblocking) {
            CONF_CALL(t, MPI_Isendrecv(out, (int)n, MPI_INT, right(t), 20, in, (int)n, MPI_INT, left(t), 20,
                                       MPI_COMM_WORLD, &r));
            CONF_CALL(t, MPI_Wait(&r, MPI_STATUS_IGNORE));
            CONF_CALL(t, MPI_Isendrecv_replace(in, (int)n, MPI_INT, right(t), 21, left(t), 21, MPI_COMM_WORLD, &r));
            CONF_CALL(t, MPI_Wait(&r, MPI_STATUS_IGNORE));
        } else {
            CONF_CALL(t, MPI_Sendrecv(out, (int)n, MPI_INT, right(t), 20, in, (int)n, MPI_INT, left(t), 20,
                                      MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CONF_CALL(t, MPI_Sendrecv_replace(in, (int)n, MPI_INT, right(t), 21, left(t), 21, MPI_COMM_WORLD,
                                              MPI_STATUS_IGNORE));
        }
    }
    if (t->rank == 0) printf("TIME ring n=%ld %.9f\n", n, MPI_Wtime() - start);
    free(out);
    free(in);
}

int main(int argc, char** argv) {
    conf_t t;
    int payload = 1, nonblocking = 0, available, i;
    MPI_Init(&argc, &argv);
    conf_init(&t, "p2p_isendrecv");
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "nopayload") == 0) payload = 0;
        if (strcmp(argv[i], "nonblocking") == 0) nonblocking = 1;
    }
    available = ISENDRECV_DEFINED();
    if (!available) {
        /* Only an MPI before 4.0 on its own may lack them; xsim must provide them. */
        CONF_CHECK(&t, !conf_under_xsim() && !nonblocking, "MPI_Isendrecv / MPI_Isendrecv_replace are not defined");
        if (t.rank == 0) printf("this MPI has no MPI_Isendrecv: only the blocking reference ran\n");
    } else {
        int kinds[2] = {CONF_INT, CONF_GAPPY}, k;
        for (k = 0; k < 2; k++) {
            ring(&t, payload, 0, kinds[k], 5);
            ring(&t, payload, 0, kinds[k], 30000); /* 120 kB and more: rendezvous */
            ring(&t, payload, 1, kinds[k], 5);
            ring(&t, payload, 1, kinds[k], 30000);
        }
        halo(&t, payload, 7);
        halo(&t, payload, 30000);
        chain(&t, payload);
        truncation_and_free(&t, payload);
        bad_arguments(&t, payload);
    }
    timed(&t, nonblocking && available, 16);
    timed(&t, nonblocking && available, 30000);
    return conf_finish(&t);
}
