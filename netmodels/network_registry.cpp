// Registered network models. An explicit table (rather than self-registering static
// objects, which a static library's linker would drop) keeps every model linked in.
#include "netmodels/network_registry.hpp"

#include "netmodels/star_network.hpp"
#include "netmodels/torus_network.hpp"

namespace xsim::net {
namespace {

constexpr NetworkModelEntry kModels[] = {
    {"star", "hierarchical star: per-level latency, bandwidth and eager limit (network.level)",
     &make_star_network},
    {"torus", "N-D torus/mesh/ring between nodes, dimension-order routing (network.torus)",
     &make_torus_network},
};

}  // namespace

std::span<const NetworkModelEntry> network_models() { return kModels; }

const NetworkModelEntry* find_network_model(std::string_view name) {
    for (const NetworkModelEntry& m : kModels)
        if (name == m.name) return &m;
    return nullptr;
}

}  // namespace xsim::net
