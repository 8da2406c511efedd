/* stack_overflow: every rank recurses through DEPTH frames of about 1 KiB each (argv[1],
 * default 200) and calls MPI_Barrier at the deepest point. When that is more than the
 * stack (-xsim-stack 64k with 200; the default 1 MiB with 2000) the run must end with a
 * clear "stack overflow" message naming a simulated rank; with a larger stack it must pass.
 * argv[2] "handler": first install a SIGSEGV handler of the program's own with signal(), as
 * AMReX does by default; xsim must still report the overflow (the handler would run on the
 * exhausted stack). argv[2] "fault": the same handler, then rank 1 writes through a null
 * pointer; the program's handler must run (it says so and exits with 3), as natively.
 * argv[3]: the function that installs the handler, signal (default) or one of its other
 * names in glibc: bsd_signal, ssignal, sysv_signal, __sysv_signal, or System V's sigset. */
#define _GNU_SOURCE
#include <signal.h>
#include <unistd.h>

#include "xsim_test.h"

/* sigset and sigignore are System V's, deprecated by glibc; programs still call them. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

/* Not declared by <signal.h> for _GNU_SOURCE (it is XPG4.2's, withdrawn in POSIX.1-2008). */
extern sighandler_t bsd_signal(int signal, sighandler_t handler);

static void program_handler(int signal)
{
    int rank = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char text[96];
    int n = snprintf(text, sizeof text, "program's handler got signal %d in rank %d\n", signal, rank);
    (void)!write(2, text, (size_t)n);
    _exit(3);
}

static int descend(int depth)
{
    volatile char frame[1024];
    memset((char *)frame, depth & 0x7f, sizeof frame);
    if (depth == 0) {
        MPI_Barrier(MPI_COMM_WORLD);
        return frame[3];
    }
    return descend(depth - 1) + frame[5] - (depth & 0x7f);
}

int main(int argc, char **argv)
{
    xt_t xt, *t = &xt;
    xt_init(t, &argc, &argv, "stack_overflow");
    const int depth = argc > 1 ? atoi(argv[1]) : 200;
    const char *mode = argc > 2 ? argv[2] : "";
    const char *installer = argc > 3 ? argv[3] : "signal";
    sighandler_t (*install)(int, sighandler_t) = strcmp(installer, "signal") == 0        ? signal
                                                 : strcmp(installer, "bsd_signal") == 0    ? bsd_signal
                                                 : strcmp(installer, "ssignal") == 0       ? ssignal
                                                 : strcmp(installer, "sysv_signal") == 0   ? sysv_signal
                                                 : strcmp(installer, "__sysv_signal") == 0 ? __sysv_signal
                                                 : strcmp(installer, "sigset") == 0        ? sigset
                                                                                           : NULL;
    if (!install) xt_fatal(t, "unknown installer '%s'", installer);
    if (strcmp(mode, "handler") == 0 || strcmp(mode, "fault") == 0)
        XT_CHECK(t, install(SIGSEGV, program_handler) != SIG_ERR, "%s(SIGSEGV, handler) failed", installer);
    if (strcmp(mode, "fault") == 0) {
        int rank;
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        volatile int *nowhere = (volatile int *)(argc > 99 ? (void *)argv : NULL);
        if (rank == 1) *nowhere = 1;
        MPI_Barrier(MPI_COMM_WORLD);
    }
    XT_CHECK(t, descend(depth) == 0, "recursion returned a wrong value");
    return xt_finish(t, NULL);
}
