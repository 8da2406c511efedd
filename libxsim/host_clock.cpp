// Host time for measuring application compute: the CPU time of this thread, so that time
// the host spends elsewhere (preemption by the OS, other processes) is never charged to
// a simulated rank. The C library's clock_gettime is interposed by libxsim (to
// virtualize it), so the real one is looked up once.
#include <dlfcn.h>
#include <time.h>

#include "libxsim/engine.hpp"

namespace xsim {

std::int64_t host_clock_ns() {
    using ClockGettime = int (*)(clockid_t, struct timespec*);
    static const auto real = reinterpret_cast<ClockGettime>(dlsym(RTLD_NEXT, "clock_gettime"));
    struct timespec ts;
    real(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000LL + ts.tv_nsec;
}

}  // namespace xsim
