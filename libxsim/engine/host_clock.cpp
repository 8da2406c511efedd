// Host time for measuring application compute: the monotonic clock, read through the
// vDSO (about 30 ns here). The thread's CPU-time clock would leave out preemption, but it
// is a system call costing about 2 us on this kind of VM, twice per MPI call: too slow for
// the hot path. Host noise is therefore part of measured compute (README, "Virtual time").
// The C library's clock_gettime is interposed by libxsim (to virtualize it), so the real
// one is looked up once.
#include <dlfcn.h>
#include <time.h>

#include "libxsim/engine/host_clock.hpp"

namespace xsim {

std::int64_t host_clock_ns() {
    using ClockGettime = int (*)(clockid_t, struct timespec*);
    static const auto real = reinterpret_cast<ClockGettime>(dlsym(RTLD_NEXT, "clock_gettime"));
    struct timespec ts;
    real(CLOCK_MONOTONIC, &ts);
    return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000LL + ts.tv_nsec;
}

}  // namespace xsim
