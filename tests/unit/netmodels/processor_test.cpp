// Processor model: speed scaling, flop rate, heterogeneity and reproducible noise.
#include <gtest/gtest.h>

#include "test_support.hpp"

namespace xsim::net::test {
namespace {

TEST(Processor, DefaultIsIdentity) {
    auto m = default_machine(16);
    EXPECT_EQ(m->processor->measured_compute(3, 123456789, 42), 123456789);
    EXPECT_EQ(m->processor->modeled_compute(3, 1000, 42), 1000);
    EXPECT_EQ(m->processor->flops_compute(3, 2e9, 0), 2 * kPicosPerSecond);  // 1e9 flop/s
    EXPECT_EQ(m->processor->measured_compute(3, 0, 42), 0);
}

TEST(Processor, SpeedScalesMeasuredOnly) {
    auto m = default_machine(16, {"processor.speed=0.5", "processor.flops=4e9"});
    EXPECT_EQ(m->processor->measured_compute(0, 1000, 0), 2000);  // half as fast
    EXPECT_EQ(m->processor->modeled_compute(0, 1000, 0), 1000);   // not scaled
    EXPECT_EQ(m->processor->flops_compute(0, 1e6, 0), seconds_to_simtime(1e6 / 4e9));
    auto fast = default_machine(16, {"processor.speed=4"});
    EXPECT_EQ(fast->processor->measured_compute(0, 1000, 0), 250);
    EXPECT_EQ(fast->processor->measured_compute(0, 1001, 0), 250);  // 250.25 rounds to nearest
}

TEST(Processor, PerNodeAndPerRankOverrides) {
    auto m = machine_from(R"(
[processor]
speed = 0.5
[[processor.override]]
nodes = [1, "3-4"]
speed = 0.25
[[processor.override]]
ranks = ["20-21"]
flops = 2e9
[[processor.override]]
ranks = [17]
speed = 2.0
)",
                          96);  // 16 ranks per node
    EXPECT_EQ(m->processor->measured_compute(0, 1000, 0), 2000);   // global speed
    EXPECT_EQ(m->processor->measured_compute(16, 1000, 0), 4000);  // node 1
    EXPECT_EQ(m->processor->measured_compute(17, 1000, 0), 500);   // later rank entry wins
    EXPECT_EQ(m->processor->measured_compute(20, 1000, 0), 4000);  // flops entry leaves speed alone
    EXPECT_EQ(m->processor->measured_compute(32, 1000, 0), 2000);  // node 2
    EXPECT_EQ(m->processor->measured_compute(48, 1000, 0), 4000);  // node 3
    EXPECT_EQ(m->processor->measured_compute(79, 1000, 0), 4000);  // node 4
    EXPECT_EQ(m->processor->measured_compute(80, 1000, 0), 2000);  // node 5
    EXPECT_EQ(m->processor->flops_compute(20, 2e9, 0), kPicosPerSecond);
    EXPECT_EQ(m->processor->flops_compute(21, 2e9, 0), kPicosPerSecond);
    EXPECT_EQ(m->processor->flops_compute(22, 2e9, 0), 2 * kPicosPerSecond);
}

TEST(Processor, OverrideEntriesByIndex) {
    auto m = default_machine(64, {R"(processor.override=[{nodes=[1], speed=0.5}, {ranks=["0-3"], flops=5e8}])",
                                  "processor.override.0.speed=0.25", "processor.override.1.ranks=[\"0-1\"]"});
    EXPECT_EQ(m->processor->measured_compute(16, 1000, 0), 4000);
    EXPECT_EQ(m->processor->flops_compute(1, 5e8, 0), kPicosPerSecond);
    EXPECT_EQ(m->processor->flops_compute(2, 5e8, 0), kPicosPerSecond / 2);
}

constexpr SimTime kP = 1'000'000'000;  // 1 ms period
constexpr SimTime kL = 100'000'000;    // 0.1 ms detour

std::vector<std::string> periodic(bool sync, int seed = 7) {
    return {"processor.noise.kind=periodic", "processor.noise.period=1e-3", "processor.noise.duration=1e-4",
            "processor.noise.seed=" + std::to_string(seed), std::string("processor.noise.sync=") + (sync ? "true" : "false")};
}

TEST(Noise, PeriodicStealsOneDetourPerPeriod) {
    auto m = default_machine(64, periodic(false));
    for (int rank : {0, 5, 63}) {
        for (SimTime now : {SimTime{0}, SimTime{123'456'789}, SimTime{5'000'000'017}}) {
            // 10 periods' worth of available time takes exactly 10 periods from any point
            // outside a detour (A(t + P) = A(t) + P - L), at most that from inside one.
            const SimTime e = m->processor->modeled_compute(rank, 10 * (kP - kL), now);
            const bool outside = m->processor->modeled_compute(rank, 1, now) == 1;
            if (outside)
                EXPECT_EQ(e, 10 * kP) << rank << " " << now;
            else
                EXPECT_TRUE(e >= 10 * kP - kL && e < 10 * kP) << rank << " " << now << " " << e;
            // Short work is delayed by at most one detour.
            const SimTime s = m->processor->modeled_compute(rank, 1000, now);
            EXPECT_TRUE(s == 1000 || s == 1000 + kL || (s > 1000 && s < 1000 + kL)) << s;
        }
    }
}

TEST(Noise, ReproducibleAndSeeded) {
    auto a = default_machine(64, periodic(false, 7));
    auto b = default_machine(64, periodic(false, 7));
    auto c = default_machine(64, periodic(false, 8));
    int differ = 0;
    for (int rank = 0; rank < 64; ++rank) {
        const SimTime now = 1'000'003 * rank;
        const SimTime x = a->processor->modeled_compute(rank, 3 * kP / 2, now);
        EXPECT_EQ(x, b->processor->modeled_compute(rank, 3 * kP / 2, now));
        EXPECT_EQ(x, a->processor->modeled_compute(rank, 3 * kP / 2, now));  // pure function
        // 1.5 periods of work meet one or two detours (plus the rest of one it starts in).
        EXPECT_TRUE(x >= 3 * kP / 2 + kL && x <= 3 * kP / 2 + 3 * kL) << x;
        differ += x != c->processor->modeled_compute(rank, 3 * kP / 2, now);
    }
    EXPECT_GT(differ, 0);
}

TEST(Noise, SyncGivesAllRanksTheSameDetours) {
    auto sync = default_machine(64, periodic(true));
    auto unsync = default_machine(64, periodic(false));
    int differ = 0;
    for (int rank = 1; rank < 64; ++rank) {
        EXPECT_EQ(sync->processor->modeled_compute(rank, 12345, 777), sync->processor->modeled_compute(0, 12345, 777));
        differ += unsync->processor->modeled_compute(rank, kP / 2, 0) != unsync->processor->modeled_compute(0, kP / 2, 0);
    }
    EXPECT_GT(differ, 0);
}

TEST(Noise, AppliesToEveryKindOfCompute) {
    auto m = default_machine(4, periodic(true));
    const SimTime work = 5 * kP;  // always crosses detours
    EXPECT_GT(m->processor->modeled_compute(0, work, 0), work);
    EXPECT_GT(m->processor->measured_compute(0, work, 0), work);
    EXPECT_GT(m->processor->flops_compute(0, 5e6, 0), work);  // 5e6 flop at 1e9 flop/s = 5 ms
}

std::vector<std::string> random_noise(double p, int seed = 3) {
    return {"processor.noise.kind=random", "processor.noise.period=1e-3", "processor.noise.duration=1e-4",
            "processor.noise.probability=" + std::to_string(p), "processor.noise.seed=" + std::to_string(seed)};
}

TEST(Noise, RandomWithCertainDetours) {
    auto m = default_machine(8, random_noise(1.0));
    // From a window start, 10 windows of available time end within the 10th window.
    for (int rank = 0; rank < 8; ++rank) {
        const SimTime e = m->processor->modeled_compute(rank, 10 * (kP - kL), 0);
        EXPECT_TRUE(e >= 10 * kP - kL && e <= 10 * kP) << e;
    }
}

TEST(Noise, RandomZeroProbabilityIsQuiet) {
    auto m = default_machine(8, random_noise(0.0));
    EXPECT_EQ(m->processor->modeled_compute(1, 50 * kP, 12345), 50 * kP);
}

TEST(Noise, RandomRateAndReproducibility) {
    auto a = default_machine(8, random_noise(0.5));
    auto b = default_machine(8, random_noise(0.5));
    // 2000 periods of work: about 1000 detours (binomial sd ~ 22).
    const SimTime work = 2000 * kP;
    const SimTime e = a->processor->modeled_compute(2, work, 777);
    EXPECT_EQ(e, b->processor->modeled_compute(2, work, 777));
    const double detours = static_cast<double>(e - work) / static_cast<double>(kL);
    EXPECT_GT(detours, 900);
    EXPECT_LT(detours, 1250);  // each detour also pushes work into later windows
    // Beyond kMaxExactWindows the rest is charged at the expected stretch P / (P - pL).
    const SimTime long_work = 20000 * kP;
    const double stretch = static_cast<double>(a->processor->modeled_compute(2, long_work, 0)) / long_work;
    EXPECT_NEAR(stretch, 1.0 / (1.0 - 0.5 * 0.1), 0.01);
}

}  // namespace
}  // namespace xsim::net::test
