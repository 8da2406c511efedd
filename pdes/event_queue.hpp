// The pending events of one real process, smallest (time, order) first.
// `order` breaks ties so that the processing order never depends on the host: it is
// built from simulated quantities only (event class, rank, per-rank sequence number),
// which makes virtual times identical for any number of real processes.
#pragma once
#include <cstdint>
#include <vector>

#include "pdes/sim_time.hpp"

namespace xsim {

struct EventKey {
    SimTime time = 0;
    std::uint64_t order = 0;
    friend bool operator<(const EventKey& a, const EventKey& b) {
        return a.time != b.time ? a.time < b.time : a.order < b.order;
    }
};

// Event classes, in processing order at equal times: a message arriving at t is visible
// to a rank that runs at t.
enum class EventClass : std::uint64_t { Message = 0, RankRun = 1 };

inline std::uint64_t event_order(EventClass cls, std::uint32_t rank, std::uint32_t seq) {
    return (static_cast<std::uint64_t>(cls) << 63) |
           (static_cast<std::uint64_t>(rank & 0x7fffffffu) << 32) | seq;
}
inline EventClass event_class(std::uint64_t order) { return static_cast<EventClass>(order >> 63); }

struct Event {
    EventKey key;
    void* object;  // what the event is about; its class says which type
};

// Most events are pushed in increasing (time, order): ranks run in rank order at one time
// and each sends at that time plus a latency. Those go to `run_`, a sorted FIFO read
// front to back (sequential memory, cheap even with millions pending); only the others
// go to a 4-ary min-heap. Four children share about one and a half cache lines, so a heap
// of a million pending events is half as deep as a binary one. Popping takes the smaller
// of the two fronts, so the order is exactly that of one heap. No allocation once the
// vectors have grown.
class EventQueue {
public:
    bool empty() const { return heap_.empty() && head_ == run_.size(); }
    std::size_t size() const { return heap_.size() + (run_.size() - head_); }
    const Event& top() const { return from_run() ? run_[head_] : heap_.front(); }
    SimTime next_time() const { return empty() ? kNever : top().key.time; }
    void reserve(std::size_t n) {
        heap_.reserve(n);
        run_.reserve(n);
    }

    void push(const Event& e) {
        if (head_ == run_.size()) {  // the run is used up: start it again at the front
            run_.clear();
            head_ = 0;
        }
        if (run_.empty() || !(e.key < run_.back().key)) {
            run_.push_back(e);
            return;
        }
        heap_.push_back(e);
        sift_up(heap_.size() - 1);
    }
    Event pop() {
        if (from_run()) {
            Event out = run_[head_++];
            // Drop the consumed front now and then, so a run that never empties stays small.
            if (head_ >= 4096 && head_ * 2 >= run_.size()) {
                run_.erase(run_.begin(), run_.begin() + static_cast<std::ptrdiff_t>(head_));
                head_ = 0;
            }
            return out;
        }
        Event out = heap_.front();
        heap_.front() = heap_.back();
        heap_.pop_back();
        if (!heap_.empty()) sift_down(0);
        return out;
    }

private:
    static constexpr std::size_t kArity = 4;
    void sift_up(std::size_t i) {
        Event e = heap_[i];
        while (i > 0) {
            std::size_t parent = (i - 1) / kArity;
            if (!(e.key < heap_[parent].key)) break;
            heap_[i] = heap_[parent];
            i = parent;
        }
        heap_[i] = e;
    }
    void sift_down(std::size_t i) {
        const std::size_t n = heap_.size();
        Event e = heap_[i];
        for (;;) {
            const std::size_t first = kArity * i + 1;
            if (first >= n) break;
            std::size_t child = first;
            const std::size_t last = first + kArity < n ? first + kArity : n;
            for (std::size_t c = first + 1; c < last; ++c)
                if (heap_[c].key < heap_[child].key) child = c;
            if (!(heap_[child].key < e.key)) break;
            heap_[i] = heap_[child];
            i = child;
        }
        heap_[i] = e;
    }
    bool from_run() const { return head_ < run_.size() && (heap_.empty() || run_[head_].key < heap_.front().key); }
    std::vector<Event> heap_;
    std::vector<Event> run_;  // sorted; [head_, size) pending
    std::size_t head_ = 0;
};

}  // namespace xsim
