// The progress line of a long run: at most once a second, real process 0 prints the
// virtual time reached, its ranks finished and the wall time on stderr. On by default
// only when stderr is a terminal (-xsim-progress auto|on|off, -xsim-quiet).
#pragma once
#include <cstdint>

#include "libxsim/engine/options.hpp"
#include "pdes/sim_time.hpp"

namespace xsim {

class ProgressLine {
public:
    ProgressLine(ProgressMode mode, int process, std::int64_t local_ranks);
    // Cheap enough for every event: looks at the host clock every few thousand calls.
    void tick(SimTime now, std::int64_t local_unfinished) {
        if (!enabled_ || ++calls_ % kCallsPerClockRead != 0) return;
        maybe_print(now, local_unfinished);
    }
    void finish();

private:
    static constexpr std::uint64_t kCallsPerClockRead = 4096;
    void maybe_print(SimTime now, std::int64_t local_unfinished);
    bool enabled_ = false;
    bool printed_ = false;
    std::uint64_t calls_ = 0;
    std::int64_t local_ranks_ = 0;
    std::int64_t start_ns_ = 0;
    std::int64_t last_ns_ = 0;
};

}  // namespace xsim
