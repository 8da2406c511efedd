#include "pdes/stack_arena.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>

#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#define XSIM_HAVE_VALGRIND_H 1
#else
#define XSIM_HAVE_VALGRIND_H 0
#endif

// Linux >= 6.13 (include/uapi/asm-generic/mman-common.h); older headers lack it.
#ifndef MADV_GUARD_INSTALL
#define MADV_GUARD_INSTALL 102
#endif

namespace xsim {

std::size_t page_size() {
    static const std::size_t size = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    return size;
}

namespace {

// Whether the program runs on an executable stack: its PT_GNU_STACK (or a library's) asks for
// one, as gfortran's does for the trampolines of internal procedures passed as arguments (an
// operator of CO_REDUCE) and GCC's for nested C functions. The C library then makes thread
// stacks executable, and fiber stacks must be too: the trampoline is code on the stack.
bool main_stack_executable() {
    std::ifstream maps("/proc/self/maps");
    std::string line;
    while (std::getline(maps, line)) {
        if (line.size() < 7 || line.compare(line.size() - 7, 7, "[stack]") != 0) continue;
        const std::size_t perms = line.find(' ') + 1;  // "start-end rwxp ..."
        return perms + 2 < line.size() && line[perms + 2] == 'x';
    }
    return false;
}

}  // namespace

const char* guard_pages_name(GuardPages guards) {
    switch (guards) {
        case GuardPages::Markers: return "guard markers";
        case GuardPages::Mprotect: return "mprotect guard pages";
        case GuardPages::ArenaOnly: return "none";
    }
    return "?";
}

namespace {

std::size_t rounded_stack_bytes(std::size_t stack_bytes) {
    const std::size_t page = page_size();
    // Stacks of a page or more are whole pages; smaller ones (a power of two) tile a page.
    if (stack_bytes >= page) return (stack_bytes + page - 1) / page * page;
    std::size_t bytes = 16;
    while (bytes < stack_bytes) bytes *= 2;
    return bytes;
}

// The kernel's limit on mappings per process (vm.max_map_count), 65,530 by default.
std::size_t max_map_count() {
    std::ifstream file("/proc/sys/vm/max_map_count");
    std::size_t count = 65530;
    file >> count;
    return count;
}

}  // namespace

std::size_t StackArena::guard_bytes_for(std::size_t stack_bytes) {
    const std::size_t stack = rounded_stack_bytes(stack_bytes);
    if (stack < kGuardedStack) return 0;
    const std::size_t page = page_size();
    return std::max(page, stack / 16 / page * page);
}

std::size_t StackArena::slot_bytes_for(std::size_t stack_bytes) {
    return rounded_stack_bytes(stack_bytes) + guard_bytes_for(stack_bytes);
}

StackArena::~StackArena() {
    if (mapping_) munmap(mapping_, mapping_bytes_);
}

void StackArena::reserve(std::size_t count, std::size_t stack_bytes, GuardPages best) {
    const std::size_t page = page_size();
    stack_bytes_ = rounded_stack_bytes(stack_bytes);
    guard_bytes_ = guard_bytes_for(stack_bytes);
    spill_bytes_ = stack_bytes_ < page ? kSmallStackSpill : 0;
    count_ = count;
    // mprotect splits the mapping in two per stack: only while that leaves most of the
    // limit to the program, its libraries and the MPI library.
    if (best == GuardPages::Mprotect && 2 * count_ > max_map_count() / 2) best = GuardPages::ArenaOnly;
    if (guard_bytes_ == 0 || best == GuardPages::ArenaOnly) {
        guards_ = GuardPages::ArenaOnly;
        guard_bytes_ = 0;
    } else {
        guards_ = best;
    }
    stride_ = stack_bytes_ + guard_bytes_;
    const std::size_t lead = kLeadGuardBytes;
    mapping_bytes_ = lead + spill_bytes_ + count_ * stride_;
    // MAP_NORESERVE: the region is address space only; memory is committed on first touch.
    const int access = PROT_READ | PROT_WRITE | (main_stack_executable() ? PROT_EXEC : 0);
    void* region = mmap(nullptr, mapping_bytes_, access, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (region == MAP_FAILED) {
        throw std::runtime_error("cannot reserve " + std::to_string(mapping_bytes_ >> 20) +
                                 " MiB of address space for " + std::to_string(count) +
                                 " fiber stacks: " + std::strerror(errno));
    }
    mapping_ = static_cast<char*>(region);
    mprotect(mapping_, lead, PROT_NONE);  // the lead zone, under stack 0 (and its spill area)
    base_ = mapping_ + lead + spill_bytes_ + guard_bytes_;
    finished_in_chunk_.assign((count_ + kChunkStacks - 1) / kChunkStacks, 0);
    if (count_ == 0) guards_ = GuardPages::ArenaOnly;
    // Stack 0's guard tells whether the kernel has guard markers (EINVAL before 6.13).
    if (guards_ == GuardPages::Markers && !install_guard(0))
        guards_ = 2 * count_ <= max_map_count() / 2 ? GuardPages::Mprotect : GuardPages::ArenaOnly;
    if (guards_ == GuardPages::Mprotect && !install_guard(0)) guards_ = GuardPages::ArenaOnly;
}

bool StackArena::install_guard(std::size_t i) {
    char* guard = bottom(i) - guard_bytes_;
    if (guards_ == GuardPages::Markers) return madvise(guard, guard_bytes_, MADV_GUARD_INSTALL) == 0;
    if (guards_ == GuardPages::Mprotect) return mprotect(guard, guard_bytes_, PROT_NONE) == 0;
    return true;
}

void StackArena::arm(std::size_t i) {
    if (i > 0) install_guard(i);  // stack 0's was installed by reserve()
#if XSIM_HAVE_VALGRIND_H
    // Under valgrind, a stack trace taken on a fiber (memcheck records one at every malloc)
    // is bounded by the stack the stack pointer lies in: unregistered, by the process's main
    // stack, and the walk up from a fiber reads the guards above it (valgrind's own SIGSEGV).
    // A few no-op instructions otherwise, once per rank.
    VALGRIND_STACK_REGISTER(bottom(i), bottom(i) + stack_bytes_);
#endif
}

long StackArena::owner_of(const void* address) const {
    const char* p = static_cast<const char*>(address);
    if (!base_ || p < base_ - spill_bytes_) return -1;
    if (p < base_) return spill_bytes_ > 0 ? 0 : -1;
    const std::size_t offset = static_cast<std::size_t>(p - base_);
    const std::size_t i = offset / stride_;
    if (i >= count_ || offset % stride_ >= stack_bytes_) return -1;  // past the end, or a guard
    return static_cast<long>(i);
}

long StackArena::guard_owner(const void* address) const {
    const char* p = static_cast<const char*>(address);
    if (!contains(p) || count_ == 0) return -1;
    if (p < base_ - spill_bytes_ - guard_bytes_) return 0;  // the lead zone
    if (p < base_) return spill_bytes_ > 0 ? -1 : 0;        // the spill area, or guard 0
    const std::size_t offset = static_cast<std::size_t>(p - base_);
    const std::size_t i = offset / stride_ + 1;             // the stack above this slot's end
    if (offset % stride_ < stack_bytes_ || i >= count_) return -1;
    return static_cast<long>(i);
}

void StackArena::populate_top(std::size_t i) const {
#ifdef MADV_POPULATE_WRITE
    const std::size_t page = page_size();
    if (stack_bytes_ % page == 0) madvise(top(i) - page, page, MADV_POPULATE_WRITE);  // a failure leaves it to the fault
#else
    (void)i;
#endif
}

void StackArena::return_pages(std::size_t i) {
    if (stack_bytes_ % page_size() == 0) madvise(bottom(i), stack_bytes_, MADV_DONTNEED);  // small stacks share pages
}

void StackArena::retire(std::size_t i) {
    const std::size_t chunk = i / kChunkStacks;
    const std::size_t first = chunk * kChunkStacks;
    const std::size_t stacks = std::min(kChunkStacks, count_ - first);
    // The guards between the chunk's stacks are in the range: guard markers survive
    // MADV_DONTNEED (only munmap and MADV_GUARD_REMOVE clear them), as does PROT_NONE.
    if (++finished_in_chunk_[chunk] == stacks)
        madvise(bottom(first), (stacks - 1) * stride_ + stack_bytes_, MADV_DONTNEED);
}

}  // namespace xsim
