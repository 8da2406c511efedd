// Torus, mesh and ring: hop counts and latencies, hand-computed.
#include <gtest/gtest.h>

#include "test_support.hpp"

namespace xsim::net::test {
namespace {

// One rank per node so rank == node == mixed-radix coordinates (dimension 0 fastest).
std::unique_ptr<Machine> torus(const std::string& dims, const std::string& wrap, int world,
                               std::vector<std::string> extra = {}) {
    std::vector<std::string> o = {"network.model=torus", "mapping.ranks_per_node=1", "network.torus.dims=" + dims,
                                  "network.torus.base_latency=1e-6", "network.torus.hop_latency=1e-6",
                                  "network.torus.link_bandwidth=2e9", "network.torus.rendezvous=32768"};
    if (!wrap.empty()) o.push_back("network.torus.wrap=" + wrap);
    o.insert(o.end(), extra.begin(), extra.end());
    return default_machine(world, o);
}

TEST(Torus, HopCountsWithWrap) {
    auto m = torus("[4,4,4]", "", 64);  // wrap defaults to true everywhere
    ASSERT_STREQ(m->network->name(), "torus");
    EXPECT_EQ(m->network->path(0, 1).level, 1);    // (1,0,0)
    EXPECT_EQ(m->network->path(0, 3).level, 1);    // (3,0,0): one hop the other way round
    EXPECT_EQ(m->network->path(0, 2).level, 2);    // (2,0,0)
    EXPECT_EQ(m->network->path(0, 42).level, 6);   // (2,2,2)
    EXPECT_EQ(m->network->path(0, 63).level, 3);   // (3,3,3)
    EXPECT_EQ(m->network->path(21, 42).level, 3);  // (1,1,1) -> (2,2,2)
    // latency = base + hops * hop = 1 us + 6 us
    EXPECT_EQ(m->network->path(0, 42).latency, us(7));
    EXPECT_DOUBLE_EQ(m->network->path(0, 42).bandwidth, 2e9);
    EXPECT_EQ(m->network->path(0, 42).eager_limit, 32768u);
    EXPECT_EQ(m->network->min_latency(), us(2));
}

TEST(Torus, MeshHasNoWrapLinks) {
    auto m = torus("[4,4,4]", "[false,false,false]", 64);
    EXPECT_EQ(m->network->path(0, 3).level, 3);
    EXPECT_EQ(m->network->path(0, 63).level, 9);
    EXPECT_EQ(m->network->path(0, 63).latency, us(10));
    EXPECT_EQ(m->network->path(63, 0).level, 9);
    EXPECT_EQ(m->network->path(0, 42).level, 6);
}

TEST(Torus, MixedWrap) {
    // Wrap in dimension 0 only: (3,3) is 1 + 3 hops from (0,0).
    auto m = torus("[4,4]", "[true,false]", 16);
    EXPECT_EQ(m->network->path(0, 15).level, 4);
}

TEST(Torus, Ring) {
    auto m = torus("[8]", "[true]", 8);
    EXPECT_EQ(m->network->path(0, 5).level, 3);
    EXPECT_EQ(m->network->path(0, 4).level, 4);
    EXPECT_EQ(m->network->path(7, 0).level, 1);
    EXPECT_EQ(m->network->path(2, 6).latency, us(5));
}

TEST(Torus, TwoDimensionalMesh) {
    auto m = torus("[4,4]", "[false,false]", 16);
    EXPECT_EQ(m->network->path(0, 15).level, 6);
    EXPECT_EQ(m->network->path(5, 10).level, 2);  // (1,1) -> (2,2)
}

TEST(Torus, SameNodeUsesOnNodeLevel) {
    // Two ranks per node: ranks 0 and 1 share node 0 and use the star's node level.
    auto m = torus("[4]", "", 8, {"mapping.ranks_per_node=2"});
    const Path p = m->network->path(0, 1);
    EXPECT_EQ(p.level, 0);
    EXPECT_EQ(p.latency, us(12));
    EXPECT_DOUBLE_EQ(p.bandwidth, 1834e6);
    EXPECT_EQ(p.eager_limit, 4096u);
    EXPECT_EQ(m->network->path(0, 2).level, 1);  // node 0 -> node 1
    EXPECT_EQ(m->network->path(0, 2).latency, us(2));
    EXPECT_EQ(m->network->path(3, 3).level, 0);
    EXPECT_EQ(m->network->min_latency(), us(2));
    EXPECT_EQ(m->node_of(7), 3);
}

TEST(Torus, OnNodeLevelsNeedOnlyHoldANode) {
    // A sized outermost level is fine for the torus as long as it holds a node's ranks.
    auto m = torus("[4]", "", 8,
                   {"mapping.ranks_per_node=2",
                    R"(network.level=[{name="core", ranks=1, latency=1e-7, bandwidth=1e10}, {name="node", ranks=2, latency=3e-7, bandwidth=5e9}])"});
    EXPECT_EQ(m->network->path(0, 0).latency, us(0.1));
    EXPECT_EQ(m->network->path(0, 1).latency, us(0.3));
    EXPECT_EQ(m->network->path(0, 2).latency, us(2));
    EXPECT_EQ(m->network->min_latency(), us(0.1));
    // One that does not hold a node's ranks is an error.
    const std::string msg = config_error(
        {"", {"network.model=torus", "network.torus.dims=[4]", "mapping.ranks_per_node=4",
              R"(network.level=[{name="core", ranks=1, latency=1e-7, bandwidth=1e10}, {name="pair", ranks=2, latency=3e-7, bandwidth=5e9}])"}},
        8);
    EXPECT_NE(msg.find("network.level.pair.ranks"), std::string::npos) << msg;
}

TEST(Torus, LargerTorusThanNeeded) {
    auto m = torus("[8,8,8]", "", 100);
    EXPECT_EQ(m->network->path(0, 99).level, 3 + 4 + 1);  // 99 = (3,4,1)
}

}  // namespace
}  // namespace xsim::net::test
