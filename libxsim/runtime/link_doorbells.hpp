// How PmpiLink waits for another real process without spinning for the whole wait.
//
// Between two windows a process waits for every other's box (pmpi_link.cpp). Open MPI's
// shared-memory transport only polls: a waiting process spins in opal_progress, and on a host
// with more runnable threads than cores a spinning process spends its share of the CPU while the
// process it waits for is not running, and is itself not running when the box arrives (every
// window then costs scheduler slices: bench/RESULTS.md, "Session 36"). A process that sleeps in
// the kernel instead is woken as soon as the other rings it, and a woken sleeper is run at once.
//
// When every real process of the run is on this host, each has a doorbell (a word in memory
// the processes share): a process rings the doorbells of the others after it has sent them its
// box, and a waiting process spins briefly, then sleeps on its own doorbell (futex) until it is
// rung or a short timeout passes (a missed ring, e.g. a send Open MPI queued, costs a timeout,
// never a hang). Across hosts (or when the shared memory cannot be made) it only spins, as
// before. Virtual times do not depend on any of this: only when the wait ends.
#pragma once
#include <atomic>
#include <cstdint>

#include "libxsim/engine/host_clock.hpp"

namespace xsim::runtime {

class LinkDoorbells {
public:
    // Collective over the real MPI_COMM_WORLD (all processes call it together).
    LinkDoorbells(int self, int processes);
    ~LinkDoorbells();
    LinkDoorbells(const LinkDoorbells&) = delete;
    LinkDoorbells& operator=(const LinkDoorbells&) = delete;

    // Wakes `process` if it sleeps in wait_until (nothing when not enabled).
    void ring(int process);
    // Returns once `done()` (which polls the real MPI library) is true: spins for a while, then
    // sleeps on this process's doorbell between polls.
    template <class Done>
    void wait_until(Done&& done) {
        if (done()) return;
        if (!bells_) {
            while (!done()) {
            }
            return;
        }
        Bell& mine = bells_[self_];
        const std::int64_t start = host_clock_ns();
        for (;;) {
            // A ring after this load changes the word, and the sleep below does not start; a ring
            // before it follows a send that done() now sees.
            const std::uint32_t seen = mine.rings.load(std::memory_order_seq_cst);
            if (done()) return;
            if (host_clock_ns() - start < kSpinNs) continue;
            mine.sleeping.store(1, std::memory_order_seq_cst);
            const bool ready = done();
            if (!ready) sleep(seen);
            mine.sleeping.store(0, std::memory_order_relaxed);
            if (ready) return;
        }
    }

    // How long a wait polls before it sleeps: many times a round of the real MPI library
    // between two processes that both run (a few microseconds), so that the waits of short
    // windows do not sleep. Measured on 2 shared cores (bench/RESULTS.md, "Session 36"):
    // sleeping at once made windows with no work 7x slower; 50 us still made windows with work
    // (esys-particle, xmds2) 1.5-2x slower than 200 to 500 us, with more CPU time (a process that
    // slept finds its caches cold); polling for ever is what made them slow in the first place.
    static constexpr std::int64_t kSpinNs = 200'000;

private:
    void sleep(std::uint32_t seen);
    struct alignas(64) Bell {
        std::atomic<std::uint32_t> rings;
        std::atomic<std::uint32_t> sleeping;
    };
    Bell* bells_ = nullptr;  // one per process, indexed by rank in MPI_COMM_WORLD
    std::size_t mapped_bytes_ = 0;
    int self_ = 0;
};

}  // namespace xsim::runtime
