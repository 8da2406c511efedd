#include "libxsim/engine/run_end.hpp"

#include <atomic>

namespace xsim {
namespace {
std::atomic<AbnormalEndHook> g_hook{nullptr};
std::atomic<bool> g_ran{false};
}  // namespace

const char* run_end_name(RunEnd end) {
    switch (end) {
    case RunEnd::Completed: return "completed";
    case RunEnd::Deadlock: return "deadlock";
    case RunEnd::Abort: return "abort";
    case RunEnd::Exit: return "exit";
    case RunEnd::Error: return "error";
    case RunEnd::Signal: return "signal";
    case RunEnd::Watchdog: return "watchdog";
    }
    return "unknown";
}

void set_abnormal_end_hook(AbnormalEndHook hook) {
    g_hook.store(hook);
    g_ran.store(false);
}

bool abnormal_end_started() { return g_ran.load(); }

bool run_abnormal_end_hook(RunEnd end, int exit_code, const char* why) {
    const AbnormalEndHook hook = g_hook.load();
    if (g_ran.exchange(true) || !hook) return false;
    return hook(end, exit_code, why);
}

}  // namespace xsim
