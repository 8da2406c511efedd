// The critical path of the run (issue 13): that of the rank that ended last (ties: the
// lowest rank), found over all real processes, for the run report.
#pragma once
#include "libxsim/engine/critical_path.hpp"
#include "libxsim/engine/engine.hpp"
#include "libxsim/report/output_file.hpp"

namespace xsim {

struct RunCriticalPath {
    int rank = -1;        // -1: no rank here
    SimTime end = 0;      // its clock, which the path's terms add up to
    CriticalPath path;
};

// This process's ranks only.
RunCriticalPath local_critical_path(Engine& engine);
// Collective over the real processes (real MPI); the result is complete on process 0.
RunCriticalPath reduce_critical_path(Engine& engine);
// The report's "critical_path" member, with its trailing comma and newline.
void print_critical_path(FdWriter& out, const RunCriticalPath& p);

}  // namespace xsim
