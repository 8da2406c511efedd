// Machine file for the host: counts from hwloc, rendered as a commented TOML star
// hierarchy (core / NUMA / socket / node / network).
#pragma once
#include <string>

namespace xsim::machine {

struct HostCounts {
    int cores = 1;        // physical cores
    int packages = 1;     // sockets
    int numa_nodes = 1;
    int pus = 1;          // hardware threads
};

// Counts of this host from hwloc; throws std::runtime_error if hwloc fails.
HostCounts detect_host();

// The TOML machine file for `h` (one simulated rank per core).
std::string host_machine_toml(const HostCounts& h);

}  // namespace xsim::machine
