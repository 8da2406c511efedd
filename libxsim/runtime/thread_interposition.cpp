// Threads created by a simulated rank: not supported. A rank is a fiber on xsim's one
// simulation thread; a thread it started would run application code outside any fiber,
// with no virtual clock, while the rank's privatized globals and stack are switched away
// under it: silent corruption. So pthread_create called from application code of a
// simulated rank (directly, through OpenMP with more than one thread, or std::thread) ends
// the run at once with a message naming the rank. Threads started by the real MPI library
// or by xsim, before the simulation (static constructors) or from other threads are
// created normally.
#include <dlfcn.h>
#include <pthread.h>

#include <cstdio>
#include <string>

#include "libxsim/engine/call_scope.hpp"
#include "libxsim/engine/engine.hpp"

using namespace xsim;

extern "C" int pthread_create(pthread_t* thread, const pthread_attr_t* attr, void* (*start)(void*),
                              void* arg) noexcept {
    if (const Rank* running = application_rank()) {
        const Rank& rank = *running;
        char when[64];
        std::snprintf(when, sizeof when, "%.9f", simtime_to_seconds(rank.clock));
        g_engine->abort_run(1, "simulated rank " + std::to_string(rank.world) +
                                   " called pthread_create (directly or through OpenMP) at virtual time " + when +
                                   " s: threads inside simulated ranks are not supported by xsim; run with "
                                   "OMP_NUM_THREADS=1 (OpenMP) or without the thread");
    }
    using Create = int (*)(pthread_t*, const pthread_attr_t*, void* (*)(void*), void*);
    static const auto real = reinterpret_cast<Create>(dlsym(RTLD_NEXT, "pthread_create"));
    return real(thread, attr, start, arg);
}
