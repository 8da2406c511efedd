#include "libxsim/engine/errors.hpp"

#include <cstdint>
#include <cstdio>

#include "libxsim/engine/call_scope.hpp"
#include "libxsim/mpi/comm.hpp"
#include "libxsim/engine/engine.hpp"

namespace xsim {

const char* error_class_name(int c) {
    switch (c) {
        case MPI_SUCCESS: return "MPI_SUCCESS";
        case MPI_ERR_BUFFER: return "MPI_ERR_BUFFER";
        case MPI_ERR_COUNT: return "MPI_ERR_COUNT";
        case MPI_ERR_TYPE: return "MPI_ERR_TYPE";
        case MPI_ERR_TAG: return "MPI_ERR_TAG";
        case MPI_ERR_COMM: return "MPI_ERR_COMM";
        case MPI_ERR_RANK: return "MPI_ERR_RANK";
        case MPI_ERR_REQUEST: return "MPI_ERR_REQUEST";
        case MPI_ERR_ROOT: return "MPI_ERR_ROOT";
        case MPI_ERR_GROUP: return "MPI_ERR_GROUP";
        case MPI_ERR_OP: return "MPI_ERR_OP";
        case MPI_ERR_TOPOLOGY: return "MPI_ERR_TOPOLOGY";
        case MPI_ERR_DIMS: return "MPI_ERR_DIMS";
        case MPI_ERR_ARG: return "MPI_ERR_ARG";
        case MPI_ERR_UNKNOWN: return "MPI_ERR_UNKNOWN";
        case MPI_ERR_TRUNCATE: return "MPI_ERR_TRUNCATE";
        case MPI_ERR_OTHER: return "MPI_ERR_OTHER";
        case MPI_ERR_INTERN: return "MPI_ERR_INTERN";
        case MPI_ERR_IN_STATUS: return "MPI_ERR_IN_STATUS";
        case MPI_ERR_PENDING: return "MPI_ERR_PENDING";
        case MPI_ERR_UNSUPPORTED_OPERATION: return "MPI_ERR_UNSUPPORTED_OPERATION";
        case MPI_ERR_FILE: return "MPI_ERR_FILE";
        case MPI_ERR_NO_SUCH_FILE: return "MPI_ERR_NO_SUCH_FILE";
        case MPI_ERR_FILE_EXISTS: return "MPI_ERR_FILE_EXISTS";
        case MPI_ERR_FILE_IN_USE: return "MPI_ERR_FILE_IN_USE";
        case MPI_ERR_AMODE: return "MPI_ERR_AMODE";
        case MPI_ERR_ACCESS: return "MPI_ERR_ACCESS";
        case MPI_ERR_READ_ONLY: return "MPI_ERR_READ_ONLY";
        case MPI_ERR_NO_SPACE: return "MPI_ERR_NO_SPACE";
        case MPI_ERR_QUOTA: return "MPI_ERR_QUOTA";
        case MPI_ERR_BAD_FILE: return "MPI_ERR_BAD_FILE";
        case MPI_ERR_IO: return "MPI_ERR_IO";
        case MPI_ERR_DUP_DATAREP: return "MPI_ERR_DUP_DATAREP";
        case MPI_ERR_UNSUPPORTED_DATAREP: return "MPI_ERR_UNSUPPORTED_DATAREP";
        case MPI_ERR_CONVERSION: return "MPI_ERR_CONVERSION";
        case MPI_ERR_NOT_SAME: return "MPI_ERR_NOT_SAME";
        case MPI_ERR_INFO: return "MPI_ERR_INFO";
        case MPI_ERR_WIN: return "MPI_ERR_WIN";
        case MPI_ERR_RMA_SYNC: return "MPI_ERR_RMA_SYNC";
        case MPI_ERR_RMA_RANGE: return "MPI_ERR_RMA_RANGE";
        case MPI_ERR_RMA_FLAVOR: return "MPI_ERR_RMA_FLAVOR";
        case MPI_ERR_RMA_CONFLICT: return "MPI_ERR_RMA_CONFLICT";
        case MPI_ERR_RMA_ATTACH: return "MPI_ERR_RMA_ATTACH";
        case MPI_ERR_RMA_SHARED: return "MPI_ERR_RMA_SHARED";
        case MPI_ERR_LOCKTYPE: return "MPI_ERR_LOCKTYPE";
        case MPI_ERR_ASSERT: return "MPI_ERR_ASSERT";
        case MPI_ERR_BASE: return "MPI_ERR_BASE";
        case MPI_ERR_DISP: return "MPI_ERR_DISP";
        case MPI_ERR_SIZE: return "MPI_ERR_SIZE";
        case MPI_ERR_NO_MEM: return "MPI_ERR_NO_MEM";
        case MPI_ERR_KEYVAL: return "MPI_ERR_KEYVAL";
        default: return "MPI error";
    }
}

MPI_Errhandler& errhandler_slot(Rank& rank, const Comm* comm) {
    if (comm && comm->kind == CommKind::Derived) return comm->errhandler;
    if (comm && comm->kind == CommKind::Self) return rank.self_errhandler;
    return rank.world_errhandler;
}

MPI_Errhandler create_user_errhandler(MPI_Comm_errhandler_function* function) {
    auto* h = new UserErrhandler;  // handles are few and may stay attached: never freed
    h->function = function;
    return reinterpret_cast<MPI_Errhandler>(h);
}

UserErrhandler* resolve_user_errhandler(MPI_Errhandler handle) {
    if (handle == MPI_ERRHANDLER_NULL || reinterpret_cast<std::uintptr_t>(handle) % alignof(UserErrhandler) != 0)
        return nullptr;
    auto* h = reinterpret_cast<UserErrhandler*>(handle);
    return h->magic == UserErrhandler::kMagic ? h : nullptr;
}

namespace {

// A communicator as an error message names it: its name, or what it is when it has none.
std::string communicator_label(const Comm& comm, const Rank& rank) {
    const char* name = comm_name(comm, rank);
    return *name ? name : "without a name, of " + std::to_string(comm.size) + " ranks";
}

}  // namespace

int raise(Rank& rank, const Comm* comm, const char* call, int error_class, const std::string& detail) {
    return raise(rank, comm, call, error_class, detail, error_class);
}

int apply_errhandler(Rank& rank, const char* call, MPI_Errhandler handler, void* object_handle, int error_class,
                     int error_code, const std::string& detail, const std::string& object) {
    if (handler == MPI_ERRORS_RETURN) return error_class;
    if (UserErrhandler* user = resolve_user_errhandler(handler)) {
        // The standard passes the object's handle and the error code; the handler may
        // return, and then so does the call, with the error. The window and file handler
        // types differ from the communicator's only in the handle they point to.
        MPI_Comm handle = static_cast<MPI_Comm>(object_handle);
        int code = error_code;
        // The handler is application code: it runs on its rank's globals.
        runtime::Privatization::ForRank owner(g_engine->privatization(), g_engine->local_index(rank),
                                              g_engine->current() != nullptr);
        g_engine->privatization().load_for_callback();
        user->function(&handle, &code, call);
        return error_class;
    }
    char where[160];
    std::snprintf(where, sizeof where, "%s on simulated rank %d (virtual time %.9f s): ", call, rank.world,
                  simtime_to_seconds(rank.clock));
    g_engine->abort_run(error_class,
                        std::string("error in ") + where + error_class_name(error_class) + ": " + detail + object);
}

int raise(Rank& rank, const Comm* comm, const char* call, int error_class, const std::string& detail,
          int error_code) {
    return apply_errhandler(rank, call, errhandler_slot(rank, comm),
                            comm_handle(comm ? comm : &g_engine->world_comm()), error_class, error_code, detail,
                            comm ? " [communicator " + communicator_label(*comm, rank) + "]" : "");
}

}  // namespace xsim
