/* An I/O tool as Darshan is: it wraps the C library's write calls (linked before the C
 * library, or preloaded) and times each with clock_gettime(CLOCK_REALTIME), whoever makes
 * the call: the program, or the MPI library's MPI-IO on the program's behalf. Its records
 * are plain globals (per simulated rank under xsim). posix_timer_report() hands them over. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

static long calls;
static double first_start = -1, last_end = -1;

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
static void record(double start, double end) {
    ++calls;
    if (first_start < 0) first_start = start;
    last_end = end;
}

#define TIMED(type, name, params, args)                                   \
    type name params {                                                    \
        static type(*real) params;                                        \
        if (!real) real = (type(*) params)dlsym(RTLD_NEXT, #name);       \
        const double start = now();                                       \
        const type result = real args;                                    \
        record(start, now());                                             \
        return result;                                                    \
    }
TIMED(ssize_t, write, (int fd, const void* buf, size_t n), (fd, buf, n))
TIMED(ssize_t, pwrite, (int fd, const void* buf, size_t n, off_t at), (fd, buf, n, at))
TIMED(ssize_t, pwrite64, (int fd, const void* buf, size_t n, off_t at), (fd, buf, n, at))
TIMED(ssize_t, writev, (int fd, const struct iovec* v, int k), (fd, v, k))
TIMED(ssize_t, pwritev, (int fd, const struct iovec* v, int k, off_t at), (fd, v, k, at))
TIMED(ssize_t, pwritev64, (int fd, const struct iovec* v, int k, off_t at), (fd, v, k, at))

/* The write calls timed since the last report, and when the first began and the last ended. */
long posix_timer_report(double* start, double* end) {
    const long n = calls;
    *start = first_start;
    *end = last_end;
    calls = 0;
    first_start = last_end = -1;
    return n;
}
