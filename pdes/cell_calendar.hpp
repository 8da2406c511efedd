// The pending events of one real process in cells (processing_order.hpp): a calendar with one
// bucket per cell of virtual time.
//
// Almost every push lands a cell or two ahead of the one being popped (a message arrives one
// smallest latency or a little more later; a cell is exactly that long), so a push appends
// to the bucket of its cell, unsorted: one multiplication (the cell's index) and a store.
// When the popped cell runs out, the next non-empty bucket is sorted once, by radix on the
// owner (cell_sort.hpp), and popped from its back. The order of the pops is exactly that of
// one heap in the processing order.
//
// Why not the sorted runs of time order (time_order_queue.hpp): in cells the order is owner
// first, and a round of a collective sends to owners in no rising order (rank XOR 2^k), so
// half the pushes fit no run and every push and pop compared against every run's end (a
// 128-bit multiplication and a branch each), about a fifth of an in-cache run's time.
//
// Buckets cover the kCells cells after the popped one; an event further ahead waits in a
// radix heap (`far_`) and joins its cell when that cell is entered. A push into the cell
// being popped (the popped owner's own run, at the time its message arrived) goes behind
// the cell's sorted events when it comes before all of them, which is the usual case, and
// otherwise into a small heap (`soon_`). A cell is entered only by pop(), never by the
// questions the engine and the conservative loop ask, so that the events another process
// sends for the next window's cells are in their bucket before it is sorted.
//
// Memory: a bucket's vector goes to the spares when its cell is entered and the next bucket
// started takes one, so only the cells pending at once hold a cell's worth of events.
#pragma once
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <vector>

#include "pdes/cell_sort.hpp"
#include "pdes/processing_order.hpp"
#include "pdes/radix_heap.hpp"

namespace xsim {

class CellCalendar {
public:
    static constexpr std::size_t kCells = 64;  // one bit each in `started_`

    // Only while empty; `order` must be in cells.
    void set_order(const ProcessingOrder& order) {
        later_.order = order;
        far_.set_order(order);
    }
    bool empty() const { return size_ == 0; }
    std::size_t size() const { return size_; }

    // The start of the first pending event's cell, or kNever.
    SimTime next_time() const {
        if (const Event* e = entered_first()) return order().cell_start(e->key.time);
        const SimTime next = next_cell();
        return next == kNever ? kNever : next * order().cell_length();
    }
    // True when some pending event comes before `e`, or may (a cell not yet entered holds the
    // events of e's cell): a caller that then waits its turn loses nothing but time.
    bool maybe_pending_before(const Event& e) const {
        if (const Event* first = entered_first()) return order().before(*first, e);
        return !empty() && next_cell() <= order().major(e.key.time);
    }
    // The next event (k = 0) and the ones after it in the cell being popped, for prefetching:
    // null beyond that cell or when no cell is entered; with pushes behind the cell's first
    // event pending (rare) the k-th may be off by their number.
    const Event* peek(std::size_t k) const {
        if (k == 0) return entered_first();
        return k < now_.size() ? &now_[now_.size() - 1 - k] : nullptr;
    }

    void push(const Event& e) {
        ++size_;
        ++pushes_since_room_check_;
        const SimTime cell = order().major(e.key.time);
        if (cell > cell_) {
            if (cell - floor_ < static_cast<SimTime>(kCells)) {
                const auto i = static_cast<std::size_t>(cell) & (kCells - 1);
                if (!(started_ >> i & 1)) start_bucket(i);
                append(near_[i], e);
                low_[i] = std::min(low_[i], e.owner);
                high_[i] = std::max(high_[i], e.owner);
            } else {
                far_.push(e);
            }
            return;
        }
        // Into the cell being popped (or, if ever, an earlier one).
        if (now_.empty() ? soon_.empty() : order().before(e, now_.back())) {
            append(now_, e);
        } else {
            soon_.push_back(e);
            std::push_heap(soon_.begin(), soon_.end(), later_);
        }
    }
    // Only when !empty().
    Event pop() {
        if (now_.empty() && soon_.empty()) enter_next_cell();
        --size_;
        if (!soon_.empty() && (now_.empty() || order().before(soon_.front(), now_.back()))) {
            const Event out = soon_.front();
            std::pop_heap(soon_.begin(), soon_.end(), later_);
            soon_.pop_back();
            return out;
        }
        const Event out = now_.back();
        now_.pop_back();
        return out;
    }

    void reserve(std::size_t n) { now_.reserve(n); }
    // Room for `n` more pushes without growing any vector (so that a push from a rank's small
    // stack does not reach malloc): checked in full only when as many pushes happened since.
    void keep_room(std::size_t n) {
        far_.keep_room(n);
        if (pushes_since_room_check_ + n <= room_) return;
        room_ = 2 * n;
        for (std::size_t i = 0; i < kCells; ++i)
            if (started_ >> i & 1) keep_room(near_[i], room_);
        // A push may start a bucket: it takes a spare, and one run may start all of them.
        while (spares_.size() < kCells) spares_.emplace_back();
        for (std::vector<Event>& s : spares_) keep_room(s, room_);
        keep_room(now_, room_);
        keep_room(soon_, room_);
        pushes_since_room_check_ = 0;
    }

private:
    const ProcessingOrder& order() const { return later_.order; }
    static void append(std::vector<Event>& v, const Event& e) { store_event(v.emplace_back(), e); }
    static void keep_room(std::vector<Event>& v, std::size_t n) {
        if (v.capacity() - v.size() < n) v.reserve(std::max(2 * v.capacity(), v.size() + n));
    }

    // The first event of the cell being popped, or null when it has none left.
    const Event* entered_first() const {
        if (soon_.empty()) return now_.empty() ? nullptr : &now_.back();
        return now_.empty() || order().before(soon_.front(), now_.back()) ? &soon_.front() : &now_.back();
    }
    // The index of the first cell after the popped one that holds an event, or kNever.
    SimTime next_cell() const {
        SimTime next = kNever;
        if (started_) {
            // Bit j of the rotated mask is the bucket of cell floor_ + j.
            const auto rotated = std::rotr(started_, static_cast<int>(static_cast<std::uint64_t>(floor_) & (kCells - 1)));
            next = floor_ + std::countr_zero(rotated);
        }
        if (!far_.empty()) next = std::min(next, order().major(far_.top().key.time));
        return next;
    }
    void start_bucket(std::size_t i) {
        started_ |= std::uint64_t{1} << i;
        low_[i] = ~std::uint32_t{0};
        high_[i] = 0;
        if (near_[i].capacity() == 0 && !spares_.empty()) {
            near_[i].swap(spares_.back());
            spares_.pop_back();
        }
    }
    // Runs on the scheduler's stack (pop), so it may grow vectors.
    void enter_next_cell() {
        const SimTime next = next_cell();
        const auto i = static_cast<std::size_t>(next) & (kCells - 1);
        std::uint32_t low = ~std::uint32_t{0}, high = 0;  // the owners' range
        if ((started_ >> i & 1) && next - floor_ < static_cast<SimTime>(kCells)) {
            spares_.emplace_back().swap(now_);  // empty: its room goes to the next bucket started
            now_.swap(near_[i]);
            started_ &= ~(std::uint64_t{1} << i);
            low = low_[i];
            high = high_[i];
        }
        while (!far_.empty() && order().major(far_.top().key.time) == next) {
            now_.push_back(far_.pop());
            low = std::min(low, now_.back().owner);
            high = std::max(high, now_.back().owner);
        }
        cell_ = next;
        floor_ = next + 1;
        sort_latest_first(now_, scratch_, counts_, low, high, later_);
    }

    LaterInOrder later_;
    SimTime cell_ = -1;   // the cell being popped (none yet: -1)
    SimTime floor_ = 0;   // the first cell a bucket may hold; buckets hold [floor_, floor_ + kCells)
    std::vector<Event> now_;   // the popped cell's events not in soon_, latest first
    std::vector<Event> soon_;  // pushes into the popped cell behind its first event: a heap by later_
    std::array<std::vector<Event>, kCells> near_;  // unsorted, bucket cell % kCells
    std::uint64_t started_ = 0;                    // bit i: near_[i] holds events
    std::array<std::uint32_t, kCells> low_{}, high_{};  // the owners in near_[i]: the sort's range
    std::vector<std::vector<Event>> spares_;       // empty vectors with room, for buckets started
    std::vector<Event> scratch_;                   // the sort's other buffer
    std::vector<std::uint32_t> counts_;            // the counting sort's array
    RadixHeap far_;                                // cells kCells or more ahead
    std::size_t size_ = 0;
    std::size_t room_ = 0;                     // spare slots every vector had at the last check
    std::size_t pushes_since_room_check_ = 0;  // pushes since then (each uses one at most)
};

}  // namespace xsim
