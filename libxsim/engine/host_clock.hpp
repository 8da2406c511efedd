// Host clocks, never virtualized: the monotonic clock, the thread's CPU time, and the clock
// measured compute reads by default (ThreadCpuClock; see host_clock.cpp for why).
#pragma once
#include <cstdint>

namespace xsim {

// Host monotonic time in nanoseconds (vDSO, about 16 ns a read here).
std::int64_t host_clock_ns();

// CPU time of the calling thread in nanoseconds (user + system): it stops while the thread
// is preempted or sleeps. A system call (no vDSO path): 168 ns here, see host_clock.cpp.
std::int64_t thread_cpu_ns();

// Whether this host's kernel reports steal time, the time a hypervisor runs something else
// on the virtual CPU. A thread's CPU time leaves it out only where it is reported (paravirt
// steal accounting); elsewhere a virtual CPU taken away mid-span is charged to the rank as
// compute, and no guest clock can tell (bench/RESULTS.md, "Session 40").
enum class StealTime {
    NotVirtual,    // /proc/cpuinfo has no "hypervisor" flag
    Reported,      // a virtual machine whose kernel has counted steal time since boot
    NoneReported,  // a virtual machine whose kernel has counted none (not accounted, or none taken)
};
// From the texts of /proc/cpuinfo and /proc/stat (its "cpu" line's 8th value is steal).
StealTime classify_steal_time(const char* cpuinfo, const char* stat);
// This host's, read now; NotVirtual when the files cannot be read.
StealTime host_steal_time();
const char* steal_time_name(StealTime s);

// The calling thread's CPU time at nearly the cost of the monotonic clock: returns
// wall + offset, where offset = thread CPU time - wall time, both read at the last refresh.
// While the thread runs undisturbed the two advance together, so only a refresh needs the
// system call. A refresh happens when the thread was scheduled out since the last one (seen
// without a system call: the seqcount of a perf_event task-clock page changes) or when
// kRefreshNs of wall time have passed (catches vCPU steal, and is all there is when the
// kernel refuses perf_event_open). Owned by the engine; constructed, read and destroyed on
// the simulation thread only: the perf event counts the thread that opened it.
class ThreadCpuClock {
public:
    static constexpr std::int64_t kRefreshNs = 1'000'000;

    // `detect_preemption` false: no perf event, the 1 ms refresh only (tests force this; the
    // engine passes false when the clock is not used, so no file descriptor is opened).
    explicit ThreadCpuClock(bool detect_preemption = true);
    ~ThreadCpuClock();
    ThreadCpuClock(const ThreadCpuClock&) = delete;
    ThreadCpuClock& operator=(const ThreadCpuClock&) = delete;

    // Thread CPU time in nanoseconds. The wall clock is read before the seqcount, so a
    // preemption between the two is seen and the value refreshed.
    std::int64_t now_ns() {
        const std::int64_t wall = host_clock_ns();
        if (*sequence_ == seen_sequence_ && wall - refreshed_at_ < kRefreshNs) [[likely]]
            return wall + offset_;
        return refresh();
    }

    // True when scheduling-out is detected through the perf_event page.
    bool detects_preemption() const { return page_ != nullptr; }
    // Why detection is off ("" when on): the failed call and its error, or "not requested".
    const char* detector_note() const { return note_; }
    // Refreshes so far (each one system call), for tests and benchmarks.
    std::uint64_t refreshes() const { return refreshes_; }

private:
    [[gnu::noinline]] std::int64_t refresh();
    static void forget_page_after_fork();  // pthread_atfork child handler (host_clock.cpp)

    const volatile std::uint32_t* sequence_;  // the perf page's `lock`, or a constant zero
    std::uint32_t seen_sequence_ = 0;
    std::int64_t offset_ = 0;
    std::int64_t refreshed_at_ = 0;
    std::uint64_t refreshes_ = 0;
    void* page_ = nullptr;  // the perf_event_mmap_page, read-only
    int fd_ = -1;
    ThreadCpuClock* next_detecting_ = nullptr;  // the thread's other clocks with a perf page
    char note_[96] = "";
};

}  // namespace xsim
