// Google Benchmark of the engine's fiber switch (pdes/fiber.hpp): one resume (scheduler ->
// fiber) plus one suspend (fiber -> scheduler) per iteration, with the fibers' stacks from
// the StackArena as in a run. `fibers` > 1 round-robins over that many fibers, so at large
// counts each switch lands on a cold stack, as at scale. Boost.Context's own figure is about
// 10 ns per jump (two jumps per iteration here).
#include <benchmark/benchmark.h>

#include <vector>

#include "pdes/fiber.hpp"
#include "pdes/stack_arena.hpp"

namespace {

struct Ring {
    xsim::StackArena stacks;
    std::vector<xsim::Fiber> fibers;
};

void loop_forever(void* arg) {
    auto* self = static_cast<xsim::Fiber*>(arg);
    for (;;) self->suspend();
}

void BM_resume_suspend(benchmark::State& state) {
    const auto n = static_cast<std::size_t>(state.range(0));
    Ring ring;
    ring.stacks.reserve(n, 16 * 1024);
    ring.fibers.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        ring.fibers[i].prepare(ring.stacks.top(i), ring.stacks.stack_bytes(), loop_forever, &ring.fibers[i]);
        ring.fibers[i].resume();  // first entry: the stack page is touched outside the timing
    }
    std::size_t next = 0;
    for (auto _ : state) {
        ring.fibers[next].resume();
        if (++next == n) next = 0;
    }
    state.SetItemsProcessed(state.iterations());
    // Seconds / (2 jumps per iteration x 1e-9): nanoseconds per jump.
    state.counters["ns_per_switch"] = benchmark::Counter(static_cast<double>(state.iterations()) * 2 * 1e-9,
                                                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_resume_suspend)->Arg(1)->Arg(1024)->Arg(65536)->Arg(524288);

}  // namespace

BENCHMARK_MAIN();
