/* Persistent requests: MPI_Send_init, Ssend_init, Rsend_init, Bsend_init and Recv_init
 * around a ring, started again and again with MPI_Start / MPI_Startall (short and long
 * messages, a derived type freed after the init), the send buffer read at each start;
 * Wait / Test / Request_get_status / Waitany on an inactive request return the empty
 * status at once; MPI_Request_free on inactive and active requests; MPI_PROC_NULL;
 * MPI_ERR_REQUEST for starting an active, a non-persistent or a null request.
 * Argument "nopayload": run under -xsim-payload off (data is not checked). */
#include "conformance.h"

static int value(int src, int iter, int i) { return src * 1000 + iter * 100000 + i % 97; }

static void check_empty(conf_t* t, const MPI_Status* s, const char* what) {
    int count = -1;
    MPI_Get_count(s, MPI_INT, &count);
    CONF_CHECK(t, s->MPI_SOURCE == MPI_ANY_SOURCE && s->MPI_TAG == MPI_ANY_TAG && count == 0,
               "%s: not the empty status (source %d tag %d count %d)", what, s->MPI_SOURCE, s->MPI_TAG, count);
}

/* `iters` rounds of one persistent send (in `mode`) to the right and one receive from the
 * left, `n` ints each. */
static void ring_rounds(conf_t* t, int payload, const char* mode, int n, int iters) {
    const int to = (t->rank + 1) % t->size, from = (t->rank + t->size - 1) % t->size;
    int* sbuf = (int*)conf_alloc(sizeof(int) * n);
    int* rbuf = (int*)conf_alloc(sizeof(int) * n);
    MPI_Request req[2];
    MPI_Status st[2];
    char* bbuf = NULL;
    int it, i, rc = MPI_SUCCESS;
    if (strcmp(mode, "bsend") == 0) {
        /* Room for every round's message: a round's receive completing says nothing about
         * whether our own send of that round has left the buffer. */
        const int bsize = iters * (n * (int)sizeof(int) + MPI_BSEND_OVERHEAD);
        bbuf = (char*)conf_alloc((size_t)bsize);
        CONF_CALL(t, MPI_Buffer_attach(bbuf, bsize));
    }
    CONF_CALL(t, MPI_Recv_init(rbuf, n, MPI_INT, from, 3, MPI_COMM_WORLD, &req[0]));
    if (strcmp(mode, "send") == 0) rc = MPI_Send_init(sbuf, n, MPI_INT, to, 3, MPI_COMM_WORLD, &req[1]);
    else if (strcmp(mode, "ssend") == 0) rc = MPI_Ssend_init(sbuf, n, MPI_INT, to, 3, MPI_COMM_WORLD, &req[1]);
    else if (strcmp(mode, "rsend") == 0) rc = MPI_Rsend_init(sbuf, n, MPI_INT, to, 3, MPI_COMM_WORLD, &req[1]);
    else rc = MPI_Bsend_init(sbuf, n, MPI_INT, to, 3, MPI_COMM_WORLD, &req[1]);
    CONF_CHECK(t, rc == MPI_SUCCESS, "%s_init returned %d", mode, rc);
    for (it = 0; it < iters; it++) {
        if (payload) {
            for (i = 0; i < n; i++) sbuf[i] = value(t->rank, it, i);
            for (i = 0; i < n; i++) rbuf[i] = -1;
        }
        if (strcmp(mode, "rsend") == 0) {
            /* Ready mode: the receive is posted everywhere before any send starts. */
            CONF_CALL(t, MPI_Start(&req[0]));
            CONF_CALL(t, MPI_Barrier(MPI_COMM_WORLD));
            CONF_CALL(t, MPI_Start(&req[1]));
        } else {
            CONF_CALL(t, MPI_Startall(2, req));
        }
        CONF_CALL(t, MPI_Waitall(2, req, st));
        CONF_CHECK(t, req[0] != MPI_REQUEST_NULL && req[1] != MPI_REQUEST_NULL, "%s: persistent handle nulled", mode);
        CONF_CHECK(t, st[0].MPI_SOURCE == from && st[0].MPI_TAG == 3, "%s round %d: status source %d tag %d", mode, it,
                   st[0].MPI_SOURCE, st[0].MPI_TAG);
        if (payload) {
            long wrong = 0;
            for (i = 0; i < n; i++)
                if (rbuf[i] != value(from, it, i)) wrong++;
            CONF_CHECK(t, wrong == 0, "%s n=%d round %d: %ld ints wrong", mode, n, it, wrong);
        }
    }
    /* Inactive now: completion calls return the empty status at once. */
    {
        MPI_Status s;
        int flag = 0, index = -5;
        CONF_CALL(t, MPI_Wait(&req[0], &s));
        check_empty(t, &s, "MPI_Wait on an inactive request");
        CONF_CALL(t, MPI_Test(&req[1], &flag, &s));
        CONF_CHECK(t, flag == 1, "MPI_Test on an inactive request: flag 0");
        check_empty(t, &s, "MPI_Test on an inactive request");
        flag = 0;
        CONF_CALL(t, MPI_Request_get_status(req[0], &flag, &s));
        CONF_CHECK(t, flag == 1, "MPI_Request_get_status on an inactive request: flag 0");
        CONF_CALL(t, MPI_Waitany(2, req, &index, &s));
        CONF_CHECK(t, index == MPI_UNDEFINED, "MPI_Waitany over inactive requests: index %d", index);
        CONF_CALL(t, MPI_Start(&req[0]));
        if (conf_under_xsim())
            CONF_CHECK(t, conf_error_class(MPI_Start(&req[0])) == MPI_ERR_REQUEST, "MPI_Start on an active request");
        /* Free the active receive's partner round: start the send, free both while active. */
        CONF_CALL(t, MPI_Barrier(MPI_COMM_WORLD)); /* every receive is posted (ready mode) */
        CONF_CALL(t, MPI_Start(&req[1]));
        CONF_CALL(t, MPI_Wait(&req[0], &s)); /* completes: the left neighbour started its send */
        CONF_CALL(t, MPI_Request_free(&req[1]));
        CONF_CHECK(t, req[1] == MPI_REQUEST_NULL, "MPI_Request_free left the handle");
        CONF_CALL(t, MPI_Request_free(&req[0])); /* inactive */
        CONF_CHECK(t, req[0] == MPI_REQUEST_NULL, "MPI_Request_free (inactive) left the handle");
    }
    if (bbuf) {
        void* back = NULL;
        int size = 0;
        CONF_CALL(t, MPI_Buffer_detach(&back, &size));
        CONF_CHECK(t, back == bbuf, "detach returned another buffer");
        free(bbuf);
    }
    free(sbuf);
    free(rbuf);
}

int main(int argc, char** argv) {
    conf_t t;
    int payload = 1, i, m;
    const char* modes[4] = {"send", "ssend", "rsend", "bsend"};
    MPI_Init(&argc, &argv);
    conf_init(&t, "p2p_persistent");
    for (i = 1; i < argc; i++)
        if (strcmp(argv[i], "nopayload") == 0) payload = 0;
    for (m = 0; m < 4; m++) {
        ring_rounds(&t, payload, modes[m], 5, 4);
        ring_rounds(&t, payload, modes[m], 30000, 3); /* 120 kB: rendezvous */
    }
    /* A derived type freed right after the init keeps working. */
    {
        const int to = (t.rank + 1) % t.size, from = (t.rank + t.size - 1) % t.size;
        MPI_Datatype v;
        int src[8], dst[8], it, k;
        MPI_Request r[2];
        MPI_Type_vector(4, 1, 2, MPI_INT, &v);
        MPI_Type_commit(&v);
        CONF_CALL(&t, MPI_Send_init(src, 1, v, to, 4, MPI_COMM_WORLD, &r[0]));
        CONF_CALL(&t, MPI_Recv_init(dst, 4, MPI_INT, from, 4, MPI_COMM_WORLD, &r[1]));
        CONF_CALL(&t, MPI_Type_free(&v));
        for (it = 0; it < 3; it++) {
            for (k = 0; k < 8; k++) src[k] = t.rank * 10 + it * 1000 + k;
            CONF_CALL(&t, MPI_Startall(2, r));
            CONF_CALL(&t, MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
            CONF_CHECK(&t, !payload || (dst[0] == from * 10 + it * 1000 && dst[3] == from * 10 + it * 1000 + 6),
                       "vector persistent round %d: %d %d", it, dst[0], dst[3]);
        }
        MPI_Request_free(&r[0]);
        MPI_Request_free(&r[1]);
    }
    /* MPI_PROC_NULL peers: complete at once, the receive with source MPI_PROC_NULL. */
    {
        int x = 7;
        MPI_Request r[2];
        MPI_Status s[2];
        CONF_CALL(&t, MPI_Send_init(&x, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &r[0]));
        CONF_CALL(&t, MPI_Recv_init(&x, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &r[1]));
        CONF_CALL(&t, MPI_Startall(2, r));
        CONF_CALL(&t, MPI_Waitall(2, r, s));
        CONF_CHECK(&t, s[1].MPI_SOURCE == MPI_PROC_NULL && s[1].MPI_TAG == MPI_ANY_TAG && x == 7,
                   "MPI_PROC_NULL receive status");
        MPI_Request_free(&r[0]);
        MPI_Request_free(&r[1]);
    }
    /* Errors: starting a non-persistent request or a null one, bad init arguments. */
    if (conf_under_xsim()) {
        int x = 0, rc;
        MPI_Request r = MPI_REQUEST_NULL, nb;
        CONF_CHECK(&t, conf_error_class(MPI_Start(&r)) == MPI_ERR_REQUEST, "MPI_Start(MPI_REQUEST_NULL)");
        CONF_CALL(&t, MPI_Irecv(&x, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &nb));
        CONF_CHECK(&t, conf_error_class(MPI_Start(&nb)) == MPI_ERR_REQUEST, "MPI_Start on a nonblocking request");
        CONF_CHECK(&t, conf_error_class(MPI_Startall(1, &nb)) == MPI_ERR_REQUEST, "MPI_Startall on a nonblocking request");
        CONF_CALL(&t, MPI_Wait(&nb, MPI_STATUS_IGNORE));
        rc = MPI_Send_init(&x, 1, MPI_INT, t.size, 0, MPI_COMM_WORLD, &r);
        CONF_CHECK(&t, conf_error_class(rc) == MPI_ERR_RANK, "MPI_Send_init to rank size: class %d", conf_error_class(rc));
        rc = MPI_Recv_init(&x, -1, MPI_INT, 0, 0, MPI_COMM_WORLD, &r);
        CONF_CHECK(&t, conf_error_class(rc) == MPI_ERR_COUNT, "MPI_Recv_init count -1: class %d", conf_error_class(rc));
        rc = MPI_Ssend_init(&x, 1, MPI_INT, 0, -2, MPI_COMM_WORLD, &r);
        CONF_CHECK(&t, conf_error_class(rc) == MPI_ERR_TAG, "MPI_Ssend_init tag -2: class %d", conf_error_class(rc));
    }
    return conf_finish(&t);
}
