/* epoch: where the realtime clocks start (-xsim-epoch).
 *
 * usage: epoch fixed|now|SECONDS   (the -xsim-epoch the run was given; fixed is the default)
 *
 * Every rank reads clock_gettime(CLOCK_REALTIME), gettimeofday and time() right after
 * MPI_Init (a few microseconds of virtual time under -xsim-compute none): the three agree
 * within a second, and every rank of every real process reads the same second. That second is
 * 1700000000 for fixed, SECONDS as given, and for now within 300 s of the host's real clock,
 * read with a raw system call that xsim does not interpose. gettimeofday takes a null time
 * value, and reads the obsolete time zone as zeros, as Linux does by default. Rank 0 prints "EPOCH <second>".
 * xsim only: under plain MPI the clocks are the host's.
 */
#define _DEFAULT_SOURCE
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include "xsim_test.h"

int main(int argc, char **argv)
{
    xt_t t;
    struct timespec ts, host;
    struct timeval tv;
    struct timezone zone;
    struct timeval *volatile no_time = NULL; /* glibc declares it nonnull; programs pass it */
    time_t plain;
    long long second, lowest = 0, highest = 0;
    const char *given = argc > 1 ? argv[1] : "fixed";

    xt_init(&t, &argc, &argv, "epoch");
    clock_gettime(CLOCK_REALTIME, &ts);
    gettimeofday(&tv, NULL);
    plain = time(NULL);
    second = (long long)ts.tv_sec;
    XT_CHECK(&t, llabs((long long)tv.tv_sec - second) <= 1, "gettimeofday reads %lld s, CLOCK_REALTIME %lld s",
             (long long)tv.tv_sec, second);
    XT_CHECK(&t, llabs((long long)plain - second) <= 1, "time() reads %lld s, CLOCK_REALTIME %lld s",
             (long long)plain, second);
    /* Either argument may be null, as natively; the obsolete time zone reads as zeros. */
    zone.tz_minuteswest = 123;
    zone.tz_dsttime = 4;
    XT_CHECK(&t, gettimeofday(no_time, &zone) == 0, "gettimeofday(NULL, &zone) failed");
    XT_CHECK(&t, zone.tz_minuteswest == 0 && zone.tz_dsttime == 0,
             "gettimeofday's time zone reads %d minutes west, dst %d", zone.tz_minuteswest, zone.tz_dsttime);
    XT_CHECK(&t, gettimeofday(no_time, NULL) == 0, "gettimeofday(NULL, NULL) failed");

    XT_MPI(&t, MPI_Allreduce(&second, &lowest, 1, MPI_LONG_LONG, MPI_MIN, MPI_COMM_WORLD));
    XT_MPI(&t, MPI_Allreduce(&second, &highest, 1, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD));
    XT_CHECK(&t, lowest == highest, "the ranks start at different seconds: %lld to %lld", lowest, highest);

    if (strcmp(given, "now") == 0) {
        syscall(SYS_clock_gettime, CLOCK_REALTIME, &host);
        XT_CHECK(&t, llabs((long long)host.tv_sec - second) <= 300,
                 "-xsim-epoch now: the run starts at %lld s, the host's clock reads %lld s", second,
                 (long long)host.tv_sec);
    } else {
        const long long want = strcmp(given, "fixed") == 0 ? 1700000000LL : strtoll(given, NULL, 10);
        XT_CHECK(&t, second == want, "-xsim-epoch %s: the run starts at %lld s, expected %lld", given, second, want);
    }
    if (t.rank == 0) {
        printf("EPOCH %lld\n", second);
        fflush(stdout);
    }
    return xt_finish(&t, NULL);
}
