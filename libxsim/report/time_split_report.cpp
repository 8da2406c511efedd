#include "libxsim/report/time_split_report.hpp"

#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdio>

#include "libxsim/mpi/real_mpi.hpp"
#include "libxsim/report/run_report.hpp"
#include "libxsim/report/wait_state_report.hpp"

namespace xsim {
namespace {

// The lowest rank whose value equals the global extreme `value` (ties: the lowest rank).
int holder(Engine& engine, long long value) {
    int mine = INT_MAX;
    for (int i = 0; i < engine.local_count(); ++i) {
        const Rank& r = engine.local(engine.first_local() + i);
        if (static_cast<long long>(r.split.waiting) == value) {
            mine = r.world;
            break;
        }
    }
    real_mpi.Allreduce(MPI_IN_PLACE, &mine, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return mine == INT_MAX ? -1 : mine;
}

}  // namespace

SplitTotals reduce_time_split(Engine& engine) {
    SplitTotals t;
    long long most = -1, least = LLONG_MAX;
    for (int i = 0; i < engine.local_count(); ++i) {
        const Rank& r = engine.local(engine.first_local() + i);
        const TimeSplit& s = r.split;
        t.sums[SplitTotals::kCompute] += s.compute(r.clock);
        t.sums[SplitTotals::kPointToPoint] += s.p2p;
        t.sums[SplitTotals::kCollective] += s.collective;
        t.sums[SplitTotals::kWaiting] += s.waiting;
        most = std::max(most, static_cast<long long>(s.waiting));
        least = std::min(least, static_cast<long long>(s.waiting));
    }
    real_mpi.Allreduce(MPI_IN_PLACE, t.sums, SplitTotals::kKinds, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    real_mpi.Allreduce(MPI_IN_PLACE, &most, 1, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
    real_mpi.Allreduce(MPI_IN_PLACE, &least, 1, MPI_LONG_LONG, MPI_MIN, MPI_COMM_WORLD);
    t.max_waiting = most;
    t.min_waiting = least;
    t.max_waiting_rank = holder(engine, most);
    t.min_waiting_rank = holder(engine, least);
    long long clock = t.max_waiting_rank >= 0 && engine.is_local(t.max_waiting_rank)
                          ? static_cast<long long>(engine.local(t.max_waiting_rank).clock)
                          : 0;
    real_mpi.Allreduce(MPI_IN_PLACE, &clock, 1, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
    t.max_waiting_rank_time = static_cast<SimTime>(clock);
    return t;
}

bool summary_enabled(const Options& options) {
    if (options.summary == ProgressMode::On) return true;
    if (options.summary == ProgressMode::Off) return false;
    return isatty(STDERR_FILENO) == 1;
}

namespace {

double percent(unsigned long long part, unsigned long long whole) {
    return whole ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}

// "1.23 s", "456 us": virtual and wall times as a reader takes them in.
void format_seconds(char* out, std::size_t size, double s) {
    if (s >= 1 || s == 0) std::snprintf(out, size, "%.6g s", s);
    else if (s >= 1e-3) std::snprintf(out, size, "%.6g ms", s * 1e3);
    else if (s >= 1e-6) std::snprintf(out, size, "%.6g us", s * 1e6);
    else std::snprintf(out, size, "%.6g ns", s * 1e9);
}

void format_bytes(char* out, std::size_t size, double b) {
    const char* unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (b >= 1024 && u < 4) {
        b /= 1024;
        ++u;
    }
    std::snprintf(out, size, u ? "%.1f %s" : "%.0f %s", b, unit[u]);
}

}  // namespace

void print_run_summary(Engine& engine, RunEnd end) {
    // Process 0 prints, so its stderr decides (auto), for all processes alike.
    int wanted = summary_enabled(engine.options()) ? 1 : 0;
    real_mpi.Bcast(&wanted, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (!wanted) return;
    const SplitTotals t = reduce_time_split(engine);
    const WaitStateTotals waits = reduce_wait_states(engine);
    const RunStats& s = engine.stats();
    unsigned long long unreceived = 0, unreceived_bytes = 0;
    unreceived_user_messages(engine, &unreceived, &unreceived_bytes);
    unsigned long long sums[] = {s.messages - unreceived, s.bytes - unreceived_bytes, s.internal_messages,
                                 s.remote_events, s.context_switches};
    long long maxima[] = {static_cast<long long>(end == RunEnd::Completed ? s.max_finalize_time : engine.latest_clock()),
                          peak_rss_bytes()};
    real_mpi.Allreduce(MPI_IN_PLACE, sums, 5, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    real_mpi.Allreduce(MPI_IN_PLACE, maxima, 2, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
    if (engine.placement().process != 0) return;

    const double simulated = simtime_to_seconds(maxima[0]);
    const double wall = static_cast<double>(host_clock_ns() - run_start_ns()) * 1e-9;
    char sim_text[40], wall_text[40], bytes_text[40], rss_text[40], wait_text[40];
    format_seconds(sim_text, sizeof sim_text, simulated);
    format_seconds(wall_text, sizeof wall_text, wall);
    format_bytes(bytes_text, sizeof bytes_text, static_cast<double>(sums[1]));
    format_bytes(rss_text, sizeof rss_text, static_cast<double>(maxima[1]));
    std::fprintf(stderr, "xsim: summary: %d ranks on %d real processes; simulated %s in %s wall", engine.world_size(),
                 engine.placement().processes, sim_text, wall_text);
    if (simulated > 0) std::fprintf(stderr, " (slowdown %.3g)", wall / simulated);
    std::fprintf(stderr, "\n");
    std::fprintf(stderr,
                 "xsim: summary: %llu messages (%s), %llu more inside collectives; %llu events between processes; "
                 "%llu context switches; peak memory %s per process\n",
                 sums[0], bytes_text, sums[2], sums[3], sums[4], rss_text);
    const unsigned long long total = t.total();
    std::fprintf(stderr,
                 "xsim: summary: rank time: %.1f%% compute, %.1f%% point-to-point, %.1f%% collective, %.1f%% waiting",
                 percent(t.sums[SplitTotals::kCompute], total), percent(t.sums[SplitTotals::kPointToPoint], total),
                 percent(t.sums[SplitTotals::kCollective], total), percent(t.sums[SplitTotals::kWaiting], total));
    if (t.max_waiting > 0) {
        format_seconds(wait_text, sizeof wait_text, simtime_to_seconds(t.max_waiting));
        std::fprintf(stderr, "; most waiting: rank %d (%s, %.1f%% of its time)", t.max_waiting_rank, wait_text,
                     percent(static_cast<unsigned long long>(t.max_waiting), t.max_waiting_rank_time));
    }
    std::fprintf(stderr, "\n");
    std::fprintf(stderr, "xsim: summary: %s\n", wait_state_sentence(waits, t.sums[SplitTotals::kWaiting], total).c_str());
}

}  // namespace xsim
