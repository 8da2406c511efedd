// MPI error reporting: every binding returns through raise(), which applies the error
// handler of the communicator involved (MPI_ERRORS_ARE_FATAL by default: print the call,
// the error class and the simulated rank, then end the run; MPI_ERRORS_RETURN: return
// the error class).
#pragma once
#include <mpi.h>

#include <string>

namespace xsim {

struct Rank;
struct Comm;

const char* error_class_name(int error_class);

// The handler the calling rank has attached to `comm` (null comm: MPI_COMM_WORLD's).
MPI_Errhandler& errhandler_slot(Rank& rank, const Comm* comm);

// Error handlers made by MPI_Comm_create_errhandler (MPI_Errhandler points to one).
struct UserErrhandler {
    static constexpr unsigned kMagic = 0x78657268;  // "xerh"
    unsigned magic = kMagic;
    MPI_Comm_errhandler_function* function = nullptr;
};
MPI_Errhandler create_user_errhandler(MPI_Comm_errhandler_function* function);
UserErrhandler* resolve_user_errhandler(MPI_Errhandler handle);  // null for predefined ones

// What the error reporting of communicators, windows and files shares: `handler`, the error
// handler of the object the failed `call` of `rank` was on, applied. MPI_ERRORS_RETURN: the
// class comes back. A user handler (MPI_*_create_errhandler) is called with the object's
// handle (`object_handle`, as the application holds it) and `error_code`, on the rank's
// globals, then the class comes back. MPI_ERRORS_ARE_FATAL: the call, the rank, its virtual
// time, the class, `detail` and `object` (e.g. " [window w]") are printed and the run ends.
int apply_errhandler(Rank& rank, const char* call, MPI_Errhandler handler, void* object_handle, int error_class,
                     int error_code, const std::string& detail, const std::string& object);

int raise(Rank& rank, const Comm* comm, const char* call, int error_class, const std::string& detail);
// The same, with the error code a user's handler receives when it is not the class itself
// (MPI_Comm_call_errhandler passes the application's code, maybe one of MPI_Add_error_code).
int raise(Rank& rank, const Comm* comm, const char* call, int error_class, const std::string& detail,
          int error_code);

}  // namespace xsim
