// CPU pinning called by a simulated rank. Natively each rank is a process and may pin itself
// to a core (Graph500's aml pins rank r to core r of its node). Under xsim the call would pin
// the real process, which runs every rank it hosts: with two real processes, a rank of the
// first pinned it onto the second's core, both polled on one core, and the run took 80 times
// as long. A simulated rank has no core of its own (the machine model places it), so
// sched_setaffinity and pthread_setaffinity_np for the calling rank succeed without touching
// the real process, said once on standard error. Calls from anywhere else (Open MPI's binding,
// xsim) and for other threads or processes are the C library's.
#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include <cstdio>

#include "libxsim/engine/call_scope.hpp"
#include "libxsim/engine/engine.hpp"
#include "libxsim/runtime/next_function.hpp"

using namespace xsim;

namespace {

// True (after a note the first time) when a simulated rank's own code asks.
bool pinning_by_rank(const char* call) {
    const Rank* rank = application_rank();
    if (!rank) return false;
    static bool noted = false;
    if (!noted) {
        noted = true;
        std::fprintf(stderr,
                     "xsim: note: simulated rank %d called %s; CPU pinning of simulated ranks is ignored (the real "
                     "process runs many ranks; the machine model places them)\n",
                     rank->world, call);
    }
    return true;
}

}  // namespace

extern "C" int sched_setaffinity(pid_t pid, size_t size, const cpu_set_t* set) noexcept {
    if ((pid == 0 || pid == getpid() || pid == gettid()) && pinning_by_rank("sched_setaffinity")) return 0;
    static const auto real = runtime::next_function<int (*)(pid_t, size_t, const cpu_set_t*)>("sched_setaffinity");
    return real(pid, size, set);
}

extern "C" int pthread_setaffinity_np(pthread_t thread, size_t size, const cpu_set_t* set) noexcept {
    if (pthread_equal(thread, pthread_self()) && pinning_by_rank("pthread_setaffinity_np")) return 0;
    static const auto real =
        runtime::next_function<int (*)(pthread_t, size_t, const cpu_set_t*)>("pthread_setaffinity_np");
    return real(thread, size, set);
}
