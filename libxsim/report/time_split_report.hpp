// The time split of all simulated ranks (engine/time_split.hpp) reduced over the real
// processes, and the end-of-run summary on stderr built from it.
#pragma once
#include <cstdint>

#include "libxsim/engine/engine.hpp"
#include "libxsim/engine/run_end.hpp"

namespace xsim {

struct SplitTotals {
    enum { kCompute, kPointToPoint, kCollective, kWaiting, kKinds };
    // Sums over all ranks, in ps (valid on process 0 after reduce_time_split).
    unsigned long long sums[kKinds] = {};
    // The ranks that waited the most and the least, with their waiting (ps).
    long long max_waiting = -1, min_waiting = -1;
    int max_waiting_rank = -1, min_waiting_rank = -1;
    SimTime max_waiting_rank_time = 0;  // that rank's whole time (its clock)
    unsigned long long total() const { return sums[kCompute] + sums[kPointToPoint] + sums[kCollective] + sums[kWaiting]; }
};

// Collective over the real processes (real MPI); the result is complete on process 0.
SplitTotals reduce_time_split(Engine& engine);

// Whether the summary prints: -xsim-summary on, or auto (the default) with stderr a
// terminal; -xsim-quiet and -xsim-summary off silence it.
bool summary_enabled(const Options& options);

// Collective: process 0 prints the summary of the run on stderr, when summary_enabled there.
void print_run_summary(Engine& engine, RunEnd end);

}  // namespace xsim
