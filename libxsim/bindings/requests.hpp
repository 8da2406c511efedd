// Turning completed requests into statuses and handles, shared by every completion call.
#pragma once
#include <mpi.h>

#include <string>

#include "libxsim/engine/call_scope.hpp"

namespace xsim::requests {

// Source, tag, count and cancelled flag of a completed request. Not the MPI_ERROR field:
// "message-passing calls do not modify the value of the error code field of status
// variables"; only the calls returning several statuses may (MPI-4 section 3.2.5), and they
// set it with set_error.
void fill_status(MPI_Status* status, const Request* r);
void set_error(MPI_Status* status, int error);
// The empty status of a null or inactive request (error MPI_SUCCESS included).
void empty_status(MPI_Status* status);
// Why a completed request failed (its status_error), for the error handler.
std::string failure(const Request* r);
// Reports and retires a complete request: fills `status`, frees it (or deactivates a
// persistent one) and sets the handle to MPI_REQUEST_NULL. Returns the request's error,
// and why it failed in *why (if given). A generalized request's status and error are
// its query_fn's (then its free_fn runs; generalized_requests.hpp).
int retire(CallScope& s, MPI_Request* handle, MPI_Status* status, std::string* why = nullptr);
// Resolves handles[0..n) into reqs; null / inactive entries become null. Returns an error
// class for an invalid handle.
int resolve_all(CallScope& s, int n, const MPI_Request* handles, Request** reqs);

}  // namespace xsim::requests
