// Per-MPI-call counters of every local rank, kept only with -xsim-profile: a call's name is
// interned once per process into a small id, and each id has one counter row per local rank,
// made the first time any rank of this process makes that call. Memory is O(calls used) per
// rank, never O(ranks) per rank. report/profile_report reduces it at the end.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "pdes/sim_time.hpp"

namespace xsim {

struct CallCounters {
    std::uint64_t calls = 0;
    SimTime time = 0;      // virtual time inside the call, waiting included
    SimTime waiting = 0;   // of which blocked in a wait
    std::uint64_t bytes = 0;  // payload bytes the rank sent in it (collectives: their messages)
};

class CallProfile {
public:
    explicit CallProfile(int local_ranks) : ranks_(local_ranks) {}

    // The outermost call `call` of local rank `index` ended.
    void record(int index, const char* call, SimTime time, SimTime waiting, std::uint64_t bytes) {
        CallCounters& c = row(id_of(call))[index];
        ++c.calls;
        c.time += time;
        c.waiting += waiting;
        c.bytes += bytes;
    }

    std::size_t calls() const { return names_.size(); }
    const std::string& name(std::size_t id) const { return names_[id]; }
    // Counters of call `id`, one per local rank.
    const CallCounters* rows(std::size_t id) const { return rows_[id].get(); }
    int local_ranks() const { return ranks_; }

private:
    std::size_t id_of(const char* call);
    CallCounters* row(std::size_t id) { return rows_[id].get(); }

    struct Slot {
        const char* call = nullptr;
        std::uint32_t id = 0;
    };
    int ranks_;
    Slot cache_[256];  // by the name's address: names are literals
    std::vector<std::string> names_;
    std::vector<std::unique_ptr<CallCounters[]>> rows_;
};

}  // namespace xsim
