/* clock_pause: the pause loop of a well-known kernel suite, which waits for the clock:
 *   t0 = MPI_Wtime(); while (MPI_Wtime() - t0 < 1e-3);
 * and the same with gettimeofday and clock_gettime(CLOCK_MONOTONIC). Each must end and
 * advance the rank's MPI_Wtime by at least 1 ms. Rank 0 prints
 * "PAUSE <clock> reads <n>" per loop: under -xsim-compute none each read costs
 * processor.clock_read_cost, so n = 1 ms / that cost exactly (the harness checks it). */
#define _POSIX_C_SOURCE 199309L
#include <sys/time.h>
#include <time.h>

#include "xsim_test.h"

static double wtime(void) { return MPI_Wtime(); }

static double tod(void)
{
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return (double)tv.tv_sec + tv.tv_usec * 1e-6;
}

static double mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* `resolution`: the clock's step, which its pause may fall short of (gettimeofday: 1 us,
 * and seconds since 1970 in a double keep about 0.2 us). */
static void pause_on(xt_t *t, const char *name, double (*clock)(void), double seconds, double resolution)
{
    const double start = MPI_Wtime();
    const double t0 = clock();
    long reads = 0;
    while (clock() - t0 < seconds) ++reads;
    const double elapsed = MPI_Wtime() - start;
    XT_CHECK(t, elapsed >= seconds - resolution, "%s pause of %g s advanced MPI_Wtime by only %.9f s", name, seconds, elapsed);
    XT_CHECK(t, elapsed < seconds + 0.5, "%s pause of %g s advanced MPI_Wtime by %.9f s", name, seconds, elapsed);
    if (t->rank == 0) printf("PAUSE %s reads %ld\n", name, reads + 1);
}

int main(int argc, char **argv)
{
    xt_t xt, *t = &xt;
    xt_init(t, &argc, &argv, "clock_pause");
    pause_on(t, "MPI_Wtime", wtime, 1e-3, 0.0);
    pause_on(t, "gettimeofday", tod, 1e-3, 1e-6);
    pause_on(t, "clock_gettime", mono, 1e-3, 0.0);
    return xt_finish(t, NULL);
}
