// The program's sigaction and signal (and signal's other names: bsd_signal, ssignal,
// sysv_signal, __sysv_signal, and System V's sigset and sigignore) for SIGSEGV and SIGBUS. xsim's fault handler (on its own
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

// A rank's alternate signal stack: its own record while xsim's fault handler is installed.
extern "C" int sigaltstack(const stack_t* stack, stack_t* old) noexcept {
    if (xsim::keeps_program_alternate_stack()) return xsim::program_alternate_stack(stack, old);
    using Real = int (*)(const stack_t*, stack_t*);
    static const Real real = xsim::runtime::next_function<Real>("sigaltstack");
    return real(stack, old);
}

namespace {

// The program's handler for SIGSEGV or SIGBUS, set with one of the C library's signal()
// functions while xsim's fault handler is installed: recorded with the flags the C library
// would give it. Returns the previous handler, as they do.
sighandler_t record_fault_handler(int signal, sighandler_t handler, int flags, bool block_itself) {
    if (handler == SIG_ERR) {
        errno = EINVAL;
        return SIG_ERR;
    }
    struct sigaction action, old;
    std::memset(&action, 0, sizeof action);
    action.sa_handler = handler;
    sigemptyset(&action.sa_mask);
    if (block_itself) sigaddset(&action.sa_mask, signal);
    action.sa_flags = flags;
    xsim::program_fault_action(signal, &action, &old);
    return old.sa_handler;
}

// The C library's function `name` (signal or one of its other names) for a signal whose
// handler xsim does not keep, else the program's handler recorded with the C library's flags
// for that function and whether the signal is blocked while its handler runs.
template <const char* name, unsigned flags, bool block_itself>
sighandler_t signal_with_semantics(int signal, sighandler_t handler) {
    if (!xsim::keeps_program_fault_action(signal)) {
        using Real = sighandler_t (*)(int, sighandler_t);
        static const Real real = xsim::runtime::next_function<Real>(name);
        return real(signal, handler);
    }
    return record_fault_handler(signal, handler, static_cast<int>(flags), block_itself);
}

// BSD semantics (glibc's signal, bsd_signal, ssignal): the handler stays, the signal is
// blocked while it runs, interrupted calls restart.
template <const char* name>
sighandler_t bsd_semantics(int signal, sighandler_t handler) {
    return signal_with_semantics<name, SA_RESTART, true>(signal, handler);
}

// System V semantics (sysv_signal, and signal() itself in a program compiled for strict ISO C,
// e.g. -std=c99, where <signal.h> redirects it to __sysv_signal): the handler is reset to
// SIG_DFL when the signal comes, the signal is not blocked while it runs, interrupted calls
// fail with EINTR.
#ifdef SA_INTERRUPT
constexpr int kHistoricalSysv = SA_INTERRUPT;  // a no-op glibc sets all the same
#else
constexpr int kHistoricalSysv = 0;
#endif
template <const char* name>
sighandler_t sysv_semantics(int signal, sighandler_t handler) {
    return signal_with_semantics<name, SA_RESETHAND | SA_NODEFER | kHistoricalSysv, false>(signal, handler);
}

constexpr char kSignal[] = "signal";
constexpr char kBsdSignal[] = "bsd_signal";
constexpr char kSsignal[] = "ssignal";
constexpr char kSysvSignal[] = "sysv_signal";
constexpr char kSysvSignalInternal[] = "__sysv_signal";

}  // namespace

extern "C" sighandler_t signal(int signal, sighandler_t handler) { return bsd_semantics<kSignal>(signal, handler); }
extern "C" sighandler_t bsd_signal(int signal, sighandler_t handler) {
    return bsd_semantics<kBsdSignal>(signal, handler);
}
extern "C" sighandler_t ssignal(int signal, sighandler_t handler) { return bsd_semantics<kSsignal>(signal, handler); }
extern "C" sighandler_t sysv_signal(int signal, sighandler_t handler) {
    return sysv_semantics<kSysvSignal>(signal, handler);
}
extern "C" sighandler_t __sysv_signal(int signal, sighandler_t handler) {
    return sysv_semantics<kSysvSignalInternal>(signal, handler);
}

// System V's sigset (XSI, glibc's semantics): SIG_HOLD adds the signal to the mask and leaves
// its action; any other disposition is set with no flags and an empty mask (the kernel blocks
// the signal while its handler runs) and the signal is unblocked. Returns SIG_HOLD when the
// signal was blocked before the call, else the previous disposition. The C library's sigset
// sets the action past sigaction() above, so it needs its own interposition.
extern "C" sighandler_t sigset(int signal, sighandler_t disposition) {
    if (!xsim::keeps_program_fault_action(signal)) {
        using Real = sighandler_t (*)(int, sighandler_t);
        static const Real real = xsim::runtime::next_function<Real>("sigset");
        return real(signal, disposition);
    }
    sigset_t just_this, before;
    sigemptyset(&just_this);
    sigaddset(&just_this, signal);
    if (disposition == SIG_HOLD) {
        if (sigprocmask(SIG_BLOCK, &just_this, &before) != 0) return SIG_ERR;
        if (sigismember(&before, signal)) return SIG_HOLD;
        struct sigaction current;
        xsim::program_fault_action(signal, nullptr, &current);
        return current.sa_handler;
    }
    const sighandler_t previous = record_fault_handler(signal, disposition, 0, false);
    if (previous == SIG_ERR) return SIG_ERR;
    if (sigprocmask(SIG_UNBLOCK, &just_this, &before) != 0) return SIG_ERR;
    return sigismember(&before, signal) ? SIG_HOLD : previous;
}

// System V's sigignore: the signal's action becomes SIG_IGN (for a fault, natively, the kernel
// then ends the process, as xsim does when it hands the fault over).
extern "C" int sigignore(int signal) {
    if (!xsim::keeps_program_fault_action(signal)) {
        using Real = int (*)(int);
        static const Real real = xsim::runtime::next_function<Real>("sigignore");
        return real(signal);
    }
    record_fault_handler(signal, SIG_IGN, 0, false);
    return 0;
}
