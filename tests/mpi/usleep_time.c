/* usleep_time: virtual time seen through MPI_Wtime and the libc clocks.
 *
 * Always (real MPI too): MPI_Wtick is in (0, 1); MPI_Wtime, gettimeofday,
 * clock_gettime(CLOCK_MONOTONIC), time() and the CPU clocks (clock(),
 * CLOCK_PROCESS_CPUTIME_ID, CLOCK_THREAD_CPUTIME_ID, the user time of getrusage and
 * times()) never go backwards across
 * usleep(1000000), sleep(2), nanosleep(1.5 s) and nanosleep(250 us); each
 * sleep call returns 0.
 *
 * With XSIM_TEST_VIRTUAL=1 (under xsim, -xsim-compute none) additionally:
 *   - each sleep advances MPI_Wtime by at least the requested time and by no
 *     more than 1e-3 s extra;
 *   - gettimeofday, clock_gettime(CLOCK_MONOTONIC), clock_gettime(CLOCK_REALTIME)
 *     advance by the same amount as MPI_Wtime within 1e-3 s, time() within 1 s;
 *   - rank r sleeps (r % 10) ms before a barrier: every rank leaves the barrier
 *     at least max-delay (minus 1e-3 s) after it left the previous barrier;
 *   - the CPU clocks do not advance during a sleep (within 1e-5 s), and
 *     across the barrier they advance by the barrier's time less the rank's
 *     own sleep (MPI polls on the CPU); at the end each reads the rank's
 *     virtual time less all it slept, not the real process's CPU time;
 *   - sleep(3600) advances MPI_Wtime by an hour. The run's timeout (far below an
 *     hour) is what asserts that it returns immediately in wall time; the
 *     program cannot measure wall time itself because every clock is virtual.
 * Without XSIM_TEST_VIRTUAL this program takes about 4.5 s of wall time.
 */
#define _DEFAULT_SOURCE
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/times.h>
#include <time.h>
#include <unistd.h>
#include "xsim_test.h"

#define TOL 1e-3
#define CPU_TOL 1e-5

struct clocks {
    double wtime, gtod, mono, real;
    time_t t;
    double clock, process_cpu, thread_cpu, rusage, times; /* the CPU clocks (user time of the last two) */
};

static double ts_sec(const struct timespec *ts)
{
    return (double)ts->tv_sec + (double)ts->tv_nsec * 1e-9;
}

static void read_clocks(struct clocks *c)
{
    struct timeval tv;
    struct timespec ts;
    struct rusage usage;
    struct tms tms;
    c->wtime = MPI_Wtime();
    gettimeofday(&tv, NULL);
    c->gtod = (double)tv.tv_sec + (double)tv.tv_usec * 1e-6;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    c->mono = ts_sec(&ts);
    clock_gettime(CLOCK_REALTIME, &ts);
    c->real = ts_sec(&ts);
    c->t = time(NULL);
    c->clock = (double)clock() / CLOCKS_PER_SEC;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    c->process_cpu = ts_sec(&ts);
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    c->thread_cpu = ts_sec(&ts);
    getrusage(RUSAGE_SELF, &usage);
    c->rusage = (double)usage.ru_utime.tv_sec + (double)usage.ru_utime.tv_usec * 1e-6;
    times(&tms);
    c->times = (double)tms.tms_utime / (double)sysconf(_SC_CLK_TCK);
}

/* The CPU clocks advanced by `want` (within CPU_TOL; clock() within its tick too), or only
 * never went backwards when !strict. */
static void check_cpu(xt_t *t, const char *what, const struct clocks *a, const struct clocks *b, double want,
                      int strict)
{
    const double d[5] = {b->clock - a->clock, b->process_cpu - a->process_cpu, b->thread_cpu - a->thread_cpu,
                         b->rusage - a->rusage, b->times - a->times};
    static const char *const names[5] = {"clock()", "CLOCK_PROCESS_CPUTIME_ID", "CLOCK_THREAD_CPUTIME_ID",
                                         "getrusage's user time", "times()'s user time"};
    const double ticks[5] = {1.0 / CLOCKS_PER_SEC, 0.0, 0.0, 1e-6, 1.0 / (double)sysconf(_SC_CLK_TCK)};
    int i;
    for (i = 0; i < 5; ++i) {
        const double tol = CPU_TOL + ticks[i];
        XT_CHECK(t, d[i] >= 0.0, "%s: %s went backwards (%.9f)", what, names[i], d[i]);
        if (strict)
            XT_CHECK(t, d[i] >= want - tol && d[i] <= want + tol, "%s: %s advanced %.9f s, expected %.9f s", what,
                     names[i], d[i], want);
    }
}

static double fabs_(double x)
{
    return x < 0 ? -x : x;
}

/* Compare the clock readings around one sleep of `want` seconds. */
static void check_sleep(xt_t *t, const char *what, const struct clocks *a, const struct clocks *b,
                        double want, int strict)
{
    const double dw = b->wtime - a->wtime, dg = b->gtod - a->gtod, dm = b->mono - a->mono;
    const double dr = b->real - a->real, dt = (double)(b->t - a->t);
    XT_CHECK(t, dw >= 0.0, "%s: MPI_Wtime went backwards (%.9f)", what, dw);
    XT_CHECK(t, dm >= 0.0, "%s: CLOCK_MONOTONIC went backwards (%.9f)", what, dm);
    XT_CHECK(t, dg >= -TOL, "%s: gettimeofday went backwards (%.6f)", what, dg);
    XT_CHECK(t, dt >= 0.0, "%s: time() went backwards", what);
    check_cpu(t, what, a, b, 0.0, strict); /* a sleep is off the CPU */
    if (!strict) return;
    XT_CHECK(t, dw >= want, "%s: MPI_Wtime advanced %.9f s, requested %.9f s", what, dw, want);
    XT_CHECK(t, dw <= want + TOL, "%s: MPI_Wtime advanced %.9f s, more than %.9f s + %g", what, dw,
             want, TOL);
    XT_CHECK(t, fabs_(dg - dw) <= TOL, "%s: gettimeofday advanced %.6f s, MPI_Wtime %.9f s", what, dg, dw);
    XT_CHECK(t, fabs_(dm - dw) <= TOL, "%s: CLOCK_MONOTONIC advanced %.9f s, MPI_Wtime %.9f s", what, dm, dw);
    XT_CHECK(t, fabs_(dr - dw) <= TOL, "%s: CLOCK_REALTIME advanced %.9f s, MPI_Wtime %.9f s", what, dr, dw);
    XT_CHECK(t, fabs_(dt - dw) <= 1.0 + TOL, "%s: time() advanced %.0f s, MPI_Wtime %.9f s", what, dt, dw);
}

int main(int argc, char **argv)
{
    xt_t xt, *t = &xt;
    struct clocks a, b;
    struct timespec req;
    double tick, t_exit0, t_exit1, max_delay;
    int strict, rc;

    xt_init(t, &argc, &argv, "usleep_time");
    strict = xt_env_flag("XSIM_TEST_VIRTUAL");

    tick = MPI_Wtick();
    XT_CHECK(t, tick > 0.0 && tick < 1.0, "MPI_Wtick() = %g", tick);

    read_clocks(&a);
    rc = usleep(1000000);
    read_clocks(&b);
    XT_CHECK(t, rc == 0, "usleep(1000000) returned %d", rc);
    check_sleep(t, "usleep(1000000)", &a, &b, 1.0, strict);

    read_clocks(&a);
    rc = (int)sleep(2);
    read_clocks(&b);
    XT_CHECK(t, rc == 0, "sleep(2) returned %d", rc);
    check_sleep(t, "sleep(2)", &a, &b, 2.0, strict);

    req.tv_sec = 1;
    req.tv_nsec = 500000000L;
    read_clocks(&a);
    rc = nanosleep(&req, NULL);
    read_clocks(&b);
    XT_CHECK(t, rc == 0, "nanosleep(1.5 s) returned %d", rc);
    check_sleep(t, "nanosleep(1.5 s)", &a, &b, 1.5, strict);

    req.tv_sec = 0;
    req.tv_nsec = 250000L;
    read_clocks(&a);
    rc = nanosleep(&req, NULL);
    read_clocks(&b);
    XT_CHECK(t, rc == 0, "nanosleep(250 us) returned %d", rc);
    check_sleep(t, "nanosleep(250 us)", &a, &b, 250e-6, strict);

    /* Sleeps of different lengths before a barrier. */
    MPI_Barrier(MPI_COMM_WORLD);
    read_clocks(&a);
    t_exit0 = MPI_Wtime();
    usleep((useconds_t)((t->rank % 10) * 1000));
    MPI_Barrier(MPI_COMM_WORLD);
    t_exit1 = MPI_Wtime();
    read_clocks(&b);
    /* The wait in the barrier is on the CPU, the sleep before it is not. */
    check_cpu(t, "usleep + MPI_Barrier", &a, &b, (b.wtime - a.wtime) - (t->rank % 10) * 1e-3, strict);
    max_delay = (t->size >= 10 ? 9 : t->size - 1) * 1e-3;
    XT_CHECK(t, t_exit1 >= t_exit0, "MPI_Wtime went backwards across a barrier");
    if (strict) {
        XT_CHECK(t, t_exit1 - t_exit0 >= max_delay - TOL,
                 "left the barrier %.9f s after the previous one, but a rank slept %.3f s before it",
                 t_exit1 - t_exit0, max_delay);

        /* An hour of virtual sleep: the run's wall-clock timeout asserts it is instant. */
        read_clocks(&a);
        rc = (int)sleep(3600);
        read_clocks(&b);
        XT_CHECK(t, rc == 0, "sleep(3600) returned %d", rc);
        check_sleep(t, "sleep(3600)", &a, &b, 3600.0, strict);

        /* The rank's own CPU time: virtual time less all it slept (about 3604.5 s). */
        {
            const double slept = 1.0 + 2.0 + 1.5 + 250e-6 + (t->rank % 10) * 1e-3 + 3600.0;
            struct clocks c;
            read_clocks(&c);
            XT_CHECK(t, fabs_(c.process_cpu - (c.wtime - slept)) <= CPU_TOL,
                     "CLOCK_PROCESS_CPUTIME_ID reads %.9f s; the rank's virtual time less its sleeps is %.9f s",
                     c.process_cpu, c.wtime - slept);
        }
    }
    return xt_finish(t, strict ? "virtual" : NULL);
}
