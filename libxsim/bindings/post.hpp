// Validated posting of sends and receives: the one path under every point-to-point
// binding (a blocking call is the nonblocking one plus a wait).
#pragma once
#include <mpi.h>

#include "libxsim/call_scope.hpp"

namespace xsim::post {

enum class SendMode { Standard, Synchronous, Ready };

int send(CallScope& s, const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
         SendMode mode, Request** out);
int recv(CallScope& s, void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
         Request** out);
// Waits for `r`, reports it into `status`, frees it. Returns its error through the handler.
int finish(CallScope& s, Request* r, MPI_Status* status);

}  // namespace xsim::post
