// Every MPI binding opens a CallScope first: it finds the calling simulated rank, charges
// the compute time since its last MPI call, and on exit restarts that measurement.
// Bindings have one shape: validate -> trivial cases -> dispatch -> scope.fail(...).
// An MPI call leaves the rank's errno as it found it (KeepErrno): while the rank waits inside
// it, other ranks run on the same thread and set errno, and xsim's own system calls do too.
#pragma once
#include <mpi.h>

#include <cerrno>
#include <string>

#include "libxsim/mpi/comm.hpp"
#include "libxsim/engine/engine.hpp"
#include "libxsim/engine/errors.hpp"
#include "libxsim/mpi/real_mpi.hpp"

namespace xsim {

// The caller's errno, put back when the MPI call returns: natively a rank is a process of its
// own, whose errno only its own code and its MPI library touch (MACSio prints errno after MPI
// calls that did not fail; under xsim it read another rank's failed call, or xsim's own waits').
class KeepErrno {
public:
    KeepErrno() : saved_(errno) {}
    ~KeepErrno() { errno = saved_; }
    KeepErrno(const KeepErrno&) = delete;
    KeepErrno& operator=(const KeepErrno&) = delete;

private:
    int saved_;
};

class CallScope {
    KeepErrno errno_;  // first: saved before, restored after everything else

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

// The simulated rank running application code on this thread, or null: before the
// simulation starts (static constructors), after it ends (static destructors, atexit
// handlers) and on any other thread.
Rank* running_rank();
// The rank whose code may run on this thread: the one a callback that xsim calls outside
// its fiber acts for (Privatization::ForRank: a user reduction op as a message arrives,
// an error handler, a generalized request's query), else the running rank.
Rank* acting_rank();
// The simulated rank whose own code is running on this thread (not xsim's on its behalf), or
// null: the rank an interposed C library call acts for. Open MPI's progress thread, the
// scheduler and xsim's own calls get the real functions.
Rank* application_rank();

// For the calls the standard allows at any time, before MPI_Init and after MPI_Finalize
// too (MPI-4.0 section 11.4.1, Table 11.1: MPI_Initialized, MPI_Finalized,
// MPI_Get_version, MPI_Get_library_version, MPI_Error_string, MPI_Error_class), and for
// local calls that work before a rank calls MPI_Init. Inside a simulated rank it charges
// compute like CallScope and reports errors through the rank's error handler; outside
// one it returns error classes as they are.
class AnytimeCall {
    KeepErrno errno_;

public:
    explicit AnytimeCall(const char* call) : call_(call), rank_(running_rank()) {
        if (rank_) g_engine->enter(*rank_, call_);
        else load_real_mpi();  // maybe before libxsim's own initializers (real_mpi.hpp)
    }
    ~AnytimeCall() {
        if (rank_) g_engine->leave(*rank_);
    }
    AnytimeCall(const AnytimeCall&) = delete;
    AnytimeCall& operator=(const AnytimeCall&) = delete;

    Rank* rank() const { return rank_; }
    int fail(int error_class, const std::string& detail) {
        return rank_ ? raise(*rank_, nullptr, call_, error_class, detail) : error_class;
    }
    // A return code of the real library: success as it is, an error like fail().
    int result(int code);

private:
    const char* call_;
    Rank* rank_;
};

// The rank's clock as a clock read returns it (MPI_Wtime, clock_gettime, ...), called
// inside the read's enter/leave. With -xsim-compute none each read first costs
// processor.clock_read_cost, so a loop that waits for the clock to advance ends; measured
// runs already charge the host time the read takes.
SimTime read_clock(Engine& engine, Rank& rank);

// One poll: an unsuccessful MPI_Test* or MPI_Iprobe, or an MPI_Win_sync, costs
// processor.poll_cost, so a loop that polls advances virtual time and lets others progress.
inline void charge_poll(CallScope& s) { s.rank.clock += s.engine.machine().poll_cost; }

// Handle translation. Null when the handle is not a valid communicator.
const Comm* resolve_comm(MPI_Comm handle);
// The handle the application holds: MPI_COMM_WORLD and MPI_COMM_SELF are the named
// constants (error handlers and attribute callbacks compare against them).
inline MPI_Comm comm_handle(const Comm* c) {
    if (c->context == kWorldContext) return MPI_COMM_WORLD;
    if (c->context == kSelfContext) return MPI_COMM_SELF;
    return reinterpret_cast<MPI_Comm>(const_cast<Comm*>(c));
}
Request* resolve_request(MPI_Request handle);
inline MPI_Request request_handle(Request* r) { return reinterpret_cast<MPI_Request>(r); }

}  // namespace xsim

// Opens the scope and rejects calls outside MPI_Init..MPI_Finalize.
#define XSIM_BEGIN_INITIALIZED(call)                 \
    ::xsim::CallScope scope(call);                   \
    if (!scope.initialized()) return scope.not_initialized()
