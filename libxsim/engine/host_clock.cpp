// Host time for measuring application compute (-xsim-compute-clock). wall: the monotonic
// clock, read through the vDSO (16 ns here); host noise (preemption on a loaded host) is
// part of measured compute. thread: the simulation thread's CPU time, which leaves
// preemption and sleeps out; it is a system call (168 ns on this VM when not preempted,
// bench/RESULTS.md "Compute clock"), twice per MPI call. Every rank is a fiber on that one thread, and the
// reads bracket only the rank's own span between MPI calls (Engine::leave .. enter).
// The C library's clock_gettime is interposed by libxsim (to virtualize it), so the real
// one is looked up once.
#include <dlfcn.h>
#include <time.h>

#include "libxsim/engine/host_clock.hpp"

namespace xsim {

namespace {

std::int64_t read_clock(clockid_t id) {
    using ClockGettime = int (*)(clockid_t, struct timespec*);
    static const auto real = reinterpret_cast<ClockGettime>(dlsym(RTLD_NEXT, "clock_gettime"));
    struct timespec ts;
    real(id, &ts);
    return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000LL + ts.tv_nsec;
}

}  // namespace

std::int64_t host_clock_ns() { return read_clock(CLOCK_MONOTONIC); }

std::int64_t thread_cpu_ns() { return read_clock(CLOCK_THREAD_CPUTIME_ID); }

}  // namespace xsim
