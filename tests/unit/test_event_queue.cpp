#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <random>
#include <set>
#include <string>

#include "pdes/event_queue.hpp"
#include "pdes/stack_arena.hpp"

using namespace xsim;

TEST(EventQueue, PopsInTimeThenOrder) {
    EventQueue q;
    std::vector<EventKey> keys;
    std::mt19937 rng(7);
    for (int i = 0; i < 2000; ++i) {
        const auto cls = (i % 3 == 0) ? EventClass::RankRun : EventClass::Message;
        keys.push_back({static_cast<SimTime>(rng() % 50), event_order(cls, rng() % 100, static_cast<std::uint32_t>(i))});
        q.push({keys.back(), nullptr});
    }
    std::sort(keys.begin(), keys.end());
    for (const auto& k : keys) {
        ASSERT_FALSE(q.empty());
        const Event e = q.pop();
        EXPECT_EQ(e.key.time, k.time);
        EXPECT_EQ(e.key.order, k.order);
    }
    EXPECT_TRUE(q.empty());
    EXPECT_EQ(q.next_time(), kNever);
}

// Pushes mostly in order (the sorted run) mixed with out-of-order ones (the heap) and
// pops interleaved with pushes, as the engine does: the pop order is that of a sort.
TEST(EventQueue, InterleavedMostlySortedPushesPopInOrder) {
    EventQueue q;
    std::multiset<EventKey> pending;  // the reference (EventKey's operator<)
    std::mt19937 rng(11);
    SimTime now = 0;
    std::uint32_t seq = 0;
    std::size_t pops = 0;
    for (int round = 0; round < 200; ++round) {
        const int n = static_cast<int>(rng() % 300);
        for (int i = 0; i < n; ++i) {
            // In order mostly; every 7th at a random later time; never before `now`.
            const SimTime t = (i % 7 == 6) ? now + static_cast<SimTime>(rng() % 1000) : now + 10 + i / 50;
            const auto cls = (rng() % 2) ? EventClass::RankRun : EventClass::Message;
            const EventKey k{t, event_order(cls, static_cast<std::uint32_t>(i), seq++)};
            pending.insert(k);
            q.push({k, nullptr});
        }
        const int burst = static_cast<int>(rng() % 400);
        for (int i = 0; i < burst && !q.empty(); ++i) {
            ASSERT_EQ(q.size(), pending.size());
            EXPECT_EQ(q.next_time(), pending.begin()->time);
            const EventKey k = q.pop().key;
            ASSERT_EQ(k.time, pending.begin()->time) << pops;
            ASSERT_EQ(k.order, pending.begin()->order) << pops;
            pending.erase(pending.begin());
            now = k.time;
            ++pops;
        }
    }
    while (!q.empty()) {
        const EventKey k = q.pop().key;
        ASSERT_EQ(k.order, pending.begin()->order);
        pending.erase(pending.begin());
    }
    EXPECT_TRUE(pending.empty());
    EXPECT_GT(pops, 1000u);
}

// Everything pushed first in ascending order except a few: a plain sorted drain.
TEST(EventQueue, SortedRunAndHeapDrainLikeOneHeap) {
    EventQueue q;
    std::vector<EventKey> keys;
    for (std::uint32_t i = 0; i < 10000; ++i) {
        const SimTime t = (i % 97 == 0) ? static_cast<SimTime>(i / 3) : static_cast<SimTime>(i);
        keys.push_back({t, event_order(EventClass::Message, i % 13, i)});
        q.push({keys.back(), nullptr});
    }
    std::sort(keys.begin(), keys.end());
    for (const auto& k : keys) {
        const Event e = q.pop();
        ASSERT_EQ(e.key.time, k.time);
        ASSERT_EQ(e.key.order, k.order);
    }
    EXPECT_TRUE(q.empty());
}

TEST(EventQueue, MessagesBeforeRankRunsAtEqualTimeAndLowerRankFirst) {
    const auto run0 = event_order(EventClass::RankRun, 0, 0);
    const auto msg_from_9 = event_order(EventClass::Message, 9, 5);
    const auto msg_from_3 = event_order(EventClass::Message, 3, 100);
    EXPECT_LT(msg_from_9, run0);
    EXPECT_LT(msg_from_3, msg_from_9);
    EXPECT_EQ(event_class(run0), EventClass::RankRun);
    EXPECT_EQ(event_class(msg_from_3), EventClass::Message);
}

// The engine prefetches the memory of the events peek(k) names; they must be the events
// popped next even when the times are scattered and most pushes fit no sorted run (the
// heap), as over a long run of ring + allreduce. Only peeked events no later push precedes
// are checked: a later push may come first.
TEST(EventQueue, PeekNamesTheNextEventsWhereverTheyAreKept) {
    EventQueue q;
    std::multiset<EventKey> pending;
    std::mt19937 rng(5);
    SimTime now = 0;
    for (int step = 0; step < 20000; ++step) {
        for (int k = 0, n = static_cast<int>(rng() % 3); k < n; ++k) {  // scattered future times
            const EventKey key{now + 1 + static_cast<SimTime>(rng() % 1000), event_order(EventClass::Message, rng() % 4096, static_cast<std::uint32_t>(step))};
            q.push({key, nullptr});
            pending.insert(key);
        }
        if (pending.empty()) continue;
        auto it = pending.begin();
        for (std::size_t k = 0; k < EventQueue::kWindow; ++k, ++it) {
            const Event* e = q.peek(k);
            if (it == pending.end()) {
                ASSERT_EQ(e, nullptr) << "step " << step << " k " << k;
                break;
            }
            ASSERT_NE(e, nullptr) << "step " << step << " k " << k;
            ASSERT_EQ(e->key.time, it->time) << "step " << step << " k " << k;
            ASSERT_EQ(e->key.order, it->order) << "step " << step << " k " << k;
        }
        EXPECT_EQ(q.peek(EventQueue::kWindow), nullptr);
        const Event e = q.pop();
        ASSERT_EQ(e.key.order, pending.begin()->order);
        now = e.key.time;
        pending.erase(pending.begin());
    }
}

TEST(StackArena, StacksAreDisjointPageMultiplesAndOwnerIsFound) {
    StackArena arena;
    arena.reserve(1000, 20000);
    EXPECT_EQ(arena.stack_bytes() % page_size(), 0u);
    EXPECT_GE(arena.stack_bytes(), 20000u);
    EXPECT_EQ(arena.top(3) + arena.guard_bytes(), arena.bottom(4));  // guard pages between stacks
    EXPECT_EQ(arena.owner_of(arena.bottom(17) + 5), 17);
    EXPECT_EQ(arena.owner_of(arena.top(999) - 1), 999);
    EXPECT_EQ(arena.owner_of(arena.top(999)), -1);
    EXPECT_EQ(arena.owner_of(arena.bottom(0) - 1), -1);
    EXPECT_TRUE(arena.in_guard_page(arena.bottom(0) - 1));  // where stack 0 overflows to
    EXPECT_FALSE(arena.in_guard_page(arena.bottom(0)));
    arena.top(500)[-1] = 42;                             // committed by first touch
    arena.return_pages(500);
    EXPECT_EQ(arena.top(500)[-1], 0);                    // released pages read as zero again
}

// -xsim-stack 2k: stacks share pages; stack 0 may also grow into the spill area under it.
TEST(StackArena, SmallStacksTilePagesAndTheFirstHasASpillArea) {
    StackArena arena;
    arena.reserve(100, 2000);
    EXPECT_EQ(arena.stack_bytes(), 2048u);
    EXPECT_EQ(page_size() % arena.stack_bytes(), 0u);
    EXPECT_EQ(arena.top(3), arena.bottom(4));
    EXPECT_EQ(arena.owner_of(arena.bottom(5) + 2047), 5);
    EXPECT_EQ(arena.usable_bottom(5), arena.bottom(5));
    EXPECT_EQ(arena.usable_bottom(0), arena.bottom(0) - StackArena::kSmallStackSpill);
    EXPECT_EQ(arena.owner_of(arena.bottom(0) - 1), 0);  // the spill area is stack 0's
    EXPECT_FALSE(arena.in_guard_page(arena.usable_bottom(0)));
    EXPECT_TRUE(arena.in_guard_page(arena.usable_bottom(0) - 1));
    arena.usable_bottom(0)[0] = 1;  // usable memory
}

// Lines of /proc/self/maps: one per mapping (VMA) of this process.
static int mapping_count() {
    std::ifstream maps("/proc/self/maps");
    int lines = 0;
    for (std::string line; std::getline(maps, line);) ++lines;
    return lines;
}

TEST(StackArena, ReservesMillionsOfStacksWithOneMapping) {
    const int before = mapping_count();
    StackArena arena;
    arena.reserve(1u << 21, 64 * 1024);  // 128 GiB of address space, nothing committed
    // Far more stacks than the kernel's 65,530-mapping limit: the arena must not make a
    // mapping (or a guard page VMA) per stack.
    EXPECT_LE(mapping_count() - before, 2);
    char* last = arena.top((1u << 21) - 1) - 1;
    *last = 42;
    EXPECT_EQ(*last, 42);
    EXPECT_EQ(arena.owner_of(last), (1 << 21) - 1);
    EXPECT_EQ(arena.owner_of(arena.bottom(0)), 0);
}

// The radix heap alone: pushes later than its minimum (the common case), at it, and before
// it (events the queue's runs held back), popped in exactly the order of a sort.
TEST(RadixHeap, PopsInTimeThenOrderWhateverThePushes) {
    RadixHeap h;
    std::multiset<EventKey> pending;
    std::mt19937 rng(3);
    SimTime now = 1000;
    for (int step = 0; step < 50000; ++step) {
        for (int k = 0, n = static_cast<int>(rng() % 3); k < n; ++k) {
            SimTime t = now + static_cast<SimTime>(rng() % (1u << (rng() % 30)));  // spread over many buckets
            if (rng() % 10 == 0) t = now - static_cast<SimTime>(rng() % 50);     // before the minimum
            const EventKey key{t, event_order(EventClass::Message, rng() % 64, static_cast<std::uint32_t>(step))};
            h.push({key, nullptr});
            pending.insert(key);
        }
        if (step % 1000 == 0) h.keep_room(256);
        if (pending.empty()) continue;
        ASSERT_EQ(h.size(), pending.size());
        ASSERT_EQ(h.top().key.time, pending.begin()->time);
        const Event e = h.pop();
        ASSERT_EQ(e.key.time, pending.begin()->time) << "step " << step;
        ASSERT_EQ(e.key.order, pending.begin()->order) << "step " << step;
        now = e.key.time;
        pending.erase(pending.begin());
    }
    while (!pending.empty()) {
        ASSERT_EQ(h.pop().key.order, pending.begin()->order);
        pending.erase(pending.begin());
    }
    EXPECT_TRUE(h.empty());
}

// In cells (processing_order.hpp) the queue pops by (cell, owner, time, order), with pushes
// interleaved as the engine makes them: into the popped owner's cell, other owners' in the
// same cell, later cells, and rarely behind the sweep (an owner already passed).
TEST(EventQueue, InCellsPopsByCellThenOwnerThenTime) {
    const ProcessingOrder order = ProcessingOrder::for_latency(1000, true);  // cells of 1000 ps
    ASSERT_TRUE(order.cells());
    ASSERT_EQ(order.cell_length(), 1000);
    EventQueue q;
    q.set_order(order);
    auto before = [&](const Event& a, const Event& b) { return order.before(a, b); };
    std::multiset<Event, decltype(before)> pending(before);
    std::mt19937 rng(23);
    Event last{{0, 0}, nullptr, 0};
    std::uint32_t seq = 0;
    std::size_t pops = 0, out_of_time_order = 0;
    SimTime latest_popped = 0;
    // Mostly not before what was popped last (as the engine); `behind` ones may be.
    auto push = [&](SimTime t, std::uint32_t owner, bool behind = false) {
        const auto cls = (rng() % 2) ? EventClass::RankRun : EventClass::Message;
        const Event e{{t, event_order(cls, rng() % 64, seq++)}, nullptr, owner};
        if (!behind && order.before(e, last)) return;
        pending.insert(e);
        q.push(e);
    };
    for (int round = 0; round < 300; ++round) {
        for (int i = 0, n = static_cast<int>(rng() % 200); i < n; ++i) {
            const SimTime cell_start = order.cell_start(last.key.time);
            // Same owner later in its cell, another owner in this cell, or a later cell.
            // Same owner later in its cell, another owner in this cell, a later cell, or
            // (rarely) behind the sweep: an owner already passed in this cell.
            const unsigned kind = rng() % 20;
            if (kind < 6) push(last.key.time + static_cast<SimTime>(rng() % 100), last.owner);
            else if (kind < 12) push(cell_start + static_cast<SimTime>(rng() % 1000), rng() % 1000);
            else if (kind < 19) push(last.key.time + 1000 + static_cast<SimTime>(rng() % 5000), rng() % 1000);
            else push(cell_start + static_cast<SimTime>(rng() % 1000), 0, true);
        }
        for (int i = 0, burst = static_cast<int>(rng() % 250); i < burst && !q.empty(); ++i) {
            ASSERT_EQ(q.size(), pending.size());
            EXPECT_EQ(q.next_time(), order.cell_start(pending.begin()->key.time));
            const Event e = q.pop();
            const Event& want = *pending.begin();
            ASSERT_EQ(e.key.time, want.key.time) << pops;
            ASSERT_EQ(e.key.order, want.key.order) << pops;
            ASSERT_EQ(e.owner, want.owner) << pops;
            pending.erase(pending.begin());
            if (e.key.time < latest_popped) ++out_of_time_order;
            latest_popped = std::max(latest_popped, e.key.time);
            last = e;
            ++pops;
        }
    }
    while (!q.empty()) {
        const Event e = q.pop();
        ASSERT_EQ(e.key.order, pending.begin()->key.order);
        pending.erase(pending.begin());
    }
    EXPECT_TRUE(pending.empty());
    EXPECT_GT(pops, 10000u);
    EXPECT_GT(out_of_time_order, 1000u);  // the order really differs from time order
}

// The calendar of cells (cell_calendar.hpp) with what the engine rarely does: events far
// beyond its buckets (long computations), cells left empty between pending ones, pushes into
// the cell being popped behind its first event, and large cells sorted by radix. It pops
// exactly as one heap would; next_time() and maybe_pending_before() answer without sorting a
// cell and are never wrong in the direction that would break the order.
TEST(CellCalendar, FarCellsGapsAndPushesIntoThePoppedCellPopAsOneHeap) {
    const ProcessingOrder order = ProcessingOrder::for_latency(1000, true);
    CellCalendar q;
    q.set_order(order);
    auto before = [&](const Event& a, const Event& b) { return order.before(a, b); };
    std::multiset<Event, decltype(before)> pending(before);
    std::mt19937 rng(77);
    std::uint32_t seq = 0;
    Event last{{0, 0}, nullptr, 0};
    auto push = [&](SimTime t, std::uint32_t owner) {
        const Event e{{t, event_order(EventClass::Message, owner & 0xffff, seq++)}, nullptr, owner};
        if (order.before(e, last)) return;  // the engine never pushes into the past
        pending.insert(e);
        q.push(e);
    };
    std::size_t pops = 0;
    for (int round = 0; round < 400; ++round) {
        const SimTime now = last.key.time;
        for (int i = 0, n = static_cast<int>(rng() % 600); i < n; ++i) {
            const unsigned kind = rng() % 10;
            if (kind < 2) push(now + static_cast<SimTime>(rng() % 300), last.owner);               // same owner, same cell
            else if (kind < 4) push(order.cell_start(now) + static_cast<SimTime>(rng() % 1000), rng() % 70000);
            else if (kind < 8) push(now + 1000 + static_cast<SimTime>(rng() % 2000), rng() % 70000);  // next cells
            else push(now + 1000 * (60 + static_cast<SimTime>(rng() % 200)), rng() % 70000);         // beyond the buckets
        }
        q.keep_room(256);
        for (int i = 0, burst = static_cast<int>(rng() % 700); i < burst && !q.empty(); ++i) {
            ASSERT_EQ(q.size(), pending.size());
            const Event& want = *pending.begin();
            ASSERT_EQ(q.next_time(), order.cell_start(want.key.time)) << pops;
            // A run at the first event's time, owned by someone after it: something is before it.
            const Event probe{{want.key.time, event_order(EventClass::RankRun, 0x7fffffff, 0)}, nullptr, 0xffffffffu};
            ASSERT_TRUE(q.maybe_pending_before(probe)) << pops;
            // A run in the cell before the first event's: nothing is before it.
            if (order.major(want.key.time) > 0) {
                const Event early{{order.cell_start(want.key.time) - 1, 0}, nullptr, 0};
                ASSERT_FALSE(q.maybe_pending_before(early)) << pops;
            }
            const Event e = q.pop();
            ASSERT_EQ(e.key.time, want.key.time) << pops;
            ASSERT_EQ(e.key.order, want.key.order) << pops;
            ASSERT_EQ(e.owner, want.owner) << pops;
            pending.erase(pending.begin());
            last = e;
            ++pops;
        }
    }
    while (!q.empty()) {
        const Event e = q.pop();
        ASSERT_EQ(e.key.order, pending.begin()->key.order);
        pending.erase(pending.begin());
    }
    EXPECT_TRUE(pending.empty());
    EXPECT_EQ(q.next_time(), kNever);
    EXPECT_GT(pops, 50000u);
}

// A cell whose owners are dense (every rank of the process has events in it, the usual case)
// is sorted by counting on the owner (cell_sort.hpp): owners repeated at scattered times, an
// owner range that does not start at 0, events from beyond the buckets joining the cell.
TEST(CellCalendar, DenseCellsSortedByCountingPopAsOneHeap) {
    const ProcessingOrder order = ProcessingOrder::for_latency(1 << 20, true);
    CellCalendar q;
    q.set_order(order);
    auto before = [&](const Event& a, const Event& b) { return order.before(a, b); };
    std::multiset<Event, decltype(before)> pending(before);
    std::mt19937 rng(43);
    std::uint32_t seq = 0;
    auto push = [&](SimTime t, std::uint32_t owner) {
        const Event e{{t, event_order(EventClass::Message, owner, seq++)}, nullptr, owner};
        pending.insert(e);
        q.push(e);
    };
    const SimTime cell = order.cell_length();
    for (int i = 0; i < 3000; ++i) push(100 * cell + static_cast<SimTime>(rng() % cell), 5000 + rng() % 1000);  // far, then joins
    std::size_t popped = 0;
    for (SimTime c = 1; c <= 8; ++c) {
        for (int i = 0; i < 4000; ++i) push(c * cell + static_cast<SimTime>(rng() % cell), 5000 + rng() % 1500);
        for (int i = 0; i < 3000; ++i) {
            const Event e = q.pop();
            const Event& want = *pending.begin();
            ASSERT_EQ(e.owner, want.owner) << popped;
            ASSERT_EQ(e.key.time, want.key.time) << popped;
            ASSERT_EQ(e.key.order, want.key.order) << popped;
            pending.erase(pending.begin());
            ++popped;
        }
    }
    while (!q.empty()) {
        const Event e = q.pop();
        ASSERT_EQ(e.key.order, pending.begin()->key.order);
        pending.erase(pending.begin());
    }
    EXPECT_TRUE(pending.empty());
}

// In cells a refill of thousands of events is sorted by radix on the owner (radix_heap.hpp):
// large cells, owners over three bytes, several events per owner at scattered times, and
// pushes into the cell being popped; the pops follow (cell, owner, time, order) exactly.
TEST(RadixHeap, InCellsLargeCellsPopByOwnerThenTime) {
    const ProcessingOrder order = ProcessingOrder::for_latency(1 << 20, true);
    RadixHeap h;
    h.set_order(order);
    auto before = [&](const Event& a, const Event& b) { return order.before(a, b); };
    std::multiset<Event, decltype(before)> pending(before);
    std::mt19937 rng(41);
    std::uint32_t seq = 0;
    auto push = [&](SimTime t, std::uint32_t owner) {
        const Event e{{t, event_order(EventClass::Message, owner & 0xffff, seq++)}, nullptr, owner};
        pending.insert(e);
        h.push(e);
    };
    const SimTime cell = order.cell_length();
    std::size_t popped = 0;
    for (SimTime c = 1; c <= 6; ++c) {
        for (int i = 0; i < 5000; ++i)  // owners 0..70,000 (three bytes), often repeated
            push(c * cell + static_cast<SimTime>(rng() % cell), (rng() % 4 == 0) ? rng() % 64 : rng() % 70000);
        h.keep_room(256);
        for (int i = 0; i < 4000; ++i) {
            const Event e = h.pop();
            const Event& want = *pending.begin();
            ASSERT_EQ(e.owner, want.owner) << popped;
            ASSERT_EQ(e.key.time, want.key.time) << popped;
            ASSERT_EQ(e.key.order, want.key.order) << popped;
            pending.erase(pending.begin());
            ++popped;
            // Into a later cell, as the engine's sends do.
            if (i % 3 == 0) push((c + 1) * cell + static_cast<SimTime>(rng() % cell), rng() % 70000);
        }
    }
    while (!h.empty()) {
        const Event e = h.pop();
        ASSERT_EQ(e.key.order, pending.begin()->key.order);
        pending.erase(pending.begin());
    }
    EXPECT_TRUE(pending.empty());
}

TEST(ProcessingOrder, CellsAreAsLongAsTheSmallestLatency) {
    EXPECT_FALSE(ProcessingOrder::for_latency(12'000'000, false).cells());  // -xsim-order time
    EXPECT_FALSE(ProcessingOrder::for_latency(1, true).cells());            // no cell fits
    EXPECT_FALSE(ProcessingOrder::for_latency(kNever, true).cells());
    const ProcessingOrder o = ProcessingOrder::for_latency(12'000'000, true);  // 12 us
    constexpr SimTime kCell = 12'000'000;
    EXPECT_EQ(o.cell_length(), kCell);
    EXPECT_EQ(o.cell_start(5 * kCell + 77), 5 * kCell);
    EXPECT_EQ(o.cell_start(5 * kCell - 1), 4 * kCell);
    EXPECT_EQ(o.cell_start(kNever), kNever);
    // Within a cell the owner decides, whatever the times; across cells the time.
    const Event late_low{{5 * kCell + 900, event_order(EventClass::RankRun, 3, 0)}, nullptr, 3};
    const Event early_high{{5 * kCell + 10, event_order(EventClass::Message, 1, 0)}, nullptr, 9};
    const Event next_cell{{6 * kCell, event_order(EventClass::Message, 0, 0)}, nullptr, 0};
    EXPECT_TRUE(o.before(late_low, early_high));
    EXPECT_TRUE(o.before(early_high, next_cell));
    EXPECT_FALSE(ProcessingOrder{}.before(late_low, early_high));  // time order
}

// The cell index is a multiplication standing for t / length: exact for every time a run can
// reach, at cell boundaries and far from them, for lengths of every size and shape.
TEST(ProcessingOrder, CellIndexIsExactDivision) {
    std::mt19937_64 rng(7);
    const SimTime lengths[] = {2, 3, 7, 1000, 1 << 20, 12'000'000, 12'000'001, 13'000'000, 999'999'937,
                               (SimTime{1} << 40) + 1, (SimTime{1} << 62) - 1, SimTime{1} << 62};
    for (const SimTime d : lengths) {
        const ProcessingOrder o = ProcessingOrder::for_latency(d, true);
        ASSERT_TRUE(o.cells());
        auto check = [&](SimTime t) {
            if (t < 0 || t >= kNever) return;
            ASSERT_EQ(o.major(t), t / d) << "t=" << t << " length=" << d;
            ASSERT_EQ(o.cell_start(t), t / d * d) << "t=" << t << " length=" << d;
        };
        const SimTime last_cell = (kNever - 1) / d;
        for (SimTime k : {SimTime{0}, SimTime{1}, SimTime{2}, SimTime{1000}, last_cell})
            if (k <= last_cell)
                for (SimTime delta : {SimTime{-1}, SimTime{0}, SimTime{1}}) check(k * d + delta);
        check(kNever - 1);
        for (int i = 0; i < 20000; ++i) check(static_cast<SimTime>(rng() >> 1));
        for (int i = 0; i < 20000; ++i) check(static_cast<SimTime>(rng() % (1ull << 50)));
    }
    // Time order: the key is the time itself.
    EXPECT_EQ(ProcessingOrder{}.major(kNever - 1), kNever - 1);
    EXPECT_EQ(ProcessingOrder{}.major(12345), 12345);
}
