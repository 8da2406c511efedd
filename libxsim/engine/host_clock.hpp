// Host monotonic time, never virtualized (see host_clock.cpp for why this clock).
#pragma once
#include <cstdint>

namespace xsim {

// Host monotonic time in nanoseconds.
std::int64_t host_clock_ns();

}  // namespace xsim
