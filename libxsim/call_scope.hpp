// Every MPI binding opens a CallScope first: it finds the calling simulated rank, charges
// the compute time since its last MPI call, and on exit restarts that measurement.
// Bindings have one shape: validate -> trivial cases -> dispatch -> scope.fail(...).
#pragma once
#include <mpi.h>

#include <string>

#include "libxsim/comm.hpp"
#include "libxsim/engine.hpp"
#include "libxsim/errors.hpp"

namespace xsim {

class CallScope {
public:
    explicit CallScope(const char* call);
    ~CallScope() { engine.leave(rank); }
    CallScope(const CallScope&) = delete;
    CallScope& operator=(const CallScope&) = delete;

    // MPI_ERR_OTHER unless the rank is between MPI_Init and MPI_Finalize.
    bool initialized() const { return rank.phase == MpiPhase::Initialized; }
    int not_initialized();

    int fail(const Comm* comm, int error_class, const std::string& detail) {
        return raise(rank, comm, call, error_class, detail);
    }

    Engine& engine;
    Rank& rank;
    const char* call;
};

// Handle translation. Null when the handle is not a valid communicator.
const Comm* resolve_comm(MPI_Comm handle);
inline MPI_Comm comm_handle(const Comm* c) { return reinterpret_cast<MPI_Comm>(const_cast<Comm*>(c)); }
Request* resolve_request(MPI_Request handle);
inline MPI_Request request_handle(Request* r) { return reinterpret_cast<MPI_Request>(r); }

}  // namespace xsim

// Opens the scope and rejects calls outside MPI_Init..MPI_Finalize.
#define XSIM_BEGIN_INITIALIZED(call)                 \
    ::xsim::CallScope scope(call);                   \
    if (!scope.initialized()) return scope.not_initialized()
