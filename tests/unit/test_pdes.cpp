// Unit tests of the PDES core on its own: fibers on arena stacks, and the conservative
// loop's windows driven through a scripted ProcessLink (no MPI, no engine).
#include <gtest/gtest.h>

#include <deque>
#include <string>
#include <utility>
#include <vector>

#include "pdes/conservative_loop.hpp"
#include "pdes/fiber.hpp"
#include "pdes/stack_arena.hpp"

namespace xsim {
namespace {

// ---------------------------------------------------------------- fibers

struct Trace {
    std::vector<std::string> steps;
    Fiber* fiber = nullptr;
};

void two_steps(void* arg) {
    auto* t = static_cast<Trace*>(arg);
    t->steps.push_back("a1");
    t->fiber->suspend();
    t->steps.push_back("a2");
}

TEST(Fiber, ResumeRunsUntilSuspendThenUntilTheEnd) {
    StackArena arena;
    arena.reserve(1, 64 * 1024);
    Fiber fiber;
    Trace trace;
    trace.fiber = &fiber;
    EXPECT_FALSE(fiber.prepared());
    fiber.prepare(arena.top(0), arena.stack_bytes(), &two_steps, &trace);
    EXPECT_TRUE(fiber.prepared());
    trace.steps.push_back("s1");
    fiber.resume();
    EXPECT_FALSE(fiber.finished());
    trace.steps.push_back("s2");
    fiber.resume();
    EXPECT_TRUE(fiber.finished());
    EXPECT_EQ(trace.steps, (std::vector<std::string>{"s1", "a1", "s2", "a2"}));
}

struct Counter {
    Fiber* fiber;
    int id;
    std::vector<int>* order;
    char* lowest = nullptr;  // deepest local address seen
};

void count_three(void* arg) {
    auto* c = static_cast<Counter*>(arg);
    char local[256];
    local[0] = static_cast<char>(c->id);
    c->lowest = local;
    for (int i = 0; i < 3; ++i) {
        c->order->push_back(c->id * 10 + i);
        c->fiber->suspend();
    }
    EXPECT_EQ(local[0], static_cast<char>(c->id));  // its stack was not touched by the others
}

TEST(Fiber, ManyFibersInterleaveOnTheirOwnStacks) {
    constexpr int kFibers = 64;
    StackArena arena;
    arena.reserve(kFibers, 16 * 1024);
    std::vector<Fiber> fibers(kFibers);
    std::vector<int> order;
    std::vector<Counter> counters;
    counters.reserve(kFibers);
    for (int i = 0; i < kFibers; ++i) {
        counters.push_back({&fibers[i], i, &order});
        fibers[i].prepare(arena.top(i), arena.stack_bytes(), &count_three, &counters[i]);
    }
    for (int round = 0; round < 4; ++round)
        for (int i = 0; i < kFibers; ++i)
            if (!fibers[i].finished()) fibers[i].resume();
    ASSERT_EQ(order.size(), 3u * kFibers);
    for (int round = 0; round < 3; ++round)
        for (int i = 0; i < kFibers; ++i) EXPECT_EQ(order[round * kFibers + i], i * 10 + round);
    for (int i = 0; i < kFibers; ++i) {
        EXPECT_TRUE(fibers[i].finished());
        EXPECT_EQ(arena.owner_of(counters[i].lowest), i);  // locals live on the fiber's own stack
    }
}

// A fiber ends through finish() from deep inside its entry, as a rank ends at exit():
// the scheduler's resume returns, and nothing after the call runs.
struct Ender {
    Fiber* fiber;
    int depth_reached = 0;
    bool ran_past_finish = false;
};

void end_at_depth(Ender* e, int depth) {
    e->depth_reached = depth;
    if (depth == 5) {
        e->fiber->finish();
    }
    end_at_depth(e, depth + 1);
    e->ran_past_finish = true;
}

void end_deep(void* arg) {
    auto* e = static_cast<Ender*>(arg);
    end_at_depth(e, 0);
    e->ran_past_finish = true;
}

TEST(Fiber, FinishFromANestedCallEndsTheFiberThere) {
    StackArena arena;
    arena.reserve(1, 64 * 1024);
    Fiber fiber;
    Ender ender{&fiber};
    fiber.prepare(arena.top(0), arena.stack_bytes(), &end_deep, &ender);
    fiber.resume();
    EXPECT_TRUE(fiber.finished());
    EXPECT_EQ(ender.depth_reached, 5);
    EXPECT_FALSE(ender.ran_past_finish);
}

// The engine reuses a finished rank's Fiber object and stack for the next run: prepare
// clears finished() and the new entry starts from the top of the stack again.
TEST(Fiber, PrepareAfterFinishRunsTheNewEntryOnTheSameStack) {
    StackArena arena;
    arena.reserve(1, 64 * 1024);
    Fiber fiber;
    Trace first;
    first.fiber = &fiber;
    fiber.prepare(arena.top(0), arena.stack_bytes(), &two_steps, &first);
    fiber.resume();
    fiber.resume();
    ASSERT_TRUE(fiber.finished());

    Trace second;
    second.fiber = &fiber;
    fiber.prepare(arena.top(0), arena.stack_bytes(), &two_steps, &second);
    EXPECT_TRUE(fiber.prepared());
    EXPECT_FALSE(fiber.finished());
    fiber.resume();
    EXPECT_EQ(second.steps, (std::vector<std::string>{"a1"}));
    fiber.resume();
    EXPECT_TRUE(fiber.finished());
    EXPECT_EQ(second.steps, (std::vector<std::string>{"a1", "a2"}));
    EXPECT_EQ(first.steps, (std::vector<std::string>{"a1", "a2"}));  // untouched by the second run
}

// ---------------------------------------------------------------- conservative loop

// A ProcessLink that plays the other processes from a script: for each window, the earliest
// event time they hold and the events they send this process in the exchange before it.
class ScriptedLink final : public ProcessLink {
public:
    struct Window {
        SimTime others_next;              // kNever once the others are idle
        std::int64_t others_live;
        std::vector<SimTime> delivered;   // events they send us in this exchange
    };
    ScriptedLink(EventQueue& queue, std::deque<Window> script) : queue_(queue), script_(std::move(script)) {}

    int process_count() const override { return 2; }
    // As the real link: `local_next` is this process's before the exchange; the others' part
    // is the earliest event they hold or send.
    Agreement exchange(SimTime local_next, std::int64_t local_live) override {
        // A loop that stops making progress would agree forever: end it, so the test
        // fails on what was processed instead of hanging.
        if (agreed.size() >= kMaxAgreements) return {kNever, local_live};
        Window w = script_.empty() ? Window{kNever, 0, {}} : script_.front();
        if (!script_.empty()) script_.pop_front();
        SimTime others_next = w.others_next;
        for (SimTime t : w.delivered) {
            queue_.push({{t, event_order(EventClass::Message, 99, seq_++)}, nullptr});
            others_next = std::min(others_next, t);
        }
        agreed.push_back(std::min(local_next, others_next));
        return {agreed.back(), local_live + w.others_live};
    }
    std::vector<SimTime> agreed;
    static constexpr std::size_t kMaxAgreements = 100;

private:
    EventQueue& queue_;
    std::deque<Window> script_;
    std::uint32_t seq_ = 0;
};

class RecordingSink final : public EventSink {
public:
    explicit RecordingSink(const ConservativeLoop*& loop) : loop_(loop) {}
    void process(const Event& e) override {
        processed.push_back(e.key.time);
        window_ends.push_back(loop_->window_end());
    }
    std::int64_t live_ranks() const override { return live; }
    std::vector<SimTime> processed;
    std::vector<SimTime> window_ends;
    std::int64_t live = 0;

private:
    const ConservativeLoop*& loop_;
};

void push_local(EventQueue& q, SimTime t, std::uint32_t seq) {
    q.push({{t, event_order(EventClass::RankRun, 1, seq)}, nullptr});
}

TEST(ConservativeLoop, AloneTheWindowIsUnboundedAndEverythingRunsInOrder) {
    EventQueue queue;
    for (SimTime t : {50, 10, 30, 20}) push_local(queue, t, static_cast<std::uint32_t>(t));
    SoloLink solo;
    ConservativeLoop loop(queue, solo, /*lookahead=*/5);
    const ConservativeLoop* seen = &loop;
    RecordingSink sink(seen);
    EXPECT_EQ(loop.run(sink), 0);
    EXPECT_EQ(sink.processed, (std::vector<SimTime>{10, 20, 30, 50}));
    for (SimTime end : sink.window_ends) EXPECT_EQ(end, kNever);
    EXPECT_EQ(loop.windows(), 1u);
}

TEST(ConservativeLoop, ProcessesOnlyEventsBeforeAgreedTimePlusLookahead) {
    EventQueue queue;
    for (SimTime t : {100, 104, 110, 200}) push_local(queue, t, static_cast<std::uint32_t>(t));
    // Window 1: the others hold an event at 102, so T = 100 and the window ends at 110.
    // Window 2: they deliver an event at 112 (>= 110, as lookahead guarantees), T = 110.
    // Window 3: they are idle: T = 200.
    ScriptedLink link(queue, {{102, 1, {}}, {kNever, 1, {112}}, {kNever, 0, {}}});
    ConservativeLoop loop(queue, link, /*lookahead=*/10);
    const ConservativeLoop* seen = &loop;
    RecordingSink sink(seen);
    EXPECT_EQ(loop.run(sink), 0);
    EXPECT_EQ(sink.processed, (std::vector<SimTime>{100, 104, 110, 112, 200}));
    EXPECT_EQ(sink.window_ends, (std::vector<SimTime>{110, 110, 120, 120, 210}));
    EXPECT_EQ(link.agreed, (std::vector<SimTime>{100, 110, 200, kNever}));
    EXPECT_EQ(loop.windows(), 3u);
}

TEST(ConservativeLoop, ReturnsTheUnfinishedRanksOfEveryProcessWhenNothingIsPending) {
    EventQueue queue;
    push_local(queue, 7, 0);
    ScriptedLink link(queue, {{kNever, 3, {}}, {kNever, 3, {}}});
    ConservativeLoop loop(queue, link, 10);
    const ConservativeLoop* seen = &loop;
    RecordingSink sink(seen);
    sink.live = 2;  // two local ranks blocked forever
    EXPECT_EQ(loop.run(sink), 5);  // 2 here + 3 elsewhere: a deadlock
    EXPECT_EQ(sink.processed, (std::vector<SimTime>{7}));
}

// An event that processing creates inside the current window runs in that window (a rank
// that sends to a rank of its own process); one at or after the window's end waits for
// the next agreement, where the other processes may still deliver earlier ones.
class SpawningSink final : public EventSink {
public:
    SpawningSink(EventQueue& queue, const ConservativeLoop& loop) : queue_(queue), loop_(loop) {}
    void process(const Event& e) override {
        processed.push_back({e.key.time, loop_.windows()});
        if (e.key.time == 100) {
            push_local(queue_, 105, 1);  // inside [100, 110)
            push_local(queue_, 110, 2);  // exactly at the end: the next window
        }
    }
    std::int64_t live_ranks() const override { return 0; }
    std::vector<std::pair<SimTime, std::uint64_t>> processed;  // (time, window number)

private:
    EventQueue& queue_;
    const ConservativeLoop& loop_;
};

TEST(ConservativeLoop, EventsCreatedInsideTheWindowRunInItLaterOnesWait) {
    EventQueue queue;
    push_local(queue, 100, 0);
    // Window 1: T = 100, ends at 110: 100 and the 105 it creates. Window 2: the others
    // deliver 112 (>= 110, as lookahead guarantees); T = 110, and [110, 120) takes both.
    ScriptedLink link(queue, {{kNever, 1, {}}, {kNever, 1, {112}}, {kNever, 0, {}}});
    ConservativeLoop loop(queue, link, /*lookahead=*/10);
    SpawningSink sink(queue, loop);
    EXPECT_EQ(loop.run(sink), 0);
    using P = std::pair<SimTime, std::uint64_t>;
    EXPECT_EQ(sink.processed, (std::vector<P>{{100, 1}, {105, 1}, {110, 2}, {112, 2}}));
    EXPECT_EQ(link.agreed, (std::vector<SimTime>{100, 110, kNever}));
}

// A window that would end past the largest time is unbounded instead of wrapping
// around to a negative end (which would process nothing and spin forever).
TEST(ConservativeLoop, AWindowNearTheEndOfTimeDoesNotOverflow) {
    EventQueue queue;
    const SimTime late = kNever - 3;
    push_local(queue, late, 0);
    push_local(queue, kNever - 1, 1);
    ScriptedLink link(queue, {{kNever, 1, {}}, {kNever, 0, {}}});
    ConservativeLoop loop(queue, link, /*lookahead=*/10);
    const ConservativeLoop* seen = &loop;
    RecordingSink sink(seen);
    EXPECT_EQ(loop.run(sink), 0);
    EXPECT_EQ(sink.processed, (std::vector<SimTime>{late, kNever - 1}));
    EXPECT_EQ(sink.window_ends, (std::vector<SimTime>{kNever, kNever}));
    EXPECT_EQ(loop.windows(), 1u);
}

}  // namespace
}  // namespace xsim
