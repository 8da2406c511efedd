#include "libxsim/engine/progress.hpp"

#include <unistd.h>

#include <cstdio>

#include "libxsim/engine/host_clock.hpp"

namespace xsim {

ProgressLine::ProgressLine(ProgressMode mode, int process, std::int64_t local_ranks)
    : local_ranks_(local_ranks) {
    const bool wanted = mode == ProgressMode::On || (mode == ProgressMode::Auto && isatty(STDERR_FILENO));
    enabled_ = wanted && process == 0;
    start_ns_ = last_ns_ = host_clock_ns();
}

void ProgressLine::maybe_print(SimTime now, std::int64_t local_unfinished) {
    const std::int64_t wall = host_clock_ns();
    if (wall - last_ns_ < 1'000'000'000) return;
    last_ns_ = wall;
    printed_ = true;
    std::fprintf(stderr, "\rxsim: virtual time %.6f s, %lld of %lld ranks of process 0 finished, wall %.0f s   ",
                 simtime_to_seconds(now), static_cast<long long>(local_ranks_ - local_unfinished),
                 static_cast<long long>(local_ranks_), static_cast<double>(wall - start_ns_) * 1e-9);
    std::fflush(stderr);
}

void ProgressLine::finish() {
    if (printed_) std::fprintf(stderr, "\n");
}

}  // namespace xsim
