/* compute_clock: what measured compute charges under -xsim-compute-clock wall|thread.
 *
 * Every rank, between two MPI_Wtime calls, first sleeps SLEEP s through the raw nanosleep
 * system call (past xsim's virtualized sleeps: host wall time passes, the thread uses no
 * CPU), then, between the next two, spins until its thread has used CPU s of CPU time
 * (read through the raw clock_gettime system call). The virtual time each span advanced
 * is the measured compute xsim charged for it. argv[1] says which clock xsim reads:
 *   wall:   the sleep is charged (at least SLEEP s), the spin at least CPU s;
 *   thread: the sleep is charged almost nothing (< 0.05 s), the spin CPU s (+0.05 s).
 * Upper bounds for wall are loose (a loaded host stretches wall time), the thread clock's
 * are tight: it does not see preemption. The thread clock's lower bound allows CLOCK_ERROR:
 * between refreshes it is wall time plus an offset, which a clock read's own duration (or,
 * without a perf_event page, a preemption inside the 1 ms refresh period) puts off by up to
 * that much. Needs -xsim-compute measured and speed 1.
 * xsim only (real MPI has no such option).
 */
#define _GNU_SOURCE
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "xsim_test.h"

#define SLEEP 0.3
#define CPU 0.2
#define THREAD_SLACK 0.05
#define CLOCK_ERROR 0.002
#define WALL_SLACK 20.0 /* a host loaded 20 deep on few cores */

static double thread_cpu_seconds(void)
{
    struct timespec t;
    syscall(SYS_clock_gettime, CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void raw_sleep(double seconds)
{
    struct timespec t = {(time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9)};
    while (syscall(SYS_nanosleep, &t, &t) != 0) {
    }
}

static void check_within(xt_t *t, const char *what, double value, double lo, double hi)
{
    if (!(value >= lo && value <= hi))
        xt_fail(t, "%s charged %.6f s, expected within [%.3f, %.3f]", what, value, lo, hi);
}

int main(int argc, char **argv)
{
    xt_t test, *t = &test;
    volatile unsigned long counter = 0;
    double t0, t1, t2, until;
    int thread;

    xt_init(t, &argc, &argv, "compute_clock");
    if (argc < 2 || (strcmp(argv[1], "wall") != 0 && strcmp(argv[1], "thread") != 0))
        xt_fatal(t, "usage: %s wall|thread", argv[0]);
    thread = strcmp(argv[1], "thread") == 0;

    t0 = MPI_Wtime();
    raw_sleep(SLEEP);
    t1 = MPI_Wtime();
    until = thread_cpu_seconds() + CPU;
    while (thread_cpu_seconds() < until) ++counter;
    t2 = MPI_Wtime();

    if (thread) {
        check_within(t, "a sleep (thread clock)", t1 - t0, 0.0, THREAD_SLACK);
        check_within(t, "a CPU spin (thread clock)", t2 - t1, CPU - CLOCK_ERROR, CPU + THREAD_SLACK);
    } else {
        check_within(t, "a sleep (wall clock)", t1 - t0, SLEEP, SLEEP + WALL_SLACK);
        check_within(t, "a CPU spin (wall clock)", t2 - t1, CPU, CPU + WALL_SLACK);
    }
    if (t->rank == 0) {
        printf("INFO compute_clock %s: sleep %.6f s charged %.6f s, cpu %.6f s charged %.6f s\n", argv[1], SLEEP,
               t1 - t0, CPU, t2 - t1);
        fflush(stdout);
    }
    return xt_finish(t, argv[1]);
}
