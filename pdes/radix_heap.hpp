// The events of the event queue that fit none of its sorted runs (event_queue.hpp): a radix
// heap on time, with an ordinary min-heap for the events at or before its current minimum.
//
// Why not one binary or 4-ary heap: with measured compute the ranks' clocks are scattered,
// most pushes fit no run, and a heap of 10^5 events spends a cache miss per level on every
// pop (sift-down from the root), the scheduler's largest cost at 65,536 ranks. Simulated
// time only moves forward, so almost every push is later than the minimum: a radix heap
// appends it to the bucket named by the highest bit in which its time differs from the
// current minimum `base_` (sequential writes), and a pop scans and redistributes one bucket
// only when no event at or before base_ is left. Each event moves down a few
// buckets over its life, always front to back through memory.
//
// The pop order is exactly that of one heap in the processing order (processing_order.hpp);
// its radix key is the order's major part (the time, or the time's cell): `sorted_` and
// `late_` hold every event whose key is <= base_, each bucket b >= 1 holds events whose key
// is later than base_ and differs from it first at bit b-1, so the smaller of their tops is
// the minimum. A push at or before base_ (possible: other structures of the queue hold
// earlier events) joins the small heap `late_`.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "pdes/cell_sort.hpp"
#include "pdes/processing_order.hpp"

namespace xsim {

class RadixHeap {
public:
    // Only while empty.
    void set_order(const ProcessingOrder& order) {
        order_ = order;
        later_.order = order;
    }
    bool empty() const { return size_ == 0; }
    std::size_t size() const { return size_; }
    // The smallest event; only when !empty(). Some event is at or before base_ while any is
    // pending.
    const Event& top() const {
        if (late_.empty()) return sorted_.back();
        if (sorted_.empty() || order_.before(late_.front(), sorted_.back())) return late_.front();
        return sorted_.back();
    }

    void push(const Event& e) {
        ++pushes_since_room_check_;
        const SimTime key = order_.major(e.key.time);
        if (size_++ == 0) {
            base_ = key;
            sorted_.push_back(e);
            return;
        }
        if (key <= base_) {  // rare: into the small heap
            late_.push_back(e);
            std::push_heap(late_.begin(), late_.end(), later_);
            return;
        }
        buckets_[bucket_of(key)].push_back(e);
    }
    Event pop() {
        Event out;
        if (!late_.empty() && (sorted_.empty() || order_.before(late_.front(), sorted_.back()))) {
            out = late_.front();
            std::pop_heap(late_.begin(), late_.end(), later_);
            late_.pop_back();
        } else {
            out = sorted_.back();
            sorted_.pop_back();
        }
        if (--size_ != 0 && sorted_.empty() && late_.empty()) refill();
        return out;
    }
    void reserve(std::size_t n) { sorted_.reserve(n); }
    // Room for `n` more pushes without growing any vector (so that a push from a rank's small
    // stack does not reach malloc): checked in full only when as many pushes happened since.
    void keep_room(std::size_t n) {
        if (pushes_since_room_check_ + n <= room_) return;
        room_ = 2 * n;
        for (auto& b : buckets_) keep_room(b, room_);
        keep_room(sorted_, room_);
        keep_room(late_, room_);
        pushes_since_room_check_ = 0;
    }

private:
    static constexpr std::size_t kKeepEvents = 4096;  // an emptied bucket keeps this much
    static constexpr std::size_t kBuckets = 65;  // 0 unused: sorted_ and late_ play its part

    // In 1..64 for key > base_.
    std::size_t bucket_of(SimTime key) const {
        const auto differ = static_cast<std::uint64_t>(key) ^ static_cast<std::uint64_t>(base_);
        return 64 - static_cast<std::size_t>(__builtin_clzll(differ));
    }
    static void keep_room(std::vector<Event>& v, std::size_t n) {
        if (v.capacity() - v.size() < n) v.reserve(std::max(2 * v.capacity(), v.size() + n));
    }
    // Nothing at or before base_ is left: the first non-empty bucket's earliest key becomes
    // base_; its events with that key go to sorted_, the others to lower buckets (each to one
    // below where it was, or further). Runs on the scheduler's stack (pops happen there), so
    // it may grow vectors.
    void refill() {
        std::size_t b = 1;
        while (buckets_[b].empty()) ++b;
        std::vector<Event>& from = buckets_[b];
        SimTime earliest = order_.major(from.front().key.time);
        for (const Event& e : from) earliest = std::min(earliest, order_.major(e.key.time));
        base_ = earliest;
        std::uint64_t grown = 0;  // the buckets that received events
        for (const Event& e : from) {
            const SimTime key = order_.major(e.key.time);
            if (key == base_) {
                sorted_.push_back(e);
            } else {
                const std::size_t to = bucket_of(key);
                buckets_[to].push_back(e);
                grown |= std::uint64_t{1} << to;
            }
        }
        // The emptied bucket gives its memory back when large: events cascade down through
        // the buckets, and keeping every bucket's largest size cost several times the pending
        // events (+300 to +600 B per rank at 65,536 ranks).
        if (from.capacity() > kKeepEvents) std::vector<Event>().swap(from);
        else from.clear();
        keep_room(from, room_);
        sort_latest_first(sorted_, scratch_, later_);  // pops from the back (cell_sort.hpp)
        // Give back the room keep_room promised to the vectors that just filled up.
        keep_room(sorted_, room_);
        for (; grown; grown &= grown - 1) keep_room(buckets_[static_cast<std::size_t>(__builtin_ctzll(grown))], room_);
    }


    // The events at or before base_: those a refill found at base_, sorted latest first, and
    // those pushed since with a key <= base_, a min-heap (by `later_`).
    std::vector<Event> sorted_;
    std::vector<Event> late_;
    std::vector<Event> scratch_;  // the radix sort's other buffer
    std::array<std::vector<Event>, kBuckets> buckets_;
    ProcessingOrder order_;
    LaterInOrder later_;
    SimTime base_ = 0;  // a major key (processing_order.hpp)
    std::size_t size_ = 0;
    std::size_t room_ = 0;                     // spare slots every vector had at the last check
    std::size_t pushes_since_room_check_ = 0;  // pushes since then (each uses one at most)
};

}  // namespace xsim
