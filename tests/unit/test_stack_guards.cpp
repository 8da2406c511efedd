// Guard pages under every fiber stack (pdes/stack_arena): an overflow faults in the
// overflowing rank's own guard instead of writing into the neighbouring stack, without a
// mapping per stack (guard markers), or with two per stack (the mprotect fallback).
#include <gtest/gtest.h>

#include <csignal>
#include <cstdint>
#include <fstream>
#include <string>

#include "pdes/stack_arena.hpp"

using namespace xsim;

namespace {

int guard_mapping_count() {
    std::ifstream maps("/proc/self/maps");
    int lines = 0;
    for (std::string line; std::getline(maps, line);) ++lines;
    return lines;
}

// Mappings of /proc/self/maps that overlap [lo, hi): what arming did inside the arena, whatever
// the kernel merged at its edges with neighbouring mappings.
int mappings_overlapping(const char* lo, const char* hi) {
    std::ifstream maps("/proc/self/maps");
    int n = 0;
    for (std::string line; std::getline(maps, line);) {
        const auto start = std::stoull(line.substr(0, line.find('-')), nullptr, 16);
        const auto end = std::stoull(line.substr(line.find('-') + 1), nullptr, 16);
        if (start < reinterpret_cast<std::uintptr_t>(hi) && end > reinterpret_cast<std::uintptr_t>(lo)) ++n;
    }
    return n;
}

void write_byte(char* p) { *static_cast<volatile char*>(p) = 1; }

}  // namespace

TEST(StackGuards, GuardIsASixteenthOfTheStackAndAtLeastAPage) {
    EXPECT_EQ(StackArena::guard_bytes_for(1024 * 1024), 64u * 1024);
    EXPECT_EQ(StackArena::guard_bytes_for(64 * 1024), page_size());
    EXPECT_EQ(StackArena::guard_bytes_for(16 * 1024), page_size());
    EXPECT_EQ(StackArena::guard_bytes_for(8 * 1024), 0u);  // small stacks share pages: no guard
    EXPECT_EQ(StackArena::slot_bytes_for(1024 * 1024), 1088u * 1024);
    EXPECT_EQ(StackArena::slot_bytes_for(2 * 1024), 2048u);
}

TEST(StackGuards, MarkersMakeNoMappingAndFaultUnderEveryStack) {
    StackArena arena;
    arena.reserve(600, 64 * 1024);
    if (arena.guards() != GuardPages::Markers) GTEST_SKIP() << "kernel without MADV_GUARD_INSTALL (Linux < 6.13)";
    const int before = guard_mapping_count();
    for (std::size_t i = 0; i < arena.count(); ++i) arena.arm(i);
    EXPECT_LE(guard_mapping_count() - before, 2);  // no mapping per stack (2: slack for other threads)
    EXPECT_EQ(arena.guard_bytes(), page_size());
    EXPECT_EQ(arena.top(3) + arena.guard_bytes(), arena.bottom(4));
    write_byte(arena.bottom(4));      // a stack's lowest byte is usable
    write_byte(arena.top(3) - 1);     // and so is the highest of the one below
    EXPECT_EXIT(write_byte(arena.bottom(4) - 1), ::testing::KilledBySignal(SIGSEGV), "");
    EXPECT_EXIT(write_byte(arena.bottom(599) - arena.guard_bytes()), ::testing::KilledBySignal(SIGSEGV), "");
    EXPECT_EXIT(write_byte(arena.bottom(0) - 1), ::testing::KilledBySignal(SIGSEGV), "");
}

TEST(StackGuards, MarkersSurviveTheMadviseThatRetiresAChunk) {
    StackArena arena;
    arena.reserve(StackArena::kChunkStacks, 64 * 1024);
    if (arena.guards() != GuardPages::Markers) GTEST_SKIP() << "kernel without MADV_GUARD_INSTALL (Linux < 6.13)";
    for (std::size_t i = 0; i < arena.count(); ++i) arena.arm(i);
    arena.top(7)[-1] = 42;
    for (std::size_t i = 0; i < arena.count(); ++i) arena.retire(i);  // one MADV_DONTNEED over all
    EXPECT_EQ(arena.top(7)[-1], 0);                                     // the pages went back
    EXPECT_EXIT(write_byte(arena.bottom(8) - 1), ::testing::KilledBySignal(SIGSEGV), "");
}

TEST(StackGuards, MprotectFallbackGuardsEveryArmedStack) {
    StackArena arena;
    arena.reserve(50, 64 * 1024, GuardPages::Mprotect);
    ASSERT_EQ(arena.guards(), GuardPages::Mprotect);
    for (std::size_t i = 0; i < arena.count(); ++i) arena.arm(i);
    // A guard and a stack mapping per armed stack: why it is only a fallback. Counted inside
    // the arena, since the kernel may merge its first or last mapping with a neighbour.
    EXPECT_GE(mappings_overlapping(arena.bottom(0) - arena.guard_bytes(), arena.top(arena.count() - 1)), 2 * 50);
    EXPECT_EXIT(write_byte(arena.bottom(20) - 1), ::testing::KilledBySignal(SIGSEGV), "");
    arena.top(20)[-1] = 5;
    for (std::size_t i = 0; i < arena.count(); ++i) arena.retire(i);
    EXPECT_EQ(arena.top(20)[-1], 0);
    EXPECT_EXIT(write_byte(arena.bottom(20) - 1), ::testing::KilledBySignal(SIGSEGV), "");
}

TEST(StackGuards, MprotectIsRefusedWhenItWouldUseUpTheMappingLimit) {
    StackArena arena;
    arena.reserve(1u << 16, 16 * 1024, GuardPages::Mprotect);  // 2 x 65,536 mappings: too many
    EXPECT_EQ(arena.guards(), GuardPages::ArenaOnly);
    EXPECT_EQ(arena.top(3), arena.bottom(4));
}

TEST(StackGuards, WithoutGuardsOnlyTheLeadZoneFaults) {
    StackArena arena;
    arena.reserve(10, 64 * 1024, GuardPages::ArenaOnly);
    EXPECT_EQ(arena.guard_bytes(), 0u);
    EXPECT_EQ(arena.top(3), arena.bottom(4));
    write_byte(arena.bottom(4) - 1);  // lands in stack 3: what the guards exist to prevent
    EXPECT_EQ(arena.owner_of(arena.bottom(4) - 1), 3);
    EXPECT_EXIT(write_byte(arena.bottom(0) - StackArena::kLeadGuardBytes), ::testing::KilledBySignal(SIGSEGV), "");
}

// For the fault handler: which stack a faulting address lies under.
TEST(StackGuards, GuardOwnerNamesTheStackAboveTheGuard) {
    StackArena arena;
    arena.reserve(10, 1024 * 1024);
    const std::size_t guard = arena.guard_bytes();
    ASSERT_EQ(guard, 64u * 1024);
    EXPECT_EQ(arena.guard_owner(arena.bottom(5) - 1), 5);
    EXPECT_EQ(arena.guard_owner(arena.bottom(5) - guard), 5);
    EXPECT_EQ(arena.guard_owner(arena.top(4)), 5);
    EXPECT_EQ(arena.guard_owner(arena.top(4) - 1), -1);  // stack 4 itself
    EXPECT_EQ(arena.owner_of(arena.bottom(5) - 1), -1);   // a guard is no stack's
    EXPECT_EQ(arena.guard_owner(arena.bottom(0) - 1), 0);
    EXPECT_EQ(arena.guard_owner(arena.bottom(0) - guard - StackArena::kLeadGuardBytes), 0);  // lead zone
    EXPECT_EQ(arena.guard_owner(arena.bottom(0) - guard - StackArena::kLeadGuardBytes - 1), -1);
    EXPECT_EQ(arena.guard_owner(arena.top(9)), -1);  // past the last stack
    EXPECT_TRUE(arena.contains(arena.bottom(0) - guard - StackArena::kLeadGuardBytes));
    EXPECT_FALSE(arena.contains(arena.top(9)));
}
