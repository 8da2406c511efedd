/* clock_read_cost: wall time of one read of the clocks -xsim-compute-clock can use
 * (CLOCK_MONOTONIC: wall, through the vDSO; CLOCK_THREAD_CPUTIME_ID: thread, a system
 * call). Reads come in bursts of 1,000; the best burst is the cost when the process is not
 * preempted, the mean includes the host's load. Build: cc -O2 clock_read_cost.c
 */
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stdio.h>
#include <time.h>

static int64_t read_ns(clockid_t id)
{
    struct timespec t;
    clock_gettime(id, &t);
    return (int64_t)t.tv_sec * 1000000000LL + t.tv_nsec;
}

int main(void)
{
    const int burst = 1000, bursts = 2000;
    const clockid_t ids[2] = {CLOCK_MONOTONIC, CLOCK_THREAD_CPUTIME_ID};
    const char *names[2] = {"CLOCK_MONOTONIC (wall)", "CLOCK_THREAD_CPUTIME_ID (thread)"};
    volatile int64_t sink = 0;
    for (int k = 0; k < 2; ++k) {
        double best = 1e18, sum = 0;
        for (int b = 0; b < bursts; ++b) {
            const int64_t start = read_ns(CLOCK_MONOTONIC);
            for (int i = 0; i < burst; ++i) sink += read_ns(ids[k]);
            const double per = (double)(read_ns(CLOCK_MONOTONIC) - start) / burst;
            if (per < best) best = per;
            sum += per;
        }
        printf("%s: %.1f ns a read (best burst), %.1f ns (mean)\n", names[k], best, sum / bursts);
    }
    return 0;
}
