// Whether and what to privatize, decided at start-up from -xsim-privatize, the number of
// ranks sharing a real process and what the loaded objects hold; and the start-up lines
// that tell the user about globals left shared.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "libxsim/engine/options.hpp"
#include "libxsim/rank_state/privatization.hpp"

namespace xsim::runtime {

struct PrivatizationPlan {
    bool enabled = false;
    std::vector<Segment> segments;  // what becomes per rank (empty when not enabled)
    std::size_t bytes_per_rank = 0; // memory each rank's copy is expected to take
    std::vector<std::string> lines; // to print at start-up on process 0 (warnings, listing)
    std::vector<std::string> left_shared;  // loaded objects of the program's whose globals stay shared
    std::vector<std::string> covered;      // loaded objects whose globals become per rank
    bool executable_covered = false;       // the executable's globals are among them
};

// `local_ranks`: the most simulated ranks one real process hosts; `libc` the C library's
// per-rank globals (libc_private_segments) added to the program's own.
PrivatizationPlan plan_privatization(PrivatizeMode mode, long long local_ranks, std::vector<Segment> libc);

}  // namespace xsim::runtime
