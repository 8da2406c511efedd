// The JSON run report (-xsim-report FILE.json), written once by real process 0 with
// figures reduced over all processes.
#pragma once
#include <string>

#include "libxsim/engine/engine.hpp"

namespace xsim {

// Collective over the real processes.
void write_run_report(Engine& engine, const std::string& path, double wall_seconds, int exit_code);

// Peak resident memory of this real process in bytes.
long long peak_rss_bytes();

}  // namespace xsim
