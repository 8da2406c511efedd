// exit() called by a simulated rank ends that rank, not the real process: after
// MPI_Finalize (or before MPI_Init) with status 0 the rank simply finishes; any other
// exit ends the whole simulation with a message naming the rank, as a real MPI job would.
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "libxsim/engine/engine.hpp"

using namespace xsim;

extern "C" void exit(int status) noexcept {
    if (g_engine && on_simulation_thread() && g_engine->in_application()) {
        Rank& rank = *g_engine->current();
        if (status == 0 && rank.phase != MpiPhase::Initialized) g_engine->finish_current_rank(0);
        char when[64];
        std::snprintf(when, sizeof when, "%.9f", simtime_to_seconds(rank.clock));
        g_engine->abort_run(status == 0 ? 1 : status,
                            "simulated rank " + std::to_string(rank.world) + " called exit(" + std::to_string(status) +
                                ")" + (rank.phase == MpiPhase::Initialized ? " without calling MPI_Finalize" : "") +
                                " at virtual time " + when + " s; ending the simulation",
                            RunEnd::Exit);
    }
    static const auto real_exit = reinterpret_cast<void (*)(int)>(dlsym(RTLD_NEXT, "exit"));
    real_exit(status);
    __builtin_unreachable();
}
