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

// A 4-ary min-heap over a vector: no allocation once the vector has grown. Four children
// share about one and a half cache lines, so a heap of a million pending events is
// half as deep as a binary one and costs fewer cache misses per operation.
class EventQueue {
public:
    bool empty() const { return heap_.empty(); }
    std::size_t size() const { return heap_.size(); }
    const Event& top() const { return heap_.front(); }
    SimTime next_time() const { return heap_.empty() ? kNever : heap_.front().key.time; }
    void reserve(std::size_t n) { heap_.reserve(n); }

    void push(const Event& e) {
        heap_.push_back(e);
        sift_up(heap_.size() - 1);
    }
    Event pop() {
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
    std::vector<Event> heap_;
};

}  // namespace xsim
