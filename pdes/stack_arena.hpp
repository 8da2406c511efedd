// Fiber stacks carved from one large reserved region.
// One mmap for all ranks of a process (never a mapping or guard page per rank: the
// kernel's 65,530-mapping limit must not bound the rank count). Pages are committed by
// first touch only, so a rank costs the stack it actually uses. A single guard page sits
// below the lowest stack; see README "Stack overflow" for how overflows are detected.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace xsim {

class StackArena {
public:
    StackArena() = default;
    StackArena(const StackArena&) = delete;
    StackArena& operator=(const StackArena&) = delete;
    ~StackArena();

    // Reserves `count` stacks of `stack_bytes`, rounded up to whole pages, or below a page to
    // a power of two (several stacks per page, for very many shallow ranks). Throws on failure.
    void reserve(std::size_t count, std::size_t stack_bytes);

    std::size_t stack_bytes() const { return stack_bytes_; }
    std::size_t count() const { return count_; }
    // Lowest and one-past-highest address of stack `i`; stacks grow down from top().
    char* bottom(std::size_t i) const { return base_ + i * stack_bytes_; }
    // The lowest address stack `i` may grow to: its bottom, except for stack 0 when stacks
    // are smaller than a page, which may also use the spill area under it (kSmallStackSpill:
    // the first rank, usually the one that prints, and printf alone needs about 2 KiB).
    char* usable_bottom(std::size_t i) const { return i == 0 ? base_ - spill_bytes_ : bottom(i); }
    static constexpr std::size_t kSmallStackSpill = 64 * 1024;
    char* top(std::size_t i) const { return bottom(i) + stack_bytes_; }
    // Index of the stack that holds `address` (the spill area counts as stack 0's), or -1
    // when it is outside the stacks.
    long owner_of(const void* address) const;
    // True for the guard page under stack 0 (and its spill area), where stack 0 overflows to.
    bool in_guard_page(const void* address) const {
        const char* p = static_cast<const char*>(address);
        return mapping_ && p >= mapping_ && p < base_ - spill_bytes_;
    }
    // Gives the pages of stack `i` back to the kernel (the rank finished) at once.
    void release(std::size_t i);
    // Marks stack `i` finished; its pages go back to the kernel together with those of
    // its chunk once every stack of the chunk is finished (one madvise, and so one TLB
    // shootdown, per chunk instead of per rank).
    void retire(std::size_t i);
    static constexpr std::size_t kChunkStacks = 256;

private:
    char* mapping_ = nullptr;   // guard page + spill area (small stacks only) + stacks
    std::size_t mapping_bytes_ = 0;
    char* base_ = nullptr;      // first stack
    std::size_t stack_bytes_ = 0;
    std::size_t spill_bytes_ = 0;
    std::size_t count_ = 0;
    std::vector<std::uint16_t> finished_in_chunk_;
};

std::size_t page_size();

}  // namespace xsim
