// The state of one simulated MPI rank hosted by this real process. Kept small (one
// per simulated rank, millions per process): no per-peer tables, no heap members.
#pragma once
#include <mpi.h>

#include <cstddef>
#include <cstdint>

#include "libxsim/engine/critical_path.hpp"
#include "libxsim/engine/match_queue.hpp"
#include "libxsim/engine/message.hpp"
#include "libxsim/engine/time_split.hpp"
#include "libxsim/engine/wait_states.hpp"
#include "netmodels/nic_model.hpp"
#include "pdes/fiber.hpp"
#include "pdes/sim_time.hpp"

namespace xsim {

struct Request;

enum class RankState : std::uint8_t { Ready, Running, Blocked, Finished };
enum class MpiPhase : std::uint8_t { Before, Initialized, Finalized };
enum class WaitMode : std::uint8_t { None, All, Any, Probe };

// What a blocked rank waits for: requests (all or any of them) or a probed message.
struct WaitSet {
    WaitMode mode = WaitMode::None;
    int unknown = 0;            // All: requests whose completion time is not decided yet
    SimTime best = 0;           // All: latest known completion; Any: earliest
    // Probe filter.
    int probe_source = 0;
    int probe_tag = 0;
    std::uint32_t probe_context = 0;
};

// What a blocked rank is doing, for the deadlock report.
struct BlockedIn {
    const char* call = nullptr;  // the user-level MPI call
    int peer = MPI_PROC_NULL;
    int tag = 0;
    std::uint32_t context = 0;
    // Waiting on a nonblocking collective's request: `tag` holds its collective signature
    // (colls/collective_kind.hpp), `context` its communicator's collective context.
    bool nonblocking_collective = false;
    // Waiting on a generalized request (MPI_Grequest_start) the rank has not completed.
    bool generalized = false;
};

// Line-aligned, six cache lines, hot first. A message's arrival and the collective round
// its handler sends next read and write the first three (clock and path; NIC, queues, rank
// and sequence; the call's time split): the engine prefetches only those ahead of a message
// (kRankMessageBytes), the whole rank ahead of a run.
struct alignas(64) Rank {
    // Line 0.
    SimTime clock = 0;
    CriticalPath path;               // what its clock is made of (critical_path.hpp)
    SimTime wake_time = kNever;      // time of the valid pending run event
    // Line 1.
    net::NicState nic;               // its network interface (netmodels/nic_model.hpp)
    MatchQueue<Request> posted;      // receives waiting for a message, in posting order
    MatchQueue<Message> unexpected;  // messages waiting for a receive, in arrival order
    std::int32_t world = 0;
    std::uint32_t seq = 0;           // events generated so far (tie-break)
    RankState state = RankState::Ready;
    MpiPhase phase = MpiPhase::Before;
    std::uint8_t thread_level = MPI_THREAD_SINGLE;  // what MPI_Init_thread provided
    int exit_code = 0;
    // Line 2.
    TimeSplit split;                 // compute / p2p / collective / waiting (time_split.hpp)
    // Lines 3-5: what runs, waits and reports read.
    Fiber fiber;
    std::int64_t last_exit_ns = 0;  // host time when the rank last left xsim (measured compute)
    const char* current_call = nullptr;
    WaitSet wait;
    BlockedIn blocked;
    WaitBlame blame;                 // waiting this rank caused, by kind (wait_states.hpp)
    MPI_Errhandler world_errhandler = MPI_ERRORS_ARE_FATAL;
    MPI_Errhandler self_errhandler = MPI_ERRORS_ARE_FATAL;
    // Per-rank counters of the predefined communicators (see comm.hpp).
    std::uint32_t world_children = 0, self_children = 0;
    std::uint32_t world_collectives = 0, self_collectives = 0;
};

// The part of a rank a message's arrival reads (see above).
inline constexpr std::size_t kRankMessageBytes = 192;
static_assert(sizeof(Rank) == 384, "a rank is six cache lines");

}  // namespace xsim
