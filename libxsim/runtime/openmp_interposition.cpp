// OpenMP parallel regions with more than one thread inside simulated ranks (GCC's libgomp).
//
// Why it can work: a rank is a fiber on the simulation thread; its globals (and the main
// thread's thread-locals of the program and its own libraries) are the live ones while it
// runs, so any other thread of the process sees the globals of the rank switched in, and the
// region's shared data on the rank's stack stays put while the rank's fiber is not switched
// out. libgomp is a system library, not privatized: its thread pool hangs off the simulation
// thread's own thread-locals, so every rank of the process uses the one pool, one region at a
// time.
//
// What is interposed: every libgomp entry point that starts a team of threads (the
// GOMP_parallel* family that GCC emits for `parallel`, combined `parallel for` and `parallel
// sections`, with their pre-4.9 *_start/GOMP_parallel_end pairs, GOMP_parallel_reductions
// (task reductions) and GOMP_teams_reg (host `teams`)). A call from a rank's own code opens
// the rank's region: until the real call returns (or GOMP_parallel_end for the old pairs),
//  - the privatized image is pinned (rank_pin.hpp, Privatization::set_pin): before another rank's globals
//    are loaded (another rank's fiber resumed because this one waits in an MPI call, or a
//    callback acting for another rank), the pin asks libgomp whether a team with more than
//    one thread is active (omp_get_active_level() > 0, asked only then). If so the run ends
//    with a message naming the rank and its call: the workers would see the other rank's
//    globals. If not (a one-thread region) the region is no longer watched and the switch goes
//    on (other ranks run meanwhile and open regions of their own; libgomp sees theirs nested
//    in the suspended one: omp_get_level counts it). The check costs nothing on the path of
//    blocking calls: it sits where images are exchanged, which a switch that changes nothing
//    does not reach. So MPI calls that complete at once (MPI_Comm_rank, MPI_Wtime, MPI_Isend,
//    ... from `omp master`) run as usual, and when a real process hosts a single rank
//    (-np P -xsim-np P), nothing else can be switched in and a call from `omp master` may
//    wait too (MPI_THREAD_FUNNELED honoured). Ranks sharing a process without per-rank
//    globals (-xsim-privatize off) get no worker threads: the start of one ends the run;
//  - the engine's suspend guard is set: a rank that ends (exit) inside a region with worker
//    threads ends the run;
//  - libgomp may start threads (pthread_create called from libgomp): they run a trampoline
//    that registers the thread's CPU clock for the region's charge. Any other thread a rank
//    starts (std::thread, pthread_create from the program or another library, libgomp outside
//    an interposed region, LLVM's libomp) pins the rank's image too (thread_interposition.cpp).
// An MPI call from any thread other than the simulation thread (a worker) is refused with
// a message (engine/call_scope.cpp): xsim takes MPI calls only from the rank's own thread.
//
// Time (-xsim-compute measured): a real node with one core per thread runs a region for about
// as long as its busiest thread. The master's span is charged as before (the simulation
// thread's CPU time, or the wall clock under -xsim-compute-clock wall); each worker's CPU time
// over the region is read (its pthread CPU clock) at the region's start and end, and the excess
// of the busiest worker over the master's own time in the region (its virtual time spent in MPI
// calls made inside the region, plus its compute) is added to the rank's compute. Spin-waiting
// at barriers is CPU time: with OMP_WAIT_POLICY=active a waiting worker is as busy as the
// busiest one, which is what the region lasts anyway; on a host with fewer cores than threads,
// libgomp throttles spinning (passive waits cost no CPU time), so the figure stays the busiest
// thread's work. Reading the clocks (a system call per worker, twice per region) is not
// charged; nothing is read under -xsim-compute none or while no rank opened a region.
//
// Not per rank: libgomp's state (the ICVs set by omp_set_num_threads/omp_set_schedule, locks'
// and the pool's), and the workers' threadprivate variables (worker k's copy is the same
// thread's for every rank of the process: `copyin` works, values kept across regions do not
// stay per rank). Tasks, `nowait` loops and nested regions end with their region (its implicit
// barrier), so they run inside it; threads started by nested regions are registered too.
// A worker's clock reads (omp_get_wtime, clock_gettime) give host time, not the rank's.
#include "libxsim/runtime/openmp_interposition.hpp"

#include <dlfcn.h>
#include <pthread.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "libxsim/engine/call_scope.hpp"
#include "libxsim/engine/engine.hpp"
#include "libxsim/engine/layer_state.hpp"
#include "libxsim/runtime/next_function.hpp"
#include "libxsim/runtime/rank_pin.hpp"

using namespace xsim;

namespace {

using ClockGettime = int (*)(clockid_t, struct timespec*);

// The threads libgomp started while a region was open, with their CPU clocks. Shared with the
// threads' trampolines, which may outlive the engine.
struct WorkerClocks {
    std::mutex mutex;
    std::vector<std::pair<pid_t, clockid_t>> threads;

    void add(pid_t tid, clockid_t clock) {
        const std::lock_guard<std::mutex> hold(mutex);
        threads.emplace_back(tid, clock);
    }
    void remove(pid_t tid) {
        const std::lock_guard<std::mutex> hold(mutex);
        std::erase_if(threads, [tid](const auto& t) { return t.first == tid; });
    }
    // Each live thread's CPU time in nanoseconds.
    void read(std::vector<std::pair<pid_t, std::int64_t>>& out) {
        static const auto real_clock_gettime = runtime::next_function<ClockGettime>("clock_gettime");
        out.clear();
        const std::lock_guard<std::mutex> hold(mutex);
        for (const auto& [tid, clock] : threads) {
            struct timespec ts{};
            if (real_clock_gettime(clock, &ts) == 0) out.emplace_back(tid, ts.tv_sec * 1'000'000'000LL + ts.tv_nsec);
        }
    }
};

// The process's OpenMP state: the open region of the running rank, and the workers.
struct OpenMpTeams : LayerState {
    static constexpr LayerSlot kSlot = LayerSlot::OpenMpTeams;
    std::shared_ptr<WorkerClocks> workers = std::make_shared<WorkerClocks>();
    std::atomic<bool> open{false};   // read by pthread_create on any thread
    const char* entry = nullptr;     // the entry point that opened the region
    Rank* rank = nullptr;
    bool measure = false;
    std::int64_t master_start = 0;  // the compute clock at the region's start
    std::vector<std::pair<pid_t, std::int64_t>> start, end;  // workers' CPU ns
    int (*active_level)() = nullptr;  // libgomp's omp_get_active_level
    int legacy_depth = 0;             // open *_start calls, when the region is a pre-4.9 pair
    std::uint64_t generation = 0;     // counts regions opened and detached
    SimTime clock_start = 0;          // the rank's virtual clock at the region's start
    std::int64_t span_before = 0;     // the compute not yet charged then (ns)
};

std::string format_seconds(SimTime t) {
    char text[64];
    std::snprintf(text, sizeof text, "%.9f", simtime_to_seconds(t));
    return text;
}

// Stops watching the open region: it has one thread and its rank suspends, so other ranks
// run meanwhile (and open regions of their own). The rank's scope then closes nothing.
void detach_region(Engine& engine, OpenMpTeams& t) {
    t.open.store(false, std::memory_order_release);
    engine.set_suspend_guard(nullptr);
    runtime::release_pin(engine, runtime::PinReason::OpenMpRegion);
    t.legacy_depth = 0;
    ++t.generation;
}

void guard_suspend(Engine& engine, Rank& rank, const char* call) {
    OpenMpTeams& t = layer_state<OpenMpTeams>(engine);
    if (!t.active_level) t.active_level = reinterpret_cast<int (*)()>(dlsym(RTLD_DEFAULT, "omp_get_active_level"));
    if (t.active_level && t.active_level() == 0) {  // a team of one thread: nothing runs beside the rank
        detach_region(engine, t);
        return;
    }
    // Still on the rank's globals, libgomp's state and the master's thread: the rank's team.
    engine.abort_run(1, "simulated rank " + std::to_string(rank.world) + " called " +
                            (call ? call : "an MPI function") + " inside an OpenMP parallel region with worker "
                            "threads (entered through " + t.entry + ") at virtual time " +
                            format_seconds(rank.clock) +
                            " s: the call has to wait for other ranks, and no other rank may run while this "
                            "rank's team does (its worker threads would see the other rank's globals); make "
                            "calls that wait (blocking ones, and MPI_Test/MPI_Iprobe loops) outside parallel "
                            "regions, or run with OMP_NUM_THREADS=1");
}

// The region's pin (rank_pin.hpp): another rank's globals are about to be loaded.
void guard_exchange(Engine& engine, std::size_t loaded) {
    OpenMpTeams& t = layer_state<OpenMpTeams>(engine);
    Rank& owner = t.rank ? *t.rank : engine.local(engine.first_local() + static_cast<int>(loaded));
    guard_suspend(engine, owner, owner.current_call);
}

void read_master_and_workers(Engine& engine, OpenMpTeams& t, std::vector<std::pair<pid_t, std::int64_t>>& into,
                             std::int64_t& before, std::int64_t& after) {
    before = engine.compute_clock_ns();
    t.workers->read(into);
    after = engine.compute_clock_ns();
}

// Opens `rank`'s region (the outermost one on the simulation thread) and returns its
// generation; 0 when the caller is not a rank's own code, or a region is already open
// (nested: the outer one accounts).
std::uint64_t open_region(const char* entry) {
    Rank* rank = application_rank();
    if (!rank) return 0;
    OpenMpTeams& t = layer_state<OpenMpTeams>(*g_engine);
    if (t.open.load(std::memory_order_relaxed)) return 0;
    Engine& engine = *g_engine;
    t.entry = entry;
    t.rank = rank;
    t.measure = engine.options().compute == ComputeMode::Measured;
    if (t.measure) {
        std::int64_t before = 0;
        read_master_and_workers(engine, t, t.start, before, t.master_start);
        rank->last_exit_ns += t.master_start - before;  // the reads are xsim's time, not the rank's
    }
    t.clock_start = rank->clock;
    t.span_before = t.master_start - rank->last_exit_ns;
    engine.set_suspend_guard(&guard_suspend);
    runtime::hold_pin(engine, runtime::PinReason::OpenMpRegion, &guard_exchange);
    t.open.store(true, std::memory_order_release);
    return ++t.generation;
}

// Closes region `generation` (unless detached since): charges the excess of its busiest
// worker over the master.
void close_region(std::uint64_t generation) {
    OpenMpTeams& t = layer_state<OpenMpTeams>(*g_engine);
    if (!t.open.load(std::memory_order_relaxed) || t.generation != generation) return;
    Engine& engine = *g_engine;
    t.open.store(false, std::memory_order_release);
    engine.set_suspend_guard(nullptr);
    runtime::release_pin(engine, runtime::PinReason::OpenMpRegion);
    if (!t.measure) return;
    std::int64_t master_end = 0, after = 0;
    read_master_and_workers(engine, t, t.end, master_end, after);
    std::int64_t busiest = 0;
    for (const auto& [tid, now] : t.end) {
        std::int64_t then = 0;  // a thread started inside the region: all its time is the region's
        for (const auto& [start_tid, start_ns] : t.start)
            if (start_tid == tid) then = start_ns;
        busiest = std::max(busiest, now - then);
    }
    // The master's time in the region, in host time as the workers' is: its virtual time in
    // MPI calls made inside it (with the compute they charged), as host time at the rank's
    // processor speed, then its compute since the last of them (or the start).
    Rank& rank = *t.rank;
    // The first call inside charged the compute before the region too: not the region's.
    const bool called = rank.last_exit_ns > t.master_start;
    const double speed = engine.machine().processor->speed(rank.world);
    const auto calls_ns = static_cast<std::int64_t>(static_cast<double>(rank.clock - t.clock_start) / 1000.0 * speed);
    const std::int64_t in_calls = called ? std::max<std::int64_t>(0, calls_ns - t.span_before) : 0;
    const std::int64_t master = in_calls + (master_end - std::max(rank.last_exit_ns, t.master_start));
    const std::int64_t excess = std::max<std::int64_t>(0, busiest - master);
    // Moving the rank's last exit back charges the excess with its next entry to xsim.
    rank.last_exit_ns += (after - master_end) - excess;
}

// The pre-4.9 pairs: the region opened by the outermost *_start on the simulation thread
// closes with its GOMP_parallel_end (nested pairs inside it are counted, not measured).
void open_legacy(const char* entry) {
    if (!application_rank()) return;
    OpenMpTeams& t = layer_state<OpenMpTeams>(*g_engine);
    if (open_region(entry)) t.legacy_depth = 1;
    else if (t.legacy_depth > 0 && t.rank == application_rank()) ++t.legacy_depth;
}

void close_legacy() {
    if (!application_rank()) return;
    OpenMpTeams& t = layer_state<OpenMpTeams>(*g_engine);
    if (t.legacy_depth > 0 && t.rank == application_rank() && --t.legacy_depth == 0) close_region(t.generation);
}

struct RegionScope {
    explicit RegionScope(const char* entry) : generation(open_region(entry)) {}
    ~RegionScope() {
        if (generation) close_region(generation);
    }
    RegionScope(const RegionScope&) = delete;
    RegionScope& operator=(const RegionScope&) = delete;
    std::uint64_t generation;
};

// The next definition of `name` (libgomp's), looked up once per entry point.
template <class F>
F real(const char* name, F& cache) {
    if (!cache) cache = runtime::next_function<F>(name);
    if (!cache) {
        std::fprintf(stderr, "xsim: %s is called but no OpenMP runtime defines it\n", name);
        std::fflush(stderr);
        std::_Exit(1);
    }
    return cache;
}

struct Trampoline {
    void* (*start)(void*);
    void* arg;
    std::shared_ptr<WorkerClocks> workers;
};

void* worker_start(void* raw) {
    std::unique_ptr<Trampoline> t(static_cast<Trampoline*>(raw));
    clockid_t clock{};
    const pid_t tid = gettid();
    const bool registered = pthread_getcpuclockid(pthread_self(), &clock) == 0;
    if (registered) t->workers->add(tid, clock);
    struct Unregister {  // also when the thread ends by pthread_exit (unwinding)
        WorkerClocks& workers;
        pid_t tid;
        bool registered;
        ~Unregister() {
            if (registered) workers.remove(tid);
        }
    } unregister{*t->workers, tid, registered};
    return t->start(t->arg);
}

}  // namespace

namespace xsim::runtime {

bool openmp_region_open() {
    const OpenMpTeams* t = g_engine ? static_cast<const OpenMpTeams*>(g_engine->layer_slot(LayerSlot::OpenMpTeams).get())
                                    : nullptr;
    return t && t->open.load(std::memory_order_acquire);
}

bool create_openmp_worker(pthread_t* thread, const pthread_attr_t* attr, void* (*start)(void*), void* arg,
                          const void* caller, int& result) {
    if (!openmp_region_open()) return false;
    Dl_info where{};
    if (!dladdr(caller, &where) || !where.dli_fname || std::string(where.dli_fname).find("libgomp") == std::string::npos)
        return false;
    // Without per-rank globals nothing keeps another rank of the process from being switched
    // in under the workers (the pin sits where images are exchanged).
    if (!g_engine->privatization().active() && g_engine->local_count() > 1) {
        const Rank* rank = layer_state<OpenMpTeams>(*g_engine).rank;
        g_engine->abort_run(1, "simulated rank " + std::to_string(rank ? rank->world : -1) +
                                   " started OpenMP worker threads (" + where.dli_fname +
                                   ") while its process's ranks share their globals (-xsim-privatize off): "
                                   "worker threads need per-rank globals (-xsim-privatize auto or on) when ranks "
                                   "share a process, or OMP_NUM_THREADS=1");
    }
    // Made on the simulation thread when the region opened, so reading the slot is safe here.
    auto* t = static_cast<OpenMpTeams*>(g_engine->layer_slot(LayerSlot::OpenMpTeams).get());
    using Create = int (*)(pthread_t*, const pthread_attr_t*, void* (*)(void*), void*);
    static const auto real_create = next_function<Create>("pthread_create");
    auto* trampoline = new Trampoline{start, arg, t->workers};
    result = real_create(thread, attr, &worker_start, trampoline);
    if (result != 0) delete trampoline;
    return true;
}

}  // namespace xsim::runtime

// The entry points. Signatures as libgomp's libgomp_g.h (GCC 4.9 to 14).
using Body = void (*)(void*);

extern "C" {

void GOMP_parallel(Body fn, void* data, unsigned threads, unsigned flags) {
    using F = void (*)(Body, void*, unsigned, unsigned);
    static F cache = nullptr;
    const RegionScope region("GOMP_parallel");
    real("GOMP_parallel", cache)(fn, data, threads, flags);
}

unsigned GOMP_parallel_reductions(Body fn, void* data, unsigned threads, unsigned flags) {
    using F = unsigned (*)(Body, void*, unsigned, unsigned);
    static F cache = nullptr;
    const RegionScope region("GOMP_parallel_reductions");
    return real("GOMP_parallel_reductions", cache)(fn, data, threads, flags);
}

#define XSIM_GOMP_LOOP(name)                                                                               \
    void name(Body fn, void* data, unsigned threads, long start, long end, long incr, long chunk,          \
              unsigned flags) {                                                                            \
        using F = void (*)(Body, void*, unsigned, long, long, long, long, unsigned);                      \
        static F cache = nullptr;                                                                          \
        const RegionScope region(#name);                                                                   \
        real(#name, cache)(fn, data, threads, start, end, incr, chunk, flags);                             \
    }
XSIM_GOMP_LOOP(GOMP_parallel_loop_static)
XSIM_GOMP_LOOP(GOMP_parallel_loop_dynamic)
XSIM_GOMP_LOOP(GOMP_parallel_loop_guided)
XSIM_GOMP_LOOP(GOMP_parallel_loop_nonmonotonic_dynamic)
XSIM_GOMP_LOOP(GOMP_parallel_loop_nonmonotonic_guided)
#undef XSIM_GOMP_LOOP

#define XSIM_GOMP_LOOP_RUNTIME(name)                                                                       \
    void name(Body fn, void* data, unsigned threads, long start, long end, long incr, unsigned flags) {    \
        using F = void (*)(Body, void*, unsigned, long, long, long, unsigned);                            \
        static F cache = nullptr;                                                                          \
        const RegionScope region(#name);                                                                   \
        real(#name, cache)(fn, data, threads, start, end, incr, flags);                                    \
    }
XSIM_GOMP_LOOP_RUNTIME(GOMP_parallel_loop_runtime)
XSIM_GOMP_LOOP_RUNTIME(GOMP_parallel_loop_nonmonotonic_runtime)
XSIM_GOMP_LOOP_RUNTIME(GOMP_parallel_loop_maybe_nonmonotonic_runtime)
#undef XSIM_GOMP_LOOP_RUNTIME

void GOMP_parallel_sections(Body fn, void* data, unsigned threads, unsigned count, unsigned flags) {
    using F = void (*)(Body, void*, unsigned, unsigned, unsigned);
    static F cache = nullptr;
    const RegionScope region("GOMP_parallel_sections");
    real("GOMP_parallel_sections", cache)(fn, data, threads, count, flags);
}

void GOMP_teams_reg(Body fn, void* data, unsigned teams, unsigned thread_limit, unsigned flags) {
    using F = void (*)(Body, void*, unsigned, unsigned, unsigned);
    static F cache = nullptr;
    const RegionScope region("GOMP_teams_reg");
    real("GOMP_teams_reg", cache)(fn, data, teams, thread_limit, flags);
}

// GCC before 4.9: the master calls fn(data) itself between *_start and GOMP_parallel_end.
// The region stays open from the start to the end call (an end without a start of ours
// closes nothing).
void GOMP_parallel_start(Body fn, void* data, unsigned threads) {
    using F = void (*)(Body, void*, unsigned);
    static F cache = nullptr;
    open_legacy("GOMP_parallel_start");
    real("GOMP_parallel_start", cache)(fn, data, threads);
}

#define XSIM_GOMP_LOOP_START(name)                                                                         \
    void name(Body fn, void* data, unsigned threads, long start, long end, long incr, long chunk) {       \
        using F = void (*)(Body, void*, unsigned, long, long, long, long);                                \
        static F cache = nullptr;                                                                          \
        open_legacy(#name);                                                                                \
        real(#name, cache)(fn, data, threads, start, end, incr, chunk);                                    \
    }
XSIM_GOMP_LOOP_START(GOMP_parallel_loop_static_start)
XSIM_GOMP_LOOP_START(GOMP_parallel_loop_dynamic_start)
XSIM_GOMP_LOOP_START(GOMP_parallel_loop_guided_start)
#undef XSIM_GOMP_LOOP_START

void GOMP_parallel_loop_runtime_start(Body fn, void* data, unsigned threads, long start, long end, long incr) {
    using F = void (*)(Body, void*, unsigned, long, long, long);
    static F cache = nullptr;
    open_legacy("GOMP_parallel_loop_runtime_start");
    real("GOMP_parallel_loop_runtime_start", cache)(fn, data, threads, start, end, incr);
}

void GOMP_parallel_sections_start(Body fn, void* data, unsigned threads, unsigned count) {
    using F = void (*)(Body, void*, unsigned, unsigned);
    static F cache = nullptr;
    open_legacy("GOMP_parallel_sections_start");
    real("GOMP_parallel_sections_start", cache)(fn, data, threads, count);
}

void GOMP_parallel_end(void) {
    using F = void (*)();
    static F cache = nullptr;
    real("GOMP_parallel_end", cache)();
    close_legacy();
}

}  // extern "C"
