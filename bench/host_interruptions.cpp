// host_interruptions: how often the host stops this thread, and for how long, as measured
// compute sees it (bench/RESULTS.md, "Session 10").
//
// Reads the monotonic clock and the thread's CPU time in a tight loop for a few seconds and
// counts the gaps between two rounds longer than 2 us: interrupts, the hypervisor's exits,
// preemption. The CPU time is what `-xsim-compute-clock thread` (the default) charges: the
// part of a gap it counts is charged to whatever rank's span the gap falls in, as if the
// application had computed. Prints one table row.
//
// Usage: host_interruptions [seconds]   (default 3)
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "libxsim/engine/host_clock.hpp"

int main(int argc, char** argv) {
    const double seconds = argc > 1 ? std::atof(argv[1]) : 3.0;
    if (!(seconds > 0)) {
        std::fprintf(stderr, "usage: host_interruptions [seconds > 0]\n");
        return 2;
    }
    constexpr std::int64_t kGapNs = 2000;
    const auto span = static_cast<std::int64_t>(seconds * 1e9);
    std::vector<std::int64_t> gaps;
    std::int64_t gap_ns = 0, gap_cpu_ns = 0;
    const std::int64_t start = xsim::host_clock_ns();
    std::int64_t before = start, cpu_before = xsim::thread_cpu_ns();
    for (;;) {
        // Both clocks every time round (the CPU clock is a system call, about 0.2 us here: far
        // below the gaps counted), so a gap's CPU share is the gap's own.
        const std::int64_t now = xsim::host_clock_ns();
        const std::int64_t cpu = xsim::thread_cpu_ns();
        if (now - start >= span) break;
        if (now - before > kGapNs) {
            gaps.push_back(now - before);
            gap_ns += now - before;
            gap_cpu_ns += std::min(cpu - cpu_before, now - before);
        }
        before = now;
        cpu_before = cpu;
    }
    std::sort(gaps.begin(), gaps.end());
    const auto at = [&](double q) { return gaps.empty() ? 0.0 : gaps[static_cast<std::size_t>(q * (gaps.size() - 1))] / 1e3; };
    std::printf("| seconds | gaps > 2 us per s | median gap us | p90 gap us | max gap us | time in gaps | "
                "charged by the thread CPU clock |\n|---:|---:|---:|---:|---:|---:|---:|\n");
    std::printf("| %.1f | %.0f | %.1f | %.1f | %.1f | %.2f%% | %.0f%% |\n", seconds, gaps.size() / seconds, at(0.5),
                at(0.9), at(1.0), 100.0 * static_cast<double>(gap_ns) / static_cast<double>(span),
                gap_ns ? 100.0 * static_cast<double>(gap_cpu_ns) / static_cast<double>(gap_ns) : 0.0);
    return 0;
}
