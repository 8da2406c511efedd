// Link contention: transfers that overlap on a link take turns; disjoint ones do not
// interact; without contention arrival() is the closed form.
#include <gtest/gtest.h>

#include "test_support.hpp"

namespace xsim::net::test {
namespace {

constexpr std::uint64_t kBytes = 1'000'000;
// 1e6 B at 2547e6 B/s = 392618767.18 ps, rounded up.
constexpr SimTime kSwitchT = 392'618'768;
constexpr SimTime kSwitchLat = 13'000'000;

TEST(Contention, OffByDefault) {
    auto m = default_machine(1024);
    EXPECT_EQ(m->network->arrival(0, 16, kBytes, 0), kSwitchLat + kSwitchT);
    EXPECT_EQ(m->network->arrival(0, 17, kBytes, 0), kSwitchLat + kSwitchT);  // no sharing
}

TEST(Contention, TwoOverlappingTransfersShareTheNodeUplink) {
    auto m = default_machine(1024, {"network.contention=true"});
    // Ranks 0 and 1 are both on node 0: both transfers leave through node 0's port into
    // the switch level, so the second one waits for the first.
    const SimTime first = m->network->arrival(0, 16, kBytes, 0);
    const SimTime second = m->network->arrival(1, 33, kBytes, kSwitchT / 2);
    EXPECT_EQ(first, kSwitchLat + kSwitchT);
    EXPECT_EQ(second, kSwitchT + kSwitchLat + kSwitchT);
    // Together they moved 2 MB through the link in 2 transfer times: the link's bandwidth.
    // A third, after both, is not delayed.
    const SimTime later = 3 * kSwitchT;
    EXPECT_EQ(m->network->arrival(0, 16, kBytes, later), later + kSwitchLat + kSwitchT);
}

TEST(Contention, DisjointLinksDoNotInteract) {
    auto m = default_machine(1024, {"network.contention=true"});
    // Node 0 -> node 1 and node 2 -> node 3 share no port.
    EXPECT_EQ(m->network->arrival(0, 16, kBytes, 0), kSwitchLat + kSwitchT);
    EXPECT_EQ(m->network->arrival(32, 48, kBytes, 0), kSwitchLat + kSwitchT);
}

TEST(Contention, SameDestinationSharesItsIngress) {
    auto m = default_machine(1024, {"network.contention=true"});
    EXPECT_EQ(m->network->arrival(0, 16, kBytes, 0), kSwitchLat + kSwitchT);
    EXPECT_EQ(m->network->arrival(32, 17, kBytes, 0), kSwitchLat + 2 * kSwitchT);  // node 1's port in
}

TEST(Contention, TorusSharedLink) {
    // Ring of 4 nodes, one rank each: 0->2 uses links 0->1 and 1->2; 1->2 uses 1->2.
    auto m = default_machine(4, {"network.model=torus", "mapping.ranks_per_node=1", "network.torus.dims=[4]",
                                 "network.torus.link_bandwidth=2e9", "network.torus.base_latency=1e-6",
                                 "network.torus.hop_latency=1e-6", "network.contention=true"});
    const SimTime t = 500'000'000;  // 1e6 B at 2e9 B/s
    EXPECT_EQ(m->network->arrival(0, 2, kBytes, 0), us(3) + t);
    EXPECT_EQ(m->network->arrival(1, 2, kBytes, 0), t + us(2) + t);
    // 3 -> 0 goes the other way round the ring on its own link.
    EXPECT_EQ(m->network->arrival(3, 0, kBytes, 0), us(2) + t);
    // 2 -> 0 goes 2->3->0 (tie broken toward +) and shares 3->0 with the previous one.
    EXPECT_EQ(m->network->arrival(2, 0, kBytes, 0), t + us(3) + t);
}

TEST(Contention, ManyFlowsNeverBeatTheLookahead) {
    // 200k small messages between random ranks of 2^20 (the reservation table is swept as it grows).
    auto m = default_machine(1 << 20, {"network.contention=true"});
    SimTime now = 0;
    for (int i = 0; i < 200000; ++i) {
        const SimTime a = m->network->arrival(i % (1 << 20), (i * 7919) % (1 << 20), 64, now);
        EXPECT_GE(a, now + m->network->min_latency());
        now += 1000;
    }
}

}  // namespace
}  // namespace xsim::net::test
