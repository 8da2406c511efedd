// Argument checks and error reporting of the one-sided calls: errors of a call on a window go
// to the window's error handler (MPI_ERRORS_ARE_FATAL unless MPI_Win_set_errhandler changed
// it), not to a communicator's.
#pragma once
#include <mpi.h>

#include <string>

#include "libxsim/engine/call_scope.hpp"
#include "libxsim/rma/window.hpp"

namespace xsim::window_checks {

// Reports `error_class` through w's handler (null w: MPI_COMM_WORLD's, as for a bad handle).
int fail(CallScope& s, rma::Window* w, int error_class, const std::string& detail);
// The window of `handle` (MPI_ERR_WIN unless it is a live window of the calling rank).
int window(CallScope& s, MPI_Win handle, rma::Window** out);
// A rank of the window's group (or MPI_PROC_NULL when `proc_null_ok`).
int target(CallScope& s, rma::Window* w, int rank, bool proc_null_ok = true);
// count elements of a committed type; `type` may be null when count is 0.
int data(CallScope& s, rma::Window* w, int count, MPI_Datatype type, const char* what);

}  // namespace xsim::window_checks

// Opens the scope of a call on window handle `win` and finds it as `w` (MPI_ERR_WIN otherwise).
#define XSIM_WINDOW_CALL(call)                        \
    XSIM_BEGIN_INITIALIZED(call);                     \
    ::xsim::rma::Window* w = nullptr;                 \
    if (int e = ::xsim::window_checks::window(scope, win, &w)) return e
