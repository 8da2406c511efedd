// Operating-system noise: detours that steal the processor from compute. The delay is a
// pure function of (rank, start time, work, configuration), so runs are reproducible
// whatever the order in which ranks compute.
#pragma once
#include <cstdint>

#include "netmodels/config.hpp"
#include "pdes/sim_time.hpp"

namespace xsim::net {

class OsNoise {
public:
    explicit OsNoise(const NoiseConfig& cfg);
    // Virtual time from `now` until `work` of compute is done on `rank`, detours included
    // (>= work; 0 for work <= 0).
    SimTime elapsed(int rank, SimTime now, SimTime work) const;

    // Windows the random model walks exactly before it charges the rest at the expected
    // rate (see README).
    static constexpr std::int64_t kMaxExactWindows = 4096;

private:
    enum class Kind { kNone, kPeriodic, kRandom };
    SimTime periodic(int rank, SimTime now, SimTime work) const;
    SimTime random(int rank, SimTime now, SimTime work) const;
    std::uint64_t rank_key(int rank) const;

    Kind kind_ = Kind::kNone;
    SimTime period_ = 0;
    SimTime duration_ = 0;
    double probability_ = 0;
    std::uint64_t seed_ = 0;
    bool sync_ = false;
};

}  // namespace xsim::net
