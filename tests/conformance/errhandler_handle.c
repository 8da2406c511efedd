/* A user error handler is handed the communicator handle the application used
 * (MPI-4.0 section 9.3.1: "the first argument is the communicator in use"):
 * MPI_COMM_WORLD and MPI_COMM_SELF themselves, not some internal handle, both from
 * MPI_Comm_call_errhandler and from an error raised by a failing call; a communicator
 * from MPI_Comm_dup gets its own handle. The handler records what it saw in the name of
 * the communicator it was given (no globals under xsim), with the error code. A code of the
 * application's own (MPI_Add_error_code) reaches the handler as it is, not as its class. */
#include "conformance.h"

static void record(MPI_Comm* comm, int* code, ...) {
    char name[MPI_MAX_OBJECT_NAME];
    const char* which = *comm == MPI_COMM_WORLD ? "world" : *comm == MPI_COMM_SELF ? "self" : "other";
    int cls = MPI_SUCCESS;
    MPI_Error_class(*code, &cls);
    snprintf(name, sizeof name, "%s %d", which, cls);
    MPI_Comm_set_name(*comm, name);
}

static void record_code(MPI_Comm* comm, int* code, ...) {
    char name[MPI_MAX_OBJECT_NAME];
    snprintf(name, sizeof name, "code %d", *code);
    MPI_Comm_set_name(*comm, name);
}

/* Runs `call` on `comm`'s handler and checks the name the handler left on `comm`. */
static void expect_name(conf_t* t, const char* what, MPI_Comm comm, const char* want) {
    char name[MPI_MAX_OBJECT_NAME];
    int len = 0;
    MPI_Comm_get_name(comm, name, &len);
    CONF_CHECK(t, strcmp(name, want) == 0, "%s: the handler left the name '%s', expected '%s'", what, name, want);
}

int main(int argc, char** argv) {
    conf_t t;
    MPI_Errhandler handler, code_handler;
    MPI_Comm dup;
    char want[64];
    int own_class = 0, own_code = 0;
    int value = 0;
    MPI_Init(&argc, &argv);
    conf_init(&t, "errhandler_handle");
    CONF_CALL(&t, MPI_Comm_create_errhandler(record, &handler));
    CONF_CALL(&t, MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CONF_CALL(&t, MPI_Comm_set_errhandler(MPI_COMM_WORLD, handler));
    CONF_CALL(&t, MPI_Comm_set_errhandler(MPI_COMM_SELF, handler));
    CONF_CALL(&t, MPI_Comm_set_errhandler(dup, handler));

    CONF_CALL(&t, MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_OTHER));
    snprintf(want, sizeof want, "world %d", MPI_ERR_OTHER);
    expect_name(&t, "MPI_Comm_call_errhandler(MPI_COMM_WORLD)", MPI_COMM_WORLD, want);
    CONF_CALL(&t, MPI_Comm_call_errhandler(MPI_COMM_SELF, MPI_ERR_ARG));
    snprintf(want, sizeof want, "self %d", MPI_ERR_ARG);
    expect_name(&t, "MPI_Comm_call_errhandler(MPI_COMM_SELF)", MPI_COMM_SELF, want);
    CONF_CALL(&t, MPI_Comm_call_errhandler(dup, MPI_ERR_COUNT));
    snprintf(want, sizeof want, "other %d", MPI_ERR_COUNT);
    expect_name(&t, "MPI_Comm_call_errhandler(dup)", dup, want);
    CONF_CALL(&t, MPI_Add_error_class(&own_class));
    CONF_CALL(&t, MPI_Add_error_code(own_class, &own_code));
    CONF_CALL(&t, MPI_Comm_create_errhandler(record_code, &code_handler));
    CONF_CALL(&t, MPI_Comm_set_errhandler(dup, code_handler));
    CONF_CALL(&t, MPI_Comm_call_errhandler(dup, own_code));
    snprintf(want, sizeof want, "code %d", own_code);
    expect_name(&t, "MPI_Comm_call_errhandler(dup, an added code)", dup, want);
    CONF_CALL(&t, MPI_Comm_call_errhandler(dup, MPI_ERR_TAG));
    snprintf(want, sizeof want, "code %d", MPI_ERR_TAG);
    expect_name(&t, "MPI_Comm_call_errhandler(dup, MPI_ERR_TAG)", dup, want);
    CONF_CALL(&t, MPI_Comm_set_errhandler(dup, handler));
    CONF_CALL(&t, MPI_Errhandler_free(&code_handler));

    /* Errors of calls: a destination rank out of range, a negative count. */
    MPI_Send(&value, 1, MPI_INT, t.size, 0, MPI_COMM_WORLD);
    snprintf(want, sizeof want, "world %d", MPI_ERR_RANK);
    expect_name(&t, "MPI_Send on MPI_COMM_WORLD", MPI_COMM_WORLD, want);
    MPI_Bcast(&value, -1, MPI_INT, 0, MPI_COMM_SELF);
    snprintf(want, sizeof want, "self %d", MPI_ERR_COUNT);
    expect_name(&t, "MPI_Bcast on MPI_COMM_SELF", MPI_COMM_SELF, want);

    CONF_CALL(&t, MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CONF_CALL(&t, MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    CONF_CALL(&t, MPI_Errhandler_free(&handler));
    CONF_CALL(&t, MPI_Comm_free(&dup));
    return conf_finish(&t);
}
