// Named compute regions (xsim_region_begin/end of xsim.h), for calibrating application
// models. A measured run (-xsim-regions-out FILE) records how much simulated time each
// region took, merged over all ranks and real processes, and writes the regions file
// (format: region_file.hpp). A model run (-xsim-regions-in FILE) replays it: each
// begin/end pair advances the rank's clock by the region's recorded mean, whatever the
// host did in between, as MPI-Sim's delay() replayed a real code's compute.
// Regions do not nest; every begin needs the matching end before the next begin.
#pragma once
#include <memory>
#include <string>

#include "libxsim/engine/engine.hpp"
#include "libxsim/engine/options.hpp"

namespace xsim::regions {

// At start-up, before the engine exists: reads the file of -xsim-regions-in (so a bad one
// is refused with the other options). Throws RegionFileError (bad or unreadable file).
// install() hands the result to the engine, which owns it for the run: the regions of two
// engines in one process are apart. Without install, the calls are only checked.
using Loaded = std::unique_ptr<LayerState>;
Loaded load(const Options& options);
void install(Engine& engine, Loaded loaded);

// The calling rank's xsim_region_begin / xsim_region_end, between Engine::enter and
// leave. Misuse (unknown name in a replay, unbalanced or nested calls, bad name) ends
// the run with a message naming the rank and the region.
void begin(Engine& engine, Rank& rank, const char* name);
void end(Engine& engine, Rank& rank, const char* name);

// Replays drop the host time spent inside a region: true when `end` must not charge it.
bool replaying(Engine& engine);

// After a run in which every rank finished; collective over the real processes. Reports
// ranks that left a region open and, when recording, writes the regions file (process 0).
// Returns the exit code these checks call for (0 or 1), the same on every process.
int finish(Engine& engine);

// When the run ends badly: writes the regions this process recorded so far (its ranks
// only, marked partial in a comment) to the -xsim-regions-out file, unless another
// process wrote it first. No allocation, no waiting (signal handlers, the watchdog).
void write_partial(Engine& engine, const char* end, const char* why);

}  // namespace xsim::regions
