/* Generalized requests (MPI-4.0 section 13.2): MPI_Grequest_start / MPI_Grequest_complete
 * with every completion call -- Wait, Test, Waitall, Waitany, Waitsome, Testall, Testany,
 * Testsome, Request_get_status -- alone and mixed with point-to-point requests. The status
 * is what query_fn fills in; query_fn runs when a completion call completes the request
 * (and for Request_get_status, which frees nothing), free_fn after it, or at
 * MPI_Request_free / MPI_Grequest_complete, whichever comes last; MPI_Cancel calls
 * cancel_fn with whether the request is complete; an error query_fn returns is the call's
 * (MPI_ERR_IN_STATUS with it in the status for the multiple-completion calls).
 *   grequest            the checks above
 *   grequest deadlock   rank 0 waits for a generalized request it never completes: xsim
 *                       reports a deadlock naming it (a real library would hang). */
#include "conformance.h"

/* Per-request state (extra_state), on the rank's stack: no globals under xsim. */
typedef struct {
    int queries, frees, cancels, cancel_saw_complete;
    int tag;          /* what query_fn reports as MPI_TAG */
    int query_error;  /* what query_fn returns */
} greq_t;

static int query_fn(void* extra, MPI_Status* status) {
    greq_t* g = (greq_t*)extra;
    g->queries++;
    status->MPI_SOURCE = 5;
    status->MPI_TAG = g->tag;
    MPI_Status_set_elements(status, MPI_INT, 3);
    MPI_Status_set_cancelled(status, g->cancels > 0);
    return g->query_error;
}
static int free_fn(void* extra) {
    ((greq_t*)extra)->frees++;
    return MPI_SUCCESS;
}
static int cancel_fn(void* extra, int complete) {
    greq_t* g = (greq_t*)extra;
    g->cancels++;
    g->cancel_saw_complete = complete;
    return MPI_SUCCESS;
}

static void start(conf_t* t, greq_t* g, int tag, MPI_Request* r) {
    memset(g, 0, sizeof *g);
    g->tag = tag;
    CONF_CALL(t, MPI_Grequest_start(query_fn, free_fn, cancel_fn, g, r));
}

/* The status query_fn described (source 5, the request's tag, 3 ints). */
static void check_status(conf_t* t, const char* what, const MPI_Status* s, int tag) {
    int count = -1;
    MPI_Get_count(s, MPI_INT, &count);
    CONF_CHECK(t, s->MPI_SOURCE == 5 && s->MPI_TAG == tag && count == 3,
               "%s: status source %d tag %d count %d, expected 5, %d, 3", what, s->MPI_SOURCE, s->MPI_TAG, count, tag);
}
static void check_calls(conf_t* t, const char* what, const greq_t* g, int queries, int frees) {
    CONF_CHECK(t, g->queries == queries && g->frees == frees, "%s: query_fn called %d times, free_fn %d, expected %d and %d",
               what, g->queries, g->frees, queries, frees);
}

int main(int argc, char** argv) {
    conf_t t;
    greq_t g[3];
    MPI_Request r[3];
    MPI_Status st[3];
    int flag = -1, index = -1, outcount = -1, indices[3], left, right, i, sent, got = -1, cancelled = 0;
    MPI_Init(&argc, &argv);
    conf_init(&t, "grequest");
    if (argc > 1 && strcmp(argv[1], "deadlock") == 0) {
        if (t.rank == 0) {
            start(&t, &g[0], 1, &r[0]);
            MPI_Wait(&r[0], MPI_STATUS_IGNORE);  /* nobody can complete it now */
        }
        return conf_finish(&t);
    }
    left = (t.rank + t.size - 1) % t.size;
    right = (t.rank + 1) % t.size;
    sent = t.rank;

    /* MPI_Wait: query_fn fills the status, then free_fn; the handle becomes null. */
    start(&t, &g[0], 10, &r[0]);
    CONF_CALL(&t, MPI_Grequest_complete(r[0]));
    check_calls(&t, "MPI_Grequest_complete", &g[0], 0, 0);
    CONF_CALL(&t, MPI_Wait(&r[0], &st[0]));
    check_status(&t, "MPI_Wait", &st[0], 10);
    check_calls(&t, "MPI_Wait", &g[0], 1, 1);
    CONF_CHECK(&t, r[0] == MPI_REQUEST_NULL, "MPI_Wait left the generalized request's handle set");

    /* MPI_Test before and after completion; MPI_STATUS_IGNORE still gets query_fn called. */
    start(&t, &g[0], 11, &r[0]);
    CONF_CALL(&t, MPI_Test(&r[0], &flag, &st[0]));
    CONF_CHECK(&t, flag == 0, "MPI_Test: an incomplete generalized request tested complete");
    check_calls(&t, "MPI_Test (incomplete)", &g[0], 0, 0);
    CONF_CALL(&t, MPI_Grequest_complete(r[0]));
    CONF_CALL(&t, MPI_Test(&r[0], &flag, MPI_STATUS_IGNORE));
    CONF_CHECK(&t, flag == 1 && r[0] == MPI_REQUEST_NULL, "MPI_Test: a complete generalized request tested incomplete");
    check_calls(&t, "MPI_Test", &g[0], 1, 1);

    /* MPI_Request_get_status: the status, without freeing; then MPI_Wait frees. */
    start(&t, &g[0], 12, &r[0]);
    CONF_CALL(&t, MPI_Request_get_status(r[0], &flag, &st[0]));
    CONF_CHECK(&t, flag == 0, "MPI_Request_get_status: incomplete request reported complete");
    CONF_CALL(&t, MPI_Grequest_complete(r[0]));
    CONF_CALL(&t, MPI_Request_get_status(r[0], &flag, &st[0]));
    CONF_CHECK(&t, flag == 1, "MPI_Request_get_status: complete request reported incomplete");
    check_status(&t, "MPI_Request_get_status", &st[0], 12);
    check_calls(&t, "MPI_Request_get_status", &g[0], 1, 0);
    CONF_CALL(&t, MPI_Wait(&r[0], MPI_STATUS_IGNORE));
    check_calls(&t, "MPI_Wait after MPI_Request_get_status", &g[0], 2, 1);

    /* MPI_Waitall with point-to-point requests: a ring exchange and a generalized request. */
    start(&t, &g[0], 13, &r[0]);
    CONF_CALL(&t, MPI_Irecv(&got, 1, MPI_INT, left, 3, MPI_COMM_WORLD, &r[1]));
    CONF_CALL(&t, MPI_Isend(&sent, 1, MPI_INT, right, 3, MPI_COMM_WORLD, &r[2]));
    CONF_CALL(&t, MPI_Grequest_complete(r[0]));
    CONF_CALL(&t, MPI_Waitall(3, r, st));
    check_status(&t, "MPI_Waitall", &st[0], 13);
    check_calls(&t, "MPI_Waitall", &g[0], 1, 1);
    CONF_CHECK(&t, got == left && st[1].MPI_SOURCE == left, "MPI_Waitall: received %d from %d, expected %d", got,
               st[1].MPI_SOURCE, left);

    /* MPI_Waitany: the receive completes while the generalized request is pending. */
    start(&t, &g[0], 14, &r[0]);
    CONF_CALL(&t, MPI_Irecv(&got, 1, MPI_INT, left, 4, MPI_COMM_WORLD, &r[1]));
    CONF_CALL(&t, MPI_Send(&sent, 1, MPI_INT, right, 4, MPI_COMM_WORLD));
    CONF_CALL(&t, MPI_Waitany(2, r, &index, &st[0]));
    CONF_CHECK(&t, index == 1, "MPI_Waitany returned index %d, expected the receive (1)", index);
    check_calls(&t, "MPI_Waitany (pending)", &g[0], 0, 0);
    CONF_CALL(&t, MPI_Grequest_complete(r[0]));
    CONF_CALL(&t, MPI_Waitany(2, r, &index, &st[0]));
    CONF_CHECK(&t, index == 0, "MPI_Waitany returned index %d, expected the generalized request (0)", index);
    check_status(&t, "MPI_Waitany", &st[0], 14);
    check_calls(&t, "MPI_Waitany", &g[0], 1, 1);

    /* MPI_Waitsome and MPI_Testsome: only the completed ones are returned. */
    start(&t, &g[0], 15, &r[0]);
    start(&t, &g[1], 16, &r[1]);
    CONF_CALL(&t, MPI_Testsome(2, r, &outcount, indices, st));
    CONF_CHECK(&t, outcount == 0, "MPI_Testsome: %d incomplete requests returned", outcount);
    CONF_CALL(&t, MPI_Grequest_complete(r[1]));
    CONF_CALL(&t, MPI_Waitsome(2, r, &outcount, indices, st));
    CONF_CHECK(&t, outcount == 1 && indices[0] == 1, "MPI_Waitsome: outcount %d index %d, expected 1 and 1", outcount,
               indices[0]);
    check_status(&t, "MPI_Waitsome", &st[0], 16);
    check_calls(&t, "MPI_Waitsome (pending one)", &g[0], 0, 0);
    check_calls(&t, "MPI_Waitsome", &g[1], 1, 1);
    CONF_CALL(&t, MPI_Grequest_complete(r[0]));
    CONF_CALL(&t, MPI_Testsome(2, r, &outcount, indices, st));
    CONF_CHECK(&t, outcount == 1 && indices[0] == 0, "MPI_Testsome: outcount %d index %d, expected 1 and 0", outcount,
               indices[0]);
    check_status(&t, "MPI_Testsome", &st[0], 15);
    check_calls(&t, "MPI_Testsome", &g[0], 1, 1);

    /* MPI_Testall: nothing is completed (no query_fn) until all are complete. */
    start(&t, &g[0], 17, &r[0]);
    start(&t, &g[1], 18, &r[1]);
    CONF_CALL(&t, MPI_Grequest_complete(r[0]));
    CONF_CALL(&t, MPI_Testall(2, r, &flag, st));
    CONF_CHECK(&t, flag == 0, "MPI_Testall: complete while one request is pending");
    check_calls(&t, "MPI_Testall (one pending)", &g[0], 0, 0);
    CONF_CALL(&t, MPI_Grequest_complete(r[1]));
    CONF_CALL(&t, MPI_Testall(2, r, &flag, st));
    CONF_CHECK(&t, flag == 1, "MPI_Testall: incomplete after both completed");
    check_status(&t, "MPI_Testall[0]", &st[0], 17);
    check_status(&t, "MPI_Testall[1]", &st[1], 18);
    check_calls(&t, "MPI_Testall[0]", &g[0], 1, 1);
    check_calls(&t, "MPI_Testall[1]", &g[1], 1, 1);

    /* MPI_Testany. */
    start(&t, &g[0], 19, &r[0]);
    CONF_CALL(&t, MPI_Testany(1, r, &index, &flag, &st[0]));
    CONF_CHECK(&t, flag == 0 && index == MPI_UNDEFINED, "MPI_Testany: flag %d index %d for a pending request", flag, index);
    CONF_CALL(&t, MPI_Grequest_complete(r[0]));
    CONF_CALL(&t, MPI_Testany(1, r, &index, &flag, &st[0]));
    CONF_CHECK(&t, flag == 1 && index == 0, "MPI_Testany: flag %d index %d for a complete request", flag, index);
    check_status(&t, "MPI_Testany", &st[0], 19);
    check_calls(&t, "MPI_Testany", &g[0], 1, 1);

    /* MPI_Cancel calls cancel_fn with whether the request is complete. */
    start(&t, &g[0], 20, &r[0]);
    CONF_CALL(&t, MPI_Cancel(&r[0]));
    CONF_CHECK(&t, g[0].cancels == 1 && g[0].cancel_saw_complete == 0, "MPI_Cancel (pending): cancel_fn %d calls, complete %d",
               g[0].cancels, g[0].cancel_saw_complete);
    CONF_CALL(&t, MPI_Grequest_complete(r[0]));
    CONF_CALL(&t, MPI_Cancel(&r[0]));
    CONF_CHECK(&t, g[0].cancels == 2 && g[0].cancel_saw_complete == 1, "MPI_Cancel (complete): cancel_fn %d calls, complete %d",
               g[0].cancels, g[0].cancel_saw_complete);
    CONF_CALL(&t, MPI_Wait(&r[0], &st[0]));
    CONF_CALL(&t, MPI_Test_cancelled(&st[0], &cancelled));
    CONF_CHECK(&t, cancelled == 1, "the status query_fn marked cancelled does not test cancelled");

    /* MPI_Request_free: free_fn runs at MPI_Grequest_complete or MPI_Request_free, whichever is last. */
    start(&t, &g[0], 21, &r[0]);
    {
        MPI_Request keep = r[0];
        CONF_CALL(&t, MPI_Request_free(&r[0]));
        CONF_CHECK(&t, r[0] == MPI_REQUEST_NULL, "MPI_Request_free left the handle set");
        check_calls(&t, "MPI_Request_free (pending)", &g[0], 0, 0);
        CONF_CALL(&t, MPI_Grequest_complete(keep));
        check_calls(&t, "MPI_Grequest_complete after MPI_Request_free", &g[0], 0, 1);
    }
    start(&t, &g[0], 22, &r[0]);
    CONF_CALL(&t, MPI_Grequest_complete(r[0]));
    CONF_CALL(&t, MPI_Request_free(&r[0]));
    check_calls(&t, "MPI_Request_free (complete)", &g[0], 0, 1);

    /* An error from query_fn is the call's error; in MPI_Waitall, MPI_ERR_IN_STATUS. */
    start(&t, &g[0], 23, &r[0]);
    g[0].query_error = MPI_ERR_OTHER;
    CONF_CALL(&t, MPI_Grequest_complete(r[0]));
    CONF_EXPECT_CLASS(&t, MPI_ERR_OTHER, MPI_Wait(&r[0], &st[0]));
    check_calls(&t, "MPI_Wait (query_fn failed)", &g[0], 1, 1);
    start(&t, &g[0], 24, &r[0]);
    start(&t, &g[1], 25, &r[1]);
    g[1].query_error = MPI_ERR_OTHER;
    CONF_CALL(&t, MPI_Grequest_complete(r[0]));
    CONF_CALL(&t, MPI_Grequest_complete(r[1]));
    CONF_EXPECT_CLASS(&t, MPI_ERR_IN_STATUS, MPI_Waitall(2, r, st));
    CONF_CHECK(&t, st[0].MPI_ERROR == MPI_SUCCESS && conf_error_class(st[1].MPI_ERROR) == MPI_ERR_OTHER,
               "MPI_Waitall: status errors %d and %d, expected MPI_SUCCESS and MPI_ERR_OTHER", st[0].MPI_ERROR,
               st[1].MPI_ERROR);
    for (i = 0; i < 2; i++) check_calls(&t, "MPI_Waitall (query_fn failed)", &g[i], 1, 1);
    return conf_finish(&t);
}
