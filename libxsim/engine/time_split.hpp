// Where each simulated rank's virtual time goes: compute (between MPI calls), point-to-point,
// collective, and waiting (the clock jump while blocked in a wait). Always on: a few adds per
// MPI call and 64 bytes per rank; report/time_split_report aggregates it at the end.
#pragma once
#include <cstdint>

#include "pdes/sim_time.hpp"

namespace xsim {

enum class CallKind : std::uint8_t { Compute, PointToPoint, Collective };

struct TimeSplit {
    SimTime call_start = 0;      // clock when the outermost xsim call was entered
    SimTime call_wait = 0;       // waiting inside that call so far
    std::uint64_t call_bytes = 0;  // payload bytes sent inside that call so far (p2p::start_send)
    SimTime p2p = 0;             // point-to-point calls, minus their waiting
    SimTime collective = 0;      // collective calls (and communicator creation), minus their waiting
    SimTime waiting = 0;         // blocked in a wait, clock jumped from block to resume
    const char* call = nullptr;  // the outermost call (a nested call, e.g. from a user op, is part of it)
    std::uint32_t depth = 0;     // nesting of enter/leave

    // Compute is the rest of the rank's time: between its calls, and xsim_compute itself.
    SimTime compute(SimTime clock) const {
        const SimTime in_calls = p2p + collective + waiting;
        return clock > in_calls ? clock - in_calls : 0;
    }
};

// What kind of time a call's own (non-waiting) time is, by its name: MPI collectives and the
// calls that create communicators are collective, other MPI_* calls point-to-point, xsim's
// own (xsim_compute, clock reads) compute. Cached by the name's address (names are literals).
CallKind call_kind(const char* call);

// Engine::enter / leave: opens and closes the outermost call's accounting.
inline void split_enter(TimeSplit& s, SimTime clock, const char* call) {
    if (s.depth++ != 0) return;
    s.call_start = clock;
    s.call_wait = 0;
    s.call_bytes = 0;
    s.call = call;
}

inline void split_leave(TimeSplit& s, SimTime clock) {
    if (s.depth == 0 || --s.depth != 0) return;
    const SimTime spent = clock > s.call_start ? clock - s.call_start : 0;
    const SimTime waited = s.call_wait < spent ? s.call_wait : spent;
    s.waiting += waited;
    const SimTime own = spent - waited;
    if (own == 0) return;
    switch (call_kind(s.call)) {
        case CallKind::PointToPoint: s.p2p += own; break;
        case CallKind::Collective: s.collective += own; break;
        case CallKind::Compute: break;  // counted by compute()
    }
}

// A wait point (p2p/completion): the rank blocked at clock `before` and now runs at `after`.
inline void split_waited(TimeSplit& s, SimTime before, SimTime after) {
    if (after > before) s.call_wait += after - before;
}

}  // namespace xsim
