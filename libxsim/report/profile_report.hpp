// -xsim-profile FILE.csv|FILE.json: the per-call profile (engine/call_profile.hpp) and the
// per-rank time split (engine/time_split.hpp) of all ranks, reduced over the real processes;
// process 0 writes the file. The format is in README.md (xsim-plot reads it).
#pragma once
#include <string>

#include "libxsim/engine/engine.hpp"

namespace xsim {

// Collective over the real processes. False (after a one-line message on stderr) when the
// file could not be written.
bool write_profile(Engine& engine, const std::string& path);

}  // namespace xsim
