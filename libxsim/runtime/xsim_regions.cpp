// The region calls of xsim.h (see regions.hpp).
#include "xsim.h"

#include "libxsim/engine/engine.hpp"
#include "libxsim/report/regions.hpp"

using namespace xsim;

extern "C" {

void xsim_region_begin(const char* name) {
    Rank* r = g_engine ? g_engine->current() : nullptr;
    if (!r) return;
    g_engine->enter(*r, "xsim_region_begin");
    regions::begin(*g_engine, *r, name);
    g_engine->leave(*r);
}

void xsim_region_end(const char* name) {
    Rank* r = g_engine ? g_engine->current() : nullptr;
    if (!r) return;
    // A replay charges the recorded time instead of what the host spent in the region.
    if (regions::replaying(*g_engine)) r->last_exit_ns = g_engine->compute_clock_ns();
    g_engine->enter(*r, "xsim_region_end");
    regions::end(*g_engine, *r, name);
    g_engine->leave(*r);
}

}  // extern "C"
