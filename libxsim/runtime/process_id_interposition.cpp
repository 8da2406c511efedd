// A process id per simulated rank. Natively every MPI rank is a process with a pid of its
// own, and programs rely on that: a seed of time(0) ^ getpid() "so that each process has a
// different seed" (miniVite), scratch files named after the pid. Under xsim the ranks of a
// real process would share its pid, so they drew the same random numbers and wrote the same
// files. Called from a simulated rank's application code, getpid() returns
// kVirtualPidBase + the rank's world rank: distinct for every rank, the same for any number
// of real processes (as the fixed epoch keeps time() the same), and above the largest pid
// Linux hands out, so that it never names another process of the machine.
//
// What a program does with its own pid keeps working: kill() of a virtual pid of this
// process signals the real process, and /proc/<pid>/... opened through open, openat, fopen
// or readlink is the real process's entry (also for a rank of another real process on this
// host: Gadget-4's node-shared memory is a memfd that the node's other ranks open as
// /proc/<first rank's pid>/fd/N), except the rank's own memory map
// (/proc/self/maps, or its pid's), which shows its stack as a mapping of its own
// (own_stack.hpp). (The real process is every rank it hosts: a signal reaches them all.) Called from anywhere else (xsim, the real MPI library, other threads)
// getpid() is the C library's.
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "libxsim/engine/call_scope.hpp"
#include "libxsim/engine/engine.hpp"
#include "libxsim/mpi/real_mpi.hpp"
#include "libxsim/runtime/next_function.hpp"
#include "libxsim/runtime/own_stack.hpp"
#include "libxsim/runtime/process_ids.hpp"

using namespace xsim;
using runtime::next_function;

namespace {

// PID_MAX_LIMIT of 64-bit Linux (4 Mi): no real process has this pid or a larger one.
constexpr long kVirtualPidBase = 4194304;

pid_t real_getpid() {
    static const auto f = next_function<pid_t (*)()>("getpid");
    return f();
}

// The world rank whose virtual pid `pid` is, or -1.
long rank_of_virtual_pid(long pid) {
    if (!g_engine || pid < kVirtualPidBase || pid - kVirtualPidBase >= g_engine->world_size()) return -1;
    return pid - kVirtualPidBase;
}

// A rewritten path lives here, not on the caller's stack (a rank's may be 2 KiB).
constexpr std::size_t kPathBytes = 4096;
thread_local char t_path[kPathBytes];

// The real pid of each real process of the run whose /proc this process sees (0 for the
// others), by process number; empty until learn_sibling_processes. Process-wide and written
// once at start-up, before any rank runs.
std::vector<long> g_sibling_pids;

// What identifies the /proc this process sees: the kernel's boot id (the host) and the pid
// namespace (a container), hashed (FNV-1a).
std::int64_t proc_view_key() {
    std::string identity;
    // open and read, not stdio: this file defines fopen, and GCC's pairing check does not
    // see fclose as the deallocator of its local alias.
    if (const int fd = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC); fd >= 0) {
        char buf[128];
        if (const ssize_t n = read(fd, buf, sizeof buf); n > 0) identity.assign(buf, static_cast<std::size_t>(n));
        close(fd);
    }
    char ns[128] = {};
    if (const ssize_t n = readlink("/proc/self/ns/pid", ns, sizeof ns - 1); n > 0) identity.append(ns, static_cast<std::size_t>(n));
    std::uint64_t hash = 1469598103934665603ULL;
    for (const unsigned char c : identity) hash = (hash ^ c) * 1099511628211ULL;
    return static_cast<std::int64_t>(hash >> 1);  // positive: MPI_MAX below treats 0 as "not mine"
}

// `path` with a leading /proc/<virtual pid of a rank> replaced by the real pid of the process
// that hosts the rank, when that is this process or a sibling on the same /proc (in t_path);
// otherwise `path` itself (a rank elsewhere: as natively, another host's pid is not here).
const char* real_proc_path(const char* path) {
    if (!path || strncmp(path, "/proc/", 6) != 0) return path;
    char* end = nullptr;
    const long pid = std::strtol(path + 6, &end, 10);
    if (end == path + 6 || (*end != '/' && *end != '\0')) return path;
    const long rank = rank_of_virtual_pid(pid);
    if (rank < 0) return path;
    long real = 0;
    if (g_engine->is_local(static_cast<int>(rank))) {
        real = real_getpid();
    } else {
        const auto process = static_cast<std::size_t>(g_engine->process_of(static_cast<int>(rank)));
        if (process < g_sibling_pids.size()) real = g_sibling_pids[process];
    }
    if (real <= 0) return path;
    const int n = snprintf(t_path, sizeof t_path, "/proc/%ld%s", real, end);
    return n > 0 && static_cast<std::size_t>(n) < sizeof t_path ? t_path : path;
}

// Whether `path`, opened by `rank`'s code for reading, is its own memory map: /proc/self/maps,
// /proc/thread-self/maps or /proc/<its pid>/maps.
bool names_own_maps(const char* path, int flags, const Rank& rank) {
    if (!path || (flags & O_ACCMODE) != O_RDONLY || strncmp(path, "/proc/", 6) != 0) return false;
    if (strcmp(path, "/proc/self/maps") == 0 || strcmp(path, "/proc/thread-self/maps") == 0) return true;
    char* end = nullptr;
    const long pid = std::strtol(path + 6, &end, 10);
    return end != path + 6 && strcmp(end, "/maps") == 0 && pid == kVirtualPidBase + rank.world;
}

// A file holding the rank's view of its maps (own_stack.hpp), read from its start; -1 (and the
// caller opens the real file) if it cannot be made.
int open_own_maps(const Rank& rank, bool close_on_exec) {
    const std::string text = runtime::rank_maps_text(rank);
    if (text.empty()) return -1;
    const int fd = memfd_create("maps", close_on_exec ? MFD_CLOEXEC : 0u);
    if (fd < 0) return -1;
    for (std::size_t done = 0; done < text.size();) {
        const ssize_t n = write(fd, text.data() + done, text.size() - done);
        if (n <= 0) {
            close(fd);
            return -1;
        }
        done += static_cast<std::size_t>(n);
    }
    lseek(fd, 0, SEEK_SET);
    return fd;
}

// open's answer for the rank's own maps, or -1 for "open the path as asked".
int own_maps_for_open(const char* path, int flags) {
    const Rank* rank = application_rank();
    return rank && names_own_maps(path, flags, *rank) ? open_own_maps(*rank, (flags & O_CLOEXEC) != 0) : -1;
}

// The mode argument of open/openat, passed only when the flags create a file.
mode_t mode_argument(int flags, va_list ap) {
    const bool creates = (flags & O_CREAT) != 0 || (flags & O_TMPFILE) == O_TMPFILE;
    return creates ? static_cast<mode_t>(va_arg(ap, int)) : 0;
}

}  // namespace

void runtime::learn_sibling_processes(int process, int processes) {
    if (processes <= 1) return;
    // An all-gather through the real library's Allreduce: each process fills its own slots.
    std::vector<std::int64_t> keys(static_cast<std::size_t>(processes), 0), pids(keys);
    keys[static_cast<std::size_t>(process)] = proc_view_key();
    pids[static_cast<std::size_t>(process)] = real_getpid();
    real_mpi.Allreduce(MPI_IN_PLACE, keys.data(), processes, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
    real_mpi.Allreduce(MPI_IN_PLACE, pids.data(), processes, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
    const std::int64_t mine = keys[static_cast<std::size_t>(process)];
    g_sibling_pids.assign(static_cast<std::size_t>(processes), 0);
    for (std::size_t p = 0; p < keys.size(); ++p)
        if (keys[p] == mine) g_sibling_pids[p] = static_cast<long>(pids[p]);
}

extern "C" {

pid_t getpid(void) noexcept {
    if (const Rank* rank = application_rank()) return static_cast<pid_t>(kVirtualPidBase + rank->world);
    return real_getpid();
}

int kill(pid_t pid, int sig) noexcept {
    static const auto real_kill = next_function<int (*)(pid_t, int)>("kill");
    const long rank = rank_of_virtual_pid(pid);
    if (rank < 0) return real_kill(pid, sig);
    if (g_engine->is_local(static_cast<int>(rank))) return real_kill(real_getpid(), sig);
    // Natively another rank's process. Its real process is elsewhere, and signalling it would
    // reach every rank it hosts: refused as if that process had gone.
    std::fprintf(stderr, "xsim: kill(%d, %d): the process id of simulated rank %ld, on another real process; "
                 "not sent\n", static_cast<int>(pid), sig, rank);
    errno = ESRCH;
    return -1;
}

int open(const char* path, int flags, ...) {
    static const auto f = next_function<int (*)(const char*, int, ...)>("open");
    va_list ap;
    va_start(ap, flags);
    const mode_t mode = mode_argument(flags, ap);
    va_end(ap);
    if (const int fd = own_maps_for_open(path, flags); fd >= 0) return fd;
    return f(real_proc_path(path), flags, mode);
}

int openat(int dirfd, const char* path, int flags, ...) {
    static const auto f = next_function<int (*)(int, const char*, int, ...)>("openat");
    va_list ap;
    va_start(ap, flags);
    const mode_t mode = mode_argument(flags, ap);
    va_end(ap);
    if (const int fd = own_maps_for_open(path, flags); fd >= 0) return fd;  // an absolute path
    return f(dirfd, real_proc_path(path), flags, mode);
}

// What open() compiles to with _FORTIFY_SOURCE when the flags are not known at compile time.
int __open_2(const char* path, int flags) {
    static const auto f = next_function<int (*)(const char*, int)>("__open_2");
    if (const int fd = own_maps_for_open(path, flags); fd >= 0) return fd;
    return f(real_proc_path(path), flags);
}

FILE* fopen(const char* path, const char* mode) {
    static const auto f = next_function<FILE* (*)(const char*, const char*)>("fopen");
    const bool reads = mode && mode[0] == 'r' && !strchr(mode, '+');
    if (const int fd = reads ? own_maps_for_open(path, strchr(mode, 'e') ? O_RDONLY | O_CLOEXEC : O_RDONLY) : -1;
        fd >= 0) {
        if (FILE* file = fdopen(fd, "r")) return file;
        close(fd);
    }
    return f(real_proc_path(path), mode);
}

ssize_t readlink(const char* path, char* out, size_t size) noexcept {
    static const auto f = next_function<ssize_t (*)(const char*, char*, size_t)>("readlink");
    return f(real_proc_path(path), out, size);
}

// On 64-bit Linux the *64 forms are the same calls (the C library defines them as aliases).
decltype(open) open64 __attribute__((alias("open")));
decltype(__open_2) __open64_2 __attribute__((alias("__open_2")));
decltype(fopen) fopen64 __attribute__((alias("fopen")));

}  // extern "C"
