#include "libxsim/report/profile_report.hpp"

#include <mpi.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <map>
#include <sstream>
#include <vector>

#include "libxsim/mpi/real_mpi.hpp"
#include "libxsim/report/wait_state_report.hpp"

namespace xsim {
namespace {

// One figure over ranks: total, and the ranks holding the least and the most (lowest rank
// on ties).
struct Spread {
    unsigned long long total = 0;
    long long min = -1, max = -1;
    int min_rank = -1, max_rank = -1;
    void add(long long value, int rank) {
        total += static_cast<unsigned long long>(value);
        if (min < 0 || value < min || (value == min && rank < min_rank)) min = value, min_rank = rank;
        if (max < 0 || value > max || (value == max && rank < max_rank)) max = value, max_rank = rank;
    }
    void merge(const Spread& o) {
        total += o.total;
        if (o.min_rank >= 0 && (min < 0 || o.min < min || (o.min == min && o.min_rank < min_rank))) min = o.min, min_rank = o.min_rank;
        if (o.max_rank >= 0 && (max < 0 || o.max > max || (o.max == max && o.max_rank < max_rank))) max = o.max, max_rank = o.max_rank;
    }
};

struct CallTotals {
    unsigned long long calls = 0, waiting = 0, bytes = 0;
    Spread time;   // per rank: its total time in the call
    std::vector<int> processes;  // which processes had the call (others' ranks count 0)
};

const char* const kSplitNames[] = {"compute", "point_to_point", "collective", "waiting"};

// This process's part as text: "split <kind> <total> <min> <min rank> <max> <max rank>",
// "call <name> <calls> <waiting> <bytes> <total> <min> <min rank> <max> <max rank>".
std::string local_part(Engine& engine) {
    std::ostringstream out;
    Spread split[4];
    for (int i = 0; i < engine.local_count(); ++i) {
        const Rank& r = engine.local(engine.first_local() + i);
        const TimeSplit& s = r.split;
        const SimTime values[4] = {s.compute(r.clock), s.p2p, s.collective, s.waiting};
        for (int k = 0; k < 4; ++k) split[k].add(static_cast<long long>(values[k]), r.world);
    }
    for (int k = 0; k < 4; ++k)
        out << "split " << kSplitNames[k] << ' ' << split[k].total << ' ' << split[k].min << ' ' << split[k].min_rank
            << ' ' << split[k].max << ' ' << split[k].max_rank << '\n';
    if (const CallProfile* p = engine.profile()) {
        for (std::size_t id = 0; id < p->calls(); ++id) {
            const CallCounters* rows = p->rows(id);
            unsigned long long calls = 0, waiting = 0, bytes = 0;
            Spread time;
            for (int i = 0; i < p->local_ranks(); ++i) {
                calls += rows[i].calls;
                waiting += static_cast<unsigned long long>(rows[i].waiting);
                bytes += rows[i].bytes;
                time.add(static_cast<long long>(rows[i].time), engine.first_local() + i);
            }
            out << "call " << p->name(id) << ' ' << calls << ' ' << waiting << ' ' << bytes << ' ' << time.total << ' '
                << time.min << ' ' << time.min_rank << ' ' << time.max << ' ' << time.max_rank << '\n';
        }
    }
    return out.str();
}

// The per-rank section: one entry per rank up to kRankEntries ranks, beyond that contiguous
// bins of `per_bin` ranks (the last one shorter) holding the mean of their ranks, so the
// section stays bounded at 2^20 ranks. Each process adds its ranks' split into the bins they
// fall in; one sum over the processes gives process 0 the whole section (4 x bins doubles, at
// most 2 MiB, only while writing).
constexpr int kRankEntries = 65536;

struct RankSection {
    int per_bin = 1, bins = 0;
    std::vector<double> sums;  // [part * bins + bin]: picoseconds summed over the bin's ranks
    int first(int bin) const { return bin * per_bin; }
    int last(int bin, int ranks) const { return std::min(ranks, (bin + 1) * per_bin) - 1; }
};

RankSection rank_section(Engine& engine) {
    RankSection r;
    const int ranks = engine.world_size();
    r.per_bin = ranks <= kRankEntries ? 1 : (ranks + kRankEntries - 1) / kRankEntries;
    r.bins = (ranks + r.per_bin - 1) / r.per_bin;
    r.sums.assign(4 * static_cast<std::size_t>(r.bins), 0.0);
    for (int i = 0; i < engine.local_count(); ++i) {
        const Rank& rank = engine.local(engine.first_local() + i);
        const TimeSplit& s = rank.split;
        const SimTime values[4] = {s.compute(rank.clock), s.p2p, s.collective, s.waiting};
        const std::size_t bin = static_cast<std::size_t>(rank.world / r.per_bin);
        for (std::size_t k = 0; k < 4; ++k) r.sums[k * static_cast<std::size_t>(r.bins) + bin] += static_cast<double>(values[k]);
    }
    const int count = static_cast<int>(r.sums.size());
    if (engine.placement().processes > 1) {
        if (engine.placement().process == 0)
            real_mpi.Reduce(MPI_IN_PLACE, r.sums.data(), count, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
        else
            real_mpi.Reduce(r.sums.data(), nullptr, count, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    }
    return r;
}

// Mean seconds of part `k` over the ranks of `bin`.
double bin_mean(const RankSection& r, int k, int bin, int ranks) {
    const double n = r.last(bin, ranks) - r.first(bin) + 1;
    return r.sums[static_cast<std::size_t>(k) * static_cast<std::size_t>(r.bins) + static_cast<std::size_t>(bin)] / n * 1e-12;
}

// "per_rank": {"binned", "ranks_per_bin", "first": [...], "last": [...], "compute_s": [...], ...}
void write_per_rank_json(std::FILE* f, const RankSection& r, int ranks) {
    std::fprintf(f, "  \"per_rank\": {\"binned\": %s, \"ranks_per_bin\": %d", r.per_bin > 1 ? "true" : "false", r.per_bin);
    for (const bool first : {true, false}) {
        std::fprintf(f, ",\n    \"%s\": [", first ? "first" : "last");
        for (int b = 0; b < r.bins; ++b) std::fprintf(f, "%s%d", b ? "," : "", first ? r.first(b) : r.last(b, ranks));
        std::fprintf(f, "]");
    }
    for (int k = 0; k < 4; ++k) {
        std::fprintf(f, ",\n    \"%s_s\": [", kSplitNames[k]);
        for (int b = 0; b < r.bins; ++b) std::fprintf(f, "%s%.12g", b ? "," : "", bin_mean(r, k, b, ranks));
        std::fprintf(f, "]");
    }
    std::fprintf(f, "\n  }");
}

// kind=rank rows: one rank or one bin (name "first-last", calls = its ranks), the means of
// its ranks: total_s their time, waiting_s and the last three columns its split.
void write_per_rank_csv(std::FILE* f, const RankSection& r, int ranks) {
    for (int b = 0; b < r.bins; ++b) {
        const int first = r.first(b), last = r.last(b, ranks);
        double part[4];
        for (int k = 0; k < 4; ++k) part[k] = bin_mean(r, k, b, ranks);
        char name[32];
        if (first == last) std::snprintf(name, sizeof name, "%d", first);
        else std::snprintf(name, sizeof name, "%d-%d", first, last);
        std::fprintf(f, "rank,%s,%d,%.12g,,,%.12g,,,%d,,,%d,%.12g,%.12g,%.12g\n", name, last - first + 1,
                     part[0] + part[1] + part[2] + part[3], part[3], first, last, part[0], part[1], part[2]);
    }
}

// Process 0: every process's part, in process order.
std::vector<std::string> gather_parts(const std::string& mine, int process, int processes) {
    int size = static_cast<int>(mine.size());
    std::vector<int> sizes(static_cast<std::size_t>(processes)), displs(static_cast<std::size_t>(processes));
    real_mpi.Gather(&size, 1, MPI_INT, sizes.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    std::vector<char> all;
    if (process == 0) {
        int at = 0;
        for (int p = 0; p < processes; ++p) displs[p] = at, at += sizes[p];
        all.resize(static_cast<std::size_t>(at) + 1);
    }
    real_mpi.Gatherv(mine.data(), size, MPI_CHAR, all.data(), sizes.data(), displs.data(), MPI_CHAR, 0, MPI_COMM_WORLD);
    std::vector<std::string> parts;
    if (process == 0)
        for (int p = 0; p < processes; ++p) parts.emplace_back(all.data() + displs[p], static_cast<std::size_t>(sizes[p]));
    return parts;
}

double seconds(unsigned long long ps) { return simtime_to_seconds(static_cast<SimTime>(ps)); }
double seconds(long long ps) { return simtime_to_seconds(static_cast<SimTime>(ps)); }

}  // namespace

bool write_profile(Engine& engine, const std::string& path) {
    const int process = engine.placement().process, processes = engine.placement().processes;
    const std::vector<std::string> parts = gather_parts(local_part(engine), process, processes);
    const RankSection per_rank = rank_section(engine);
    const WaitStateTotals waits = reduce_wait_states(engine);
    if (process != 0) return true;

    // Each process's ranks: first rank of process p, for the ranks that never made a call.
    std::vector<int> first(static_cast<std::size_t>(processes));
    {
        const int base = engine.world_size() / processes, extra = engine.world_size() % processes;
        for (int p = 0; p < processes; ++p) first[p] = p * base + std::min(p, extra);
    }
    Spread split[4];
    std::map<std::string, CallTotals> calls;
    for (int p = 0; p < processes; ++p) {
        std::istringstream in(parts[p]);
        std::string kind, name;
        while (in >> kind >> name) {
            Spread s;
            if (kind == "split") {
                in >> s.total >> s.min >> s.min_rank >> s.max >> s.max_rank;
                for (int k = 0; k < 4; ++k)
                    if (name == kSplitNames[k]) split[k].merge(s);
            } else {
                CallTotals& c = calls[name];
                unsigned long long n = 0, w = 0, b = 0;
                in >> n >> w >> b >> s.total >> s.min >> s.min_rank >> s.max >> s.max_rank;
                c.calls += n, c.waiting += w, c.bytes += b;
                c.time.merge(s);
                c.processes.push_back(p);
            }
        }
    }
    // A process without the call: its ranks spent 0 in it.
    for (auto& [name, c] : calls)
        for (int p = 0; p < processes; ++p)
            if (std::find(c.processes.begin(), c.processes.end(), p) == c.processes.end()) {
                Spread zero;
                zero.add(0, first[p]);
                zero.total = 0;
                c.time.merge(zero);
            }
    const unsigned long long rank_time = split[0].total + split[1].total + split[2].total + split[3].total;
    const double ranks = engine.world_size();
    const auto share = [&](unsigned long long t) { return rank_time ? static_cast<double>(t) / static_cast<double>(rank_time) : 0.0; };

    std::FILE* f = std::fopen(path.c_str(), "w");
    if (!f) {
        std::fprintf(stderr, "xsim: -xsim-profile %s: cannot write the profile: %s\n", path.c_str(), std::strerror(errno));
        return false;
    }
    const bool json = path.size() >= 5 && path.compare(path.size() - 5, 5, ".json") == 0;
    if (json) {
        std::fprintf(f, "{\n  \"ranks\": %d,\n  \"processes\": %d,\n  \"rank_time_s\": %.12g,\n  \"split\": {", engine.world_size(),
                     processes, seconds(rank_time));
        for (int k = 0; k < 4; ++k)
            std::fprintf(f,
                         "%s\n    \"%s\": {\"total_s\": %.12g, \"share\": %.6g, \"min_s\": %.12g, \"min_rank\": %d, "
                         "\"mean_s\": %.12g, \"max_s\": %.12g, \"max_rank\": %d}",
                         k ? "," : "", kSplitNames[k], seconds(split[k].total), share(split[k].total), seconds(split[k].min),
                         split[k].min_rank, seconds(split[k].total) / ranks, seconds(split[k].max), split[k].max_rank);
        std::fprintf(f, "\n  },\n");
        write_per_rank_json(f, per_rank, engine.world_size());
        std::fprintf(f, ",\n  \"calls\": [");
        bool first_call = true;
        for (const auto& [name, c] : calls) {
            std::fprintf(f,
                         "%s\n    {\"name\": \"%s\", \"calls\": %llu, \"total_s\": %.12g, \"mean_s\": %.12g, \"share\": %.6g, "
                         "\"waiting_s\": %.12g, \"bytes\": %llu, \"min_s\": %.12g, \"min_rank\": %d, \"mean_s_per_rank\": %.12g, "
                         "\"max_s\": %.12g, \"max_rank\": %d}",
                         first_call ? "" : ",", name.c_str(), c.calls, seconds(c.time.total),
                         c.calls ? seconds(c.time.total) / static_cast<double>(c.calls) : 0.0, share(c.time.total),
                         seconds(c.waiting), c.bytes, seconds(c.time.min), c.time.min_rank, seconds(c.time.total) / ranks,
                         seconds(c.time.max), c.time.max_rank);
            first_call = false;
        }
        std::fprintf(f, "\n  ],\n  \"wait_states\": ");
        for (const std::string& line : wait_states_json(waits, split[3].total, "  ")) std::fprintf(f, "%s\n", line.c_str());
        std::fprintf(f, "}\n");
    } else {
        std::fprintf(f,
                     "kind,name,calls,total_s,mean_s,share,waiting_s,bytes,min_s,min_rank,mean_s_per_rank,max_s,max_rank,"
                     "compute_s,point_to_point_s,collective_s\n");
        for (int k = 0; k < 4; ++k)
            std::fprintf(f, "split,%s,,%.12g,,%.6g,,,%.12g,%d,%.12g,%.12g,%d,,,\n", kSplitNames[k], seconds(split[k].total),
                         share(split[k].total), seconds(split[k].min), split[k].min_rank, seconds(split[k].total) / ranks,
                         seconds(split[k].max), split[k].max_rank);
        for (const auto& [name, c] : calls)
            std::fprintf(f, "call,%s,%llu,%.12g,%.12g,%.6g,%.12g,%llu,%.12g,%d,%.12g,%.12g,%d,,,\n", name.c_str(), c.calls,
                         seconds(c.time.total), c.calls ? seconds(c.time.total) / static_cast<double>(c.calls) : 0.0,
                         share(c.time.total), seconds(c.waiting), c.bytes, seconds(c.time.min), c.time.min_rank,
                         seconds(c.time.total) / ranks, seconds(c.time.max), c.time.max_rank);
        write_wait_states_csv(f, waits, rank_time);
        write_per_rank_csv(f, per_rank, engine.world_size());
    }
    const bool ok = std::ferror(f) == 0;
    if (std::fclose(f) != 0 || !ok) {
        std::fprintf(stderr, "xsim: -xsim-profile %s: cannot write the profile\n", path.c_str());
        return false;
    }
    return true;
}

}  // namespace xsim
