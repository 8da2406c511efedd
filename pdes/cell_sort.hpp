// Sorting the events of one cell (processing_order.hpp) latest first, so that they are popped
// from the back: by owner, then each owner's few events by (time, order).
//
// In cells the events of one cell (tens of thousands at 10^5 ranks) differ mostly in their
// owner: an LSD radix sort on the owner's bytes (those that differ at all), then each run of
// one owner by (time, order). A comparison sort's unpredictable branches cost several times
// as much (3-4% of a run's time at 65,536 ranks). One read counts all four bytes; a byte with
// a single value is skipped (owners below 2^16: two scatters; up to 2^24: three).
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "pdes/event.hpp"
#include "pdes/processing_order.hpp"

namespace xsim {

// "a comes after b" in the processing order, as a function object: std::sort and the heap
// algorithms inline it (a max-heap by it is a min-heap in the processing order).
struct LaterInOrder {
    ProcessingOrder order;
    bool operator()(const Event& a, const Event& b) const { return order.before(b, a); }
};

// Sorts `events` latest first in `later.order`. `scratch` is the radix sort's other buffer;
// the two may be swapped (events keeps its room).
inline void sort_latest_first(std::vector<Event>& events, std::vector<Event>& scratch, const LaterInOrder& later) {
    constexpr std::size_t kRadixSortFrom = 256;
    if (!later.order.cells() || events.size() < kRadixSortFrom) {
        std::sort(events.begin(), events.end(), later);
        return;
    }
    // Latest first is owners descending: ascending in the complement.
    std::array<std::array<std::uint32_t, 256>, 4> counts{};
    for (const Event& e : events) {
        const std::uint32_t key = ~e.owner;
        ++counts[0][key & 0xffu];
        ++counts[1][(key >> 8) & 0xffu];
        ++counts[2][(key >> 16) & 0xffu];
        ++counts[3][key >> 24];
    }
    const std::uint32_t first = ~events.front().owner;
    scratch.reserve(events.capacity());  // swapped below: events keeps its room
    scratch.resize(events.size());
    for (unsigned digit = 0; digit < 4; ++digit) {
        const unsigned shift = 8 * digit;
        std::array<std::uint32_t, 256>& at = counts[digit];
        if (at[(first >> shift) & 0xffu] == events.size()) continue;  // one value: in order already
        std::uint32_t sum = 0;
        for (std::uint32_t& a : at) sum += std::exchange(a, sum);
        for (const Event& e : events) scratch[at[(~e.owner >> shift) & 0xffu]++] = e;
        events.swap(scratch);
    }
    for (auto run = events.begin(); run != events.end();) {
        auto end = run + 1;
        while (end != events.end() && end->owner == run->owner) ++end;
        if (end - run > 1) std::sort(run, end, later);
        run = end;
    }
}

// The same for events whose owners all lie in [low, high], as the calendar knows them: when
// that range is not much wider than the events are many (every rank of a process has an event
// in the cell, the usual case), a counting sort on owner - low, which moves every event once
// instead of once per byte, in the order they came (a cell's events arrive in nearly rising
// owners, so the writes are nearly sequential). `counts` is its array, kept between calls.
inline void sort_latest_first(std::vector<Event>& events, std::vector<Event>& scratch, std::vector<std::uint32_t>& counts,
                              std::uint32_t low, std::uint32_t high, const LaterInOrder& later) {
    const std::size_t range = static_cast<std::size_t>(high - low) + 1;
    constexpr std::size_t kMaxRange = std::size_t{1} << 22;  // 16 MiB of counts
    if (!later.order.cells() || events.size() < 256 || range > 4 * events.size() || range > kMaxRange) {
        sort_latest_first(events, scratch, later);
        return;
    }
    counts.assign(range, 0);
    for (const Event& e : events) ++counts[e.owner - low];
    // Latest first is owners descending: the highest owner's events go first.
    std::uint32_t sum = 0;
    for (std::size_t o = range; o-- > 0;) sum += std::exchange(counts[o], sum);
    scratch.reserve(events.capacity());  // swapped below: events keeps its room
    scratch.resize(events.size());
    for (const Event& e : events) scratch[counts[e.owner - low]++] = e;
    events.swap(scratch);
    // counts[o] is now the end of owner o's events, which start where owner o + 1's end.
    std::uint32_t start = 0;
    for (std::size_t o = range; o-- > 0;) {
        const std::uint32_t end = counts[o];
        if (end - start > 1) std::sort(events.begin() + start, events.begin() + end, later);
        start = end;
    }
}

}  // namespace xsim
