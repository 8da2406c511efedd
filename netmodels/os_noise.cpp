// Periodic noise: one detour of `duration` every `period`, at a phase drawn from
// (seed, rank) (or from the seed alone with sync = true). Computed in closed form: work
// advances only outside detours, so the end time is the inverse of the "available time"
// function A(t) = t - (detour time before t).
//
// Random noise: time is cut into windows of `period` (aligned at 0); window k holds one
// detour with `probability`, at an offset in the window, both drawn from a hash of
// (seed, rank, k). Compute walks the windows it spans.
#include "netmodels/os_noise.hpp"

#include <algorithm>

#include <cmath>

namespace xsim::net {
namespace {

std::uint64_t mix(std::uint64_t x) {  // splitmix64 finalizer
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

SimTime floor_div(SimTime a, SimTime b) {
    SimTime q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
    return q;
}

}  // namespace

OsNoise::OsNoise(const NoiseConfig& cfg)
    : period_(seconds_to_simtime(cfg.period)),
      duration_(seconds_to_simtime(cfg.duration)),
      probability_(cfg.probability),
      seed_(cfg.seed),
      sync_(cfg.sync) {
    if (cfg.kind == "periodic") kind_ = Kind::kPeriodic;
    if (cfg.kind == "random") kind_ = Kind::kRandom;
    // The loader rejects duration >= period; a zero probability means no detours at all.
    if (duration_ <= 0 || duration_ >= period_) kind_ = Kind::kNone;
    if (kind_ == Kind::kRandom && probability_ <= 0) kind_ = Kind::kNone;
}

std::uint64_t OsNoise::rank_key(int rank) const {
    return mix(seed_ ^ mix(sync_ ? 0xFFFFFFFFull : static_cast<std::uint64_t>(static_cast<std::uint32_t>(rank))));
}

SimTime OsNoise::elapsed(int rank, SimTime now, SimTime work) const {
    if (work <= 0) return 0;
    // Beyond kTimeLimit the engine stops the run; capping here keeps now + work (both at
    // most 2^62) from wrapping in the arithmetic below.
    work = std::min(work, kTimeLimit);
    switch (kind_) {
        case Kind::kNone: return work;
        case Kind::kPeriodic: return periodic(rank, now, work);
        case Kind::kRandom: return random(rank, now, work);
    }
    return work;
}

SimTime OsNoise::periodic(int rank, SimTime now, SimTime work) const {
    const SimTime P = period_;
    const SimTime L = duration_;
    const SimTime phase = static_cast<SimTime>(rank_key(rank) % static_cast<std::uint64_t>(P));
    // Shift time so detours occupy [kP, kP + L).
    const SimTime t = now - phase;
    const SimTime k = floor_div(t, P);
    const SimTime in = t - k * P;
    const SimTime available = t - (k * L + (in < L ? in : L));
    const SimTime target = available + work;
    const SimTime q = floor_div(target, P - L);
    const SimTime r = target - q * (P - L);
    // A long compute under heavy noise can pass the int64 range: cap it (see elapsed()).
    SimTime end = 0;
    SimTime span = 0;
    if (__builtin_mul_overflow(q, P, &end) || (r != 0 && __builtin_add_overflow(end, L + r, &end)) ||
        __builtin_sub_overflow(end, t, &span)) [[unlikely]]
        return kTimeLimit;
    return std::min(span, kTimeLimit);
}

SimTime OsNoise::random(int rank, SimTime now, SimTime work) const {
    const SimTime P = period_;
    const SimTime L = duration_;
    const std::uint64_t key = rank_key(rank);
    const bool always = probability_ >= 1.0;
    const auto threshold = static_cast<std::uint64_t>(std::ldexp(probability_, 64));
    SimTime k = floor_div(now, P);
    SimTime t = now;
    SimTime remaining = work;
    for (std::int64_t n = 0; n < kMaxExactWindows; ++n, ++k) {
        const SimTime window_end = (k + 1) * P;
        const std::uint64_t h = mix(key ^ static_cast<std::uint64_t>(k));
        if (always || h < threshold) {
            const SimTime detour = k * P + static_cast<SimTime>(mix(h) % static_cast<std::uint64_t>(P - L + 1));
            if (t < detour) {
                if (remaining <= detour - t) return t + remaining - now;
                remaining -= detour - t;
                t = detour;
            }
            if (t < detour + L) t = detour + L;
        }
        if (remaining <= window_end - t) return t + remaining - now;
        remaining -= window_end - t;
        t = window_end;
    }
    // Long compute: charge the rest at the expected slowdown P / (P - probability * L).
    const double stretch = static_cast<double>(P) / (static_cast<double>(P) - probability_ * static_cast<double>(L));
    const double rest = std::ceil(static_cast<double>(remaining) * stretch);
    if (!(rest < static_cast<double>(kTimeLimit))) return kTimeLimit;  // see elapsed()
    return std::min(t + static_cast<SimTime>(rest) - now, kTimeLimit);
}

}  // namespace xsim::net
