// Wait states (issue 11, Scalasca's patterns): the waiting of a blocked rank (time_split.hpp)
// classified exactly when the wait ends, by what its requests learned as messages matched
// and collectives completed, with the rank that caused it:
//  - late sender: a receive (Recv, Wait on an Irecv, Probe) blocked before the matching
//    send started: send start - receive start, blamed on the sender;
//  - late receiver: a synchronous or rendezvous send blocked before the matching receive
//    was posted: receive post - send start, blamed on the receiver;
//  - wait at N x N (Allreduce, Allgather, Alltoall, Barrier, Reduce_scatter, Scan, neighbor
//    collectives, communicator creation): latest entry over the ranks the call depended on
//    - own entry, blamed on the rank that entered last;
//  - late root (Bcast, Scatter(v)): non-root: root entry - own entry, blamed on the root;
//  - wait at N x 1, early reduce (Reduce, Gather(v)): root: latest non-root entry - root
//    entry, blamed on that rank.
// "Start" of the waiting rank is the later of the operation's start and the wait's call
// (a Wait on an Irecv waits from its own entry); the amount never exceeds the clock jump
// of the wait, so the kinds are a part of the waiting and the rest is transfer and other.
// A wait on several requests takes the one that explains the most.
// Collective entries travel as a WaitStamp (latest entry, its rank) on the call's messages,
// merged as each round completes, so every rank knows the latest entry it depended on.
// Cost: a few compares per matched message and per wait; 40 bytes per rank (what it caused,
// by kind); per process a row per (call, kind) and the blame of ranks in other processes.
#pragma once
#include <cstdint>
#include <cstddef>
#include <vector>

#include "pdes/sim_time.hpp"

namespace xsim {

class Engine;
struct Rank;
struct Request;

enum class WaitKind : std::uint8_t { None, LateSender, LateReceiver, WaitNxN, LateRoot, WaitNx1 };
constexpr int kWaitKinds = 6;  // index 0 (None) unused

// "late_sender", ... (report keys) and "late-sender", ... (the summary's words).
const char* wait_kind_key(WaitKind kind);
const char* wait_kind_words(WaitKind kind);

// The latest entry into a collective seen so far, and the rank (world) that made it.
// Ties go to the lower rank, so the result does not depend on the order of merging.
struct WaitStamp {
    SimTime time = -1;
    std::int32_t rank = -1;
    void merge(SimTime t, std::int32_t r) {
        if (r < 0) return;
        if (t > time || (t == time && (rank < 0 || r < rank))) time = t, rank = r;
    }
};

// The classified part of one wait: `cause` (when the late side started) minus the waiting
// side's start (the later of its operation's start and its wait's call), at most the
// clock jump `waited` of the wait; 0 when the cause came first.
inline SimTime wait_state_amount(SimTime cause, SimTime op_start, SimTime wait_start, SimTime waited) {
    const SimTime start = op_start > wait_start ? op_start : wait_start;
    if (cause <= start || waited <= 0) return 0;
    const SimTime late = cause - start;
    return late < waited ? late : waited;
}

// Per rank: the waiting this rank caused other ranks of this process (and itself), by kind.
struct WaitBlame {
    SimTime caused[kWaitKinds - 1] = {};
};

// Per real process: waiting by call and kind, and the blame of ranks of other processes.
// Recorded on the waiting rank's stack, which may be 2 KiB: no allocation through malloc
// there (rows are reserved up front; the blame table is open addressing in pages of its
// own, doubled with mmap when half full).
class WaitStateLog {
public:
    WaitStateLog() {
        rows_.reserve(256);
        grow();  // the first table here, not on a rank's stack
    }
    ~WaitStateLog();
    WaitStateLog(const WaitStateLog&) = delete;
    WaitStateLog& operator=(const WaitStateLog&) = delete;
    struct CallRow {
        const char* call = nullptr;  // interned by address (call names are literals)
        SimTime time[kWaitKinds] = {};
        std::uint64_t count[kWaitKinds] = {};
    };
    void add(const char* call, WaitKind kind, SimTime amount) {
        CallRow& row = row_of(call);
        row.time[static_cast<int>(kind)] += amount;
        ++row.count[static_cast<int>(kind)];
    }
    void blame_remote(std::int32_t rank, WaitKind kind, SimTime amount) {
        if (2 * (used_ + 1) > capacity_) grow();
        const std::uint64_t key = ((static_cast<std::uint64_t>(rank) << 3) | static_cast<std::uint64_t>(kind)) + 1;
        Slot& s = slot_of(table_, capacity_, key);
        if (s.key == 0) s.key = key, ++used_;
        s.time += amount;
    }
    const std::vector<CallRow>& rows() const { return rows_; }
    // f(key, time) for each rank of another process blamed; key: world rank << 3 | kind.
    template <class F>
    void for_each_remote(F f) const {
        for (std::size_t i = 0; i < capacity_; ++i)
            if (table_[i].key) f(table_[i].key - 1, table_[i].time);
    }

private:
    struct Slot {
        std::uint64_t key;  // (rank << 3 | kind) + 1; 0: empty
        SimTime time;
    };
    static Slot& slot_of(Slot* table, std::size_t capacity, std::uint64_t key) {
        std::size_t i = static_cast<std::size_t>(key * 0x9E3779B97F4A7C15ull) & (capacity - 1);
        while (table[i].key != 0 && table[i].key != key) i = (i + 1) & (capacity - 1);
        return table[i];
    }
    CallRow& row_of(const char* call);
    void grow();
    std::vector<CallRow> rows_;
    std::size_t last_ = 0;
    Slot* table_ = nullptr;
    std::size_t capacity_ = 0, used_ = 0;
};

// A wait of `me` ended after its clock jumped by `waited`: classifies it by the requests
// (reqs[i] null: skipped; only those decided count) and records it, blaming the cause.
void record_wait_states(Engine& engine, Rank& me, Request* const* reqs, int n, SimTime waited);
// A probe woken by a message sent at `sent` by world rank `sender` (late sender).
void record_probe_wait(Engine& engine, Rank& me, SimTime sent, std::int32_t sender, SimTime waited);
// Records `amount` of `kind` waiting of `me` in its current call, caused by world rank `blamed`.
void record_wait_state(Engine& engine, Rank& me, WaitKind kind, SimTime amount, std::int32_t blamed);

}  // namespace xsim
