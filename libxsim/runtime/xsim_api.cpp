// The xsim.h API.
#include "xsim.h"

#include <cmath>
#include <cstdio>

#include "libxsim/engine/engine.hpp"

using namespace xsim;

namespace {
Rank* caller() { return g_engine ? g_engine->current() : nullptr; }

// A negative, NaN, infinite or unrepresentable amount is a bug in the caller: stop the run
// saying so rather than ignore it or let the clock wrap.
[[noreturn]] void refuse_amount(const Rank& r, const char* call, double amount, const char* what) {
    char text[320];
    std::snprintf(text, sizeof text, "simulated rank %d: %s(%g): %s", r.world, call, amount, what);
    g_engine->abort_run(1, text);
}
}  // namespace

extern "C" {

int xsim_active(void) { return caller() ? 1 : 0; }

double xsim_time(void) {
    Rank* r = caller();
    if (!r) return -1.0;
    g_engine->enter(*r, "xsim_time");
    const double now = simtime_to_seconds(r->clock);
    g_engine->leave(*r);
    return now;
}

void xsim_compute(double seconds) {
    Rank* r = caller();
    if (!r || seconds == 0) return;
    g_engine->enter(*r, "xsim_compute");
    if (!(seconds >= 0) || !std::isfinite(seconds))
        refuse_amount(*r, "xsim_compute", seconds, "the duration must be a finite number of seconds >= 0");
    if (!seconds_fit_simtime(seconds)) {
        char why[160];
        std::snprintf(why, sizeof why, "the duration is too large: virtual time ends at %.0f seconds (2^62 ps)",
                      kTimeLimitSeconds);
        refuse_amount(*r, "xsim_compute", seconds, why);
    }
    // The processor model caps what it returns at kTimeLimit: leave() stops the run if the
    // clock passes the limit.
    const SimTime before = r->clock;
    r->clock = add_time(r->clock, g_engine->machine().processor->modeled_compute(r->world, seconds_to_simtime(seconds), r->clock));
    r->path.compute += r->clock - before;  // on its critical path as compute
    g_engine->leave(*r);
}

void xsim_compute_flops(double flops) {
    Rank* r = caller();
    if (!r || flops == 0) return;
    g_engine->enter(*r, "xsim_compute_flops");
    if (!(flops >= 0) || !std::isfinite(flops))
        refuse_amount(*r, "xsim_compute_flops", flops, "the count must be a finite number of operations >= 0");
    const SimTime before = r->clock;
    r->clock = add_time(r->clock, g_engine->machine().processor->flops_compute(r->world, flops, r->clock));
    r->path.compute += r->clock - before;
    g_engine->leave(*r);
}

}  // extern "C"
