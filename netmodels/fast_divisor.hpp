// Division of a non-negative int by a divisor fixed when the machine is configured (ranks
// per node, a level's group size), as a multiplication and a shift: the network is asked
// for a path at every send, and its integer divisions (two per star level, one or two to
// place each rank) were a few percent of a run's samples.
//
// Granlund and Montgomery, "Division by invariant integers using multiplication" (1994),
// theorem 4.2: with l = ceil(log2 d) and m = ceil(2^(31+l) / d), floor(n / d) equals
// floor(n * m / 2^(31+l)) for every n in [0, 2^31). m < 2^32 + 1, so n * m fits in 64 bits.
#pragma once
#include <cstdint>

namespace xsim::net {

class FastDivisor {
public:
    FastDivisor() = default;  // divides by 1
    // d >= 1.
    explicit FastDivisor(std::int32_t d) : divisor_(d) {
        int l = 0;
        while ((std::uint64_t{1} << l) < static_cast<std::uint64_t>(d)) ++l;
        shift_ = 31 + l;
        multiplier_ = ((std::uint64_t{1} << shift_) + static_cast<std::uint64_t>(d) - 1) / static_cast<std::uint64_t>(d);
    }

    // n / d for 0 <= n < 2^31.
    std::int32_t quotient(std::int32_t n) const {
        return static_cast<std::int32_t>((static_cast<std::uint64_t>(n) * multiplier_) >> shift_);
    }
    // n % d for 0 <= n < 2^31.
    std::int32_t remainder(std::int32_t n) const { return n - quotient(n) * divisor_; }
    std::int32_t divisor() const { return divisor_; }

private:
    std::int32_t divisor_ = 1;
    int shift_ = 31;
    std::uint64_t multiplier_ = std::uint64_t{1} << 31;
};

}  // namespace xsim::net
