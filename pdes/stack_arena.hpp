// Fiber stacks carved from one large reserved region.
// One mmap for all ranks of a process (never a mapping per rank: the kernel's
// 65,530-mapping limit must not bound the rank count). Pages are committed by first touch
// only, so a rank costs the stack it actually uses (plus its share of page tables).
//
// Layout: [lead guard zone][guard 0][stack 0][guard 1][stack 1]...
// Each stack of 16 KiB or more has guard pages under it, so a rank that overflows faults
// instead of writing into its neighbour's stack. They are installed with
// MADV_GUARD_INSTALL (Linux >= 6.13), which marks page-table entries and makes no new
// mapping; on older kernels with mprotect (two mappings per stack) while the count stays
// well below vm.max_map_count; otherwise there are none (GuardPages::ArenaOnly) and only
// the lead zone under stack 0 faults. Small stacks (several per page) never have them.
// See README "Stack size and overflow".
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace xsim {

std::size_t page_size();

// How the stacks are separated, best first. reserve() takes the best one the kernel and
// the mapping limit allow, never better than asked for (tests ask for the fallbacks).
enum class GuardPages { Markers, Mprotect, ArenaOnly };
const char* guard_pages_name(GuardPages guards);

class StackArena {
public:
    StackArena() = default;
    StackArena(const StackArena&) = delete;
    StackArena& operator=(const StackArena&) = delete;
    ~StackArena();

    // Reserves `count` stacks of `stack_bytes`, rounded up to whole pages, or below a page to
    // a power of two (several stacks per page, for very many shallow ranks). Throws on failure.
    void reserve(std::size_t count, std::size_t stack_bytes, GuardPages best = GuardPages::Markers);

    // Guard bytes under each stack of `stack_bytes` (as reserve rounds it) when it gets
    // them: a sixteenth of the stack, at least a page, so that a frame overshooting the
    // stack by up to that much faults in its own rank's guard. 0 for stacks below kGuardedStack.
    static std::size_t guard_bytes_for(std::size_t stack_bytes);
    // Address space per stack (stack and its guard): page tables cost 1/512 of it per rank
    // on x86-64 (one 4 KiB page of entries per 2 MiB).
    static std::size_t slot_bytes_for(std::size_t stack_bytes);
    static constexpr std::size_t kGuardedStack = 16 * 1024;

    std::size_t stack_bytes() const { return stack_bytes_; }
    std::size_t count() const { return count_; }
    GuardPages guards() const { return guards_; }
    std::size_t guard_bytes() const { return guard_bytes_; }
    // Lowest and one-past-highest address of stack `i`; stacks grow down from top().
    char* bottom(std::size_t i) const { return base_ + i * stride_; }
    char* top(std::size_t i) const { return bottom(i) + stack_bytes_; }
    // The lowest address stack `i` may grow to: its bottom, except for stack 0 when stacks
    // are smaller than a page, which may also use the spill area under it (kSmallStackSpill:
    // the first rank, usually the one that prints, and printf alone needs about 2 KiB).
    char* usable_bottom(std::size_t i) const { return i == 0 ? base_ - spill_bytes_ : bottom(i); }
    static constexpr std::size_t kSmallStackSpill = 64 * 1024;
    // PROT_NONE address space under everything, where stack 0 overflows to (free: one mapping).
    static constexpr std::size_t kLeadGuardBytes = 1024 * 1024;

    // Installs stack `i`'s guard pages (with Markers or Mprotect; nothing otherwise). Call
    // once before the stack is first used; done lazily so that a process pays for the
    // stacks it runs, not for those it reserves.
    void arm(std::size_t i);
    // True when `address` lies in the arena (lead zone, guards or stacks).
    bool contains(const void* address) const {
        const char* p = static_cast<const char*>(address);
        return mapping_ && p >= mapping_ && p < mapping_ + mapping_bytes_;
    }
    // Index of the stack that holds `address` (the spill area counts as stack 0's), or -1
    // when it is outside the stacks (guards included).
    long owner_of(const void* address) const;
    // Index of the stack whose guard holds `address` (the lead zone counts as stack 0's),
    // or -1: the stack that `address` lies under, for overflow reports.
    long guard_owner(const void* address) const;
    bool in_guard_page(const void* address) const { return guard_owner(address) >= 0; }
    // Maps the page at the top of stack `i` (the one a fiber's first frames use) before its
    // first use: one system call, cheaper than the fault the first store would take on this
    // kind of VM (bench/RESULTS.md, "Session 38"). Stacks that share pages are left alone.
    void populate_top(std::size_t i) const;
    // Gives the pages of stack `i` back to the kernel (the rank finished) at once.
    void return_pages(std::size_t i);
    // Marks stack `i` finished; its pages go back to the kernel together with those of
    // its chunk once every stack of the chunk is finished (one madvise, and so one TLB
    // shootdown, per chunk instead of per rank). Guard pages stay.
    void retire(std::size_t i);
    static constexpr std::size_t kChunkStacks = 256;

private:
    bool install_guard(std::size_t i);

    char* mapping_ = nullptr;   // lead zone + spill area (small stacks only) + slots
    std::size_t mapping_bytes_ = 0;
    char* base_ = nullptr;      // bottom of stack 0
    std::size_t stack_bytes_ = 0;
    std::size_t guard_bytes_ = 0;
    std::size_t stride_ = 0;    // stack_bytes_ + guard_bytes_
    std::size_t spill_bytes_ = 0;
    std::size_t count_ = 0;
    GuardPages guards_ = GuardPages::ArenaOnly;
    std::vector<std::uint16_t> finished_in_chunk_;
};

}  // namespace xsim
