#include "libxsim/engine/progress.hpp"

#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <cstdio>

#include "libxsim/engine/engine.hpp"
#include "libxsim/engine/host_clock.hpp"

namespace xsim {

ProgressLine::ProgressLine(ProgressMode mode, int process, std::int64_t local_ranks)
    : process_(process), local_ranks_(local_ranks), unfinished_(local_ranks) {
    enabled_ = mode == ProgressMode::On || (mode == ProgressMode::Auto && isatty(STDERR_FILENO));
    processes_ = g_engine ? g_engine->placement().processes : 1;
    start_ns_ = host_clock_ns();
    if (enabled_) thread_ = std::thread([this] { run(); });
}

ProgressLine::~ProgressLine() { finish(); }

void ProgressLine::run() {
    // Signals from outside (SIGINT, SIGTERM) are for the simulation thread.
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, nullptr);
    const std::int64_t interval = processes_ == 1 ? 1'000'000'000 : 5'000'000'000;
    std::int64_t next = start_ns_ + interval;
    while (!stop_.load()) {
        const timespec pause{0, 100'000'000};
        nanosleep(&pause, nullptr);
        const std::int64_t wall = host_clock_ns();
        observe(wall);
        if (wall >= next) {
            print(wall);
            next = wall + interval;
        }
    }
}

// Which rank runs, and since when with no event processed (one rank computing for long).
void ProgressLine::observe(std::int64_t wall) {
    Engine* engine = g_engine;
    if (!engine) return;
    const Rank* rank = __atomic_load_n(&engine->current_rank_field(), __ATOMIC_RELAXED);
    const std::uint64_t events = __atomic_load_n(&engine->stats().events, __ATOMIC_RELAXED);
    if (!rank || rank != busy_rank_ || events != busy_events_) {
        busy_rank_ = rank, busy_events_ = events, busy_since_ = wall;
    }
}

void ProgressLine::print(std::int64_t wall) {
    const SimTime now = __atomic_load_n(&now_, __ATOMIC_RELAXED);
    const std::int64_t unfinished = __atomic_load_n(&unfinished_, __ATOMIC_RELAXED);
    char busy[160] = "";
    if (const auto* rank = static_cast<const Rank*>(busy_rank_); rank && wall - busy_since_ >= 1'000'000'000) {
        const char* call = __atomic_load_n(&rank->current_call, __ATOMIC_RELAXED);
        std::snprintf(busy, sizeof busy, "; rank %d has computed for %.0f s since %s", rank->world,
                      static_cast<double>(wall - busy_since_) * 1e-9, call ? call : "it started");
    }
    const double seconds = static_cast<double>(wall - start_ns_) * 1e-9;
    if (processes_ == 1) {
        std::fprintf(stderr, "\rxsim: virtual time %.6f s, %lld of %lld ranks finished, wall %.0f s%s   ",
                     simtime_to_seconds(now), static_cast<long long>(local_ranks_ - unfinished),
                     static_cast<long long>(local_ranks_), seconds, busy);
    } else {
        std::fprintf(stderr, "xsim[%d/%d]: virtual time %.6f s, %lld of %lld ranks of process %d finished, wall %.0f s%s\n",
                     process_, processes_, simtime_to_seconds(now), static_cast<long long>(local_ranks_ - unfinished),
                     static_cast<long long>(local_ranks_), process_, seconds, busy);
    }
    std::fflush(stderr);
    printed_ = true;
}

void ProgressLine::finish() {
    stop_.store(true);
    if (thread_.joinable()) thread_.join();
    if (printed_ && processes_ == 1) std::fprintf(stderr, "\n");
    printed_ = false;
}

}  // namespace xsim
