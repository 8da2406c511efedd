// The progress line of a long run (-xsim-progress auto|on|off, -xsim-quiet; auto: on only
// when stderr is a terminal). A thread of every real process prints it, so it keeps
// coming while one rank computes for long between two MPI calls (then it names that
// rank) and while a process waits for the others:
//   one process:  "\rxsim: virtual time 1.234567 s, 10 of 64 ranks finished, wall 3 s"
//                 rewritten in place once a second;
//   several:      "xsim[1/4]: virtual time ..., 10 of 16 ranks of process 1 finished,
//                 wall 5 s" as whole lines, every 5 s from each process.
// The thread only reads plain fields: what tick() stores and the engine's running rank.
#pragma once
#include <atomic>
#include <cstdint>
#include <thread>

#include "libxsim/engine/options.hpp"
#include "pdes/sim_time.hpp"

namespace xsim {

class ProgressLine {
public:
    ProgressLine(ProgressMode mode, int process, std::int64_t local_ranks);
    ~ProgressLine();
    ProgressLine(const ProgressLine&) = delete;
    ProgressLine& operator=(const ProgressLine&) = delete;
    // On every event: two plain stores when enabled.
    void tick(SimTime now, std::int64_t local_unfinished) {
        if (!enabled_) return;
        __atomic_store_n(&now_, now, __ATOMIC_RELAXED);
        __atomic_store_n(&unfinished_, local_unfinished, __ATOMIC_RELAXED);
    }
    // Stops the thread; ends a rewritten line with a newline.
    void finish();

private:
    void run();
    void observe(std::int64_t wall_ns);
    void print(std::int64_t wall_ns);
    bool enabled_ = false;
    bool printed_ = false;
    int process_ = 0;
    int processes_ = 1;
    std::int64_t local_ranks_ = 0;
    std::int64_t start_ns_ = 0;
    SimTime now_ = 0;
    std::int64_t unfinished_ = 0;
    // The rank seen running at the last look, and since when (wall ns) with no event.
    const void* busy_rank_ = nullptr;
    std::uint64_t busy_events_ = 0;
    std::int64_t busy_since_ = 0;
    std::atomic<bool> stop_{false};
    std::thread thread_;
};

}  // namespace xsim
