#include "libxsim/report/deadlock_report.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstdio>
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

std::string describe(const Rank& r) {
    std::ostringstream key;
    const BlockedIn& b = r.blocked;
    key << (b.call ? b.call : r.current_call ? r.current_call : "(unknown call)");
    const bool collective = b.context % 2 == 1;
    if (b.nonblocking_collective) {  // waiting on a nonblocking collective's request
        key << " for " << colls::describe_signature(static_cast<std::uint32_t>(b.tag)) << " on "
            << comm_name(b.context);
        return key.str();
    }
    if (collective) {
        key << " on " << comm_name(b.context);
        return key.str();
    }
    key << " (peer ";
    if (b.peer == MPI_ANY_SOURCE) key << "MPI_ANY_SOURCE";
    else key << b.peer;
    key << ", tag ";
    if (b.tag == MPI_ANY_TAG) key << "MPI_ANY_TAG";
    else key << b.tag;
    key << ", " << comm_name(b.context) << ")";
    return key.str();
}

// "key\tfirst\tlast\n" lines: runs of consecutive ranks blocked the same way.
std::string local_groups(const Engine& engine) {
    std::ostringstream out;
    std::string run_key;
    int first = -1, last = -1;
    auto flush = [&]() {
        if (first >= 0) out << run_key << '\t' << first << '\t' << last << '\n';
    };
    for (const Rank* r : engine.unfinished_ranks()) {
        std::string key = describe(*r);
        if (key == run_key && r->world == last + 1) {
            last = r->world;
            continue;
        }
        flush();
        run_key = std::move(key);
        first = last = r->world;
    }
    flush();
    return out.str();
}

}  // namespace

void report_deadlock(Engine& engine, std::int64_t unfinished) {
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
    if (process != 0) return;

    // Merge the runs of all processes by key, keeping rank order.
    std::map<std::string, std::vector<std::pair<int, int>>> groups;
    std::istringstream in(std::string(all.data(), static_cast<std::size_t>(total)));
    for (std::string line; std::getline(in, line);) {
        const auto t1 = line.find('\t'), t2 = line.rfind('\t');
        auto& runs = groups[line.substr(0, t1)];
        const int first = std::stoi(line.substr(t1 + 1, t2 - t1 - 1)), last = std::stoi(line.substr(t2 + 1));
        if (!runs.empty() && runs.back().second + 1 == first) runs.back().second = last;
        else runs.emplace_back(first, last);
    }
    std::fprintf(stderr,
                 "xsim: deadlock at virtual time %.9f s: %lld of %d simulated ranks are blocked and no message is "
                 "in flight\n",
                 simtime_to_seconds(latest), static_cast<long long>(unfinished), engine.world_size());
    for (const auto& [key, runs] : groups) {
        long long count = 0;
        for (const auto& [a, b] : runs) count += b - a + 1;
        std::fprintf(stderr, "  %s: %lld rank%s: ", key.c_str(), count, count == 1 ? "" : "s");
        const std::size_t shown = std::min<std::size_t>(runs.size(), 20);
        for (std::size_t i = 0; i < shown; ++i) {
            if (runs[i].first == runs[i].second) std::fprintf(stderr, "%s%d", i ? "," : "", runs[i].first);
            else std::fprintf(stderr, "%s%d-%d", i ? "," : "", runs[i].first, runs[i].second);
        }
        if (shown < runs.size()) std::fprintf(stderr, ",... (%zu more ranges)", runs.size() - shown);
        std::fprintf(stderr, "\n");
    }
    std::fflush(stderr);
}

}  // namespace xsim
