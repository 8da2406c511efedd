/* signal_names: the C library's other names for signal() set a SIGSEGV handler as signal()
 * and sigaction() do. glibc has five: signal, bsd_signal and ssignal (BSD semantics: the
 * handler stays, SIGSEGV is blocked while it runs, interrupted calls restart) and sysv_signal
 * and __sysv_signal (System V semantics: the handler is reset when the signal comes, the
 * signal is not blocked, no restart; <signal.h> turns signal() into __sysv_signal under
 * strict ISO C, -std=c99). System V's sigset (XSI) sets no flags and an empty mask, and its
 * SIG_HOLD blocks the signal instead; sigignore sets SIG_IGN. Every rank, between two barriers,
 * installs two handlers with each,
 * checks what each call returns (the previous handler; SIG_ERR with EINVAL for SIG_ERR), and
 * what sigaction(SIGSEGV, NULL, &old) then reports (handler, flags, mask), and puts the first
 * action back. Under xsim (XSIM_TEST_VIRTUAL) the kernel's action for SIGSEGV must stay
 * xsim's fault handler throughout: the program's is recorded, so that xsim still reports a
 * rank that overflows its stack (stack_overflow.c checks that for each name). The last rounds
 * check sigset's SIG_HOLD (the signal blocked, the action kept, what each call returns) and
 * sigignore. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "xsim_test.h"

/* sigset and sigignore are System V's, deprecated by glibc; programs still call them. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

/* Not declared by <signal.h> for _GNU_SOURCE (it is XPG4.2's, withdrawn in POSIX.1-2008). */
extern sighandler_t bsd_signal(int signal, sighandler_t handler);

static void first_handler(int signal) { (void)signal; }
static void second_handler(int signal) { (void)signal; }

typedef sighandler_t (*installer_fn)(int, sighandler_t);
enum semantics { BSD, SYSV, XSI_SIGSET };
typedef struct {
    const char *name;
    installer_fn install;
    enum semantics semantics;
} installer_t;

/* The kernel's handler for SIGSEGV, past the C library and xsim. */
static void *kernel_handler(void)
{
    struct {
        void *handler;
        unsigned long flags;
        void *restorer;
        unsigned long long mask;
    } k;
    memset(&k, 0, sizeof k);
    if (syscall(SYS_rt_sigaction, SIGSEGV, NULL, &k, sizeof k.mask) != 0) return (void *)-1;
    return k.handler;
}

static void check_installer(xt_t *t, const installer_t *in, int virt)
{
    struct sigaction before, now;
    XT_CHECK(t, sigaction(SIGSEGV, NULL, &before) == 0, "%s: sigaction(SIGSEGV, NULL, &old) failed", in->name);
    void *kernel_before = virt ? kernel_handler() : NULL;

    sighandler_t previous = in->install(SIGSEGV, first_handler);
    XT_CHECK(t, previous != SIG_ERR, "%s: the first call returned SIG_ERR (errno %d)", in->name, errno);
    previous = in->install(SIGSEGV, second_handler);
    XT_CHECK(t, previous == first_handler, "%s: the second call returned %p, not the first handler %p", in->name,
             (void *)previous, (void *)first_handler);
    XT_CHECK(t, sigaction(SIGSEGV, NULL, &now) == 0, "%s: sigaction(SIGSEGV, NULL, &old) failed", in->name);
    XT_CHECK(t, !(now.sa_flags & SA_SIGINFO) && now.sa_handler == second_handler,
             "%s: sigaction reports handler %p, not the one installed %p", in->name, (void *)now.sa_handler,
             (void *)second_handler);
    if (in->semantics == XSI_SIGSET) {
        XT_CHECK(t, !(now.sa_flags & (SA_RESETHAND | SA_NODEFER | SA_RESTART | SA_SIGINFO)),
                 "%s: flags 0x%x, sigset sets none of SA_RESETHAND, SA_NODEFER, SA_RESTART", in->name,
                 (unsigned)now.sa_flags);
        XT_CHECK(t, sigisemptyset(&now.sa_mask), "%s: sigset's mask is not empty", in->name);
    } else if (in->semantics == SYSV) {
        XT_CHECK(t, (now.sa_flags & SA_RESETHAND) && (now.sa_flags & SA_NODEFER) && !(now.sa_flags & SA_RESTART),
                 "%s: flags 0x%x, System V semantics want SA_RESETHAND|SA_NODEFER without SA_RESTART", in->name,
                 (unsigned)now.sa_flags);
        XT_CHECK(t, !sigismember(&now.sa_mask, SIGSEGV), "%s: SIGSEGV blocked in its own handler", in->name);
    } else {
        XT_CHECK(t, (now.sa_flags & SA_RESTART) && !(now.sa_flags & SA_RESETHAND) && !(now.sa_flags & SA_NODEFER),
                 "%s: flags 0x%x, BSD semantics want SA_RESTART without SA_RESETHAND or SA_NODEFER", in->name,
                 (unsigned)now.sa_flags);
        XT_CHECK(t, sigismember(&now.sa_mask, SIGSEGV) == 1, "%s: SIGSEGV not blocked in its own handler", in->name);
    }
    if (virt) {
        void *kernel = kernel_handler();
        XT_CHECK(t, kernel != (void *)second_handler && kernel == kernel_before,
                 "%s: the kernel's SIGSEGV handler became %p (was %p): the program's replaced xsim's", in->name,
                 kernel, kernel_before);
    }

    if (in->semantics != XSI_SIGSET) { /* glibc's sigset passes SIG_ERR on to the kernel */
        errno = 0;
        previous = in->install(SIGSEGV, SIG_ERR);
        XT_CHECK(t, previous == SIG_ERR && errno == EINVAL,
                 "%s(SIGSEGV, SIG_ERR) returned %p, errno %d (want SIG_ERR, EINVAL)", in->name, (void *)previous,
                 errno);
    }
    XT_CHECK(t, sigaction(SIGSEGV, &before, NULL) == 0, "%s: putting the first action back failed", in->name);
    XT_CHECK(t, sigaction(SIGSEGV, NULL, &now) == 0 && now.sa_handler == before.sa_handler,
             "%s: the first action did not come back", in->name);
}

static int segv_blocked(void)
{
    sigset_t mask;
    sigprocmask(SIG_BLOCK, NULL, &mask);
    return sigismember(&mask, SIGSEGV) == 1;
}

/* sigset(SIGSEGV, SIG_HOLD) blocks SIGSEGV and returns the handler (SIG_HOLD when it was
 * blocked already); a handler set while it is blocked unblocks it and returns SIG_HOLD.
 * sigignore(SIGSEGV) makes the action SIG_IGN. */
static void check_hold_and_ignore(xt_t *t, int virt)
{
    struct sigaction before, now;
    XT_CHECK(t, sigaction(SIGSEGV, NULL, &before) == 0, "sigaction(SIGSEGV, NULL, &old) failed");
    void *kernel_before = virt ? kernel_handler() : NULL;

    sigset(SIGSEGV, first_handler);
    sighandler_t previous = sigset(SIGSEGV, SIG_HOLD);
    XT_CHECK(t, previous == first_handler, "sigset(SIGSEGV, SIG_HOLD) returned %p, not the handler %p",
             (void *)previous, (void *)first_handler);
    XT_CHECK(t, segv_blocked(), "sigset(SIGSEGV, SIG_HOLD) did not block SIGSEGV");
    XT_CHECK(t, sigaction(SIGSEGV, NULL, &now) == 0 && now.sa_handler == first_handler,
             "sigset(SIGSEGV, SIG_HOLD) changed the action to %p", (void *)now.sa_handler);
    previous = sigset(SIGSEGV, SIG_HOLD);
    XT_CHECK(t, previous == SIG_HOLD, "a second sigset(SIGSEGV, SIG_HOLD) returned %p, not SIG_HOLD", (void *)previous);
    previous = sigset(SIGSEGV, second_handler);
    XT_CHECK(t, previous == SIG_HOLD, "sigset of a handler while SIGSEGV is held returned %p, not SIG_HOLD",
             (void *)previous);
    XT_CHECK(t, !segv_blocked(), "sigset of a handler left SIGSEGV blocked");

    XT_CHECK(t, sigignore(SIGSEGV) == 0, "sigignore(SIGSEGV) failed (errno %d)", errno);
    XT_CHECK(t, sigaction(SIGSEGV, NULL, &now) == 0 && now.sa_handler == SIG_IGN,
             "after sigignore(SIGSEGV) sigaction reports %p, not SIG_IGN", (void *)now.sa_handler);
    if (virt) {
        void *kernel = kernel_handler();
        XT_CHECK(t, kernel == kernel_before, "sigset/sigignore changed the kernel's SIGSEGV handler to %p (was %p)",
                 kernel, kernel_before);
    }
    XT_CHECK(t, sigaction(SIGSEGV, &before, NULL) == 0, "putting the first action back failed");
}

int main(int argc, char **argv)
{
    xt_t xt, *t = &xt;
    xt_init(t, &argc, &argv, "signal_names");
    const int virt = xt_env_flag("XSIM_TEST_VIRTUAL");
    const installer_t installers[] = {
        {"signal", signal, BSD},           {"bsd_signal", bsd_signal, BSD},       {"ssignal", ssignal, BSD},
        {"sysv_signal", sysv_signal, SYSV}, {"__sysv_signal", __sysv_signal, SYSV}, {"sigset", sigset, XSI_SIGSET},
    };
    for (size_t i = 0; i < sizeof installers / sizeof installers[0]; ++i) {
        XT_MPI(t, MPI_Barrier(MPI_COMM_WORLD));
        check_installer(t, &installers[i], virt);
    }
    XT_MPI(t, MPI_Barrier(MPI_COMM_WORLD));
    check_hold_and_ignore(t, virt);
    return xt_finish(t, NULL);
}
