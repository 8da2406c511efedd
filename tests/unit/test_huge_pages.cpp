// pdes/huge_pages.hpp: aligned, zeroed, writable memory, with huge pages asked for; and the
// array that lives in it constructs and destroys its elements.
#include <gtest/gtest.h>
#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "libxsim/engine/pool.hpp"
#include "pdes/huge_pages.hpp"

namespace xsim {
namespace {

// The smaps entry of the mapping that holds `p` ("THPeligible", "AnonHugePages", ...), or -1.
long smaps_field(const void* p, const std::string& field) {
    std::ifstream smaps("/proc/self/smaps");
    const auto at = reinterpret_cast<std::uintptr_t>(p);
    std::string line;
    bool inside = false;
    while (std::getline(smaps, line)) {
        std::uintptr_t from = 0, to = 0;
        char dash = 0;
        std::istringstream head(line);
        if (head >> std::hex >> from >> dash >> to && dash == '-') {
            inside = from <= at && at < to;
            continue;
        }
        if (inside && line.rfind(field + ":", 0) == 0) return std::stol(line.substr(field.size() + 1));
    }
    return -1;
}

std::string transparent_huge_page_mode() {
    std::ifstream mode("/sys/kernel/mm/transparent_hugepage/enabled");
    std::string text;
    std::getline(mode, text);
    return text;
}
bool transparent_huge_pages_available() {
    const std::string text = transparent_huge_page_mode();
    return !text.empty() && text.find("[never]") == std::string::npos;
}

TEST(HugePages, MappingIsAlignedZeroedAndWritable) {
    const std::size_t bytes = kHugePageBytes + 12345;  // not a whole number of huge pages
    auto* p = static_cast<unsigned char*>(map_huge(bytes));
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % kHugePageBytes, 0u);
    for (std::size_t i = 0; i < bytes; i += 4096) EXPECT_EQ(p[i], 0) << "at " << i;
    EXPECT_EQ(p[bytes - 1], 0);
    std::memset(p, 0xab, bytes);
    EXPECT_EQ(p[bytes - 1], 0xab);
    unmap_huge(p, bytes);
    EXPECT_EQ(map_huge(0), nullptr);
}

TEST(HugePages, MappingAsksTheKernelForHugePages) {
    if (!transparent_huge_pages_available()) GTEST_SKIP() << "transparent huge pages are off on this kernel";
    void* p = map_huge(2 * kHugePageBytes);
    ASSERT_NE(p, nullptr);
    // THPeligible is 1 only for a mapping that may get huge pages: with the kernel in
    // "madvise" mode, only after MADV_HUGEPAGE.
    const long eligible = smaps_field(p, "THPeligible");
    if (eligible < 0) {
        unmap_huge(p, 2 * kHugePageBytes);
        GTEST_SKIP() << "this kernel's smaps has no THPeligible field";
    }
    EXPECT_EQ(eligible, 1);
    unmap_huge(p, 2 * kHugePageBytes);
    // The check can tell: in "madvise" mode an ordinary mapping is not eligible.
    if (transparent_huge_page_mode().find("[madvise]") != std::string::npos) {
        void* plain = mmap(nullptr, 2 * kHugePageBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        ASSERT_NE(plain, MAP_FAILED);
        EXPECT_EQ(smaps_field(plain, "THPeligible"), 0);
        munmap(plain, 2 * kHugePageBytes);
    }
}

struct Counted {
    static inline int alive = 0;
    int value = 7;
    Counted() { ++alive; }
    ~Counted() { --alive; }
};

TEST(HugePages, ArrayConstructsAndDestroysItsElements) {
    {
        HugeArray<Counted> array;
        array.reset(100000);  // more than one huge page
        EXPECT_EQ(Counted::alive, 100000);
        EXPECT_EQ(array[0].value, 7);
        EXPECT_EQ(array[99999].value, 7);
        array[123].value = 9;
        EXPECT_EQ(array[123].value, 9);
        array.reset(3);
        EXPECT_EQ(Counted::alive, 3);
        EXPECT_EQ(array[2].value, 7);
    }
    EXPECT_EQ(Counted::alive, 0);
}

TEST(HugePages, PoolHandsOutDistinctSlotsAndReusesReleasedOnes) {
    Pool<Counted> pool;
    std::vector<Counted*> made;
    // More than one chunk (a chunk is a huge page).
    const std::size_t n = 2 * kHugePageBytes / sizeof(Counted) + 10;
    for (std::size_t i = 0; i < n; ++i) made.push_back(pool.make());
    EXPECT_EQ(pool.live(), n);
    EXPECT_EQ(Counted::alive, static_cast<int>(n));
    std::vector<Counted*> sorted = made;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(std::adjacent_find(sorted.begin(), sorted.end()), sorted.end()) << "a slot was handed out twice";
    Counted* released = made.back();
    pool.destroy(released);
    made.pop_back();
    EXPECT_EQ(pool.make(), released);  // the free list's head
    pool.destroy(released);
    for (Counted* c : made) pool.destroy(c);
    EXPECT_EQ(pool.live(), 0u);
    EXPECT_EQ(Counted::alive, 0);
}

}  // namespace
}  // namespace xsim
