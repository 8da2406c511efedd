#include "libxsim/engine/rank_slots.hpp"

#include <sys/mman.h>

namespace xsim {

void RankSlots::reserve() {
    if (failed_ || ranks_ == 0) return;
    void* p = mmap(nullptr, ranks_ * kSlotBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    if (p == MAP_FAILED) {
        failed_ = true;  // callers fall back to their pools
        return;
    }
    base_ = static_cast<char*>(p);
}

RankSlots::~RankSlots() {
    if (base_) munmap(base_, ranks_ * kSlotBytes);
}

}  // namespace xsim
