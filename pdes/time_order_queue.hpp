// The pending events of one real process in time order (processing_order.hpp), used when
// the order has no cells (link contention, -xsim-order time); in cells, cell_calendar.hpp.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "pdes/processing_order.hpp"
#include "pdes/radix_heap.hpp"

namespace xsim {

// Most events are pushed in increasing order within a latency class: ranks run
// in time order and each sends at that time plus one of a few latencies (one per network
// level). Such pushes go to a sorted run: the run whose last event is the latest one not
// after the new event (best fit, as in patience sorting, so each latency class keeps a run
// of its own). Runs are FIFOs read front to back (sequential memory, cheap even with
// millions pending); only events that fit no run go to a radix heap (radix_heap.hpp).
// Popping takes the smallest of the fronts, so the order is exactly that of one heap. No
// allocation once the vectors have grown.
//
// In front of both sits a small sorted window holding the next kWindow events (all of them
// when fewer are pending), so that peek(k) names exactly the k-th next event for the
// engine's prefetching, wherever it came from. Without it the lookahead could only read a
// run's next entries: over a long run the ranks' clocks interleave more and more, up to half
// the pushes fit no run and land in the heap, the guesses go wrong and every message, rank
// and request is a cache miss (the message rate fell with the run's length, 10 vs 50
// iterations of ring + allreduce). Most pushes are later than the window's last event and
// go straight to the runs or the heap; the few earlier ones are inserted, its last event
// spilling back.
class TimeOrderQueue {
public:
    static constexpr std::size_t kWindow = 16;  // >= the engine's deepest peek + 1

    // Only while empty.
    void set_order(const ProcessingOrder& order) {
        order_ = order;
        heap_.set_order(order);
    }
    const ProcessingOrder& order() const { return order_; }

    bool empty() const { return window_size() == 0; }
    std::size_t size() const { return window_size() + rest_size(); }
    const Event& top() const { return window_[begin_]; }
    // No pending event is earlier.
    SimTime next_time() const { return empty() ? kNever : order_.cell_start(top().key.time); }
    bool maybe_pending_before(const Event& e) const { return !empty() && order_.before(top(), e); }
    // The k-th next pending event (0: the top), or null when k >= kWindow or fewer are
    // pending. Events pushed later may come before it.
    const Event* peek(std::size_t k) const { return k < window_size() ? &window_[begin_ + k] : nullptr; }
    void reserve(std::size_t n) {
        heap_.reserve(n);
        runs_[0].events.reserve(n);
    }
    // Called on the scheduler's stack before a rank runs: room for `n` more pushes in the heap
    // and in every run, so that a push from a rank's (possibly 2 KiB) stack rarely grows a
    // vector through malloc.
    void keep_room(std::size_t n) {
        heap_.keep_room(n);
        for (SortedRun& r : runs_) keep_room(r.events, n);
    }

    void push(const Event& e) {
        if (window_size() < kWindow && rest_size() == 0) {
            insert_in_window(e);  // everything pending is in the window: keep it there
            return;
        }
        const SimTime major = order_.major(e.key.time);
        if (!order_.before(major, e, order_.major(window_[end_ - 1].key.time), window_[end_ - 1])) {
            push_rest(e, major);
            return;
        }
        const Event last = window_[end_ - 1];  // a full window (the rest is not empty)
        --end_;
        insert_in_window(e);
        push_rest(last, order_.major(last.key.time));
    }
    Event pop() {
        const Event out = window_[begin_++];
        if (rest_size() != 0) {  // refill: the rest's smallest is not before any window event
            if (end_ == kSlots) compact();
            window_[end_++] = pop_rest();
        }
        return out;
    }

private:
    static constexpr std::size_t kSlots = 2 * kWindow;
    std::size_t window_size() const { return end_ - begin_; }
    std::size_t rest_size() const {
        std::size_t n = heap_.size();
        for (const SortedRun& r : runs_) n += r.pending();
        return n;
    }
    void compact() {
        for (std::size_t i = begin_; i < end_; ++i) window_[i - begin_] = window_[i];
        end_ -= begin_;
        begin_ = 0;
    }
    void insert_in_window(const Event& e) {
        if (end_ == kSlots) compact();
        std::size_t i = end_++;
        for (; i > begin_ && order_.before(e, window_[i - 1]); --i) window_[i] = window_[i - 1];
        window_[i] = e;
    }

    static void keep_room(std::vector<Event>& v, std::size_t n) {
        if (v.capacity() - v.size() < n) [[unlikely]]
            v.reserve(std::max(2 * v.capacity(), v.size() + n));
    }

    // `major` is order_.major(e.key.time).
    void push_rest(const Event& e, SimTime major) {
        SortedRun* fit = nullptr;
        SortedRun* unused = nullptr;
        for (SortedRun& r : runs_) {
            if (!r.pending()) {
                if (!unused) unused = &r;
                continue;
            }
            if (!order_.before(major, e, r.back_major, r.events.back()) &&
                (!fit || order_.before(fit->back_major, fit->events.back(), r.back_major, r.events.back())))
                fit = &r;
        }
        if (!fit && unused) {  // start it again at the front
            unused->events.clear();
            unused->head = 0;
            fit = unused;
        }
        if (fit) {
            if (!fit->pending()) fit->front_major = major;
            fit->events.push_back(e);
            fit->back_major = major;
            return;
        }
        heap_.push(e);
    }
    Event pop_rest() {
        if (SortedRun* r = const_cast<SortedRun*>(smallest_run())) {
            Event out = r->events[r->head++];
            if (r->pending()) r->front_major = order_.major(r->front().key.time);
            // Drop the consumed front now and then, so a run that never empties stays small.
            if (r->head >= 4096 && r->head * 2 >= r->events.size()) {
                r->events.erase(r->events.begin(), r->events.begin() + static_cast<std::ptrdiff_t>(r->head));
                r->head = 0;
            }
            return out;
        }
        return heap_.pop();
    }

    static constexpr std::size_t kRuns = 4;
    struct SortedRun {
        std::vector<Event> events;  // sorted; [head, size) pending
        std::size_t head = 0;
        SimTime front_major = 0;    // order_.major() of the first pending event's time
        SimTime back_major = 0;     // ... and of the last event's
        std::size_t pending() const { return events.size() - head; }
        const Event& front() const { return events[head]; }
    };
    // The run whose front comes before every other front and the heap's, or null when the
    // heap's comes first (or nothing is pending).
    const SortedRun* smallest_run() const {
        const SortedRun* best = nullptr;
        for (const SortedRun& r : runs_)
            if (r.pending() && (!best || order_.before(r.front_major, r.front(), best->front_major, best->front())))
                best = &r;
        if (best && !heap_.empty()) {
            const Event& top = heap_.top();
            if (order_.before(order_.major(top.key.time), top, best->front_major, best->front())) return nullptr;
        }
        return best;
    }
    ProcessingOrder order_;
    std::array<Event, kSlots> window_{};  // [begin_, end_) sorted: the next events
    std::size_t begin_ = 0, end_ = 0;
    RadixHeap heap_;
    std::array<SortedRun, kRuns> runs_;
};

}  // namespace xsim
