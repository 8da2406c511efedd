/* Linked into the native (plain Open MPI) builds of the skeletons by validate.sh with
 * -Wl,--wrap=usleep: a skeleton's compute phase becomes a busy wait of exactly its length.
 *
 * Why: a skeleton models compute with xsim_compute(seconds), which xsim charges exactly, and
 * natively it calls usleep(seconds). On this VM usleep(us) returns about 68 us late (the
 * default 50 us timer slack plus the wake-up), so the native run of cg (162 compute phases at
 * -i 20) took ~11 ms longer than the work it models and xsim looked 50% "too fast". A real
 * code computes through its compute phase (it keeps its core), which is what the spin does. */
#define _DEFAULT_SOURCE /* usleep and useconds_t under -std=c99 */
#include <time.h>
#include <unistd.h>

int __wrap_usleep(useconds_t us);

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int __wrap_usleep(useconds_t us)
{
    const double end = now_seconds() + 1e-6 * (double)us;
    while (now_seconds() < end) {
    }
    return 0;
}
