// Simulated time: an integer count of picoseconds.
// Integers make virtual times bit-identical across runs and real-process counts
// (no floating-point accumulation order), and int64 picoseconds reach 106 days.
#pragma once
#include <cstdint>
#include <limits>

namespace xsim {

using SimTime = std::int64_t;

constexpr SimTime kPicosPerSecond = 1'000'000'000'000LL;
constexpr SimTime kNever = std::numeric_limits<SimTime>::max();

constexpr SimTime seconds_to_simtime(double seconds) {
    return static_cast<SimTime>(seconds * static_cast<double>(kPicosPerSecond) + 0.5);
}
constexpr double simtime_to_seconds(SimTime t) {
    return static_cast<double>(t) / static_cast<double>(kPicosPerSecond);
}
// Time to move `bytes` at `bytes_per_second`, rounded up to the next picosecond.
inline SimTime transfer_time(std::uint64_t bytes, double bytes_per_second) {
    if (bytes == 0) return 0;
    const double ps = static_cast<double>(bytes) / bytes_per_second * static_cast<double>(kPicosPerSecond);
    const auto whole = static_cast<SimTime>(ps);
    return whole + (static_cast<double>(whole) < ps ? 1 : 0);
}

}  // namespace xsim
