/* sleep_polling: sleeps on clock_nanosleep, and a rank that waits for something outside MPI
 * by polling with sleeps, as DOLFINx's JIT does: FFCx's ranks wait for a module another rank
 * compiles into a shared cache directory by looking for its ".c.cached" file once a second,
 * ten times, with Python's time.sleep, which is clock_nanosleep(CLOCK_MONOTONIC,
 * TIMER_ABSTIME) until a deadline read from the monotonic clock.
 *
 * Always (real MPI too):
 *   - clock_nanosleep on CLOCK_MONOTONIC (relative, and to an absolute deadline) and on
 *     CLOCK_REALTIME (to an absolute deadline) returns 0 and MPI_Wtime advances by at least
 *     the time asked; a deadline already past returns 0 at once; tv_nsec out of range is EINVAL;
 *   - rank 0 creates a file after a host delay of 0.3 s that takes no virtual time (poll() with
 *     no descriptors); every other rank polls for it up to ten times, sleeping 1 s in between
 *     with clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME), and must find it.
 * With XSIM_TEST_VIRTUAL=1 (under xsim, -xsim-compute none) each sleep also advances
 * MPI_Wtime by no more than 1e-3 s beyond the time asked.
 *
 * Before the fix, clock_nanosleep was the C library's: the virtual deadline lay long past on
 * the host's clock and the sleep took no time, virtual or host; and a sleep did not wait for
 * the ranks of the other real process, so ten polls ended before rank 0 (behind in virtual
 * time) had written the file. */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "xsim_test.h"

#define TOL 1e-3

static void deadline_after(clockid_t clock, double seconds, struct timespec *ts)
{
    clock_gettime(clock, ts);
    ts->tv_sec += (time_t)seconds;
    ts->tv_nsec += (long)((seconds - (double)(time_t)seconds) * 1e9);
    if (ts->tv_nsec >= 1000000000L) ts->tv_sec += 1, ts->tv_nsec -= 1000000000L;
}

static void check_sleep(xt_t *t, const char *what, int rc, double before, double want, int strict)
{
    const double dw = MPI_Wtime() - before;
    XT_CHECK(t, rc == 0, "%s returned %d", what, rc);
    XT_CHECK(t, dw >= want - 1e-6, "%s: MPI_Wtime advanced %.9f s, asked %.9f s", what, dw, want);
    if (strict) XT_CHECK(t, dw <= want + TOL, "%s: MPI_Wtime advanced %.9f s, asked %.9f s", what, dw, want);
}

int main(int argc, char **argv)
{
    xt_t xt, *t = &xt;
    struct timespec req;
    char dir[64] = "", ready[96];
    double before;
    int strict, rc, polls, found = 0;

    xt_init(t, &argc, &argv, "sleep_polling");
    strict = xt_env_flag("XSIM_TEST_VIRTUAL");

    req.tv_sec = 0;
    req.tv_nsec = 250000000L;
    before = MPI_Wtime();
    rc = clock_nanosleep(CLOCK_MONOTONIC, 0, &req, NULL);
    check_sleep(t, "clock_nanosleep(CLOCK_MONOTONIC, 0.25 s)", rc, before, 0.25, strict);

    before = MPI_Wtime();
    deadline_after(CLOCK_MONOTONIC, 0.5, &req);
    rc = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &req, NULL);
    check_sleep(t, "clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, now + 0.5 s)", rc, before, 0.5, strict);

    before = MPI_Wtime();
    deadline_after(CLOCK_REALTIME, 0.25, &req);
    rc = clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &req, NULL);
    check_sleep(t, "clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, now + 0.25 s)", rc, before, 0.25, strict);

    before = MPI_Wtime();
    req.tv_sec = 1;
    req.tv_nsec = 0; /* on the monotonic clock: long past */
    rc = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &req, NULL);
    check_sleep(t, "clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, a deadline past)", rc, before, 0.0, strict);

    req.tv_sec = 0;
    req.tv_nsec = 1000000000L;
    rc = clock_nanosleep(CLOCK_MONOTONIC, 0, &req, NULL);
    XT_CHECK(t, rc == EINVAL, "clock_nanosleep with tv_nsec = 1e9 returned %d, not EINVAL", rc);

    /* The file rank 0 writes late in host time, early in virtual time. */
    if (t->rank == 0) {
        strcpy(dir, "/tmp/xsim_sleep_polling.XXXXXX");
        if (!mkdtemp(dir)) xt_fatal(t, "mkdtemp: %s", strerror(errno));
    }
    MPI_Bcast(dir, (int)sizeof dir, MPI_CHAR, 0, MPI_COMM_WORLD);
    snprintf(ready, sizeof ready, "%s/ready", dir);
    MPI_Barrier(MPI_COMM_WORLD);
    if (t->rank == 0) {
        FILE *f;
        poll(NULL, 0, 300); /* 0.3 s of host time, none of virtual time */
        f = fopen(ready, "w");
        if (!f) xt_fatal(t, "fopen %s: %s", ready, strerror(errno));
        fclose(f);
        found = 1;
    } else {
        for (polls = 0; polls < 10 && !found; ++polls) {
            if (access(ready, F_OK) == 0) {
                found = 1;
                break;
            }
            deadline_after(CLOCK_MONOTONIC, 1.0, &req);
            clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &req, NULL);
        }
    }
    XT_CHECK(t, found, "rank %d did not find %s after ten polls a second apart", t->rank, ready);
    MPI_Barrier(MPI_COMM_WORLD);
    if (t->rank == 0) {
        remove(ready);
        rmdir(dir);
    }
    return xt_finish(t, NULL);
}
