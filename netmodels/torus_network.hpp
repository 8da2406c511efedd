// N-dimensional torus network (mesh and ring as special cases).
#pragma once
#include <memory>

#include "netmodels/config.hpp"
#include "netmodels/rank_mapping.hpp"

namespace xsim::net {

std::unique_ptr<NetworkModel> make_torus_network(const NetworkConfig& cfg,
                                                 std::shared_ptr<const RankMapping> mapping,
                                                 const ConfigOrigins& origins);

}  // namespace xsim::net
