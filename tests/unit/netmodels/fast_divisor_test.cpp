// FastDivisor against the hardware division: every divisor up to 4,096 with the numerators
// around each multiple of it, then random divisors and numerators over the whole range.
#include "netmodels/fast_divisor.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>

namespace xsim::net {
namespace {

void expect_exact(std::int32_t d, std::int32_t n) {
    const FastDivisor by(d);
    ASSERT_EQ(by.quotient(n), n / d) << n << " / " << d;
    ASSERT_EQ(by.remainder(n), n % d) << n << " % " << d;
}

TEST(FastDivisor, DividesByOneByDefault) {
    const FastDivisor by;
    EXPECT_EQ(by.divisor(), 1);
    EXPECT_EQ(by.quotient(0), 0);
    EXPECT_EQ(by.quotient(12345), 12345);
    EXPECT_EQ(by.quotient(std::numeric_limits<std::int32_t>::max()), std::numeric_limits<std::int32_t>::max());
}

TEST(FastDivisor, ExactAroundMultiplesOfSmallDivisors) {
    constexpr std::int32_t kMax = std::numeric_limits<std::int32_t>::max();
    for (std::int32_t d = 1; d <= 4096; ++d) {
        for (std::int32_t n = 0; n < 3 * d + 2; ++n) expect_exact(d, n);
        for (std::int64_t k : {std::int64_t{1000}, std::int64_t{kMax} / d - 1, std::int64_t{kMax} / d})
            for (std::int64_t n = k * d - 1; n <= k * d + 1 && n <= kMax; ++n)
                if (n >= 0) expect_exact(d, static_cast<std::int32_t>(n));
        expect_exact(d, kMax);
    }
}

TEST(FastDivisor, ExactForRandomDivisorsAndNumerators) {
    std::mt19937_64 rng(20261125);
    std::uniform_int_distribution<std::int32_t> any(0, std::numeric_limits<std::int32_t>::max());
    for (int i = 0; i < 200000; ++i) {
        const std::int32_t d = std::max<std::int32_t>(1, any(rng) >> (i % 31));
        expect_exact(d, any(rng));
    }
    for (std::int32_t d : {std::numeric_limits<std::int32_t>::max(), 1 << 30, (1 << 30) + 1, 65536, 65535, 3, 7})
        for (std::int32_t n : {0, 1, d - 1, d, std::numeric_limits<std::int32_t>::max() - 1,
                               std::numeric_limits<std::int32_t>::max()})
            if (n >= 0) expect_exact(d, n);
}

}  // namespace
}  // namespace xsim::net
