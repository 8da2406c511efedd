// Virtual time never wraps (issue 10): conversions saturate, durations are capped at
// kTimeLimit, and the compute models stay below it for any input.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "netmodels/machine.hpp"
#include "pdes/sim_time.hpp"

namespace xsim {
namespace {

TEST(SimTimeLimits, TransferOfTenMegabytesAtOneBytePerSecondIsCappedNotWrapped) {
    // 1e7 s = 1e19 ps: beyond int64; the cast used to give 48 s or a negative time.
    EXPECT_EQ(transfer_time(10'000'000, 1.0), kTimeLimit);
    EXPECT_EQ(transfer_time(1, 1e-300), kTimeLimit);  // infinite: used to make messages free
    EXPECT_EQ(transfer_time(1, std::nan("")), kTimeLimit);
    EXPECT_EQ(transfer_time(1000, 1e9), 1'000'000);  // ordinary values unchanged
    EXPECT_EQ(transfer_time(3, 1e12 / 2), 6);
}

TEST(SimTimeLimits, SecondsToSimtimeSaturates) {
    EXPECT_EQ(seconds_to_simtime(1e300), kNever);
    EXPECT_EQ(seconds_to_simtime(std::numeric_limits<double>::infinity()), kNever);
    EXPECT_EQ(seconds_to_simtime(1e7), kNever);
    EXPECT_EQ(seconds_to_simtime(std::nan("")), 0);
    EXPECT_EQ(seconds_to_simtime(1.5), 1'500'000'000'000);
    EXPECT_EQ(seconds_to_simtime(2.5e-12), 3);
}

TEST(SimTimeLimits, AddTimeSaturates) {
    EXPECT_EQ(add_time(kTimeLimit, kTimeLimit), kNever);
    EXPECT_EQ(add_time(kNever, 1), kNever);
    EXPECT_EQ(add_time(5, 7), 12);
}

TEST(SimTimeLimits, SecondsFitSimtime) {
    EXPECT_TRUE(seconds_fit_simtime(0));
    EXPECT_TRUE(seconds_fit_simtime(4.6e6));
    EXPECT_FALSE(seconds_fit_simtime(5e6));
    EXPECT_FALSE(seconds_fit_simtime(-1));
    EXPECT_FALSE(seconds_fit_simtime(std::nan("")));
    EXPECT_FALSE(seconds_fit_simtime(std::numeric_limits<double>::infinity()));
}

TEST(SimTimeLimits, ComputeModelsStayBelowTheLimitForAnyInput) {
    // The slowest speed the schema allows, an hour of host compute, and heavy noise.
    for (const char* noise : {"none", "periodic", "random"}) {
        auto m = net::load_machine({"",
                                    {"processor.speed=1e-6", std::string("processor.noise.kind=") + noise,
                                     "processor.noise.period=1e-3", "processor.noise.duration=9.99999e-4",
                                     "processor.noise.probability=1"}},
                                   16);
        const SimTime hour = 3600 * kPicosPerSecond;
        for (SimTime now : {SimTime{0}, kTimeLimit - 1}) {
            const SimTime measured = m->processor->measured_compute(3, hour, now);
            EXPECT_GT(measured, 0) << noise;
            EXPECT_LE(measured, kTimeLimit) << noise;
            const SimTime modeled = m->processor->modeled_compute(3, kNever, now);
            EXPECT_GT(modeled, 0) << noise;
            EXPECT_LE(modeled, kTimeLimit) << noise;
            const SimTime flops = m->processor->flops_compute(3, 1e300, now);
            EXPECT_GT(flops, 0) << noise;
            EXPECT_LE(flops, kTimeLimit) << noise;
            EXPECT_GE(add_time(now, flops), now);  // no wrap
        }
    }
}

}  // namespace
}  // namespace xsim
