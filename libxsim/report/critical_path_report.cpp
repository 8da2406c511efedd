#include "libxsim/report/critical_path_report.hpp"

#include <mpi.h>

#include <vector>

#include "libxsim/mpi/real_mpi.hpp"

namespace xsim {
namespace {

// A RunCriticalPath as plain integers, for one gather.
enum Field { kRank, kEnd, kCompute, kLatency, kBandwidth, kOther, kBytes, kLatencies, kFields };

bool later(const RunCriticalPath& a, const RunCriticalPath& b) {
    if (b.rank < 0) return a.rank >= 0;
    return a.rank >= 0 && (a.end > b.end || (a.end == b.end && a.rank < b.rank));
}

}  // namespace

RunCriticalPath local_critical_path(Engine& engine) {
    RunCriticalPath best;
    for (int i = 0; i < engine.local_count(); ++i) {
        const Rank& r = engine.local(engine.first_local() + i);
        RunCriticalPath mine{r.world, r.clock, r.path};
        if (later(mine, best)) best = mine;
    }
    // What the clock gained since the path last caught up with it (poll costs, a
    // collective's closing delay) is other.
    if (best.rank >= 0) best.path.settle(best.end);
    return best;
}

RunCriticalPath reduce_critical_path(Engine& engine) {
    const RunCriticalPath mine = local_critical_path(engine);
    long long packed[kFields] = {mine.rank,          mine.end,          mine.path.compute,
                                 mine.path.latency,  mine.path.bandwidth, mine.path.other,
                                 static_cast<long long>(mine.path.bytes), mine.path.latencies};
    int process = 0, processes = 1;
    real_mpi.Comm_rank(MPI_COMM_WORLD, &process);
    real_mpi.Comm_size(MPI_COMM_WORLD, &processes);
    std::vector<long long> all(process == 0 ? static_cast<std::size_t>(processes) * kFields : 0);
    real_mpi.Gather(packed, kFields, MPI_LONG_LONG, all.data(), kFields, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    RunCriticalPath best;
    for (int p = 0; p < (process == 0 ? processes : 0); ++p) {
        const long long* f = all.data() + static_cast<std::size_t>(p) * kFields;
        RunCriticalPath theirs;
        theirs.rank = static_cast<int>(f[kRank]);
        theirs.end = f[kEnd];
        theirs.path.compute = f[kCompute];
        theirs.path.latency = f[kLatency];
        theirs.path.bandwidth = f[kBandwidth];
        theirs.path.other = f[kOther];
        theirs.path.bytes = static_cast<std::uint64_t>(f[kBytes]);
        theirs.path.latencies = static_cast<std::uint32_t>(f[kLatencies]);
        if (later(theirs, best)) best = theirs;
    }
    return best;
}

void print_critical_path(FdWriter& out, const RunCriticalPath& p) {
    if (p.rank < 0) return;
    const CriticalPath& c = p.path;
    out.print("  \"critical_path\": {\"rank\": %d, \"end_ps\": %lld, \"compute_s\": %.12f, \"latencies\": %u, "
              "\"latency_s\": %.12f, \"bytes\": %llu, \"bandwidth_s\": %.12f, \"other_s\": %.12f, "
              "\"compute_ps\": %lld, \"latency_ps\": %lld, \"bandwidth_ps\": %lld, \"other_ps\": %lld},\n",
              p.rank, static_cast<long long>(p.end), simtime_to_seconds(c.compute), c.latencies,
              simtime_to_seconds(c.latency), static_cast<unsigned long long>(c.bytes), simtime_to_seconds(c.bandwidth),
              simtime_to_seconds(c.other), static_cast<long long>(c.compute), static_cast<long long>(c.latency),
              static_cast<long long>(c.bandwidth), static_cast<long long>(c.other));
}

}  // namespace xsim
