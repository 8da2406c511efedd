// The program's sigaction and signal for SIGSEGV and SIGBUS. xsim's fault handler (on its own
// signal stack) reports a rank that overflows its stack, whose size xsim chose (1 MiB by
// default, where a process natively has 8 MiB). A program that installs a handler of its own
// (AMReX's backtrace handler, on by default: amrex.signal_handling) would replace it, and an
// overflow would then end the process with a bare segmentation fault (the program's handler
// runs on the exhausted stack). While xsim's handler is installed, these calls record the
// program's action instead (engine/stack_guard: it gets every fault that is not an overflow,
// on the rank's stack, as natively); other signals, and every call before the simulation
// starts or after a fault was handed over, go to the C library.
#include <errno.h>
#include <signal.h>

#include <cstring>

#include "libxsim/engine/stack_guard.hpp"
#include "libxsim/runtime/next_function.hpp"

extern "C" int sigaction(int signal, const struct sigaction* action, struct sigaction* old) {
    if (xsim::keeps_program_fault_action(signal)) {
        xsim::program_fault_action(signal, action, old);
        return 0;
    }
    using Real = int (*)(int, const struct sigaction*, struct sigaction*);
    static const Real real = xsim::runtime::next_function<Real>("sigaction");
    return real(signal, action, old);
}

// glibc's signal(): BSD semantics (the handler stays, the signal is blocked while it runs,
// interrupted calls restart).
extern "C" sighandler_t signal(int signal, sighandler_t handler) {
    if (!xsim::keeps_program_fault_action(signal)) {
        using Real = sighandler_t (*)(int, sighandler_t);
        static const Real real = xsim::runtime::next_function<Real>("signal");
        return real(signal, handler);
    }
    if (handler == SIG_ERR) {
        errno = EINVAL;
        return SIG_ERR;
    }
    struct sigaction action, old;
    std::memset(&action, 0, sizeof action);
    action.sa_handler = handler;
    sigemptyset(&action.sa_mask);
    sigaddset(&action.sa_mask, signal);
    action.sa_flags = SA_RESTART;
    xsim::program_fault_action(signal, &action, &old);
    return old.sa_handler;
}
