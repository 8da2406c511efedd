// A rank's own stack as the C library describes it (own_stack.hpp). R computes where its C
// stack starts from __libc_stack_end and the /proc/self/maps line that holds it, and how deep
// it may go from getrlimit(RLIMIT_STACK), then checks every evaluation against them; on a
// rank's fiber stack the process's values put the rank gigabytes away from its stack's start
// ("C stack usage 429213823204 is too close to the limit"). A rank sees its own stack:
// __libc_stack_end inside it, its pages as one [stack] mapping, RLIMIT_STACK its size (the
// depth it may really reach; -xsim-stack sets it), so R's checks measure the rank's stack.
// setrlimit(RLIMIT_STACK) from a rank's code changes neither its stack nor the real process's.
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "libxsim/engine/call_scope.hpp"
#include "libxsim/engine/engine.hpp"
#include "libxsim/runtime/next_function.hpp"
#include "libxsim/runtime/own_stack.hpp"

extern "C" void* __libc_stack_end;  // the loader's, read by the C library and R

using namespace xsim;

namespace {

// What the process has once: the page of the loader's __libc_stack_end while it is writable
// (null otherwise), and the process's own value of it, kept meanwhile.
void* opened_page = nullptr;
void* process_stack_end = nullptr;

}  // namespace

namespace xsim::runtime {

std::string open_stack_end_for_ranks() {
    const auto page_bytes = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
    void* page = reinterpret_cast<void*>(reinterpret_cast<std::uintptr_t>(&__libc_stack_end) & ~(page_bytes - 1));
    if (mprotect(page, page_bytes, PROT_READ | PROT_WRITE) != 0)
        return std::string("cannot make the loader's __libc_stack_end writable for the ranks: ") + std::strerror(errno);
    opened_page = page;
    process_stack_end = __libc_stack_end;
    return "";
}

void set_rank_stack_end(int, char**, char**) {
    const Rank* rank = application_rank();
    if (!rank || !opened_page) return;
    // Natively the stack pointer at _start, just under the arguments: inside the stack.
    __libc_stack_end = g_engine->stack_top(*rank) - 2 * sizeof(void*);
}

void restore_process_stack_end() {
    if (!opened_page) return;
    __libc_stack_end = process_stack_end;
    mprotect(opened_page, static_cast<std::size_t>(sysconf(_SC_PAGESIZE)), PROT_READ);
    opened_page = nullptr;
}

std::string rank_maps_text(const Rank& rank) {
    const auto bottom = reinterpret_cast<std::uintptr_t>(g_engine->stack_bottom(rank));
    const auto top = reinterpret_cast<std::uintptr_t>(g_engine->stack_top(rank));
    std::string text;
    // The C library's fopen: the interposed one would hand this rank's view back.
    static const auto real_fopen = runtime::next_function<std::FILE* (*)(const char*, const char*)>("fopen");
    std::FILE* real = real_fopen("/proc/self/maps", "re");
    if (!real) return text;
    char* line = nullptr;
    std::size_t capacity = 0;
    ssize_t n;
    while ((n = getline(&line, &capacity, real)) > 0) {
        std::uintptr_t start = 0, end = 0;
        char perms[8] = {};
        int used = 0;
        if (std::sscanf(line, "%" SCNxPTR "-%" SCNxPTR " %7s %n", &start, &end, perms, &used) < 3 ||
            !(start <= bottom && top <= end && bottom < top)) {
            text.append(line, static_cast<std::size_t>(n));
            continue;
        }
        // The arena's mapping, in up to three: below the rank's stack, the stack, above it.
        const std::string rest(line + used);  // offset, device, inode, name, newline
        char piece[160];
        auto add = [&](std::uintptr_t from, std::uintptr_t to, const std::string& tail) {
            if (from >= to) return;
            std::snprintf(piece, sizeof piece, "%" PRIxPTR "-%" PRIxPTR " %s ", from, to, perms);
            text += piece;
            text += tail;
        };
        add(start, bottom, rest);
        add(bottom, top, "00000000 00:00 0                          [stack]\n");
        add(top, end, rest);
    }
    std::free(line);
    std::fclose(real);
    return text;
}

}  // namespace xsim::runtime

extern "C" {

// RLIMIT_STACK of a rank's code: the size of its stack, which it cannot outgrow.
int getrlimit(__rlimit_resource_t resource, struct rlimit* limit) noexcept {
    static const auto real = runtime::next_function<int (*)(__rlimit_resource_t, struct rlimit*)>("getrlimit");
    const Rank* rank = application_rank();
    if (!rank || resource != RLIMIT_STACK) return real(resource, limit);
    limit->rlim_cur = limit->rlim_max =
        static_cast<rlim_t>(g_engine->stack_top(*rank) - g_engine->stack_bottom(*rank));
    return 0;
}

// RLIMIT_STACK set by a rank's code: its stack keeps its size, and the real process's limit
// (the simulation thread's stack, Open MPI's) is not the rank's to change. A program that
// raises its soft limit to the hard one (cur = max, as getrlimit gave them) asks for what it
// has; other values are accepted too, as a request for a stack this rank does not get.
int setrlimit(__rlimit_resource_t resource, const struct rlimit* limit) noexcept {
    static const auto real = runtime::next_function<int (*)(__rlimit_resource_t, const struct rlimit*)>("setrlimit");
    if (!application_rank() || resource != RLIMIT_STACK) return real(resource, limit);
    if (limit->rlim_cur > limit->rlim_max) {  // as the kernel answers
        errno = EINVAL;
        return -1;
    }
    return 0;
}

int setrlimit64(__rlimit_resource_t resource, const struct rlimit64* limit) noexcept {
    return setrlimit(resource, reinterpret_cast<const struct rlimit*>(limit));
}

// The same call on 64-bit Linux (the C library defines it as an alias).
int getrlimit64(__rlimit_resource_t resource, struct rlimit64* limit) noexcept {
    static_assert(sizeof(struct rlimit64) == sizeof(struct rlimit), "64-bit Linux");
    return getrlimit(resource, reinterpret_cast<struct rlimit*>(limit));
}

}  // extern "C"
