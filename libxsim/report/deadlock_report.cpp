#include "libxsim/report/deadlock_report.hpp"

#include <mpi.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "libxsim/colls/collective_kind.hpp"
#include "libxsim/mpi/real_mpi.hpp"

namespace xsim {
namespace {

std::string comm_name(std::uint32_t context) {
    if (context / 2 == kWorldContext / 2) return "MPI_COMM_WORLD";
    if (context / 2 == kSelfContext / 2) return "MPI_COMM_SELF";
    return "communicator #" + std::to_string(context / 2);
}

// What a blocked rank waits for, split so that the peer can be shown relative to the
// rank (group lines) or absolute (the full list).
struct Wait {
    std::string call;    // "MPI_Send"
    std::string peer;    // " to", " from", " with" (empty: no peer)
    bool relative = false;
    long long offset = 0;  // relative: peer = (rank + offset) mod size
    std::string target;    // not relative: "rank 5", "MPI_ANY_SOURCE"
    std::string rest;      // " (tag 0, MPI_COMM_WORLD)"

    std::string target_text() const {
        if (!relative) return target;
        if (offset == 0) return "itself";
        return "rank" + std::string(offset > 0 ? "+" : "-") + std::to_string(offset > 0 ? offset : -offset);
    }
    std::string group_key() const { return call + peer + (peer.empty() ? "" : " " + target_text()) + rest; }
    std::string for_rank(int world, int size) const {
        if (!relative) return group_key();
        const long long abs = ((world + offset) % size + size) % size;
        return call + peer + " rank " + std::to_string(abs) + rest;
    }
};

const char* direction(const char* call) {
    static const char* const sends[] = {"MPI_Send", "MPI_Ssend", "MPI_Bsend", "MPI_Rsend"};
    static const char* const receives[] = {"MPI_Recv", "MPI_Probe", "MPI_Mprobe"};
    for (const char* s : sends)
        if (std::strcmp(call, s) == 0) return " to";
    for (const char* r : receives)
        if (std::strcmp(call, r) == 0) return " from";
    return " with";
}

Wait describe(const Rank& r, int size) {
    Wait w;
    const BlockedIn& b = r.blocked;
    w.call = b.call ? b.call : r.current_call ? r.current_call : "(unknown call)";
    if (b.generalized) {
        w.rest = " for a generalized request that only it can complete (MPI_Grequest_complete)";
        return w;
    }
    if (b.nonblocking_collective) {  // waiting on a nonblocking collective's request
        w.rest = " for " + colls::describe_signature(static_cast<std::uint32_t>(b.tag)) + " on " + comm_name(b.context);
        return w;
    }
    if (b.context % 2 == 1) {  // a collective's context
        w.rest = " on " + comm_name(b.context);
        return w;
    }
    w.peer = direction(w.call.c_str());
    if (b.peer == MPI_ANY_SOURCE) {
        w.target = "MPI_ANY_SOURCE";
    } else if (b.context / 2 == kWorldContext / 2) {
        // Communicator ranks are world ranks here: the nearer way round the ring.
        long long d = ((static_cast<long long>(b.peer) - r.world) % size + size) % size;
        if (d > size / 2) d -= size;
        w.relative = true;
        w.offset = d;
    } else {
        w.target = "rank " + std::to_string(b.peer);
    }
    w.rest = " (tag " + (b.tag == MPI_ANY_TAG ? std::string("MPI_ANY_TAG") : std::to_string(b.tag)) + ", " +
             comm_name(b.context) + ")";
    return w;
}

// An arithmetic run of ranks: first, first + stride, ..., last.
struct Run {
    int first = 0, last = 0, stride = 0;
    long long count() const { return stride == 0 ? 1 : (last - first) / stride + 1; }
    // Appends `rank` (larger than last) when it continues the run.
    bool extend(int rank) {
        if (first == last) stride = rank - first;
        else if (rank != last + stride) return false;
        last = rank;
        return true;
    }
    // Appends the run `next` (all larger) when the two make one.
    bool extend(const Run& next) {
        if (!extend(next.first)) return false;
        if (next.first == next.last) return true;
        if (next.stride != stride) {  // undo: only the first rank fit
            last = next.first - stride;
            if (last == first) stride = 0;
            return false;
        }
        last = next.last;
        return true;
    }
};

struct BlockedGroup {
    Wait wait;
    std::vector<Run> runs;
    long long count() const {
        long long n = 0;
        for (const Run& r : runs) n += r.count();
        return n;
    }
};

void add_run(BlockedGroup& g, const Run& run) {
    if (g.runs.empty() || !g.runs.back().extend(run)) g.runs.push_back(run);
}

// Tab-separated lines: call, peer, relative, offset, target, rest, first, last, stride.
std::string local_groups(const Engine& engine) {
    std::map<std::string, BlockedGroup> groups;
    for (const Rank* r : engine.unfinished_ranks()) {
        Wait w = describe(*r, engine.world_size());
        BlockedGroup& g = groups[w.group_key()];
        if (g.runs.empty()) g.wait = std::move(w);
        add_run(g, Run{r->world, r->world, 0});
    }
    std::ostringstream out;
    for (const auto& [key, g] : groups)
        for (const Run& run : g.runs)
            out << g.wait.call << '\t' << g.wait.peer << '\t' << g.wait.relative << '\t' << g.wait.offset << '\t'
                << g.wait.target << '\t' << g.wait.rest << '\t' << run.first << '\t' << run.last << '\t' << run.stride
                << '\n';
    return out.str();
}

std::vector<BlockedGroup> merge_blocked_groups(const std::string& all) {
    std::map<std::string, BlockedGroup> groups;
    std::istringstream in(all);
    for (std::string line; std::getline(in, line);) {
        std::vector<std::string> f;
        std::size_t at = 0;
        for (std::size_t tab; (tab = line.find('\t', at)) != std::string::npos; at = tab + 1) f.push_back(line.substr(at, tab - at));
        f.push_back(line.substr(at));
        if (f.size() != 9) continue;
        Wait w{f[0], f[1], f[2] == "1", std::stoll(f[3]), f[4], f[5]};
        BlockedGroup& g = groups[w.group_key()];
        if (g.runs.empty()) g.wait = std::move(w);
        // Processes hold ascending rank blocks and were gathered in order.
        add_run(g, Run{std::stoi(f[6]), std::stoi(f[7]), std::stoi(f[8])});
    }
    std::vector<BlockedGroup> out;
    for (auto& [key, g] : groups) out.push_back(std::move(g));
    std::sort(out.begin(), out.end(), [](const BlockedGroup& a, const BlockedGroup& b) { return a.runs[0].first < b.runs[0].first; });
    return out;
}

// A rank blocked in MPI_Send at a deadlock sent a message above its path's eager limit: an
// eager send completes at once. What ABySS-P does (every rank in MPI_Send, no receive posted)
// hangs natively too, above Open MPI's eager limit; the user can raise xsim's.
constexpr const char* kBlockedSendHint =
    "  a rank blocked in MPI_Send waits for its receiver: its message is above the eager limit of its path\n"
    "  (machine key network.level[].rendezvous: 4096 B within a node in the default machine), and then MPI_Send\n"
    "  returns only once a matching receive is posted, as MPI allows. A program that counts on MPI_Send\n"
    "  buffering hangs natively too above Open MPI's eager limit (btl_vader_eager_limit: 4096 B with its headers);\n"
    "  to run it with a larger one, raise it: -xsim-set network.level.node.rendezvous=65536 (per level)\n";

std::string thousands(long long n) {
    std::string digits = std::to_string(n), out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

std::string run_text(const Run& r) {
    if (r.first == r.last) return std::to_string(r.first);
    std::string text = std::to_string(r.first) + "-" + std::to_string(r.last);
    return r.stride == 1 ? text : text + " step " + std::to_string(r.stride);
}

// One line per blocked rank, in rank order. Returns "" or why it could not be written.
std::string write_full_list(const std::string& path, const std::vector<BlockedGroup>& groups, int size) {
    std::vector<std::pair<int, const BlockedGroup*>> ranks;
    for (const BlockedGroup& g : groups)
        for (const Run& r : g.runs)
            for (long long k = 0; k < r.count(); ++k) ranks.emplace_back(r.first + static_cast<int>(k) * r.stride, &g);
    std::sort(ranks.begin(), ranks.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::FILE* f = std::fopen(path.c_str(), "w");
    if (!f) return std::strerror(errno);
    std::fprintf(f, "# rank: what it is blocked in (xsim deadlock report, every blocked rank)\n");
    for (const auto& [rank, g] : ranks) std::fprintf(f, "%d: %s\n", rank, g->wait.for_rank(rank, size).c_str());
    const bool ok = !std::ferror(f);
    if (std::fclose(f) != 0 || !ok) return std::strerror(errno ? errno : EIO);
    return "";
}

}  // namespace

std::string deadlock_list_path(const std::string& report_path) {
    if (report_path.empty()) return "xsim-deadlock.txt";
    std::string base = report_path;
    if (base.size() > 5 && base.compare(base.size() - 5, 5, ".json") == 0) base.resize(base.size() - 5);
    return base + ".deadlock.txt";
}

std::string report_deadlock(Engine& engine, std::int64_t unfinished) {
    int process = 0, processes = 1;
    real_mpi.Comm_rank(MPI_COMM_WORLD, &process);
    real_mpi.Comm_size(MPI_COMM_WORLD, &processes);
    const std::string mine = local_groups(engine);
    int length = static_cast<int>(mine.size());
    std::vector<int> lengths(static_cast<std::size_t>(processes)), displs(lengths.size());
    real_mpi.Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    int total = 0;
    for (std::size_t p = 0; p < lengths.size(); ++p) displs[p] = total, total += lengths[p];
    std::vector<char> all(static_cast<std::size_t>(std::max(total, 1)));
    real_mpi.Gatherv(mine.data(), length, MPI_CHAR, all.data(), lengths.data(), displs.data(), MPI_CHAR, 0, MPI_COMM_WORLD);
    std::int64_t latest = engine.latest_clock();
    real_mpi.Reduce(process == 0 ? MPI_IN_PLACE : &latest, &latest, 1, MPI_INT64_T, MPI_MAX, 0, MPI_COMM_WORLD);
    if (process != 0) return "";

    const std::vector<BlockedGroup> groups = merge_blocked_groups(std::string(all.data(), static_cast<std::size_t>(total)));
    char head[256];
    std::snprintf(head, sizeof head,
                  "deadlock at virtual time %.9f s: %s of %s simulated ranks are blocked and no message is in flight",
                  simtime_to_seconds(latest), thousands(unfinished).c_str(), thousands(engine.world_size()).c_str());
    std::fprintf(stderr, "xsim: %s\n", head);
    bool cut = groups.size() > kShownGroups;
    for (std::size_t i = 0; i < groups.size() && i < kShownGroups; ++i) {
        const BlockedGroup& g = groups[i];
        const long long count = g.count();
        std::string ranks;
        for (std::size_t k = 0; k < g.runs.size() && k < kShownRuns; ++k) ranks += (k ? ", " : "") + run_text(g.runs[k]);
        if (g.runs.size() > kShownRuns) {
            ranks += ", ... (" + thousands(static_cast<long long>(g.runs.size() - kShownRuns)) + " more ranges)";
            cut = true;
        }
        std::fprintf(stderr, "  %s rank%s in %s: %s\n", thousands(count).c_str(), count == 1 ? "" : "s",
                     g.wait.group_key().c_str(), ranks.c_str());
    }
    if (std::any_of(groups.begin(), groups.end(), [](const BlockedGroup& g) { return g.wait.call == "MPI_Send"; }))
        std::fprintf(stderr, "%s", kBlockedSendHint);
    if (cut) {
        const std::string path = deadlock_list_path(engine.options().report_path);
        if (groups.size() > kShownGroups)
            std::fprintf(stderr, "  ... and %s more groups\n", thousands(static_cast<long long>(groups.size() - kShownGroups)).c_str());
        const std::string why = write_full_list(path, groups, engine.world_size());
        if (why.empty()) std::fprintf(stderr, "  the full list, one line per blocked rank, is in %s\n", path.c_str());
        else std::fprintf(stderr, "  (the full list could not be written to %s: %s)\n", path.c_str(), why.c_str());
    }
    std::fflush(stderr);
    return head;
}

}  // namespace xsim
