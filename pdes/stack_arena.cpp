#include "pdes/stack_arena.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

namespace xsim {

std::size_t page_size() {
    static const std::size_t size = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    return size;
}

StackArena::~StackArena() {
    if (mapping_) munmap(mapping_, mapping_bytes_);
}

void StackArena::reserve(std::size_t count, std::size_t stack_bytes) {
    const std::size_t page = page_size();
    stack_bytes_ = (stack_bytes + page - 1) / page * page;
    count_ = count;
    mapping_bytes_ = page + count_ * stack_bytes_;
    // MAP_NORESERVE: the region is address space only; memory is committed on first touch.
    void* region = mmap(nullptr, mapping_bytes_, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (region == MAP_FAILED) {
        throw std::runtime_error("cannot reserve " + std::to_string(mapping_bytes_ >> 20) +
                                 " MiB of address space for " + std::to_string(count) +
                                 " fiber stacks: " + std::strerror(errno));
    }
    mapping_ = static_cast<char*>(region);
    mprotect(mapping_, page, PROT_NONE);  // the one guard page, under stack 0
    base_ = mapping_ + page;
    finished_in_chunk_.assign((count_ + kChunkStacks - 1) / kChunkStacks, 0);
}

long StackArena::owner_of(const void* address) const {
    const char* p = static_cast<const char*>(address);
    if (!base_ || p < base_ || p >= base_ + count_ * stack_bytes_) return -1;
    return static_cast<long>((p - base_) / stack_bytes_);
}

void StackArena::release(std::size_t i) {
    madvise(bottom(i), stack_bytes_, MADV_DONTNEED);
}

void StackArena::retire(std::size_t i) {
    const std::size_t chunk = i / kChunkStacks;
    const std::size_t first = chunk * kChunkStacks;
    const std::size_t stacks = std::min(kChunkStacks, count_ - first);
    if (++finished_in_chunk_[chunk] == stacks) madvise(bottom(first), stacks * stack_bytes_, MADV_DONTNEED);
}

}  // namespace xsim
