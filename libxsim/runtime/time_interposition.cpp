// The C library's clocks and sleeps, as simulated ranks see them: called from application
// code they read or advance the rank's virtual clock and never block the real process;
// called from anywhere else (xsim, the real MPI library) they are the real functions, except
// that a tool's or the program's code running inside a rank's MPI call (a tool's wrapper of
// a POSIX call the real library makes for the rank, a user's callback) reads that rank's
// virtual time too, without charge.
// The CPU-time clocks (clock(), CLOCK_PROCESS_CPUTIME_ID, CLOCK_THREAD_CPUTIME_ID) read the
// rank's virtual time less what it slept: a native process is on the CPU while it computes
// and while MPI polls for its messages, and off it while it sleeps. Read for real they would
// give the whole real process's CPU time, all its ranks' and xsim's (LLNL AMG prints it).
// getrusage (RUSAGE_SELF, RUSAGE_THREAD) and times() give the same CPU time as user time and
// no system time (Quantum ESPRESSO prints it beside the wall time); their other fields
// (memory, faults, context switches, children) stay the real process's.
// Virtual wall-clock time starts at the epoch of -xsim-epoch (fixed by default, so runs are
// reproducible).
#include <dlfcn.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/times.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>

#include "libxsim/engine/call_scope.hpp"
#include "libxsim/engine/engine.hpp"
#include "libxsim/rank_state/privatization.hpp"
#include "libxsim/runtime/next_function.hpp"

using namespace xsim;
using runtime::next_function;

namespace {

using ClockGettime = int (*)(clockid_t, struct timespec*);
ClockGettime real_clock_gettime() {
    static const ClockGettime f = next_function<ClockGettime>("clock_gettime");
    return f;
}


// Advances the calling rank by `duration` of idle time (a sleep), and resumes it when every
// event up to its new clock has been processed, here and in the other real processes (as a
// probe does): a rank sleeps to wait for something outside MPI (a file another rank writes:
// FFCx's JIT cache, whose waiting ranks poll for a compiled module once a second, ten times),
// and natively a process sleeping 1 s lets the others run 1 s. Without it the sleep took no
// host time: the ranks of another real process, behind in virtual time, had not yet done what
// happened before the sleeper's wake-up. (Not inside an OpenMP region with worker threads,
// where the rank may not be switched out: there the clock only advances.)
void virtual_sleep(Rank& rank, const char* call, SimTime duration) {
    g_engine->enter(rank, call);
    const SimTime before = rank.clock;
    rank.clock = add_time(rank.clock, duration);  // leave() stops a run past kTimeLimit
    g_engine->libc_state().add_sleep(g_engine->local_index(rank), static_cast<std::size_t>(g_engine->local_count()),
                                     rank.clock - before);
    if (!g_engine->suspend_guard() && rank.clock < kTimeLimit) g_engine->catch_up(rank);
    g_engine->leave(rank);
}

// Whether `clock` is one of the wall clocks a rank reads as virtual time (clock_gettime).
bool is_realtime(clockid_t clock) { return clock == CLOCK_REALTIME || clock == CLOCK_REALTIME_COARSE; }
bool is_monotonic(clockid_t clock) {
    return clock == CLOCK_MONOTONIC || clock == CLOCK_MONOTONIC_RAW || clock == CLOCK_MONOTONIC_COARSE ||
           clock == CLOCK_BOOTTIME;
}

// The rank's virtual time: compute since its last call is charged first, so reading the
// clock in a loop sees the loop's own cost (and, in -xsim-compute none, the read's).
SimTime virtual_now(Rank& rank, const char* call) {
    g_engine->enter(rank, call);
    const SimTime now = read_clock(*g_engine, rank);
    g_engine->leave(rank);
    return now;
}

// The rank's CPU time: its virtual time less what it slept.
SimTime cpu_now(Rank& rank, const char* call) {
    return virtual_now(rank, call) - g_engine->libc_state().slept(g_engine->local_index(rank));
}

// Whether code at `caller` belongs to the program or a tool (the executable, its own
// libraries, a tool's preloaded library) rather than to xsim, the MPI library or the system.
// Remembered per call site: the real MPI library reads clocks in its progress loops.
bool program_code(const void* caller) {
    struct Site {
        const void* address;
        bool program;
    };
    static Site sites[64];  // the simulation thread's only
    Site& site = sites[(reinterpret_cast<std::uintptr_t>(caller) >> 4) % 64];
    if (site.address == caller) return site.program;
    Dl_info info{};
    const bool program = dladdr(caller, &info) != 0 && info.dli_fname && *info.dli_fname &&
                         !runtime::is_foreign_object(info.dli_fname);
    site = {caller, program};
    return program;
}

// The rank inside whose MPI call a tool reads a clock: Darshan times the POSIX calls that
// the real library's MPI-IO makes for xsim's MPI_File_write_at_all with clock_gettime. It
// reads the rank's virtual time at that point of the call, not the host's (which would put
// those calls 96 million seconds after the job's virtual start). Nothing is charged: the
// call's cost is xsim's model. Clock reads by xsim and the MPI library stay real.
Rank* rank_under_tool(const void* caller) {
    Rank* r = running_rank();
    if (!r || g_engine->in_application() || !program_code(caller)) return nullptr;
    return r;
}

void to_timespec(SimTime t, std::int64_t epoch_seconds, struct timespec* ts) {
    ts->tv_sec = static_cast<time_t>(epoch_seconds + t / kPicosPerSecond);
    ts->tv_nsec = static_cast<long>((t % kPicosPerSecond) / 1000);
}

// Virtual time `t` as gettimeofday gives it: from the -xsim-epoch, in microseconds.
void to_timeval(SimTime t, struct timeval* tv) {
    struct timespec ts;
    to_timespec(t, g_engine->options().epoch_seconds, &ts);
    tv->tv_sec = ts.tv_sec;
    tv->tv_usec = ts.tv_nsec / 1000;
}

}  // namespace


extern "C" {

unsigned int sleep(unsigned int seconds) {
    if (Rank* r = application_rank()) {
        virtual_sleep(*r, "sleep", std::min<SimTime>(seconds, kTimeLimit / kPicosPerSecond + 1) * kPicosPerSecond);
        return 0;
    }
    static const auto f = next_function<unsigned int (*)(unsigned int)>("sleep");
    return f(seconds);
}

int usleep(useconds_t microseconds) {
    if (Rank* r = application_rank()) {
        virtual_sleep(*r, "usleep", static_cast<SimTime>(microseconds) * 1'000'000LL);
        return 0;
    }
    static const auto f = next_function<int (*)(useconds_t)>("usleep");
    return f(microseconds);
}

int nanosleep(const struct timespec* request, struct timespec* remaining) {
    if (Rank* r = application_rank()) {
        if (!request || request->tv_nsec < 0 || request->tv_nsec >= 1'000'000'000L || request->tv_sec < 0) {
            errno = EINVAL;
            return -1;
        }
        // (Seconds capped first: sleeping past kTimeLimit stops the run, it must not wrap.)
        virtual_sleep(*r, "nanosleep",
                      std::min<SimTime>(request->tv_sec, kTimeLimit / kPicosPerSecond + 1) * kPicosPerSecond +
                          request->tv_nsec * 1000LL);
        if (remaining) remaining->tv_sec = 0, remaining->tv_nsec = 0;
        return 0;
    }
    static const auto f = next_function<int (*)(const struct timespec*, struct timespec*)>("nanosleep");
    return f(request, remaining);
}

// Python's time.sleep (3.11) sleeps with clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME) until
// a deadline read from the (virtual) monotonic clock: done for real, the deadline lay long
// past and the sleep took no time, virtual or host. A rank's sleep on a wall clock, relative
// or to a deadline of that clock as the rank reads it, is a virtual sleep as nanosleep's.
// Returns an error number, as clock_nanosleep does; other clocks go to the C library.
int clock_nanosleep(clockid_t clock, int flags, const struct timespec* request, struct timespec* remaining) {
    Rank* r = application_rank();
    if (r && (is_realtime(clock) || is_monotonic(clock))) {
        if (!request || request->tv_nsec < 0 || request->tv_nsec >= 1'000'000'000L || request->tv_sec < 0) return EINVAL;
        // A deadline on the rank's scale: virtual time, plus the epoch for CLOCK_REALTIME.
        const bool absolute = flags & TIMER_ABSTIME;
        const std::int64_t seconds =
            absolute && is_realtime(clock) ? request->tv_sec - g_engine->options().epoch_seconds : request->tv_sec;
        const SimTime requested =
            seconds < 0 ? 0
                        : std::min<SimTime>(seconds, kTimeLimit / kPicosPerSecond + 1) * kPicosPerSecond +
                              request->tv_nsec * 1000LL;
        SimTime duration = requested;
        if (absolute) {
            const SimTime now = virtual_now(*r, "clock_nanosleep");
            duration = requested > now ? requested - now : 0;
        }
        virtual_sleep(*r, "clock_nanosleep", duration);
        if (remaining && !(flags & TIMER_ABSTIME)) remaining->tv_sec = 0, remaining->tv_nsec = 0;
        return 0;
    }
    static const auto f = next_function<int (*)(clockid_t, int, const struct timespec*, struct timespec*)>("clock_nanosleep");
    return f(clock, flags, request, remaining);
}

int clock_gettime(clockid_t clock, struct timespec* ts) noexcept {
    if (Rank* r = application_rank()) {
        const bool realtime = is_realtime(clock);
        const bool monotonic = is_monotonic(clock);
        if (realtime || monotonic) {
            to_timespec(virtual_now(*r, "clock_gettime"), realtime ? g_engine->options().epoch_seconds : 0, ts);
            return 0;
        }
        if (clock == CLOCK_PROCESS_CPUTIME_ID || clock == CLOCK_THREAD_CPUTIME_ID) {
            to_timespec(cpu_now(*r, "clock_gettime"), 0, ts);
            return 0;
        }
    } else if (Rank* t = rank_under_tool(__builtin_return_address(0))) {
        const bool realtime = is_realtime(clock);
        if (realtime || is_monotonic(clock)) {
            to_timespec(t->clock, realtime ? g_engine->options().epoch_seconds : 0, ts);
            return 0;
        }
    }
    return real_clock_gettime()(clock, ts);
}

// Either argument may be null, as natively (the vDSO fills what it is given). The time zone
// reads as the kernel's default (zero minutes west, no daylight saving): the obsolete
// argument carries nothing a simulated rank should see of the host. glibc declares `tv`
// nonnull, so the compiler would drop a test of it: the empty asm hides what it knows.
int gettimeofday(struct timeval* tv, void* tz) noexcept {
    asm("" : "+r"(tv));
    if (Rank* r = application_rank()) {
        const SimTime now = virtual_now(*r, "gettimeofday");
        if (tv) to_timeval(now, tv);
        if (tz) std::memset(tz, 0, sizeof(struct timezone));
        return 0;
    }
    if (Rank* t = rank_under_tool(__builtin_return_address(0)); t && tv) {
        to_timeval(t->clock, tv);
        return 0;
    }
    static const auto f = next_function<int (*)(struct timeval*, void*)>("gettimeofday");
    return f(tv, tz);
}

clock_t clock(void) noexcept {
    if (Rank* r = application_rank()) return static_cast<clock_t>(cpu_now(*r, "clock") / (kPicosPerSecond / CLOCKS_PER_SEC));
    static const auto f = next_function<clock_t (*)()>("clock");
    return f();
}

int getrusage(int who, struct rusage* usage) noexcept {
    static const auto f = next_function<int (*)(int, struct rusage*)>("getrusage");
    const int result = f(who, usage);
    Rank* r = application_rank();
    if (result != 0 || !r || (who != RUSAGE_SELF && who != RUSAGE_THREAD)) return result;
    struct timespec cpu;
    to_timespec(cpu_now(*r, "getrusage"), 0, &cpu);
    usage->ru_utime.tv_sec = cpu.tv_sec;
    usage->ru_utime.tv_usec = cpu.tv_nsec / 1000;
    usage->ru_stime.tv_sec = 0;
    usage->ru_stime.tv_usec = 0;
    return result;
}

clock_t times(struct tms* buf) noexcept {
    Rank* r = application_rank();
    if (!r) {
        static const auto f = next_function<clock_t (*)(struct tms*)>("times");
        return f(buf);
    }
    // In clock ticks: the CPU time as user time, and the virtual time since boot (the epoch
    // of CLOCK_MONOTONIC above) as the return value.
    static const SimTime per_tick = kPicosPerSecond / sysconf(_SC_CLK_TCK);
    const SimTime cpu = cpu_now(*r, "times");
    if (buf) {
        buf->tms_utime = static_cast<clock_t>(cpu / per_tick);
        buf->tms_stime = buf->tms_cutime = buf->tms_cstime = 0;
    }
    return static_cast<clock_t>(r->clock / per_tick);
}

time_t time(time_t* out) noexcept {
    if (Rank* r = application_rank()) {
        const time_t now = static_cast<time_t>(g_engine->options().epoch_seconds + virtual_now(*r, "time") / kPicosPerSecond);
        if (out) *out = now;
        return now;
    }
    static const auto f = next_function<time_t (*)(time_t*)>("time");
    return f(out);
}

}  // extern "C"
