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

// The latest virtual time a run may reach: 2^62 ps, about 53 days. Half the int64 range,
// so that a clock at the limit plus one more duration (also capped here) cannot wrap
// before the engine notices and stops the run.
constexpr SimTime kTimeLimit = SimTime{1} << 62;
constexpr double kTimeLimitSeconds = static_cast<double>(kTimeLimit) / static_cast<double>(kPicosPerSecond);

// Rounds to the nearest picosecond. Values beyond the int64 range (and +inf) saturate at
// kNever instead of wrapping (a cast out of range is undefined); NaN gives 0. Callers
// that take seconds from users check them first (seconds_fit_simtime) and say what is wrong.
constexpr SimTime seconds_to_simtime(double seconds) {
    const double ps = seconds * static_cast<double>(kPicosPerSecond) + 0.5;
    if (ps < 0x1p63 && ps > -0x1p63) [[likely]]
        return static_cast<SimTime>(ps);
    if (ps != ps) return 0;
    return ps > 0 ? kNever : std::numeric_limits<SimTime>::min();
}
constexpr double simtime_to_seconds(SimTime t) {
    return static_cast<double>(t) / static_cast<double>(kPicosPerSecond);
}
// True when `seconds` is a finite, non-negative duration of at most kTimeLimit.
constexpr bool seconds_fit_simtime(double seconds) { return seconds >= 0 && seconds <= kTimeLimitSeconds; }

// a + b for non-negative durations, saturating at kNever instead of wrapping.
constexpr SimTime add_time(SimTime a, SimTime b) {
    SimTime sum = 0;
    return __builtin_add_overflow(a, b, &sum) ? kNever : sum;
}

// Time to move `bytes` at `bytes_per_second`, rounded up to the next picosecond; capped at
// kTimeLimit (a start below the limit plus such a transfer cannot wrap).
inline SimTime transfer_time(std::uint64_t bytes, double bytes_per_second) {
    if (bytes == 0) return 0;
    const double ps = static_cast<double>(bytes) / bytes_per_second * static_cast<double>(kPicosPerSecond);
    if (!(ps < static_cast<double>(kTimeLimit))) [[unlikely]]
        return kTimeLimit;
    const auto whole = static_cast<SimTime>(ps);
    return whole + (static_cast<double>(whole) < ps ? 1 : 0);
}

}  // namespace xsim
