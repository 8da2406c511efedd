// Contiguous payloads move without the real library: pack, unpack and a same-process copy.
// Small sizes take fixed-size loads and stores (datatype.cpp, copy_bytes), so every size up
// to past the largest of them is checked: exactly `n` bytes arrive, and the bytes around the
// destination keep their values. Run as a rank, so that the engine's datatype tables are current.
#include <gtest/gtest.h>
#include <mpi.h>

#include <array>
#include <cstdint>
#include <cstring>

#include "libxsim/mpi/datatype.hpp"
#include "engine_harness.hpp"

namespace xsim {
namespace {

constexpr std::size_t kMargin = 16;
constexpr std::uint64_t kLargest = 40;

struct Canvas {
    std::array<unsigned char, kLargest + 2 * kMargin> bytes;
    Canvas() { bytes.fill(0xa5); }
    unsigned char* at() { return bytes.data() + kMargin; }
};

std::array<unsigned char, kLargest> pattern() {
    std::array<unsigned char, kLargest> p{};
    for (std::size_t i = 0; i < p.size(); ++i) p[i] = static_cast<unsigned char>(i * 7 + 1);
    return p;
}

void expect_exactly(Canvas& c, const unsigned char* want, std::uint64_t n) {
    for (std::size_t i = 0; i < c.bytes.size(); ++i) {
        const bool inside = i >= kMargin && i < kMargin + n;
        const unsigned char expected = inside ? want[i - kMargin] : 0xa5;
        ASSERT_EQ(c.bytes[i], expected) << "size " << n << ", byte " << static_cast<long>(i) - long{kMargin};
    }
}

// For every size n: `move(src, dst, n)` must write exactly src's first n bytes at dst.
template <class Move>
void check_every_size(Move move) {
    testing::run_ranks(1, [&](Engine&, Rank&) {
        const auto src = pattern();
        for (std::uint64_t n = 0; n <= kLargest; ++n) {
            Canvas out;
            move(src.data(), out.at(), n);
            expect_exactly(out, src.data(), n);
        }
    });
}

TEST(ContiguousCopy, PackMovesExactlyTheBytes) {
    check_every_size([](const unsigned char* src, unsigned char* dst, std::uint64_t n) {
        pack_data(src, static_cast<int>(n), MPI_BYTE, reinterpret_cast<char*>(dst), n);
    });
}

TEST(ContiguousCopy, UnpackMovesExactlyTheBytes) {
    check_every_size([](const unsigned char* src, unsigned char* dst, std::uint64_t n) {
        unpack_data(reinterpret_cast<const char*>(src), n, dst, static_cast<int>(n), MPI_BYTE);
    });
}

TEST(ContiguousCopy, SameProcessCopyMovesExactlyTheBytes) {
    check_every_size([](const unsigned char* src, unsigned char* dst, std::uint64_t n) {
        copy_data(src, static_cast<int>(n), MPI_BYTE, n, dst, static_cast<int>(n), MPI_BYTE);
    });
}

// A typed buffer: the same path, sized by the type (two ints, three doubles).
TEST(ContiguousCopy, TypedElementsArriveWhole) {
    testing::run_ranks(1, [](Engine&, Rank&) {
        const int ints[2] = {-7, 123456789};
        int got_ints[2] = {0, 0};
        copy_data(ints, 2, MPI_INT, sizeof ints, got_ints, 2, MPI_INT);
        EXPECT_EQ(got_ints[0], -7);
        EXPECT_EQ(got_ints[1], 123456789);
        const double doubles[3] = {1.5, -2.25, 3e300};
        char packed[sizeof doubles];
        pack_data(doubles, 3, MPI_DOUBLE, packed, sizeof doubles);
        double got[3] = {0, 0, 0};
        unpack_data(packed, sizeof packed, got, 3, MPI_DOUBLE);
        EXPECT_EQ(std::memcmp(got, doubles, sizeof doubles), 0);
    });
}

}  // namespace
}  // namespace xsim
