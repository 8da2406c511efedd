// clock_read_cost: wall time of one read of each clock measured compute can use
// (-xsim-compute-clock): CLOCK_MONOTONIC (wall, through the vDSO), CLOCK_THREAD_CPUTIME_ID
// read directly (a system call), and ThreadCpuClock (thread, the default: the monotonic
// clock plus an offset, refreshed by that system call only after the thread was scheduled
// out or 1 ms passed), with its perf_event detector and without (the 1 ms refresh only).
// Reads come in bursts of 1,000; the best burst is the cost when the process is not
// preempted, the mean includes the host's load. Built with the project (bench/CMakeLists.txt).
#include <cstdint>
#include <cstdio>

#include "libxsim/engine/host_clock.hpp"

using namespace xsim;

namespace {

constexpr int kBurst = 1000, kBursts = 2000;

template <typename Read>
void measure(const char* name, Read read) {
    volatile std::int64_t sink = 0;
    double best = 1e18, sum = 0;
    for (int b = 0; b < kBursts; ++b) {
        const std::int64_t start = host_clock_ns();
        for (int i = 0; i < kBurst; ++i) sink = sink + read();
        const double per = static_cast<double>(host_clock_ns() - start) / kBurst;
        if (per < best) best = per;
        sum += per;
    }
    std::printf("%-52s %8.1f ns a read (best burst) %8.1f ns (mean)\n", name, best, sum / kBursts);
}

}  // namespace

int main() {
    measure("CLOCK_MONOTONIC (wall)", [] { return host_clock_ns(); });
    measure("CLOCK_THREAD_CPUTIME_ID (a system call)", [] { return thread_cpu_ns(); });
    ThreadCpuClock detecting(true);
    const std::uint64_t r0 = detecting.refreshes();
    measure(detecting.detects_preemption() ? "ThreadCpuClock (thread, perf_event detector)"
                                           : "ThreadCpuClock (thread, detector refused)",
            [&] { return detecting.now_ns(); });
    std::printf("  %llu refreshes in %d reads%s%s\n", static_cast<unsigned long long>(detecting.refreshes() - r0),
                kBurst * kBursts, detecting.detects_preemption() ? "" : ": ", detecting.detector_note());
    ThreadCpuClock fallback(false);
    const std::uint64_t f0 = fallback.refreshes();
    measure("ThreadCpuClock (thread, 1 ms refresh only)", [&] { return fallback.now_ns(); });
    std::printf("  %llu refreshes in %d reads\n", static_cast<unsigned long long>(fallback.refreshes() - f0),
                kBurst * kBursts);
    return 0;
}
