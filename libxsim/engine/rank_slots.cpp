#include "libxsim/engine/rank_slots.hpp"

#include "pdes/huge_pages.hpp"

namespace xsim {

void RankSlots::reserve() {
    if (failed_ || ranks_ == 0) return;
    void* p = map_huge(ranks_ * kSlotBytes);
    if (!p) {
        failed_ = true;  // callers fall back to their pools
        return;
    }
    base_ = static_cast<char*>(p);
}

RankSlots::~RankSlots() {
    unmap_huge(base_, ranks_ * kSlotBytes);
}

}  // namespace xsim
