/* overflow_handler: a program that recovers from overflowing its stack, as Ruby does
 * (SystemStackError): it sets up an alternate signal stack (sigaltstack) and a SIGSEGV
 * handler that runs on it (SA_ONSTACK) and jumps back (siglongjmp) to a point before the
 * recursion. Natively the kernel runs the handler on the alternate stack when the recursion
 * reaches the stack's limit; under xsim, an overflow of a rank's stack goes to that handler
 * (on xsim's signal stack) instead of ending the run. Each rank recovers twice and then
 * communicates; sigaltstack gives each rank back the stack it set. A handler without
 * SA_ONSTACK is not run for an overflow (it would run on the exhausted stack): see
 * stack_overflow.c. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "xsim_test.h"

static sigjmp_buf recover;
static volatile long deepest;
static volatile int handled;

static void on_segv(int sig, siginfo_t* info, void* context) {
    (void)sig;
    (void)info;
    (void)context;
    ++handled;
    siglongjmp(recover, 1);
}

static long recurse(long depth) {
    volatile char frame[1024];
    frame[0] = (char)depth;
    deepest = depth;
    long below = recurse(depth + 1);
    return below + frame[0];  /* not a tail call */
}

int main(int argc, char** argv) {
    xt_t t;
    xt_init(&t, &argc, &argv, "overflow_handler");

    stack_t alternate;
    alternate.ss_size = 4 * SIGSTKSZ > 65536 ? 4 * SIGSTKSZ : 65536;
    alternate.ss_sp = malloc(alternate.ss_size);
    alternate.ss_flags = 0;
    XT_CHECK(&t, sigaltstack(&alternate, NULL) == 0, "sigaltstack");
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_segv;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    XT_CHECK(&t, sigaction(SIGSEGV, &action, NULL) == 0, "sigaction");

    long depths[2] = {0, 0};
    for (int round = 0; round < 2; ++round) {
        deepest = 0;
        if (sigsetjmp(recover, 1) == 0) {
            recurse(1);
            XT_CHECK(&t, 0, "the recursion returned");
        }
        depths[round] = deepest;
    }
    XT_CHECK(&t, handled == 2 && depths[0] >= 100 && depths[1] >= 100,
             "handled %d overflows at depths %ld and %ld", handled, depths[0], depths[1]);
    /* The alternate stack this rank set, whatever the others set. */
    stack_t now;
    memset(&now, 0, sizeof now);
    XT_CHECK(&t, sigaltstack(NULL, &now) == 0 && now.ss_sp == alternate.ss_sp && now.ss_size == alternate.ss_size &&
                     !(now.ss_flags & SS_DISABLE),
             "sigaltstack gives %p (%zu bytes, flags %d), set %p", now.ss_sp, now.ss_size, now.ss_flags,
             alternate.ss_sp);
    int sum = 0, one = 1;
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    XT_CHECK(&t, sum == t.size, "allreduce %d", sum);
    return xt_finish(&t, NULL);
}
