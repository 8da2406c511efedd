// The report printed when every unfinished simulated rank is blocked and nothing is in
// flight: the virtual time and the blocked ranks grouped by what they wait for. Peers on
// MPI_COMM_WORLD are given relative to the rank ("MPI_Send to rank+1"), so that a ring
// or pairwise pattern over 65,536 ranks is one or two lines; rank sets are numeric ranges
// ("0-65534 step 2"). At most kShownGroups lines; when the report is cut, the full list,
// one line per blocked rank, goes to a file the report names.
#pragma once
#include <string>

#include "libxsim/engine/engine.hpp"

namespace xsim {

constexpr std::size_t kShownGroups = 20;  // group lines printed
constexpr std::size_t kShownRuns = 8;     // rank ranges printed per group

// Collective over the real processes; process 0 prints to stderr. Returns (on process 0)
// the report's first line without "xsim: ", for the run report's end_detail.
std::string report_deadlock(Engine& engine, std::int64_t unfinished);

// Where the full list goes: beside the run report (FILE.json -> FILE.deadlock.txt),
// else xsim-deadlock.txt in the working directory.
std::string deadlock_list_path(const std::string& report_path);

}  // namespace xsim
