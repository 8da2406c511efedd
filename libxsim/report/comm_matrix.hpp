// -xsim-commmatrix FILE: the communication matrix counted by engine/comm_counts.hpp, merged
// over the real processes (each sends process 0 its senders' nonzero pairs through the real
// MPI; their number is bounded by local senders x entities) and written by process 0 as a
// sparse CSV (format in README.md, "Communication matrix", and /work/notes/formats.md).
#pragma once
#include <string>

#include "libxsim/engine/engine.hpp"

namespace xsim {

// Collective over the real processes. False (after a one-line message on stderr) when the
// file could not be written.
bool write_comm_matrix(Engine& engine, const std::string& path);

}  // namespace xsim
