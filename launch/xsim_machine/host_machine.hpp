// Machine file for the host: counts from hwloc, rendered as a commented TOML star
// hierarchy (core / NUMA / socket / node / network).
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace xsim::machine {

struct HostCounts {
    int cores = 1;        // physical cores
    int packages = 1;     // sockets
    int numa_nodes = 1;
    int pus = 1;          // hardware threads
};

// Counts of this host from hwloc; throws std::runtime_error if hwloc fails.
HostCounts detect_host();

// One value of the machine file and the comment that says where it comes from.
struct Value {
    std::string text;
    std::string comment;
};

// One level of the host's star hierarchy, innermost first.
struct HostLevel {
    std::string name;
    int ranks = 0;  // group size in ranks; 0: outermost (no size)
    Value latency, bandwidth, rendezvous;
    Value eager_bandwidth, rendezvous_overhead;  // written only when measured (text not empty)
    std::string comment;
};

// The host's levels (group sizes from hwloc) with typical, unmeasured values.
std::vector<HostLevel> host_levels(const HostCounts& h);

// The TOML machine file: `header` (comment lines), the [processor] keys, and the levels.
std::string render_machine_toml(const HostCounts& h, const std::string& header,
                                 const std::vector<std::pair<std::string, Value>>& processor,
                                 const std::vector<HostLevel>& levels);

// The TOML machine file for `h` (one simulated rank per core), typical values.
std::string host_machine_toml(const HostCounts& h);

}  // namespace xsim::machine
