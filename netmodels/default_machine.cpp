// The built-in default machine: the seed xSim machine (16 ranks per node as two 8-core
// sockets, 18 nodes per switch, three star levels). It also lists every top-level key with
// its default, so a configuration file only needs the keys it changes.
// examples/machines/xsim-seed.toml is the same machine, commented.
#include "netmodels/config.hpp"

namespace xsim::net {

const char* default_machine_toml() {
    return R"toml(
[processor]
speed = 1.0
flops = 1e9
poll_cost = 1e-7
clock_read_cost = 5e-8
override = []

[processor.noise]
kind = "none"
period = 1e-3
duration = 1e-5
probability = 0.1
seed = 1
sync = false

[storage]
latency = 1e-4
bandwidth = 1e9

[mapping]
kind = "block"
ranks_per_node = 16
file = ""

[network]
model = "star"
contention = false

[[network.level]]
name = "node"
nodes_per_group = 1
latency = 12e-6
bandwidth = 1834e6
rendezvous = 4096

[[network.level]]
name = "switch"
nodes_per_group = 18
latency = 13e-6
bandwidth = 2547e6
rendezvous = 65536

[[network.level]]
name = "system"
latency = 14e-6
bandwidth = 2546e6
rendezvous = 65536

[network.torus]
dims = []
wrap = []
base_latency = 1e-6
hop_latency = 1e-6
link_bandwidth = 2e9
rendezvous = 65536
)toml";
}

}  // namespace xsim::net
