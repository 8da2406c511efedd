/* Error detection: with MPI_ERRORS_RETURN, every invalid argument of point-to-point,
 * probe, completion, persistent and collective calls returns the class the standard
 * names (MPI_ERR_RANK, TAG, COUNT, COMM, TYPE (also for uncommitted types), OP, ROOT,
 * REQUEST, BUFFER, TRUNCATE, IN_STATUS; ARG for freeing MPI_ERRHANDLER_NULL),
 * MPI_Error_class / MPI_Error_string describe them,
 * and user classes and codes (MPI_Add_error_class/code/string) work.
 * Argument "fatal <case>": under the default MPI_ERRORS_ARE_FATAL, the last rank makes one
 * erroneous call (case rank, root, type or truncate); the run must end with a message naming
 * the call, the class and the simulated rank (checked by the test's regular expression). */
#include "conformance.h"

static int fatal_case(const char* which) {
    int rank, size, x[4] = {0, 0, 0, 0};
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == size - 1) {
        if (strcmp(which, "rank") == 0) MPI_Send(x, 1, MPI_INT, size + 5, 0, MPI_COMM_WORLD);
        if (strcmp(which, "type") == 0) {
            MPI_Datatype v;
            MPI_Type_vector(2, 1, 2, MPI_INT, &v);
            MPI_Send(x, 1, v, 0, 0, MPI_COMM_WORLD);
        }
        if (strcmp(which, "truncate") == 0) {
            MPI_Request r;
            MPI_Irecv(x, 1, MPI_INT, rank, 0, MPI_COMM_WORLD, &r);
            MPI_Send(x, 2, MPI_INT, rank, 0, MPI_COMM_WORLD);
            MPI_Wait(&r, MPI_STATUS_IGNORE);
        }
    }
    if (strcmp(which, "root") == 0) MPI_Bcast(x, 1, MPI_INT, rank == size - 1 ? -1 : 0, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    printf("FAIL err_classes: the erroneous call returned\n");
    MPI_Finalize();
    return 1;
}

int main(int argc, char** argv) {
    conf_t t;
    int x[8] = {0}, y[8] = {0}, flag = 0, to, from;
    MPI_Status s;
    MPI_Request r;
    MPI_Datatype uncommitted;
    MPI_Init(&argc, &argv);
    if (argc >= 3 && strcmp(argv[1], "fatal") == 0) return fatal_case(argv[2]);
    conf_init(&t, "err_classes");
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    to = (t.rank + 1) % t.size;
    from = (t.rank + t.size - 1) % t.size;
    MPI_Type_contiguous(2, MPI_INT, &uncommitted);

    /* Ranks. */
    CONF_EXPECT_CLASS(&t, MPI_ERR_RANK, MPI_Send(x, 1, MPI_INT, t.size, 0, MPI_COMM_WORLD));
    CONF_EXPECT_CLASS(&t, MPI_ERR_RANK, MPI_Send(x, 1, MPI_INT, -5, 0, MPI_COMM_WORLD));
    CONF_EXPECT_CLASS(&t, MPI_ERR_RANK, MPI_Send(x, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD));
    CONF_EXPECT_CLASS(&t, MPI_ERR_RANK, MPI_Isend(x, 1, MPI_INT, t.size, 0, MPI_COMM_WORLD, &r));
    CONF_EXPECT_CLASS(&t, MPI_ERR_RANK, MPI_Recv(x, 1, MPI_INT, t.size, 0, MPI_COMM_WORLD, &s));
    CONF_EXPECT_CLASS(&t, MPI_ERR_RANK, MPI_Irecv(x, 1, MPI_INT, -7, 0, MPI_COMM_WORLD, &r));
    CONF_EXPECT_CLASS(&t, MPI_ERR_RANK, MPI_Probe(t.size, 0, MPI_COMM_WORLD, &s));
    CONF_EXPECT_CLASS(&t, MPI_ERR_RANK, MPI_Iprobe(t.size, 0, MPI_COMM_WORLD, &flag, &s));
    CONF_EXPECT_CLASS(&t, MPI_ERR_RANK, MPI_Send(x, 1, MPI_INT, 1, 0, MPI_COMM_SELF));
    CONF_EXPECT_CLASS(&t, MPI_ERR_RANK, MPI_Sendrecv(x, 1, MPI_INT, t.size, 0, y, 1, MPI_INT, from, 0, MPI_COMM_WORLD, &s));
    CONF_EXPECT_CLASS(&t, MPI_ERR_RANK, MPI_Send_init(x, 1, MPI_INT, t.size, 0, MPI_COMM_WORLD, &r));
    /* Tags. */
    CONF_EXPECT_CLASS(&t, MPI_ERR_TAG, MPI_Send(x, 1, MPI_INT, to, -1, MPI_COMM_WORLD));
    CONF_EXPECT_CLASS(&t, MPI_ERR_TAG, MPI_Send(x, 1, MPI_INT, to, MPI_ANY_TAG, MPI_COMM_WORLD));
    CONF_EXPECT_CLASS(&t, MPI_ERR_TAG, MPI_Irecv(x, 1, MPI_INT, from, -3, MPI_COMM_WORLD, &r));
    CONF_EXPECT_CLASS(&t, MPI_ERR_TAG, MPI_Iprobe(from, -3, MPI_COMM_WORLD, &flag, &s));
    CONF_EXPECT_CLASS(&t, MPI_ERR_TAG, MPI_Probe(from, -3, MPI_COMM_WORLD, &s));
    CONF_EXPECT_CLASS(&t, MPI_ERR_TAG, MPI_Recv_init(x, 1, MPI_INT, from, -3, MPI_COMM_WORLD, &r));
    /* Counts. */
    CONF_EXPECT_CLASS(&t, MPI_ERR_COUNT, MPI_Send(x, -1, MPI_INT, to, 0, MPI_COMM_WORLD));
    CONF_EXPECT_CLASS(&t, MPI_ERR_COUNT, MPI_Irecv(x, -1, MPI_INT, from, 0, MPI_COMM_WORLD, &r));
    CONF_EXPECT_CLASS(&t, MPI_ERR_COUNT, MPI_Bcast(x, -1, MPI_INT, 0, MPI_COMM_WORLD));
    CONF_EXPECT_CLASS(&t, MPI_ERR_COUNT, MPI_Allreduce(x, y, -1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    /* A negative array length: MPI_ERR_COUNT (xsim) or MPI_ERR_ARG (other libraries). */
    flag = conf_error_class(MPI_Waitall(-1, &r, MPI_STATUSES_IGNORE));
    CONF_CHECK(&t, flag == MPI_ERR_COUNT || flag == MPI_ERR_ARG, "MPI_Waitall(-1): class %d", flag);
    flag = conf_error_class(MPI_Startall(-1, &r));
    CONF_CHECK(&t, flag == MPI_ERR_COUNT || flag == MPI_ERR_ARG, "MPI_Startall(-1): class %d", flag);
    { MPI_Datatype never; CONF_EXPECT_CLASS(&t, MPI_ERR_COUNT, MPI_Type_contiguous(-1, MPI_INT, &never)); }
    /* Freeing the null error handler: MPI_ERR_ARG, as Open MPI (mpi4py's test_exceptions). */
    { MPI_Errhandler none = MPI_ERRHANDLER_NULL; CONF_EXPECT_CLASS(&t, MPI_ERR_ARG, MPI_Errhandler_free(&none)); }
    /* Communicators. */
    CONF_EXPECT_CLASS(&t, MPI_ERR_COMM, MPI_Send(x, 1, MPI_INT, to, 0, MPI_COMM_NULL));
    CONF_EXPECT_CLASS(&t, MPI_ERR_COMM, MPI_Irecv(x, 1, MPI_INT, from, 0, MPI_COMM_NULL, &r));
    CONF_EXPECT_CLASS(&t, MPI_ERR_COMM, MPI_Probe(from, 0, MPI_COMM_NULL, &s));
    CONF_EXPECT_CLASS(&t, MPI_ERR_COMM, MPI_Iprobe(from, 0, MPI_COMM_NULL, &flag, &s));
    CONF_EXPECT_CLASS(&t, MPI_ERR_COMM, MPI_Barrier(MPI_COMM_NULL));
    CONF_EXPECT_CLASS(&t, MPI_ERR_COMM, MPI_Bcast(x, 1, MPI_INT, 0, MPI_COMM_NULL));
    CONF_EXPECT_CLASS(&t, MPI_ERR_COMM, MPI_Allreduce(x, y, 1, MPI_INT, MPI_SUM, MPI_COMM_NULL));
    CONF_EXPECT_CLASS(&t, MPI_ERR_COMM, MPI_Bsend_init(x, 1, MPI_INT, to, 0, MPI_COMM_NULL, &r));
    /* Datatypes: null and uncommitted. */
    CONF_EXPECT_CLASS(&t, MPI_ERR_TYPE, MPI_Send(x, 1, MPI_DATATYPE_NULL, to, 0, MPI_COMM_WORLD));
    CONF_EXPECT_CLASS(&t, MPI_ERR_TYPE, MPI_Send(x, 1, uncommitted, to, 0, MPI_COMM_WORLD));
    CONF_EXPECT_CLASS(&t, MPI_ERR_TYPE, MPI_Ssend(x, 1, uncommitted, to, 0, MPI_COMM_WORLD));
    CONF_EXPECT_CLASS(&t, MPI_ERR_TYPE, MPI_Recv(x, 1, uncommitted, from, 0, MPI_COMM_WORLD, &s));
    CONF_EXPECT_CLASS(&t, MPI_ERR_TYPE, MPI_Irecv(x, 1, MPI_DATATYPE_NULL, from, 0, MPI_COMM_WORLD, &r));
    CONF_EXPECT_CLASS(&t, MPI_ERR_TYPE, MPI_Send_init(x, 1, uncommitted, to, 0, MPI_COMM_WORLD, &r));
    CONF_EXPECT_CLASS(&t, MPI_ERR_TYPE, MPI_Bcast(x, 1, uncommitted, 0, MPI_COMM_WORLD));
    CONF_EXPECT_CLASS(&t, MPI_ERR_TYPE, MPI_Allreduce(x, y, 1, MPI_DATATYPE_NULL, MPI_SUM, MPI_COMM_WORLD));
    CONF_EXPECT_CLASS(&t, MPI_ERR_TYPE, MPI_Gather(x, 1, uncommitted, y, 1, MPI_INT, 0, MPI_COMM_WORLD));
    CONF_EXPECT_CLASS(&t, MPI_ERR_TYPE, MPI_Get_count(&s, MPI_DATATYPE_NULL, &flag));
    CONF_EXPECT_CLASS(&t, MPI_ERR_TYPE, MPI_Type_commit(&(MPI_Datatype){MPI_DATATYPE_NULL}));
    /* Operations. */
    CONF_EXPECT_CLASS(&t, MPI_ERR_OP, MPI_Allreduce(x, y, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD));
    CONF_EXPECT_CLASS(&t, MPI_ERR_OP, MPI_Reduce(x, y, 1, MPI_INT, MPI_MINLOC, 0, MPI_COMM_WORLD));
    CONF_EXPECT_CLASS(&t, MPI_ERR_OP, MPI_Scan(x, y, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD));
    /* Roots. */
    CONF_EXPECT_CLASS(&t, MPI_ERR_ROOT, MPI_Bcast(x, 1, MPI_INT, t.size, MPI_COMM_WORLD));
    CONF_EXPECT_CLASS(&t, MPI_ERR_ROOT, MPI_Bcast(x, 1, MPI_INT, -1, MPI_COMM_WORLD));
    CONF_EXPECT_CLASS(&t, MPI_ERR_ROOT, MPI_Reduce(x, y, 1, MPI_INT, MPI_SUM, t.size, MPI_COMM_WORLD));
    CONF_EXPECT_CLASS(&t, MPI_ERR_ROOT, MPI_Gather(x, 1, MPI_INT, y, 1, MPI_INT, -2, MPI_COMM_WORLD));
    CONF_EXPECT_CLASS(&t, MPI_ERR_ROOT, MPI_Scatter(x, 1, MPI_INT, y, 1, MPI_INT, t.size, MPI_COMM_WORLD));
    /* Requests: null where a request is needed, and a handle that is no request. */
    {
        MPI_Request none = MPI_REQUEST_NULL;
        union {
            double align;
            char bytes[256];
        } not_a_request;
        MPI_Request bogus = (MPI_Request)(void*)&not_a_request;
        memset(&not_a_request, 0, sizeof not_a_request);
        CONF_EXPECT_CLASS(&t, MPI_ERR_REQUEST, MPI_Start(&none));
        CONF_EXPECT_CLASS(&t, MPI_ERR_REQUEST, MPI_Request_free(&none));
        CONF_EXPECT_CLASS(&t, MPI_ERR_REQUEST, MPI_Wait(&bogus, &s));
        CONF_EXPECT_CLASS(&t, MPI_ERR_REQUEST, MPI_Test(&bogus, &flag, &s));
        CONF_EXPECT_CLASS(&t, MPI_ERR_REQUEST, MPI_Waitall(1, &bogus, MPI_STATUSES_IGNORE));
        CONF_EXPECT_CLASS(&t, MPI_ERR_REQUEST, MPI_Cancel(&bogus));
        CONF_EXPECT_CLASS(&t, MPI_SUCCESS, MPI_Wait(&none, &s)); /* a null request is simply complete */
    }
    /* Buffers. */
    CONF_EXPECT_CLASS(&t, MPI_ERR_BUFFER, MPI_Send(NULL, 4, MPI_INT, to, 0, MPI_COMM_WORLD)); /* checked with payloads on */
    CONF_EXPECT_CLASS(&t, MPI_ERR_BUFFER, MPI_Bsend(x, 1, MPI_INT, to, 0, MPI_COMM_WORLD)); /* none attached */
    CONF_EXPECT_CLASS(&t, MPI_ERR_BUFFER, MPI_Allreduce(x, MPI_IN_PLACE, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    /* Truncation, and MPI_ERR_IN_STATUS with the class in the failed request's status. */
    {
        MPI_Request rr[2];
        MPI_Status ss[2];
        CONF_EXPECT_CLASS(&t, MPI_SUCCESS, MPI_Irecv(y, 1, MPI_INT, from, 40, MPI_COMM_WORLD, &rr[0]));
        CONF_EXPECT_CLASS(&t, MPI_SUCCESS, MPI_Isend(x, 3, MPI_INT, to, 40, MPI_COMM_WORLD, &rr[1]));
        CONF_EXPECT_CLASS(&t, MPI_ERR_IN_STATUS, MPI_Waitall(2, rr, ss));
        CONF_CHECK(&t, ss[0].MPI_ERROR == MPI_ERR_TRUNCATE, "status of the truncated receive: %d", ss[0].MPI_ERROR);
        CONF_EXPECT_CLASS(&t, MPI_SUCCESS, MPI_Isend(x, 3, MPI_INT, to, 41, MPI_COMM_WORLD, &rr[1]));
        CONF_EXPECT_CLASS(&t, MPI_ERR_TRUNCATE, MPI_Recv(y, 2, MPI_INT, from, 41, MPI_COMM_WORLD, &s));
        CONF_EXPECT_CLASS(&t, MPI_SUCCESS, MPI_Wait(&rr[1], MPI_STATUS_IGNORE));
    }
    /* Error classes and strings; user-defined classes and codes. */
    {
        const int classes[] = {MPI_ERR_RANK, MPI_ERR_TAG, MPI_ERR_COUNT, MPI_ERR_COMM, MPI_ERR_TYPE, MPI_ERR_OP,
                               MPI_ERR_ROOT, MPI_ERR_REQUEST, MPI_ERR_BUFFER, MPI_ERR_TRUNCATE, MPI_ERR_IN_STATUS};
        char text[MPI_MAX_ERROR_STRING];
        int i, len, cls, code, mine;
        int* last;
        for (i = 0; i < (int)(sizeof classes / sizeof classes[0]); i++) {
            len = 0;
            CONF_CALL(&t, MPI_Error_string(classes[i], text, &len));
            CONF_CHECK(&t, len > 0 && (int)strlen(text) == len, "MPI_Error_string(%d) empty", classes[i]);
            CONF_CALL(&t, MPI_Error_class(classes[i], &cls));
            CONF_CHECK(&t, cls == classes[i], "MPI_Error_class(%d) = %d", classes[i], cls);
        }
        CONF_CALL(&t, MPI_Add_error_class(&mine));
        CONF_CALL(&t, MPI_Add_error_code(mine, &code));
        CONF_CALL(&t, MPI_Add_error_string(code, "xsim test: my error"));
        CONF_CALL(&t, MPI_Error_class(code, &cls));
        CONF_CHECK(&t, cls == mine, "class of a user code: %d, expected %d", cls, mine);
        CONF_CALL(&t, MPI_Error_string(code, text, &len));
        CONF_CHECK(&t, strcmp(text, "xsim test: my error") == 0, "user error string '%s'", text);
        /* MPI_LASTUSEDCODE follows the classes and codes added (MPI-4.0 9.5). */
        last = NULL;
        flag = 0;
        CONF_CALL(&t, MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &last, &flag));
        CONF_CHECK(&t, flag && last && *last >= code && *last >= mine && *last > MPI_ERR_LASTCODE,
                   "MPI_LASTUSEDCODE %d after adding class %d and code %d", flag && last ? *last : -1, mine, code);
    }
    MPI_Type_free(&uncommitted);
    return conf_finish(&t);
}
