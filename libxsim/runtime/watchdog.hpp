// -xsim-watchdog SECONDS: a thread that ends the run when one simulated rank has run for
// that long (wall clock) without giving control back to xsim: an infinite loop between two
// MPI calls would otherwise hang the run with nothing naming the rank. It names the rank,
// its virtual time and its last call, saves what the process has (run_end.hpp, "end":
// "watchdog") and aborts the job. The thread only reads plain fields of the engine (the
// running rank, event and switch counters, the rank's clock) and never changes them.
#pragma once
#include <atomic>
#include <thread>

#include "libxsim/engine/engine.hpp"

namespace xsim::runtime {

class Watchdog {
public:
    // Starts the thread when `seconds` > 0 (off otherwise).
    Watchdog(Engine& engine, double seconds);
    ~Watchdog();
    Watchdog(const Watchdog&) = delete;
    Watchdog& operator=(const Watchdog&) = delete;

private:
    void watch();
    Engine& engine_;
    double seconds_;
    std::atomic<bool> stop_{false};
    std::thread thread_;
};

}  // namespace xsim::runtime
