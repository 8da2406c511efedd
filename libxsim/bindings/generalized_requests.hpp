// Generalized requests (MPI_Grequest_start, MPI-4.0 section 13.2): an operation the
// application performs itself and completes with MPI_Grequest_complete. xsim treats it as
// any request whose completion time becomes known then (at the completing rank's clock);
// the completion calls ask its callbacks for the status (query_fn) and release it
// (free_fn), MPI_Cancel calls cancel_fn. Only the rank that started one can complete it
// (a simulated rank has no other threads), so waiting for one's own incomplete
// generalized request is a deadlock, reported as such.
#pragma once
#include <mpi.h>

#include "libxsim/engine/request.hpp"

namespace xsim {
class Engine;
}

namespace xsim::grequest {

inline bool is_generalized(const Request* r) { return r->kind == RequestKind::Generalized; }

// A generalized request of `owner` that is complete at `done` (nonblocking operations xsim
// carries out at the call, such as MPI_File_iwrite): its callbacks are xsim's own.
Request* start_completed(Engine& engine, Rank& owner, SimTime done, MPI_Grequest_query_function* query,
                         MPI_Grequest_free_function* free, void* extra);

// A generalized request of `owner` with xsim's own callbacks that xsim completes later, at
// an event (MPI_File_iwrite_shared: once the shared file pointer answered), with complete_at.
Request* start_pending(Engine& engine, Rank& owner, MPI_Grequest_query_function* query,
                       MPI_Grequest_free_function* free, void* extra);
void complete_at(Engine& engine, Request* r, SimTime done);

// query_fn into `status` (a scratch status when MPI_STATUS_IGNORE); returns its error code.
int query(Request* r, MPI_Status* status);
// free_fn, at most once per request; returns its error code.
int release(Request* r);
// cancel_fn(complete = whether MPI_Grequest_complete was called); returns its error code.
int cancel(Request* r);

}  // namespace xsim::grequest
