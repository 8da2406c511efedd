// The order in which one real process handles its events: plain time order, or time order
// between "cells" of virtual time and rank order inside each cell.
//
// Why cells are correct. Every event has an owner, the simulated rank whose state its
// handler reads and changes (a message event: its receiver; a rank run: that rank). What an
// event does to another owner travels as a message, which arrives at least the network's
// smallest latency L later. Cut virtual time into cells [k*C, (k+1)*C) with C <= L: an event
// at time t in cell k affects other owners no earlier than t + L >= (k+1)*C, in a later cell.
// So the events of one cell that belong to different owners cannot affect each other, and
// any order that keeps cells in time order and each owner's events in (time, order) order
// gives the same results as time order. This is the argument of the conservative loop between
// real processes (conservative_loop.hpp), applied to ranks inside one process; it changes
// nothing the simulation computes, only the order in which the host does the work.
//
// Why bother. With every rank's clock equal (-xsim-compute none, in step) time order already
// sweeps the ranks in index order, through their state in memory order. Once clocks drift
// apart (measured compute, long runs) time order visits ranks in random order and every
// message costs cache and TLB misses on the receiver's rank, request and call state; in cells
// the sweep stays in rank order as long as the drift is small against C. A rank also runs on
// to the end of its cell before yielding (Engine::catch_up), which saves fiber switches.
//
// Why C = L exactly, not a power of two: the longer the cells, the less often a late rank
// (measured compute charges it the host's interrupts, 15-50 us on the VM we measure on)
// splits its collective's rounds into separate sweeps, and the fewer the conservative loop's
// windows between processes. Cells of 12 us instead of 2^23 ps on the default machine: a few
// percent less time in `measured` at 2^20 ranks on 2 processes, within the noise at 65,536 on
// one, `none` unchanged (bench/RESULTS.md, "Session 10"). The cell index is a division by an
// invariant integer, done as a multiplication.
//
// Not usable when the smallest latency is below 2 ps (no cell fits) or when some handler
// changes state shared between owners in call order (the network's link contention): then
// time order.
#pragma once
#include <cstdint>

#include "pdes/event.hpp"

namespace xsim {

class ProcessingOrder {
public:
    // Time order.
    ProcessingOrder() = default;
    // Cells of exactly min_latency; time order when min_latency < 2 or !cells.
    static ProcessingOrder for_latency(SimTime min_latency, bool cells) {
        ProcessingOrder o;
        if (!cells || min_latency < 2 || min_latency == kNever) return o;
        o.cells_ = true;
        o.length_ = min_latency;
        // t / length as (t * magic) >> shift, exact for every 0 <= t < 2^63 (Granlund and
        // Montgomery, "Division by invariant integers using multiplication", theorem 4.2 with
        // N = 63): l = ceil(log2 length), magic = ceil(2^(63 + l) / length) < 2^64.
        const auto d = static_cast<std::uint64_t>(min_latency);
        const unsigned l = 64u - static_cast<unsigned>(__builtin_clzll(d - 1));
        const unsigned __int128 power = static_cast<unsigned __int128>(1) << (63u + l);
        o.magic_ = static_cast<std::uint64_t>((power + d - 1) / d);
        o.high_shift_ = l - 1;  // 63 + l >= 64: the product's high word, shifted by the rest
        return o;
    }

    bool cells() const { return cells_; }
    SimTime cell_length() const { return length_; }
    // The part of the order that only grows as the simulation goes on (the radix heap's key):
    // the cell's index, or the time itself. Times are never negative.
    SimTime major(SimTime t) const {
        if (!cells_) return t;
        const auto high =
            static_cast<std::uint64_t>((static_cast<unsigned __int128>(static_cast<std::uint64_t>(t)) * magic_) >> 64);
        return static_cast<SimTime>(high >> high_shift_);
    }
    // The start of t's cell: no pending event of that cell is earlier.
    SimTime cell_start(SimTime t) const { return t == kNever ? t : major(t) * length_; }

    bool before(const Event& a, const Event& b) const {
        return before(major(a.key.time), a, major(b.key.time), b);
    }
    // The same, with major(a.key.time) and major(b.key.time) already known (they cost a
    // 128-bit multiplication each: the event queue keeps them for the events it compares most).
    bool before(SimTime major_a, const Event& a, SimTime major_b, const Event& b) const {
        if (cells_) {
            if (major_a != major_b) return major_a < major_b;
            if (a.owner != b.owner) return a.owner < b.owner;
        }
        return a.key < b.key;
    }

private:
    bool cells_ = false;
    SimTime length_ = 1;  // 1 in time order: major() is the time itself
    // In cells, t / length_ = (t * magic_) >> (64 + high_shift_): a shift by 64 or more, so
    // only the product's high word counts (a 128-bit shift by a variable amount took twice
    // the instructions; major() runs some five times per message).
    std::uint64_t magic_ = 0;
    unsigned high_shift_ = 0;
};

}  // namespace xsim
