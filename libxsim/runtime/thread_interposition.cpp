// Threads created by a simulated rank. A rank is a fiber on xsim's one simulation thread; a
// thread it starts runs application code outside any fiber, with no virtual clock, reading
// the rank's privatized globals, which are the live ones only while that rank is switched in.
//  - The worker threads GCC's OpenMP runtime (libgomp) starts for a parallel region that xsim
//    saw open: openmp_interposition.cpp (the rank stays switched in while the region is open,
//    and the workers' CPU time is charged).
//  - Any other thread (pthread_create from the program, std::thread, LLVM's libomp, libgomp
//    outside an interposed region, a library's own threads): where the rank is the only one
//    of its real process, nothing is switched away under it and it runs as natively. Where
//    ranks share the process, the rank's globals are pinned (rank_pin.hpp) while any thread it
//    started runs: the rank's calls that complete at once go on, and before another rank's
//    globals would be loaded (a call that has to wait for another rank of the process, the
//    rank's end, a callback acting for another rank) a thread still running ends the run with
//    a message naming the rank, who started the thread and the remedy; one that has ended
//    (joined, or returned) lets the switch go on. So threads started and joined between MPI
//    calls (a pthread parallel loop, PT-Scotch's ordering threads, std::async) work; a pool
//    that outlives the call (TBB's, libgc's markers) does not. Without per-rank globals
//    (-xsim-privatize off, where ranks share them anyway) nothing is pinned.
// In both cases an MPI call from such a thread is refused (call_scope), and its CPU time is
// not the rank's (measured compute reads the simulation thread's). Threads started by the
// real MPI library or by xsim, before the simulation (static constructors) or from other
// threads are created normally.
#include <dlfcn.h>
#include <pthread.h>

#include <atomic>
#include <cstdio>
#include <string>

#include "libxsim/engine/call_scope.hpp"
#include "libxsim/engine/engine.hpp"
#include "libxsim/runtime/executable_inspection.hpp"
#include "libxsim/runtime/next_function.hpp"
#include "libxsim/runtime/openmp_interposition.hpp"
#include "libxsim/runtime/rank_pin.hpp"

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
    // that, the programs built on it do (deal.II: DEAL_II_NUM_THREADS; VTK's SMP tools, also
    // under ParaView: VTK_SMP_MAX_THREADS).
    if (object.find("libtbb") != std::string::npos)
        return "TBB starts worker threads unless the program limits it to one thread: run with the program's "
               "thread count set to 1 (DEAL_II_NUM_THREADS=1 for deal.II: mpirun -x DEAL_II_NUM_THREADS=1; "
               "VTK_SMP_MAX_THREADS=1 for VTK and ParaView), or in "
               "code tbb::global_control(tbb::global_control::max_allowed_parallelism, 1)";
    return "run with OMP_NUM_THREADS=1 (OpenMP), with the library's own thread count set to 1 "
           "(SCOTCH_PTHREAD_NUMBER=1 for Scotch, GC_MARKERS=1 for the Boehm collector), or without the thread";
}

constexpr const char* kOneRankPerProcess =
    "; or run one rank per real process (-xsim-np equal to mpirun's -np), where a rank's threads run as natively";

std::string seconds_text(SimTime t) {
    char when[64];
    std::snprintf(when, sizeof when, "%.9f", simtime_to_seconds(t));
    return when;
}

// The threads that the loaded rank of a process shared by ranks started and that still run.
// Process-wide: while any runs no other rank is loaded, so they are one rank's.
struct RankThreads {
    std::atomic<int> live{0};
    std::string started_by;  // thread_advice of the first of them
    std::string remedy;
    SimTime started_at = 0;
};
RankThreads g_rank_threads;

struct ThreadStart {
    void* (*start)(void*);
    void* arg;
};

// A rank's thread: counted until its start routine returns or it exits (pthread_exit and
// cancellation unwind through the destructor).
void* run_rank_thread(void* p) {
    const ThreadStart s = *static_cast<ThreadStart*>(p);
    delete static_cast<ThreadStart*>(p);
    struct Ended {
        ~Ended() { g_rank_threads.live.fetch_sub(1, std::memory_order_acq_rel); }
    } ended;
    return s.start(s.arg);
}

// Another rank's globals are about to be loaded (rank_pin.hpp).
void guard_rank_threads(Engine& engine, std::size_t loaded) {
    RankThreads& threads = g_rank_threads;
    if (threads.live.load(std::memory_order_acquire) == 0) {
        runtime::release_pin(engine, runtime::PinReason::RankThreads);
        return;
    }
    const Rank& rank = engine.local(engine.first_local() + static_cast<int>(loaded));
    const std::string now = rank.state == RankState::Finished
                                ? "ended"
                                : std::string("called ") + (rank.current_call ? rank.current_call : "an MPI function");
    engine.abort_run(1, "simulated rank " + std::to_string(rank.world) + " " + threads.started_by +
                            " at virtual time " + seconds_text(threads.started_at) + " s, and " +
                            std::to_string(threads.live.load()) + " thread(s) it started still ran when it " + now +
                            " at virtual time " + seconds_text(rank.clock) +
                            " s, which lets another rank of its real process run: threads inside simulated ranks "
                            "that share a real process must end (be joined) before such a call, as no other rank "
                            "may run beside them (they would see its globals); " +
                            threads.remedy + kOneRankPerProcess);
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
    using Create = int (*)(pthread_t*, const pthread_attr_t*, void* (*)(void*), void*);
    static const auto real = runtime::next_function<Create>("pthread_create");
    const Rank* running = application_rank();
    if (!running || g_engine->local_count() == 1 || !g_engine->privatization().active())
        return real(thread, attr, start, arg);
    // A rank that shares its process: its globals stay loaded while the thread runs.
    const void* caller = __builtin_return_address(0);
    if (runtime::pin_held(runtime::PinReason::OpenMpRegion))
        g_engine->abort_run(1, "simulated rank " + std::to_string(running->world) + " " + thread_advice(caller) +
                                   " inside an OpenMP parallel region at virtual time " +
                                   seconds_text(running->clock) +
                                   " s: xsim supports threads a rank starts outside OpenMP regions; " +
                                   thread_remedy(caller) + kOneRankPerProcess);
    RankThreads& threads = g_rank_threads;
    if (threads.live.load(std::memory_order_acquire) == 0) {
        threads.started_by = thread_advice(caller);
        threads.remedy = thread_remedy(caller);
        threads.started_at = running->clock;
    }
    auto* start_of = new ThreadStart{start, arg};
    threads.live.fetch_add(1, std::memory_order_acq_rel);
    runtime::hold_pin(*g_engine, runtime::PinReason::RankThreads, &guard_rank_threads);
    const int result = real(thread, attr, &run_rank_thread, start_of);
    if (result != 0) {
        delete start_of;
        threads.live.fetch_sub(1, std::memory_order_acq_rel);
    }
    return result;
}
