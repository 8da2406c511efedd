// The xsim.h API.
#include "xsim.h"

#include "libxsim/engine/engine.hpp"

using namespace xsim;

namespace {
Rank* caller() { return g_engine ? g_engine->current() : nullptr; }
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
    if (!r || !(seconds > 0)) return;
    g_engine->enter(*r, "xsim_compute");
    r->clock += g_engine->machine().processor->modeled_compute(r->world, seconds_to_simtime(seconds), r->clock);
    g_engine->leave(*r);
}

void xsim_compute_flops(double flops) {
    Rank* r = caller();
    if (!r || !(flops > 0)) return;
    g_engine->enter(*r, "xsim_compute_flops");
    r->clock += g_engine->machine().processor->flops_compute(r->world, flops, r->clock);
    g_engine->leave(*r);
}

}  // extern "C"
