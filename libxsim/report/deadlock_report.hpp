// The report printed when every unfinished simulated rank is blocked and nothing is in
// flight: the virtual time and the blocked ranks grouped by (call, peer, tag,
// communicator), merged over all real processes and printed once.
#pragma once
#include "libxsim/engine/engine.hpp"

namespace xsim {

// Collective over the real processes; process 0 prints to stderr.
void report_deadlock(Engine& engine, std::int64_t unfinished);

}  // namespace xsim
