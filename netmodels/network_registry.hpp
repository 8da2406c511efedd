// The typed table of network models: network.model selects an entry by name.
#pragma once
#include <memory>
#include <span>
#include <string_view>

#include "netmodels/config.hpp"
#include "netmodels/rank_mapping.hpp"

namespace xsim::net {

struct NetworkModelEntry {
    const char* name;
    const char* description;  // one line, shown by describe_config_keys()
    std::unique_ptr<NetworkModel> (*make)(const NetworkConfig& cfg, std::shared_ptr<const RankMapping> mapping,
                                          const ConfigOrigins& origins);
};

std::span<const NetworkModelEntry> network_models();
const NetworkModelEntry* find_network_model(std::string_view name);

}  // namespace xsim::net
