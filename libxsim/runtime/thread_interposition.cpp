// Threads created by a simulated rank. A rank is a fiber on xsim's one simulation thread; a
// thread it started would run application code outside any fiber, with no virtual clock,
// while the rank's privatized globals and stack are switched away under it: silent
// corruption. One kind is safe and allowed: the worker threads GCC's OpenMP runtime (libgomp)
// starts for a parallel region that xsim saw open (openmp_interposition.cpp: while it is
// open the rank cannot be switched out, and the workers' CPU time is charged). Any other
// pthread_create called from application code of a simulated rank (directly, std::thread,
// LLVM's libomp, libgomp outside an interposed region, or a library's own threads) ends the
// run at once with a message naming the rank and the object that asked, unless the rank is
// the only one of its real process: nothing is then switched away under the thread, which
// runs as natively (it may not call MPI, as a thread outside a region may not; its CPU time
// is not the rank's, which measured compute reads from the simulation thread). Threads
// started by the real MPI library or by xsim, before the simulation (static constructors) or
// from other threads are created normally.
// A rank asking about its own thread (pthread_getattr_np of pthread_self()) is told of the
// stack it runs on, its fiber's, not the process's main stack: a garbage collector that
// scans from the stack pointer to the stack's base (Boehm's libgc, under Guile and meep)
// would otherwise walk off the rank's stack.
#include <dlfcn.h>
#include <pthread.h>

#include <cstdio>
#include <string>

#include "libxsim/engine/call_scope.hpp"
#include "libxsim/engine/engine.hpp"
#include "libxsim/runtime/executable_inspection.hpp"
#include "libxsim/runtime/next_function.hpp"
#include "libxsim/runtime/openmp_interposition.hpp"

using namespace xsim;

namespace {

// Who started the thread, and what to do about it, from the object that called
// pthread_create: OpenMP's runtime, the C++ library (std::thread), the program, or another
// library (Scotch 7 starts threads of its own, which OMP_NUM_THREADS does not stop, and so does
// TBB under deal.II).
std::string thread_advice(const void* caller) {
    if (in_program_object(caller)) return "called pthread_create";
    Dl_info where{};
    const bool known = dladdr(caller, &where) && where.dli_fname;
    const std::string object = known ? where.dli_fname : "";
    if (object.find("libgomp") != std::string::npos)
        return "called pthread_create through OpenMP (" + object +
               ") outside a parallel region xsim saw start (xsim interposes libgomp's GOMP_parallel* entry "
               "points: link libxsim ahead of libgomp, as xsimcc does, or use LD_PRELOAD=libxsim.so)";
    if (object.find("libomp") != std::string::npos || object.find("libiomp") != std::string::npos)
        return "called pthread_create through LLVM's OpenMP runtime (" + object +
               "), which xsim does not support (GCC's libgomp is: build with gcc -fopenmp)";
    if (object.find("libstdc++") != std::string::npos || object.find("libc++") != std::string::npos)
        return "called pthread_create through std::thread (" + object + ")";
    return "called pthread_create from " + (object.empty() ? std::string("unknown code") : object);
}

// What stops the thread, for the objects known to start one of their own.
std::string thread_remedy(const void* caller) {
    Dl_info where{};
    const std::string object = dladdr(caller, &where) && where.dli_fname ? where.dli_fname : "";
    // Boehm's collector (Guile, meep) starts parallel marking threads unless told to mark alone.
    if (object.find("libgc.so") != std::string::npos || object.find("libgc-") != std::string::npos)
        return "run with GC_MARKERS=1 (mpirun -x GC_MARKERS=1), so that the collector marks on the rank's own thread";
    // oneTBB (deal.II, OpenVDB, ...) starts its workers at the first parallel algorithm, up to
    // the cores it sees, unless the program limits it; TBB reads no environment variable for
    // that, the programs built on it do (deal.II: DEAL_II_NUM_THREADS).
    if (object.find("libtbb") != std::string::npos)
        return "TBB starts worker threads unless the program limits it to one thread: run with the program's "
               "thread count set to 1 (DEAL_II_NUM_THREADS=1 for deal.II: mpirun -x DEAL_II_NUM_THREADS=1), or in "
               "code tbb::global_control(tbb::global_control::max_allowed_parallelism, 1)";
    return "run with OMP_NUM_THREADS=1 (OpenMP), with the library's own thread count set to 1 "
           "(SCOTCH_PTHREAD_NUMBER=1 for Scotch, GC_MARKERS=1 for the Boehm collector), or without the thread";
}

}  // namespace

extern "C" int pthread_getattr_np(pthread_t thread, pthread_attr_t* attr) noexcept {
    using GetAttr = int (*)(pthread_t, pthread_attr_t*);
    static const auto real = runtime::next_function<GetAttr>("pthread_getattr_np");
    const int result = real(thread, attr);
    const Rank* rank = application_rank();
    if (result != 0 || !rank || !pthread_equal(thread, pthread_self())) return result;
    char* bottom = g_engine->stack_bottom(*rank);
    return pthread_attr_setstack(attr, bottom, static_cast<std::size_t>(g_engine->stack_top(*rank) - bottom));
}

extern "C" int pthread_create(pthread_t* thread, const pthread_attr_t* attr, void* (*start)(void*),
                              void* arg) noexcept {
    int created = 0;
    if (runtime::create_openmp_worker(thread, attr, start, arg, __builtin_return_address(0), created))
        return created;
    const Rank* running = application_rank();
    if (running && g_engine->local_count() > 1) {
        const Rank& rank = *running;
        char when[64];
        std::snprintf(when, sizeof when, "%.9f", simtime_to_seconds(rank.clock));
        g_engine->abort_run(1, "simulated rank " + std::to_string(rank.world) + " " +
                                   thread_advice(__builtin_return_address(0)) + " at virtual time " + when +
                                   " s: threads inside simulated ranks that share a real process, other than the "
                                   "workers of GCC OpenMP (libgomp) regions, are not supported by xsim; " +
                                   thread_remedy(__builtin_return_address(0)) +
                                   "; or run one rank per real process (-xsim-np equal to mpirun's -np), where a "
                                   "rank's threads run as natively");
    }
    using Create = int (*)(pthread_t*, const pthread_attr_t*, void* (*)(void*), void*);
    static const auto real = runtime::next_function<Create>("pthread_create");
    return real(thread, attr, start, arg);
}
