// Processor model: speed scaling of measured compute, a flop rate for modeled compute,
// per-node/per-rank heterogeneity and OS noise.
#pragma once
#include <memory>

#include "netmodels/config.hpp"
#include "netmodels/rank_mapping.hpp"

namespace xsim::net {

std::unique_ptr<ProcessorModel> make_processor_model(const ProcessorConfig& cfg,
                                                     std::shared_ptr<const RankMapping> mapping);

}  // namespace xsim::net
