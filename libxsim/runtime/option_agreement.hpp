// Every real process of a run must simulate the same thing: the same -xsim-* options and
// the same machine. mpirun's MPMD syntax (`-np 1 ./a -xsim-np 8 : -np 1 ./a -xsim-np 16`),
// XSIM_OPTIONS exported to one process only, or a machine file that differs between hosts
// would otherwise give each process a different world: a crash or a wrong answer. So
// start-up compares a hash of the settings through the real MPI before anything depends
// on them, and on a difference names the first setting that differs.
#pragma once
#include <mpi.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "libxsim/engine/options.hpp"

namespace xsim::runtime {

// (name, value) pairs in a canonical order; equal lists mean the same simulation.
using Settings = std::vector<std::pair<std::string, std::string>>;

// The options as given (-xsim-np 8 and -xsim-np=8 alike), one entry per option, sorted by
// name; the -xsim-set entries, whose order matters, joined in order.
Settings option_settings(const Options& options);

// The machine's effective configuration (JSON), one entry per line.
Settings machine_settings(const std::string& effective_config_json);

std::string serialize_settings(const Settings& settings);
Settings deserialize_settings(const std::string& text);
std::uint64_t settings_hash(const std::string& serialized);

// "" when equal; else one line naming the first entry at which `mine` (of real process
// `process`) differs from process 0's `reference`.
std::string describe_difference(const Settings& reference, const Settings& mine, int process);

// The real MPI library's collectives (libxsim's own PMPI_* names are the simulation).
struct RealCollectives {
    decltype(&::PMPI_Allreduce) allreduce;
    decltype(&::PMPI_Bcast) bcast;
};

// Collective over MPI_COMM_WORLD (call it on every process, at the same point): "" when
// every process holds the same settings, else the same one-line explanation everywhere.
// One allreduce when they agree.
std::string agree_across_processes(const Settings& mine, int process, int processes, const RealCollectives& mpi);

}  // namespace xsim::runtime
