// Wait states (engine/wait_states.hpp) reduced over the real processes: per kind the total,
// by call, and the most-blamed ranks; written into the run report and the profile, and the
// summary's sentence naming the dominant one.
#pragma once
#include <cstdio>
#include <string>
#include <vector>

#include "libxsim/engine/engine.hpp"

namespace xsim {

struct WaitStateTotals {
    static constexpr int kTopBlamed = 16;  // most-blamed ranks kept per kind
    struct ByCall {
        std::string call;
        unsigned long long time = 0;   // ps over all ranks
        unsigned long long count = 0;  // waits classified so
    };
    struct Blamed {
        int rank = -1;                 // world rank
        unsigned long long time = 0;   // waiting of this kind it caused (ps)
    };
    unsigned long long total[kWaitKinds] = {};
    unsigned long long count[kWaitKinds] = {};
    std::vector<ByCall> by_call[kWaitKinds];   // most time first
    std::vector<Blamed> blamed[kWaitKinds];    // most time first (ties: lower rank), at most kTopBlamed
    unsigned long long classified() const;
    WaitKind dominant() const;  // None when nothing is classified
};

// Collective over the real processes (real MPI); complete on process 0.
WaitStateTotals reduce_wait_states(Engine& engine);

// Keeps the kTopBlamed largest of `all` (most time first, ties: lower rank); pure, for tests.
std::vector<WaitStateTotals::Blamed> top_blamed(std::vector<WaitStateTotals::Blamed> all);

// "ranks 7-12, 20", "rank 3": the ranks in increasing order, consecutive ones as ranges; at
// most `ranges` ranges, then "and N more".
std::string describe_ranks(std::vector<int> ranks, int ranges = 6);

// The summary's sentence: "34.0% of rank time is waiting; most of it late-sender waiting in
// MPI_Recv (80.0% of the waiting), caused by ranks 7-12". `waiting` and `rank_time` in ps.
std::string wait_state_sentence(const WaitStateTotals& t, unsigned long long waiting, unsigned long long rank_time);

// The "wait_states" JSON object (without key), lines starting with `indent`; `waiting` in ps.
std::vector<std::string> wait_states_json(const WaitStateTotals& t, unsigned long long waiting, const char* indent);

// Profile CSV rows (columns of profile_report.cpp): wait_state, wait_call, wait_blamed.
void write_wait_states_csv(std::FILE* f, const WaitStateTotals& t, unsigned long long rank_time);

}  // namespace xsim
