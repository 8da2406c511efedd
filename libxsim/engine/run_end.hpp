// How a run ended, for the run report, and the hook that saves what a process has when
// the run ends badly. The report and regions sit above the engine, so start-up registers
// the hook; the engine (abort_run) and the signal handlers (stack_guard) call it.
#pragma once
#include <cstdint>

namespace xsim {

enum class RunEnd : std::uint8_t {
    Completed,  // every rank finished
    Deadlock,   // every unfinished rank blocked, nothing in flight
    Abort,      // MPI_Abort
    Exit,       // a rank called exit() with a non-zero status or left main without MPI_Finalize
    Error,      // an MPI error under MPI_ERRORS_ARE_FATAL, or xsim refused what a rank did
    Signal,     // a fatal signal: a crash (SIGSEGV, SIGBUS, SIGABRT) or SIGINT/SIGTERM
    Watchdog,   // -xsim-watchdog: a rank ran too long without giving control back
};

// "completed", "deadlock", "abort", "exit", "error", "signal", "watchdog".
const char* run_end_name(RunEnd end);

// Writes what this process has (run report, regions) without talking to the other
// processes, which may be gone. May run in a signal handler or the watchdog thread: it
// must not wait for anything. Returns true when it wrote the run report.
using AbnormalEndHook = bool (*)(RunEnd end, int exit_code, const char* why);
void set_abnormal_end_hook(AbnormalEndHook hook);

// Runs the hook the first time it is called in this process (never twice, nor while a
// first call runs, e.g. a crash inside the hook); returns what the hook returned, or
// false when it did not run.
bool run_abnormal_end_hook(RunEnd end, int exit_code, const char* why);
// True once run_abnormal_end_hook was called (the run is ending badly).
bool abnormal_end_started();

}  // namespace xsim
