// The JSON run report (-xsim-report FILE.json). At a normal end or a deadlock, real
// process 0 writes it once with figures reduced over all processes. When the run ends
// badly (abort, exit, a crash, a signal, the watchdog), the process that saw it writes
// what it has alone: "complete": false and "covers" name its ranks.
#pragma once
#include <string>

#include "libxsim/engine/engine.hpp"
#include "libxsim/engine/run_end.hpp"

namespace xsim {

// The host time the run started (host_clock_ns), for the report's wall time.
void note_run_start(std::int64_t host_ns);
std::int64_t run_start_ns();

// Collective over the real processes.
void write_run_report(Engine& engine, const std::string& path, int exit_code, RunEnd end, const char* why = "");

// This process only, without allocation or waiting (signal handlers, the watchdog).
// False when the report was already there (another process wrote it first) or could
// not be written.
bool write_local_run_report(Engine& engine, const char* path, int exit_code, RunEnd end, const char* why);

// Peak resident memory of this real process in bytes.
long long peak_rss_bytes();

// User point-to-point messages still waiting for a receive on this process's ranks (their
// data never moved): subtracted from the report's messages and bytes.
void unreceived_user_messages(Engine& engine, unsigned long long* messages, unsigned long long* bytes);

}  // namespace xsim
