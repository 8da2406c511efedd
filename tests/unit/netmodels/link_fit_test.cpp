// xsim-machine --calibrate's fit of a level (launch/xsim_machine/link_fit): one-way times
// generated from known latency, eager limit, eager and rendezvous bandwidths and rendezvous
// overhead are recovered exactly; a single line is a level without a step; times that do
// not grow with the size give no fit.
#include <gtest/gtest.h>

#include <vector>

#include "link_fit.hpp"

namespace xsim::machine {
namespace {

const std::vector<long> kSizes = {0, 8, 64, 256, 1024, 2048, 4096, 8192, 16384, 65536, 262144, 1048576};

std::vector<double> times(const LinkFit& truth) {
    std::vector<double> t;
    for (long s : kSizes) t.push_back(truth.one_way(s));
    return t;
}

TEST(LinkFit, RecoversTheParametersOfExactData) {
    LinkFit truth;
    truth.latency = 2e-7;
    truth.eager_per_byte = 1 / 2.5e9;
    truth.per_byte = 1 / 1e10;
    truth.overhead = 1.5e-6;
    truth.eager_limit = 4096;
    const LinkFit f = fit_link_model(kSizes, times(truth));
    EXPECT_EQ(f.eager_limit, 4096);
    EXPECT_EQ(kSizes[f.last_eager], 4096);
    EXPECT_DOUBLE_EQ(f.latency, 2e-7);
    EXPECT_NEAR(f.eager_per_byte * 2.5e9, 1.0, 1e-9);
    EXPECT_NEAR(f.per_byte * 1e10, 1.0, 1e-9);
    EXPECT_NEAR(f.overhead, 1.5e-6, 1e-15);
    EXPECT_NEAR(f.cost, 0.0, 1e-18);
}

TEST(LinkFit, OneLineIsALevelWithoutAStep) {
    LinkFit truth;
    truth.latency = 1e-6;
    truth.eager_per_byte = truth.per_byte = 1 / 5e9;
    truth.eager_limit = 1L << 40;  // every size eager
    const LinkFit f = fit_link_model(kSizes, times(truth));
    EXPECT_NEAR(f.cost, 0.0, 1e-18);
    EXPECT_NEAR(f.eager_per_byte * 5e9, 1.0, 1e-9);
    // Whatever split it picks, every measured size is priced as measured.
    for (long s : kSizes) EXPECT_NEAR(f.one_way(s) / truth.one_way(s), 1.0, 1e-9) << s << " bytes";
}

TEST(LinkFit, ANegativeOverheadIsRefittedAsZero) {
    // Rendezvous times below 3 latencies + bytes / bandwidth: a free intercept would go negative.
    LinkFit truth;
    truth.latency = 1e-6;
    truth.eager_per_byte = 1 / 1e9;
    truth.per_byte = 1 / 1e10;
    truth.overhead = -2e-6;
    truth.eager_limit = 4096;
    const LinkFit f = fit_link_model(kSizes, times(truth));
    EXPECT_GE(f.overhead, 0.0);
    EXPECT_GT(f.per_byte, 0.0);
}

TEST(LinkFit, TimesThatDoNotGrowGiveNoFit) {
    const LinkFit f = fit_link_model(kSizes, std::vector<double>(kSizes.size(), 1e-6));
    EXPECT_LT(f.cost, 0);
    EXPECT_LT(fit_link_model({0, 8}, {1e-6, 2e-6}).cost, 0);  // too few sizes
}

}  // namespace
}  // namespace xsim::machine
