// Validated posting of sends and receives: the one path under every point-to-point
// binding (a blocking call is the nonblocking one plus a wait; a persistent request is
// validated once and started by each MPI_Start).
#pragma once
#include <mpi.h>

#include "libxsim/engine/call_scope.hpp"
#include "libxsim/p2p/p2p.hpp"

namespace xsim::post {

enum class SendMode { Standard, Synchronous, Ready, Buffered };

// The validated arguments of one send or receive.
struct Operation {
    const Comm* comm = nullptr;
    p2p::Buffer data;
    int peer = 0;   // destination, or source (MPI_ANY_SOURCE allowed)
    int tag = 0;
};

int check_send(CallScope& s, const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
               Operation* out);
int check_recv(CallScope& s, void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
               Operation* out);
// Starts a checked operation; `into` is an inactive persistent request to reuse. A
// buffered send can fail (MPI_ERR_BUFFER); the others always give a request.
int start_send(CallScope& s, const Operation& op, SendMode mode, Request** out, Request* into = nullptr);
Request* start_recv(CallScope& s, const Operation& op, Request* into = nullptr);

int send(CallScope& s, const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
         SendMode mode, Request** out);
int recv(CallScope& s, void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
         Request** out);
// Waits for `r`, reports it into `status`, frees it. Returns its error through the handler.
int finish(CallScope& s, Request* r, MPI_Status* status);

}  // namespace xsim::post
