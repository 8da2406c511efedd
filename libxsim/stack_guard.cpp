#include "libxsim/stack_guard.hpp"

#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "libxsim/engine.hpp"

namespace xsim {
namespace {

char g_signal_stack[64 * 1024];

void on_fault(int signal, siginfo_t* info, void*) {
    char text[320];
    int length;
    const Rank* rank = g_engine ? g_engine->current() : nullptr;
    if (rank) {
        const bool overflow = g_engine->beyond_stack(*rank, info->si_addr);
        length = std::snprintf(text, sizeof text,
                               "xsim: %s in simulated rank %d at address %p%s (each rank has a %zu-byte stack; "
                               "rerun with a larger -xsim-stack if it needs more)\n",
                               signal == SIGSEGV ? "segmentation fault" : "bus error", rank->world, info->si_addr,
                               overflow ? ", past the end of its stack: stack overflow" : "",
                               g_engine->options().stack_bytes);
    } else {
        length = std::snprintf(text, sizeof text, "xsim: %s outside the simulated ranks at address %p\n",
                               signal == SIGSEGV ? "segmentation fault" : "bus error", info->si_addr);
    }
    if (length > 0) (void)!write(STDERR_FILENO, text, static_cast<std::size_t>(length));
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
