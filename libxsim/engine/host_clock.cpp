// Host time for measuring application compute (-xsim-compute-clock). Every rank is a fiber
// on the one simulation thread, and the reads bracket only the rank's own span between MPI
// calls (Engine::leave .. enter).
//
// wall: the monotonic clock, read through the vDSO (16 ns here); host noise is part of
// measured compute: a rank whose span the host preempted (a few ms) is charged the
// preemption, and a collective makes every rank wait for it (ring_allreduce at 2^20 ranks
// predicted 10x too long, bench/RESULTS.md "Measured compute clock (session 8)").
// thread (default): the thread's CPU time, which leaves preemption and sleeps out. Read
// directly it is a system call (168 ns on this VM), twice per MPI call; ThreadCpuClock reads
// the monotonic clock plus an offset instead and pays the system call only after the thread
// was scheduled out or 1 ms passed.
//
// The C library's clock_gettime is interposed by libxsim (to virtualize it), so the real
// one is looked up once.
#include <dlfcn.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "libxsim/engine/host_clock.hpp"

namespace xsim {

namespace {

std::int64_t read_clock(clockid_t id) {
    using ClockGettime = int (*)(clockid_t, struct timespec*);
    static const auto real = reinterpret_cast<ClockGettime>(dlsym(RTLD_NEXT, "clock_gettime"));
    struct timespec ts;
    real(id, &ts);
    return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000LL + ts.tv_nsec;
}

// What a clock without a perf page compares: never changes, so only the 1 ms refresh fires.
constexpr std::uint32_t kNoSequence = 0;

// The clocks with a perf page on this thread. The page is not copied into a fork()ed child
// (the kernel marks it VM_DONTCOPY) and reading it there would fault: the child handler of
// pthread_atfork (which runs on the thread that forked) turns their detection off first.
thread_local ThreadCpuClock* t_detecting = nullptr;

}  // namespace

std::int64_t host_clock_ns() { return read_clock(CLOCK_MONOTONIC); }

std::int64_t thread_cpu_ns() { return read_clock(CLOCK_THREAD_CPUTIME_ID); }

StealTime classify_steal_time(const char* cpuinfo, const char* stat) {
    bool virtual_cpu = false;
    for (const char* line = cpuinfo; line && *line;) {
        const char* end = std::strchr(line, '\n');
        const std::string text(line, end ? static_cast<std::size_t>(end - line) : std::strlen(line));
        if (text.rfind("flags", 0) == 0 && (text + " ").find(" hypervisor ") != std::string::npos) virtual_cpu = true;
        line = end ? end + 1 : nullptr;
    }
    if (!virtual_cpu) return StealTime::NotVirtual;
    // "cpu  user nice system idle iowait irq softirq steal ..."
    unsigned long long v[8] = {};
    if (std::sscanf(stat, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5],
                    &v[6], &v[7]) == 8 &&
        v[7] > 0)
        return StealTime::Reported;
    return StealTime::NoneReported;
}

namespace {
std::string read_text(const char* path) {
    std::string text;
    const int fd = open(path, O_RDONLY | O_CLOEXEC);  // not stdio, which libxsim may interpose
    if (fd < 0) return text;
    char chunk[4096];
    ssize_t n;
    while ((n = read(fd, chunk, sizeof chunk)) > 0) text.append(chunk, static_cast<std::size_t>(n));
    close(fd);
    return text;
}
}  // namespace

StealTime host_steal_time() {
    const std::string cpuinfo = read_text("/proc/cpuinfo"), stat = read_text("/proc/stat");
    return classify_steal_time(cpuinfo.c_str(), stat.c_str());
}

const char* steal_time_name(StealTime s) {
    switch (s) {
        case StealTime::NotVirtual: return "not_virtual";
        case StealTime::Reported: return "reported";
        case StealTime::NoneReported: return "none_reported";
    }
    return "not_virtual";
}

void ThreadCpuClock::forget_page_after_fork() {
    for (ThreadCpuClock* c = t_detecting; c; c = c->next_detecting_) {
        c->sequence_ = &kNoSequence;
        c->page_ = nullptr;
        close(c->fd_);  // the child's copy; the parent's event is untouched
        c->fd_ = -1;
        std::snprintf(c->note_, sizeof c->note_, "off in a fork()ed child");
    }
    t_detecting = nullptr;
}

ThreadCpuClock::ThreadCpuClock(bool detect_preemption) : sequence_(&kNoSequence) {
    if (!detect_preemption) {
        std::snprintf(note_, sizeof note_, "not requested");
    } else {
        // Counts this thread only (pid 0, cpu -1, inherit 0), user time only so that
        // perf_event_paranoid 2 allows it; closed on exec.
        struct perf_event_attr attr;
        std::memset(&attr, 0, sizeof attr);
        attr.type = PERF_TYPE_SOFTWARE;
        attr.size = sizeof attr;
        attr.config = PERF_COUNT_SW_TASK_CLOCK;
        attr.exclude_kernel = 1;
        attr.exclude_hv = 1;
        const long fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
        if (fd < 0) {
            std::snprintf(note_, sizeof note_, "perf_event_open: %s", std::strerror(errno));
        } else {
            fd_ = static_cast<int>(fd);
            void* page = mmap(nullptr, static_cast<std::size_t>(sysconf(_SC_PAGESIZE)), PROT_READ, MAP_SHARED, fd_, 0);
            if (page == MAP_FAILED) {
                std::snprintf(note_, sizeof note_, "mmap of the perf_event page: %s", std::strerror(errno));
                close(fd_);
                fd_ = -1;
            } else {
                page_ = page;
                // The seqcount the kernel bumps whenever it updates the page: on every
                // schedule in and out of the event, i.e. of this thread.
                sequence_ = &static_cast<const volatile perf_event_mmap_page*>(page)->lock;
                static const int registered = pthread_atfork(nullptr, nullptr, &forget_page_after_fork);
                (void)registered;
                next_detecting_ = t_detecting;
                t_detecting = this;
            }
        }
    }
    refresh();
}

ThreadCpuClock::~ThreadCpuClock() {
    for (ThreadCpuClock** c = &t_detecting; *c; c = &(*c)->next_detecting_)
        if (*c == this) {
            *c = next_detecting_;
            break;
        }
    if (page_) munmap(page_, static_cast<std::size_t>(sysconf(_SC_PAGESIZE)));
    if (fd_ >= 0) close(fd_);
}

// The sequence is read first: a schedule-out during the reads changes it, so the next
// now_ns() refreshes again. The value returned is the CPU time itself, true either way.
// The CPU time is sampled somewhere inside its system call, between the two wall reads; the
// offset pairs it with their midpoint. Pairing it with the first read instead made every
// estimate until the next refresh late by most of a system call (hundreds of ns), so a span
// that began right after a refresh was charged that much less than the CPU it used.
std::int64_t ThreadCpuClock::refresh() {
    const std::uint32_t sequence = *sequence_;
    const std::int64_t before = host_clock_ns();
    const std::int64_t cpu = thread_cpu_ns();
    const std::int64_t after = host_clock_ns();
    offset_ = cpu - (before + (after - before) / 2);
    refreshed_at_ = after;
    seen_sequence_ = sequence;
    ++refreshes_;
    return cpu;
}

}  // namespace xsim
