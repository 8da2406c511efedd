#include "libxsim/runtime/watchdog.hpp"

#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

#include "libxsim/engine/run_end.hpp"
#include "libxsim/mpi/real_mpi.hpp"

namespace xsim::runtime {

Watchdog::Watchdog(Engine& engine, double seconds) : engine_(engine), seconds_(seconds) {
    if (seconds_ > 0) thread_ = std::thread([this] { watch(); });
}

Watchdog::~Watchdog() {
    stop_.store(true);
    if (thread_.joinable()) thread_.join();
}

void Watchdog::watch() {
    // Signals from outside (SIGINT, SIGTERM) are for the simulation thread.
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, nullptr);
    const std::int64_t poll_ns = seconds_ < 1 ? static_cast<std::int64_t>(seconds_ * 2.5e8) : 250'000'000;
    const Rank* last_rank = nullptr;
    std::uint64_t last_events = 0, last_switches = 0;
    SimTime last_clock = 0;
    std::int64_t since = host_clock_ns();
    while (!stop_.load()) {
        const timespec pause{0, static_cast<long>(poll_ns)};
        nanosleep(&pause, nullptr);
        // Plain reads of fields the simulation thread writes: a torn or stale value only
        // delays the verdict by one poll.
        const Rank* rank = __atomic_load_n(&engine_.current_rank_field(), __ATOMIC_RELAXED);
        const std::uint64_t events = __atomic_load_n(&engine_.stats().events, __ATOMIC_RELAXED);
        const std::uint64_t switches = __atomic_load_n(&engine_.stats().context_switches, __ATOMIC_RELAXED);
        const SimTime clock = rank ? __atomic_load_n(&rank->clock, __ATOMIC_RELAXED) : 0;
        const std::int64_t now = host_clock_ns();
        if (!rank || rank != last_rank || events != last_events || switches != last_switches || clock != last_clock) {
            last_rank = rank, last_events = events, last_switches = switches, last_clock = clock;
            since = now;
            continue;
        }
        const double stalled = static_cast<double>(now - since) * 1e-9;
        if (stalled < seconds_) continue;
        const char* call = __atomic_load_n(&rank->current_call, __ATOMIC_RELAXED);
        char why[400];
        std::snprintf(why, sizeof why,
                      "watchdog: simulated rank %d has run for %.0f s of wall time without giving control back to xsim "
                      "(-xsim-watchdog %g); it is at virtual time %.9f s, last call: %s; ending the run",
                      rank->world, stalled, seconds_, simtime_to_seconds(clock), call ? call : "none yet");
        char line[420];
        const int n = std::snprintf(line, sizeof line, "xsim: %s\n", why);
        if (n > 0) (void)!write(STDERR_FILENO, line, std::strlen(line));
        run_abnormal_end_hook(RunEnd::Watchdog, 1, why);
        real_mpi.Abort(MPI_COMM_WORLD, 1);
        _exit(1);
    }
}

}  // namespace xsim::runtime
