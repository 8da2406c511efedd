#include "libxsim/engine/wait_states.hpp"

#include <sys/mman.h>

#include <cstdio>
#include <cstdlib>

#include "libxsim/engine/engine.hpp"

namespace xsim {

const char* wait_kind_key(WaitKind kind) {
    switch (kind) {
        case WaitKind::LateSender: return "late_sender";
        case WaitKind::LateReceiver: return "late_receiver";
        case WaitKind::WaitNxN: return "wait_at_nxn";
        case WaitKind::LateRoot: return "late_root";
        case WaitKind::WaitNx1: return "wait_at_nx1";
        case WaitKind::None: break;
    }
    return "none";
}

const char* wait_kind_words(WaitKind kind) {
    switch (kind) {
        case WaitKind::LateSender: return "late-sender waiting";
        case WaitKind::LateReceiver: return "late-receiver waiting";
        case WaitKind::WaitNxN: return "wait at N x N";
        case WaitKind::LateRoot: return "late-root waiting";
        case WaitKind::WaitNx1: return "early-reduce waiting (N x 1)";
        case WaitKind::None: break;
    }
    return "unclassified waiting";
}

WaitStateLog::CallRow& WaitStateLog::row_of(const char* call) {
    if (last_ < rows_.size() && rows_[last_].call == call) return rows_[last_];
    for (std::size_t i = 0; i < rows_.size(); ++i)
        if (rows_[i].call == call) return rows_[last_ = i];
    rows_.push_back(CallRow{});
    rows_.back().call = call;
    return rows_[last_ = rows_.size() - 1];
}

WaitStateLog::~WaitStateLog() {
    if (table_) munmap(table_, capacity_ * sizeof(Slot));
}

// Doubles the blame table (256 slots, 4 KiB, at first) in fresh pages: mmap keeps this
// shallow on a small rank stack, and zeroed pages are empty slots.
void WaitStateLog::grow() {
    const std::size_t capacity = capacity_ ? capacity_ * 2 : 256;
    void* fresh = mmap(nullptr, capacity * sizeof(Slot), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (fresh == MAP_FAILED) {
        std::fputs("xsim: out of memory for the wait-state blame table\n", stderr);
        std::abort();
    }
    auto* table = static_cast<Slot*>(fresh);
    for (std::size_t i = 0; i < capacity_; ++i)
        if (table_[i].key) slot_of(table, capacity, table_[i].key) = table_[i];
    if (table_) munmap(table_, capacity_ * sizeof(Slot));
    table_ = table;
    capacity_ = capacity;
}

void record_wait_state(Engine& engine, Rank& me, WaitKind kind, SimTime amount, std::int32_t blamed) {
    if (amount <= 0 || kind == WaitKind::None || blamed < 0) return;
    engine.wait_log().add(me.split.call ? me.split.call : "(outside MPI calls)", kind, amount);
    if (engine.is_local(blamed))
        engine.local(blamed).blame.caused[static_cast<int>(kind) - 1] += amount;
    else
        engine.wait_log().blame_remote(blamed, kind, amount);
}

void record_wait_states(Engine& engine, Rank& me, Request* const* reqs, int n, SimTime waited) {
    if (waited <= 0) return;
    const Request* best = nullptr;
    SimTime most = 0;
    for (int i = 0; i < n; ++i) {
        const Request* r = reqs[i];
        if (!r || !r->known || r->wait_kind == WaitKind::None) continue;
        const SimTime a = wait_state_amount(r->cause_time, r->posted_at, me.split.call_start, waited);
        if (a > most) most = a, best = r;
    }
    if (best) record_wait_state(engine, me, best->wait_kind, most, best->cause_rank);
}

void record_probe_wait(Engine& engine, Rank& me, SimTime sent, std::int32_t sender, SimTime waited) {
    record_wait_state(engine, me, WaitKind::LateSender,
                      wait_state_amount(sent, me.split.call_start, me.split.call_start, waited), sender);
}

}  // namespace xsim
