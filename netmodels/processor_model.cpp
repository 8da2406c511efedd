// The configured processor: virtual compute time = host time / speed (measured),
// the given duration (modeled) or flops / rate (flops), each stretched by OS noise.
// Heterogeneity: [[processor.override]] entries select nodes and/or ranks by sorted,
// merged ranges; the last entry that matches a rank and sets a value wins.
#include "netmodels/processor_model.hpp"

#include <algorithm>
#include <vector>

#include "netmodels/os_noise.hpp"

namespace xsim::net {
namespace {

bool contains(const std::vector<IdRange>& ranges, std::int64_t id) {
    // Ranges are sorted by first and disjoint: find the last with first <= id.
    auto it = std::upper_bound(ranges.begin(), ranges.end(), id,
                               [](std::int64_t v, const IdRange& r) { return v < r.first; });
    return it != ranges.begin() && std::prev(it)->last >= id;
}

class ConfiguredProcessor final : public ProcessorModel {
public:
    ConfiguredProcessor(const ProcessorConfig& cfg, std::shared_ptr<const RankMapping> mapping)
        : mapping_(std::move(mapping)),
          speed_(cfg.speed),
          flops_(cfg.flops),
          overrides_(cfg.overrides),
          noise_(cfg.noise) {}

    SimTime measured_compute(int rank, SimTime measured, SimTime now) const override {
        if (measured <= 0) return 0;
        const double speed = this->speed(rank);
        const double scaled = static_cast<double>(measured) / speed + 0.5;
        // Capped (a cast beyond int64 is undefined): the engine stops the run at kTimeLimit.
        const SimTime work = speed == 1.0 ? measured
                             : scaled < static_cast<double>(kTimeLimit) ? static_cast<SimTime>(scaled)
                                                                        : kTimeLimit;
        return noise_.elapsed(rank, now, work);
    }

    double speed(int rank) const override { return value_for(rank, speed_, &ProcessorOverride::speed); }

    SimTime modeled_compute(int rank, SimTime duration, SimTime now) const override {
        return noise_.elapsed(rank, now, duration);
    }

    SimTime flops_compute(int rank, double flops, SimTime now) const override {
        if (!(flops > 0)) return 0;
        const double rate = value_for(rank, flops_, &ProcessorOverride::flops);
        return noise_.elapsed(rank, now, seconds_to_simtime(flops / rate));
    }

private:
    double value_for(int rank, double fallback, std::optional<double> ProcessorOverride::*field) const {
        for (auto it = overrides_.rbegin(); it != overrides_.rend(); ++it) {
            const std::optional<double>& v = (*it).*field;
            if (!v) continue;
            if (contains(it->ranks, rank) || (!it->nodes.empty() && contains(it->nodes, mapping_->node_of(rank))))
                return *v;
        }
        return fallback;
    }

    std::shared_ptr<const RankMapping> mapping_;
    double speed_;
    double flops_;
    std::vector<ProcessorOverride> overrides_;
    OsNoise noise_;
};

}  // namespace

std::unique_ptr<ProcessorModel> make_processor_model(const ProcessorConfig& cfg,
                                                     std::shared_ptr<const RankMapping> mapping) {
    return std::make_unique<ConfiguredProcessor>(cfg, std::move(mapping));
}

}  // namespace xsim::net
