#include "libxsim/report/wait_state_report.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>
#include <unordered_map>

#include "libxsim/mpi/real_mpi.hpp"

namespace xsim {
namespace {

constexpr int kTop = WaitStateTotals::kTopBlamed;
constexpr int kKinds = kWaitKinds - 1;  // without None

WaitKind kind_at(int k) { return static_cast<WaitKind>(k); }

// Process 0: every process's text, concatenated.
std::string gather_text(const std::string& mine, int process, int processes) {
    int size = static_cast<int>(mine.size());
    std::vector<int> sizes(static_cast<std::size_t>(processes)), displs(static_cast<std::size_t>(processes));
    real_mpi.Gather(&size, 1, MPI_INT, sizes.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    std::vector<char> all(1);
    if (process == 0) {
        int at = 0;
        for (int p = 0; p < processes; ++p) displs[p] = at, at += sizes[p];
        all.resize(static_cast<std::size_t>(at) + 1);
    }
    real_mpi.Gatherv(mine.data(), size, MPI_CHAR, all.data(), sizes.data(), displs.data(), MPI_CHAR, 0, MPI_COMM_WORLD);
    return process == 0 ? std::string(all.data(), all.size() - 1) : std::string();
}

// The blame of ranks in other processes, sent to every process: each adds what concerns
// its own ranks. Returns key (world rank << 3 | kind) -> time for the local ranks.
std::unordered_map<std::uint64_t, SimTime> remote_blame_of_local_ranks(Engine& engine, int processes) {
    std::vector<long long> mine;
    engine.wait_log().for_each_remote([&](std::uint64_t key, SimTime time) {
        mine.push_back(static_cast<long long>(key));
        mine.push_back(static_cast<long long>(time));
    });
    // Gathered on process 0, then broadcast (the real-MPI table has no Allgather).
    int size = static_cast<int>(mine.size());
    std::vector<int> sizes(static_cast<std::size_t>(processes)), displs(static_cast<std::size_t>(processes));
    real_mpi.Gather(&size, 1, MPI_INT, sizes.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    int at = 0;
    for (int p = 0; p < processes; ++p) displs[p] = at, at += sizes[p];
    real_mpi.Bcast(&at, 1, MPI_INT, 0, MPI_COMM_WORLD);
    std::vector<long long> all(static_cast<std::size_t>(at) + 1);
    real_mpi.Gatherv(mine.data(), size, MPI_LONG_LONG, all.data(), sizes.data(), displs.data(), MPI_LONG_LONG, 0,
                     MPI_COMM_WORLD);
    if (at > 0) real_mpi.Bcast(all.data(), at, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    std::unordered_map<std::uint64_t, SimTime> local;
    for (int i = 0; i + 1 < at; i += 2) {
        const auto key = static_cast<std::uint64_t>(all[static_cast<std::size_t>(i)]);
        if (engine.is_local(static_cast<int>(key >> 3))) local[key] += all[static_cast<std::size_t>(i) + 1];
    }
    return local;
}

double wait_seconds(unsigned long long ps) { return simtime_to_seconds(static_cast<SimTime>(ps)); }
double wait_percent(unsigned long long part, unsigned long long whole) {
    return whole ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}

}  // namespace

unsigned long long WaitStateTotals::classified() const {
    unsigned long long sum = 0;
    for (int k = 1; k < kWaitKinds; ++k) sum += total[k];
    return sum;
}

WaitKind WaitStateTotals::dominant() const {
    int best = 0;
    for (int k = 1; k < kWaitKinds; ++k)
        if (total[k] > 0 && (best == 0 || total[k] > total[best])) best = k;
    return kind_at(best);
}

std::vector<WaitStateTotals::Blamed> top_blamed(std::vector<WaitStateTotals::Blamed> all) {
    const auto before = [](const WaitStateTotals::Blamed& a, const WaitStateTotals::Blamed& b) {
        return a.time != b.time ? a.time > b.time : a.rank < b.rank;
    };
    const std::size_t keep = std::min<std::size_t>(all.size(), kTop);
    std::partial_sort(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(keep), all.end(), before);
    all.resize(keep);
    return all;
}

WaitStateTotals reduce_wait_states(Engine& engine) {
    const int process = engine.placement().process, processes = engine.placement().processes;
    WaitStateTotals t;

    // By call and kind: "<kind> <time> <count> <call>" lines, merged on process 0.
    std::ostringstream rows;
    for (const WaitStateLog::CallRow& row : engine.wait_log().rows())
        for (int k = 1; k < kWaitKinds; ++k)
            if (row.count[k]) rows << k << ' ' << row.time[k] << ' ' << row.count[k] << ' ' << row.call << '\n';
    const std::string text = gather_text(rows.str(), process, processes);

    // Blame: every rank's total per kind lives on its own process; the top ranks of each
    // process go to process 0 (kinds x kTop pairs each).
    const auto extra = remote_blame_of_local_ranks(engine, processes);
    std::vector<long long> top(static_cast<std::size_t>(kKinds * kTop * 2), -1);
    for (int k = 1; k < kWaitKinds; ++k) {
        std::vector<WaitStateTotals::Blamed> candidates;
        for (int i = 0; i < engine.local_count(); ++i) {
            const Rank& r = engine.local(engine.first_local() + i);
            SimTime v = r.blame.caused[k - 1];
            if (!extra.empty()) {
                const auto it = extra.find((static_cast<std::uint64_t>(r.world) << 3) | static_cast<std::uint64_t>(k));
                if (it != extra.end()) v += it->second;
            }
            if (v > 0) candidates.push_back({r.world, static_cast<unsigned long long>(v)});
        }
        const auto kept = top_blamed(std::move(candidates));
        for (std::size_t j = 0; j < kept.size(); ++j) {
            top[((k - 1) * kTop + j) * 2] = kept[j].rank;
            top[((k - 1) * kTop + j) * 2 + 1] = static_cast<long long>(kept[j].time);
        }
    }
    std::vector<long long> tops(process == 0 ? top.size() * static_cast<std::size_t>(processes) : 1);
    real_mpi.Gather(top.data(), static_cast<int>(top.size()), MPI_LONG_LONG, tops.data(), static_cast<int>(top.size()),
                    MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    if (process != 0) return t;

    std::map<std::string, WaitStateTotals::ByCall> calls[kWaitKinds];
    std::istringstream in(text);
    int k;
    unsigned long long time, count;
    std::string call;
    while (in >> k >> time >> count >> call) {
        if (k <= 0 || k >= kWaitKinds) continue;
        WaitStateTotals::ByCall& c = calls[k][call];
        c.call = call;
        c.time += time;
        c.count += count;
        t.total[k] += time;
        t.count[k] += count;
    }
    for (int kind = 1; kind < kWaitKinds; ++kind) {
        for (auto& [name, c] : calls[kind]) t.by_call[kind].push_back(c);
        std::stable_sort(t.by_call[kind].begin(), t.by_call[kind].end(),
                         [](const auto& a, const auto& b) { return a.time > b.time; });
        std::vector<WaitStateTotals::Blamed> all;
        for (int p = 0; p < processes; ++p)
            for (int j = 0; j < kTop; ++j) {
                const std::size_t at = (static_cast<std::size_t>(p) * top.size()) + ((kind - 1) * kTop + j) * 2;
                if (tops[at] >= 0) all.push_back({static_cast<int>(tops[at]), static_cast<unsigned long long>(tops[at + 1])});
            }
        t.blamed[kind] = top_blamed(std::move(all));
    }
    return t;
}

std::string describe_ranks(std::vector<int> ranks, int ranges) {
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    std::string out = ranks.size() == 1 ? "rank " : "ranks ";
    int shown = 0;
    std::size_t i = 0;
    while (i < ranks.size()) {
        std::size_t j = i;
        while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1) ++j;
        if (shown == ranges) {
            out += " and " + std::to_string(ranks.size() - i) + " more";
            break;
        }
        if (shown) out += ", ";
        out += std::to_string(ranks[i]);
        if (j > i) out += "-" + std::to_string(ranks[j]);
        ++shown;
        i = j + 1;
    }
    return out;
}

std::string wait_state_sentence(const WaitStateTotals& t, unsigned long long waiting, unsigned long long rank_time) {
    char head[96];
    std::snprintf(head, sizeof head, "%.1f%% of rank time is waiting", wait_percent(waiting, rank_time));
    const WaitKind kind = t.dominant();
    if (waiting == 0) return head;
    if (kind == WaitKind::None) return std::string(head) + "; none of it on a late peer (transfers and other)";
    const int k = static_cast<int>(kind);
    const double share = wait_percent(t.total[k], waiting);
    // In a run bound by latency most of the waiting is on messages in flight, with no late
    // peer to blame: say so first rather than call a small kind "the largest part".
    const unsigned long long classified = t.classified();
    const double unclassified = classified < waiting ? wait_percent(waiting - classified, waiting) : 0.0;
    const char* lead = share >= 50.0 ? "most of it" : "the largest part";
    char rest[96] = "";
    if (unclassified > share) {
        std::snprintf(rest, sizeof rest, "; %.1f%% of it on no late peer (transfers and other)", unclassified);
        lead = "the largest part on a late peer:";
    }
    char body[256];
    std::snprintf(body, sizeof body, "%s; %s %s in %s (%.1f%% of the waiting)", rest, lead, wait_kind_words(kind),
                  t.by_call[k].empty() ? "?" : t.by_call[k].front().call.c_str(), share);
    std::string out = std::string(head) + body;
    // The culprits: the most-blamed ranks that caused at least half as much as the first.
    std::vector<int> culprits;
    unsigned long long theirs = 0;
    for (const auto& b : t.blamed[k])
        if (2 * b.time >= t.blamed[k].front().time) culprits.push_back(b.rank), theirs += b.time;
    if (!culprits.empty()) {
        char tail[48];
        std::snprintf(tail, sizeof tail, " (%.0f%% of it)", wait_percent(theirs, t.total[k]));
        out += ", caused by " + describe_ranks(culprits) + tail;
    }
    return out;
}

std::vector<std::string> wait_states_json(const WaitStateTotals& t, unsigned long long waiting, const char* indent) {
    std::vector<std::string> lines;
    char buf[512];
    const std::string in = indent;
    std::snprintf(buf, sizeof buf, "{\"waiting_s\": %.12g, \"classified_s\": %.12g, \"dominant\": \"%s\", \"kinds\": {",
                  wait_seconds(waiting), wait_seconds(t.classified()), wait_kind_key(t.dominant()));
    lines.push_back(buf);
    for (int k = 1; k < kWaitKinds; ++k) {
        std::snprintf(buf, sizeof buf, "%s  \"%s\": {\"total_s\": %.12g, \"share_of_waiting\": %.6g, \"waits\": %llu, \"by_call\": [",
                      in.c_str(), wait_kind_key(kind_at(k)), wait_seconds(t.total[k]), wait_percent(t.total[k], waiting) / 100.0,
                      t.count[k]);
        lines.push_back(buf);
        for (std::size_t i = 0; i < t.by_call[k].size(); ++i) {
            const auto& c = t.by_call[k][i];
            std::snprintf(buf, sizeof buf, "%s    {\"call\": \"%s\", \"total_s\": %.12g, \"waits\": %llu}%s", in.c_str(),
                          c.call.c_str(), wait_seconds(c.time), c.count, i + 1 < t.by_call[k].size() ? "," : "");
            lines.push_back(buf);
        }
        lines.push_back(in + "  ], \"blamed\": [");
        for (std::size_t i = 0; i < t.blamed[k].size(); ++i) {
            const auto& b = t.blamed[k][i];
            std::snprintf(buf, sizeof buf, "%s    {\"rank\": %d, \"caused_s\": %.12g}%s", in.c_str(), b.rank, wait_seconds(b.time),
                          i + 1 < t.blamed[k].size() ? "," : "");
            lines.push_back(buf);
        }
        lines.push_back(in + "  ]}" + (k + 1 < kWaitKinds ? "," : ""));
    }
    lines.push_back(in + "}}");
    return lines;
}

void write_wait_states_csv(std::FILE* f, const WaitStateTotals& t, unsigned long long rank_time) {
    const auto share = [&](unsigned long long v) { return rank_time ? static_cast<double>(v) / static_cast<double>(rank_time) : 0.0; };
    for (int k = 1; k < kWaitKinds; ++k) {
        const char* key = wait_kind_key(kind_at(k));
        std::fprintf(f, "wait_state,%s,%llu,%.12g,%.12g,%.6g,%.12g,,,,,,,,,\n", key, t.count[k], wait_seconds(t.total[k]),
                     t.count[k] ? wait_seconds(t.total[k]) / static_cast<double>(t.count[k]) : 0.0, share(t.total[k]),
                     wait_seconds(t.total[k]));
        for (const auto& c : t.by_call[k])
            std::fprintf(f, "wait_call,%s:%s,%llu,%.12g,%.12g,%.6g,%.12g,,,,,,,,,\n", key, c.call.c_str(), c.count,
                         wait_seconds(c.time), c.count ? wait_seconds(c.time) / static_cast<double>(c.count) : 0.0, share(c.time),
                         wait_seconds(c.time));
        for (const auto& b : t.blamed[k])
            std::fprintf(f, "wait_blamed,%s,,%.12g,,%.6g,,,,,,%.12g,%d,,,\n", key, wait_seconds(b.time), share(b.time),
                         wait_seconds(b.time), b.rank);
    }
}

}  // namespace xsim
