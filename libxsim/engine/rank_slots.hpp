// A fixed block of memory per local rank, at an address that follows the rank's index: what
// a rank keeps while it waits in a blocking operation (a blocking collective's call state,
// colls/blocking_call.cpp).
//
// Why not a pool. A pool hands blocks out in release order. With every clock in step that
// order follows the ranks, but once measured compute scatters the clocks, the ranks that
// enter a collective together are a different set each time and the blocks end up in
// random order, while the scheduler still visits the ranks in index order inside each cell
// of virtual time (pdes/processing_order.hpp). Each visit then cost a cache and TLB miss on
// scattered memory. Slots keep the visits' addresses rising with the rank.
//
// The region is reserved for all local ranks at the first use, in huge pages
// (pdes/huge_pages.hpp), each committed when a rank first uses a slot in it. Only the
// simulation thread uses it.
#pragma once
#include <cstddef>

namespace xsim {

class RankSlots {
public:
    static constexpr std::size_t kSlotBytes = 896;  // 14 cache lines: the common calls fit

    RankSlots() = default;
    ~RankSlots();
    RankSlots(const RankSlots&) = delete;
    RankSlots& operator=(const RankSlots&) = delete;

    // How many ranks; before the first slot().
    void set_ranks(std::size_t ranks) { ranks_ = ranks; }

    // Local rank `local`'s slot: kSlotBytes, 64-byte aligned, zero before its first use.
    // Null if the region could not be reserved.
    char* slot(std::size_t local) {
        if (!base_) [[unlikely]]
            reserve();
        return base_ ? base_ + local * kSlotBytes : nullptr;
    }

private:
    void reserve();
    std::size_t ranks_ = 0;
    char* base_ = nullptr;
    bool failed_ = false;
};

}  // namespace xsim
