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
    // Stacks of a page or more are whole pages; smaller ones (a power of two) tile a page.
    if (stack_bytes >= page) {
        stack_bytes_ = (stack_bytes + page - 1) / page * page;
    } else {
        stack_bytes_ = 16;
        while (stack_bytes_ < stack_bytes) stack_bytes_ *= 2;
    }
    spill_bytes_ = stack_bytes_ < page ? kSmallStackSpill : 0;
    count_ = count;
    mapping_bytes_ = page + spill_bytes_ + count_ * stack_bytes_;
    // MAP_NORESERVE: the region is address space only; memory is committed on first touch.
    void* region = mmap(nullptr, mapping_bytes_, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (region == MAP_FAILED) {
        throw std::runtime_error("cannot reserve " + std::to_string(mapping_bytes_ >> 20) +
                                 " MiB of address space for " + std::to_string(count) +
                                 " fiber stacks: " + std::strerror(errno));
    }
    mapping_ = static_cast<char*>(region);
    mprotect(mapping_, page, PROT_NONE);  // the one guard page, under stack 0 (and its spill area)
    base_ = mapping_ + page + spill_bytes_;
    finished_in_chunk_.assign((count_ + kChunkStacks - 1) / kChunkStacks, 0);
}

long StackArena::owner_of(const void* address) const {
    const char* p = static_cast<const char*>(address);
    if (!base_ || p < base_ - spill_bytes_ || p >= base_ + count_ * stack_bytes_) return -1;
    if (p < base_) return 0;
    return static_cast<long>((p - base_) / stack_bytes_);
}

void StackArena::release(std::size_t i) {
    if (stack_bytes_ % page_size() == 0) madvise(bottom(i), stack_bytes_, MADV_DONTNEED);  // small stacks share pages
}

void StackArena::retire(std::size_t i) {
    const std::size_t chunk = i / kChunkStacks;
    const std::size_t first = chunk * kChunkStacks;
    const std::size_t stacks = std::min(kChunkStacks, count_ - first);
    if (++finished_in_chunk_[chunk] == stacks) madvise(bottom(first), stacks * stack_bytes_, MADV_DONTNEED);
}

}  // namespace xsim
