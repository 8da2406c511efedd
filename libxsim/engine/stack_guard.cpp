#include "libxsim/engine/stack_guard.hpp"

#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "libxsim/engine/engine.hpp"

namespace xsim {

void format_stack_size(char* out, std::size_t size, std::size_t bytes) {
    if (bytes % (1024 * 1024) == 0) std::snprintf(out, size, "%zu MiB", bytes >> 20);
    else if (bytes % 1024 == 0) std::snprintf(out, size, "%zu KiB", bytes >> 10);
    else std::snprintf(out, size, "%zu bytes", bytes);
}

void format_suggested_stack(char* out, std::size_t size, std::size_t stack_bytes) {
    const std::size_t kib = (stack_bytes * 4 + 1023) / 1024;
    if (kib % 1024 == 0) std::snprintf(out, size, "%zum", kib / 1024);
    else std::snprintf(out, size, "%zuk", kib);
}

void format_stack_overflow(char* out, std::size_t size, int world_rank, std::size_t stack_bytes, const char* how) {
    char have[32], more[32];
    format_stack_size(have, sizeof have, stack_bytes);
    format_suggested_stack(more, sizeof more, stack_bytes);
    std::snprintf(out, size,
                  "stack overflow in simulated rank %d (%s): its stack of %s is used up; rerun with a larger "
                  "one, e.g. -xsim-stack %s",
                  world_rank, how, have, more);
}

void note_stack_guards(GuardPages guards, std::size_t stack_bytes, int process) {
    if (guards != GuardPages::ArenaOnly || is_small_stack(stack_bytes) || process != 0) return;
    std::fprintf(stderr,
                 "xsim: note: this kernel gives the fiber stacks no guard pages of their own (no MADV_GUARD_INSTALL, "
                 "and too many ranks for mprotect under vm.max_map_count); a rank that overflows its stack between "
                 "two MPI calls is detected only at its next MPI call, after it may have overwritten the stack of "
                 "the rank below it\n");
}

namespace {

char g_signal_stack[64 * 1024];

void on_fault(int signal, siginfo_t* info, void*) {
    const char* what = signal == SIGSEGV ? "segmentation fault" : "bus error";
    char text[480];
    int length;
    const Rank* rank = g_engine ? g_engine->current() : nullptr;
    // The rank whose guard pages were hit: the running one when it overflowed its own
    // stack; when none is running, the stack the guard lies under.
    const int guarded = g_engine ? g_engine->guarded_rank(info->si_addr) : -1;
    if ((rank && g_engine->beyond_stack(*rank, info->si_addr)) || (!rank && guarded >= 0)) {
        char how[96], overflow[400];
        std::snprintf(how, sizeof how, "%s at %p, under its stack", what, info->si_addr);
        format_stack_overflow(overflow, sizeof overflow, rank ? rank->world : guarded, g_engine->options().stack_bytes,
                              how);
        length = std::snprintf(text, sizeof text, "xsim: %s\n", overflow);
    } else if (rank) {
        char have[32], where[96] = "";
        format_stack_size(have, sizeof have, g_engine->options().stack_bytes);
        if (guarded >= 0)
            std::snprintf(where, sizeof where, ", in the guard pages under simulated rank %d's stack", guarded);
        length = std::snprintf(text, sizeof text,
                               "xsim: %s in simulated rank %d at address %p%s (each rank has a stack of %s; "
                               "rerun with a larger -xsim-stack if it needs more)\n",
                               what, rank->world, info->si_addr, where, have);
    } else {
        length = std::snprintf(text, sizeof text, "xsim: %s outside the simulated ranks at address %p\n", what,
                               info->si_addr);
    }
    if (length > 0) (void)!write(STDERR_FILENO, text, std::strlen(text));
    // Let the default action end the process (and mpirun see it).
    struct sigaction dfl;
    std::memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigaction(signal, &dfl, nullptr);
    raise(signal);
}

}  // namespace

void install_fault_handler() {
    stack_t alternate;
    alternate.ss_sp = g_signal_stack;
    alternate.ss_size = sizeof g_signal_stack;
    alternate.ss_flags = 0;
    sigaltstack(&alternate, nullptr);
    struct sigaction action;
    std::memset(&action, 0, sizeof action);
    action.sa_sigaction = on_fault;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    sigaction(SIGSEGV, &action, nullptr);
    sigaction(SIGBUS, &action, nullptr);
}

}  // namespace xsim
