/* Probes, plain and matched, around a ring (each rank sends to the next, itself at N=1):
 * MPI_Probe / MPI_Iprobe report a message and leave it queued; MPI_Mprobe / MPI_Improbe
 * take it out of the queue, so a later receive (or probe) of the same envelope gets the
 * next message, and only MPI_Mrecv / MPI_Imrecv of the handle receive it, short (eager)
 * and long (rendezvous); MPI_PROC_NULL gives MPI_MESSAGE_NO_PROC; handles become
 * MPI_MESSAGE_NULL; Fortran numbers of message handles; a bad handle is an error. The
 * statuses' MPI_ERROR field is left alone by every single-status call (MPI-4 section 3.2.5).
 * Argument "nopayload" (-xsim-payload off): data is not checked. */
#include "conformance.h"

enum { SHORT = 4, LONG = 20000, SENTINEL = 12345 };

static void fill(long* buf, int n, long base) {
    int i;
    for (i = 0; i < n; i++) buf[i] = base + i;
}

static int holds(const long* buf, int n, long base) {
    int i;
    for (i = 0; i < n; i++)
        if (buf[i] != base + i) return 0;
    return 1;
}

static void check_status(conf_t* t, const MPI_Status* s, int source, int tag, int count, const char* what) {
    int n = -1;
    MPI_Get_count(s, MPI_LONG, &n);
    CONF_CHECK(t, s->MPI_SOURCE == source && s->MPI_TAG == tag && n == count,
               "%s: source %d tag %d count %d, expected %d %d %d", what, s->MPI_SOURCE, s->MPI_TAG, n, source, tag,
               count);
    CONF_CHECK(t, s->MPI_ERROR == SENTINEL, "%s changed the status's MPI_ERROR field to %d", what, s->MPI_ERROR);
}

int main(int argc, char** argv) {
    conf_t t;
    int payload = 1, to, from, flag = 0, i;
    long *small, *large, *got_small, *got_large, a = -1, b = -1;
    MPI_Request sends[4], req;
    MPI_Message m1 = MPI_MESSAGE_NULL, m2 = MPI_MESSAGE_NULL, m3 = MPI_MESSAGE_NULL, none;
    MPI_Status s;
    MPI_Init(&argc, &argv);
    conf_init(&t, "p2p_probe");
    for (i = 1; i < argc; i++)
        if (strcmp(argv[i], "nopayload") == 0) payload = 0;
    to = (t.rank + 1) % t.size;
    from = (t.rank + t.size - 1) % t.size;
    small = (long*)conf_alloc(sizeof(long) * SHORT);
    large = (long*)conf_alloc(sizeof(long) * LONG);
    got_small = (long*)conf_alloc(sizeof(long) * SHORT);
    got_large = (long*)conf_alloc(sizeof(long) * LONG);
    fill(small, SHORT, 100L * t.rank);
    fill(large, LONG, 1000000L * t.rank);
    {
        const long first = 7L * t.rank, second = 7L * t.rank + 1;
        CONF_CALL(&t, MPI_Isend(small, SHORT, MPI_LONG, to, 1, MPI_COMM_WORLD, &sends[0]));
        CONF_CALL(&t, MPI_Isend(large, LONG, MPI_LONG, to, 2, MPI_COMM_WORLD, &sends[1]));
        CONF_CALL(&t, MPI_Isend(&first, 1, MPI_LONG, to, 3, MPI_COMM_WORLD, &sends[2]));
        CONF_CALL(&t, MPI_Isend(&second, 1, MPI_LONG, to, 3, MPI_COMM_WORLD, &sends[3]));

        /* Plain probes leave the message queued. */
        s.MPI_ERROR = SENTINEL;
        CONF_CALL(&t, MPI_Probe(MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, &s));
        check_status(&t, &s, from, 2, LONG, "MPI_Probe");
        s.MPI_ERROR = SENTINEL;
        for (flag = 0; !flag;) CONF_CALL(&t, MPI_Iprobe(from, 1, MPI_COMM_WORLD, &flag, &s));
        check_status(&t, &s, from, 1, SHORT, "MPI_Iprobe");

        /* Matched probes take it: a second probe of the same envelope no longer sees it. */
        s.MPI_ERROR = SENTINEL;
        CONF_CALL(&t, MPI_Mprobe(from, 2, MPI_COMM_WORLD, &m2, &s));
        check_status(&t, &s, from, 2, LONG, "MPI_Mprobe");
        CONF_CHECK(&t, m2 != MPI_MESSAGE_NULL && m2 != MPI_MESSAGE_NO_PROC, "MPI_Mprobe gave no message handle");
        CONF_CALL(&t, MPI_Iprobe(from, 2, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
        CONF_CHECK(&t, !flag, "MPI_Iprobe still sees a message MPI_Mprobe took");
        s.MPI_ERROR = SENTINEL;
        for (flag = 0; !flag;) CONF_CALL(&t, MPI_Improbe(from, 1, MPI_COMM_WORLD, &flag, &m1, &s));
        check_status(&t, &s, from, 1, SHORT, "MPI_Improbe");

        /* Of two messages with one envelope, the matched one is the first; a plain receive
         * posted after the probe gets the second. */
        CONF_CALL(&t, MPI_Mprobe(from, 3, MPI_COMM_WORLD, &m3, MPI_STATUS_IGNORE));
        s.MPI_ERROR = SENTINEL;
        CONF_CALL(&t, MPI_Recv(&b, 1, MPI_LONG, from, 3, MPI_COMM_WORLD, &s));
        check_status(&t, &s, from, 3, 1, "MPI_Recv after MPI_Mprobe");
        s.MPI_ERROR = SENTINEL;
        CONF_CALL(&t, MPI_Mrecv(&a, 1, MPI_LONG, &m3, &s));
        check_status(&t, &s, from, 3, 1, "MPI_Mrecv of the first");
        if (payload)
            CONF_CHECK(&t, a == 7L * from && b == 7L * from + 1, "matched %ld and received %ld, expected %ld then %ld",
                       a, b, 7L * from, 7L * from + 1);

        /* The receives of the handles, one nonblocking (short), one blocking (long). */
        CONF_CALL(&t, MPI_Imrecv(got_small, SHORT, MPI_LONG, &m1, &req));
        CONF_CHECK(&t, m1 == MPI_MESSAGE_NULL, "MPI_Imrecv left the message handle set");
        s.MPI_ERROR = SENTINEL;
        CONF_CALL(&t, MPI_Mrecv(got_large, LONG, MPI_LONG, &m2, &s));
        check_status(&t, &s, from, 2, LONG, "MPI_Mrecv");
        CONF_CHECK(&t, m2 == MPI_MESSAGE_NULL, "MPI_Mrecv left the message handle set");
        s.MPI_ERROR = SENTINEL;
        CONF_CALL(&t, MPI_Wait(&req, &s));
        check_status(&t, &s, from, 1, SHORT, "MPI_Wait of MPI_Imrecv");
        if (payload) {
            CONF_CHECK(&t, holds(got_small, SHORT, 100L * from), "MPI_Imrecv: wrong data");
            CONF_CHECK(&t, holds(got_large, LONG, 1000000L * from), "MPI_Mrecv: wrong data");
        }
        CONF_CALL(&t, MPI_Waitall(4, sends, MPI_STATUSES_IGNORE));
    }

    /* MPI_PROC_NULL: a message from nobody, received as nothing. */
    s.MPI_ERROR = SENTINEL;
    CONF_CALL(&t, MPI_Mprobe(MPI_PROC_NULL, 4, MPI_COMM_WORLD, &none, &s));
    CONF_CHECK(&t, none == MPI_MESSAGE_NO_PROC && s.MPI_SOURCE == MPI_PROC_NULL && s.MPI_TAG == MPI_ANY_TAG,
               "MPI_Mprobe of MPI_PROC_NULL: source %d tag %d", s.MPI_SOURCE, s.MPI_TAG);
    got_small[0] = -9;
    s.MPI_ERROR = SENTINEL;
    CONF_CALL(&t, MPI_Mrecv(got_small, SHORT, MPI_LONG, &none, &s));
    check_status(&t, &s, MPI_PROC_NULL, MPI_ANY_TAG, 0, "MPI_Mrecv of MPI_MESSAGE_NO_PROC");
    CONF_CHECK(&t, none == MPI_MESSAGE_NULL && got_small[0] == -9, "MPI_Mrecv of MPI_MESSAGE_NO_PROC");
    CONF_CALL(&t, MPI_Improbe(MPI_PROC_NULL, 4, MPI_COMM_WORLD, &flag, &none, MPI_STATUS_IGNORE));
    CONF_CHECK(&t, flag && none == MPI_MESSAGE_NO_PROC, "MPI_Improbe of MPI_PROC_NULL");

    /* Fortran numbers, and a handle that names no matched message. */
    CONF_CHECK(&t, MPI_Message_f2c(MPI_Message_c2f(MPI_MESSAGE_NULL)) == MPI_MESSAGE_NULL,
               "MPI_MESSAGE_NULL does not survive MPI_Message_c2f / _f2c");
    /* (Under xsim only: Open MPI raises this error on MPI_COMM_NULL, whose handler is fatal.) */
    none = MPI_MESSAGE_NULL;
    if (conf_under_xsim())
        CONF_CHECK(&t, conf_error_class(MPI_Mrecv(got_small, SHORT, MPI_LONG, &none, MPI_STATUS_IGNORE)) == MPI_ERR_REQUEST,
                   "MPI_Mrecv of MPI_MESSAGE_NULL did not fail with MPI_ERR_REQUEST");
    free(small), free(large), free(got_small), free(got_large);
    return conf_finish(&t);
}
