// Runs a test body as the `main` of every simulated rank on a real Engine (one real
// process, the default machine unless a config is given), so unit tests can drive the
// scheduler, clocks and matching through the engine's own internal API.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "libxsim/p2p/completion.hpp"
#include "libxsim/engine/engine.hpp"
#include "libxsim/p2p/p2p.hpp"

namespace xsim::testing {

struct RunResult {
    std::int64_t unfinished = 0;     // > 0: deadlock
    std::vector<SimTime> final_clocks;
    RunStats stats;
};

using RankBody = std::function<void(Engine&, Rank&)>;

// Microseconds of simulated time.
constexpr SimTime us(double v) { return seconds_to_simtime(v * 1e-6); }

RunResult run_ranks(int ranks, const RankBody& body, Options options = {},
                    const std::vector<std::string>& machine_overrides = {});

// Blocking helpers over the internal API, as the MPI bindings use it.
void send_bytes(Engine& e, Rank& me, const void* buf, std::uint64_t bytes, int dest, int tag, bool synchronous = false);
Request* post_recv(Engine& e, Rank& me, void* buf, std::uint64_t capacity, int source, int tag);
void wait(Engine& e, Rank& me, Request* r);

}  // namespace xsim::testing
