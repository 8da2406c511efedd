// Communicator queries available for the predefined communicators: rank, size, name,
// error handlers and the predefined attributes.
#include <mpi.h>

#include <cstring>

#include "libxsim/bindings/checks.hpp"

using namespace xsim;

extern "C" {

int MPI_Comm_rank(MPI_Comm comm, int* rank) {
    XSIM_BEGIN_INITIALIZED("MPI_Comm_rank");
    const Comm* c = nullptr;
    if (int e = checks::comm(scope, comm, &c)) return e;
    if (int e = checks::pointer(scope, c, rank, "rank")) return e;
    *rank = c->rank_of(scope.rank);
    return MPI_SUCCESS;
}

int MPI_Comm_size(MPI_Comm comm, int* size) {
    XSIM_BEGIN_INITIALIZED("MPI_Comm_size");
    const Comm* c = nullptr;
    if (int e = checks::comm(scope, comm, &c)) return e;
    if (int e = checks::pointer(scope, c, size, "size")) return e;
    *size = c->size;
    return MPI_SUCCESS;
}

int MPI_Comm_get_name(MPI_Comm comm, char* name, int* resultlen) {
    XSIM_BEGIN_INITIALIZED("MPI_Comm_get_name");
    const Comm* c = nullptr;
    if (int e = checks::comm(scope, comm, &c)) return e;
    if (int e = checks::pointer(scope, c, name, "name")) return e;
    if (int e = checks::pointer(scope, c, resultlen, "resultlen")) return e;
    std::strncpy(name, c->name, MPI_MAX_OBJECT_NAME - 1);
    name[MPI_MAX_OBJECT_NAME - 1] = '\0';
    *resultlen = static_cast<int>(std::strlen(name));
    return MPI_SUCCESS;
}

int MPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler handler) {
    XSIM_BEGIN_INITIALIZED("MPI_Comm_set_errhandler");
    const Comm* c = nullptr;
    if (int e = checks::comm(scope, comm, &c)) return e;
    if (handler != MPI_ERRORS_RETURN && handler != MPI_ERRORS_ARE_FATAL)
        return scope.fail(c, MPI_ERR_ARG,
                          "only MPI_ERRORS_ARE_FATAL and MPI_ERRORS_RETURN are supported as error handlers");
    errhandler_slot(scope.rank, c) = handler;
    return MPI_SUCCESS;
}

int MPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler* handler) {
    XSIM_BEGIN_INITIALIZED("MPI_Comm_get_errhandler");
    const Comm* c = nullptr;
    if (int e = checks::comm(scope, comm, &c)) return e;
    if (int e = checks::pointer(scope, c, handler, "errhandler")) return e;
    *handler = errhandler_slot(scope.rank, c);
    return MPI_SUCCESS;
}

int MPI_Errhandler_free(MPI_Errhandler* handler) {
    XSIM_BEGIN_INITIALIZED("MPI_Errhandler_free");
    if (int e = checks::pointer(scope, nullptr, handler, "errhandler")) return e;
    *handler = MPI_ERRHANDLER_NULL;  // only predefined handlers exist: nothing to release
    return MPI_SUCCESS;
}

int MPI_Comm_get_attr(MPI_Comm comm, int keyval, void* value, int* flag) {
    XSIM_BEGIN_INITIALIZED("MPI_Comm_get_attr");
    const Comm* c = nullptr;
    if (int e = checks::comm(scope, comm, &c)) return e;
    if (int e = checks::pointer(scope, c, value, "attribute value")) return e;
    if (int e = checks::pointer(scope, c, flag, "flag")) return e;
    // Predefined attributes hold pointers to integers that live as long as the program.
    static int tag_ub = checks::kTagUpperBound;
    static int wtime_is_global = 0;  // every simulated rank has its own clock
    static int host = MPI_PROC_NULL;
    static int io = MPI_ANY_SOURCE;  // every rank can do I/O
    static int universe_size = 0;
    static int appnum = 0;
    static int last_used_code = MPI_ERR_LASTCODE;
    universe_size = g_engine->world_size();
    int* attribute = nullptr;
    if (keyval == MPI_TAG_UB) attribute = &tag_ub;
    else if (keyval == MPI_WTIME_IS_GLOBAL) attribute = &wtime_is_global;
    else if (keyval == MPI_HOST) attribute = &host;
    else if (keyval == MPI_IO) attribute = &io;
    else if (keyval == MPI_UNIVERSE_SIZE) attribute = &universe_size;
    else if (keyval == MPI_APPNUM) attribute = &appnum;
    else if (keyval == MPI_LASTUSEDCODE) attribute = &last_used_code;
    *flag = attribute != nullptr;
    if (attribute) *static_cast<int**>(value) = attribute;
    return MPI_SUCCESS;
}

}  // extern "C"
