// Per-rank slots (engine/rank_slots.hpp) and building a call in one (colls/frame_pool.hpp):
// the blocking collectives' call state lives there (colls/blocking_call.cpp).
#include <gtest/gtest.h>

#include <cstdint>

#include "libxsim/colls/frame_pool.hpp"
#include "libxsim/engine/rank_slots.hpp"

namespace xsim {
namespace {

TEST(RankSlots, FollowTheRankIndexOnCacheLinesAndStartZero) {
    RankSlots slots;
    slots.set_ranks(1000);
    char* first = slots.slot(0);
    ASSERT_NE(first, nullptr);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(first) % 64, 0u);
    for (std::size_t r : {1u, 7u, 999u}) {
        EXPECT_EQ(slots.slot(r), first + r * RankSlots::kSlotBytes);
        for (std::size_t i = 0; i < RankSlots::kSlotBytes; ++i) ASSERT_EQ(slots.slot(r)[i], 0) << r << " " << i;
    }
}

TEST(FrameInSlot, OneCallAtATimeAndOnlyWhatFits) {
    RankSlots slots;
    slots.set_ranks(2);
    char* slot = slots.slot(1);
    constexpr std::size_t kCall = 700;
    void* call = colls::frame_in_slot(slot, RankSlots::kSlotBytes, kCall);
    ASSERT_NE(call, nullptr);
    EXPECT_GT(static_cast<char*>(call), slot);
    EXPECT_LE(static_cast<char*>(call) + kCall, slot + RankSlots::kSlotBytes);
    // In use: a second call (a blocking collective inside another) goes to the pool instead.
    EXPECT_EQ(colls::frame_in_slot(slot, RankSlots::kSlotBytes, kCall), nullptr);
    colls::frame_release(call, kCall);
    void* again = colls::frame_in_slot(slot, RankSlots::kSlotBytes, kCall);
    EXPECT_EQ(again, call);
    colls::frame_release(again, kCall);
    // Too large for the slot, and no slot at all (the region could not be reserved).
    EXPECT_EQ(colls::frame_in_slot(slot, RankSlots::kSlotBytes, RankSlots::kSlotBytes), nullptr);
    EXPECT_EQ(colls::frame_in_slot(nullptr, RankSlots::kSlotBytes, kCall), nullptr);
}

}  // namespace
}  // namespace xsim
