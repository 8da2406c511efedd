// Argument checks shared by the bindings. Each returns MPI_SUCCESS or what the error
// handler decided (the class, under MPI_ERRORS_RETURN; fatal handlers do not return).
#pragma once
#include <mpi.h>

#include "libxsim/engine/call_scope.hpp"
#include "libxsim/p2p/p2p.hpp"

namespace xsim::checks {

// Resolves a communicator handle; on failure *out is null and the error is returned.
int comm(CallScope& s, MPI_Comm handle, const Comm** out);
// Count, datatype and buffer of a message; fills the p2p buffer description.
int buffer(CallScope& s, const Comm* c, const void* buf, int count, MPI_Datatype type, p2p::Buffer* out);
// A destination (any_source = false) or source rank (MPI_ANY_SOURCE allowed); PROC_NULL is valid.
int peer(CallScope& s, const Comm* c, int rank, bool any_source);
int tag(CallScope& s, const Comm* c, int tag, bool any_tag);
int pointer(CallScope& s, const Comm* c, const void* p, const char* what);

// The largest tag (MPI_TAG_UB).
constexpr int kTagUpperBound = 0x7fffffff;

}  // namespace xsim::checks
