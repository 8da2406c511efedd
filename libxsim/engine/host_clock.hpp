// Host monotonic time, never virtualized (see host_clock.cpp for why this clock).
#pragma once
#include <cstdint>

namespace xsim {

// Host monotonic time in nanoseconds.
std::int64_t host_clock_ns();

// CPU time of the calling thread in nanoseconds (user + system): it stops while the thread
// is preempted or sleeps. A system call (no vDSO path): 168 ns here, see host_clock.cpp.
std::int64_t thread_cpu_ns();

}  // namespace xsim
