// Hierarchical star: the default (seed) machine and custom hierarchies, hand-computed.
#include <gtest/gtest.h>

#include <string>

#include "test_support.hpp"

namespace xsim::net::test {
namespace {

TEST(DefaultMachine, LevelsOfTheSeedMachine) {
    auto m = default_machine(1024);
    ASSERT_STREQ(m->network->name(), "star");
    const Path on_node = m->network->path(0, 1);
    EXPECT_EQ(on_node.latency, 12'000'000);  // 12 us in ps
    EXPECT_DOUBLE_EQ(on_node.bandwidth, 1834e6);
    EXPECT_EQ(on_node.eager_limit, 4096u);
    EXPECT_EQ(on_node.level, 0);

    const Path same_switch = m->network->path(0, 16);
    EXPECT_EQ(same_switch.latency, 13'000'000);
    EXPECT_DOUBLE_EQ(same_switch.bandwidth, 2547e6);
    EXPECT_EQ(same_switch.eager_limit, 65536u);
    EXPECT_EQ(same_switch.level, 1);

    const Path other_switch = m->network->path(0, 288);
    EXPECT_EQ(other_switch.latency, 14'000'000);
    EXPECT_DOUBLE_EQ(other_switch.bandwidth, 2546e6);
    EXPECT_EQ(other_switch.eager_limit, 65536u);
    EXPECT_EQ(other_switch.level, 2);
}

TEST(DefaultMachine, GroupBoundaries) {
    auto m = default_machine(1024);
    EXPECT_EQ(m->network->path(15, 0).level, 0);   // last rank of node 0
    EXPECT_EQ(m->network->path(16, 31).level, 0);  // both on node 1
    EXPECT_EQ(m->network->path(287, 0).level, 1);  // node 17, still switch 0
    EXPECT_EQ(m->network->path(288, 575).level, 1);
    EXPECT_EQ(m->network->path(576, 287).level, 2);
    EXPECT_EQ(m->node_of(0), 0);
    EXPECT_EQ(m->node_of(17), 1);
    EXPECT_EQ(m->node_of(288), 18);
}

TEST(DefaultMachine, SelfMessageUsesInnermostLevel) {
    auto m = default_machine(64);
    const Path p = m->network->path(5, 5);
    EXPECT_EQ(p.level, 0);
    EXPECT_EQ(p.latency, 12'000'000);
    EXPECT_GT(p.latency, 0);
}

TEST(DefaultMachine, MinLatencyAndPollCost) {
    auto m = default_machine(1024);
    EXPECT_EQ(m->network->min_latency(), 12'000'000);
    EXPECT_EQ(m->poll_cost, 100'000);       // 1e-7 s
    EXPECT_EQ(m->clock_read_cost, 50'000);  // 5e-8 s
    EXPECT_EQ(m->world_size, 1024);
}

TEST(DefaultMachine, ArrivalIsLatencyPlusTransferRoundedUp) {
    auto m = default_machine(1024);
    // 4096 B at 1834e6 B/s = 2233369.68 ps -> 2233370 ps.
    EXPECT_EQ(m->network->arrival(0, 1, 4096, 1000), 1000 + 12'000'000 + 2'233'370);
    EXPECT_EQ(m->network->arrival(0, 16, 0, 0), 13'000'000);
}

// Protocol switch points: a message is eager iff bytes <= eager_limit of its level.
TEST(DefaultMachine, ProtocolSwitchPointsPerLevel) {
    auto m = default_machine(1024);
    auto eager = [&](int src, int dst, std::uint64_t bytes) { return bytes <= m->network->path(src, dst).eager_limit; };
    EXPECT_TRUE(eager(0, 1, 4096));
    EXPECT_FALSE(eager(0, 1, 4097));
    EXPECT_TRUE(eager(0, 16, 65536));
    EXPECT_FALSE(eager(0, 16, 65537));
    EXPECT_TRUE(eager(0, 288, 65536));
    EXPECT_FALSE(eager(0, 288, 65537));
    // The on-node limit moves with an override; the others stay.
    auto m2 = default_machine(1024, {"network.level.node.rendezvous=8192"});
    EXPECT_EQ(m2->network->path(0, 1).eager_limit, 8192u);
    EXPECT_EQ(m2->network->path(0, 16).eager_limit, 65536u);
}

TEST(StarNetwork, SubNodeLevelsFromRanks) {
    // Two 8-core sockets per node, then nodes, then the system.
    auto m = machine_from(R"(
[mapping]
ranks_per_node = 16
[[network.level]]
name = "socket"
ranks = 8
latency = 1e-6
bandwidth = 8e9
rendezvous = 1024
[[network.level]]
name = "node"
ranks = 16
latency = 2e-6
bandwidth = 4e9
[[network.level]]
name = "system"
latency = 5e-6
bandwidth = 1e9
)",
                          64);
    EXPECT_EQ(m->network->path(0, 7).level, 0);
    EXPECT_EQ(m->network->path(0, 7).latency, us(1));
    EXPECT_EQ(m->network->path(0, 7).eager_limit, 1024u);
    EXPECT_EQ(m->network->path(0, 8).level, 1);
    EXPECT_EQ(m->network->path(0, 8).latency, us(2));
    EXPECT_EQ(m->network->path(0, 8).eager_limit, 65536u);  // the element default
    EXPECT_EQ(m->network->path(15, 16).level, 2);
    EXPECT_DOUBLE_EQ(m->network->path(15, 16).bandwidth, 1e9);
    EXPECT_EQ(m->network->min_latency(), us(1));
}

TEST(StarNetwork, RanksAboveNodeMeanWholeNodes) {
    // ranks = 288 with 16 ranks per node is 18 nodes per group, like nodes_per_group = 18.
    auto a = default_machine(1024, {"network.level.switch.nodes_per_group=18"});
    auto b = machine_from(R"(
[[network.level]]
name = "node"
ranks = 16
latency = 12e-6
bandwidth = 1834e6
[[network.level]]
name = "switch"
ranks = 288
latency = 13e-6
bandwidth = 2547e6
[[network.level]]
name = "system"
latency = 14e-6
bandwidth = 2546e6
)",
                          1024);
    for (int dst : {1, 15, 16, 287, 288, 600, 1023}) EXPECT_EQ(a->network->path(0, dst).level, b->network->path(0, dst).level) << dst;
}

TEST(StarNetwork, ManyLevelsAndLargeWorld) {
    // 2^22 ranks on the default machine: constant memory, closed-form levels.
    auto m = default_machine(1 << 22);
    EXPECT_EQ(m->network->path(0, (1 << 22) - 1).level, 2);
    EXPECT_EQ(m->network->path((1 << 22) - 2, (1 << 22) - 1).level, 0);
    EXPECT_EQ(m->node_of((1 << 22) - 1), (1 << 22) / 16 - 1);
}

// In blocks the level is found from the ranks alone (StarHierarchy::level_of_ranks); the same
// ranks placed by a file take the general way, through each rank's node and local index.
// Groups inside a node, groups of nodes, a partial last node and the unsized outermost level.
TEST(StarNetwork, BlockLevelsFromRanksMatchPlaces) {
    const std::string levels = R"(
[[network.level]]
name = "pair"
ranks = 2
latency = 1e-6
bandwidth = 8e9
[[network.level]]
name = "socket"
ranks = 4
latency = 2e-6
bandwidth = 4e9
[[network.level]]
name = "rack"
nodes_per_group = 3
latency = 3e-6
bandwidth = 2e9
[[network.level]]
name = "system"
latency = 5e-6
bandwidth = 1e9
)";
    const int world = 101;  // 12 full nodes of 8 and a partial one
    auto blocks = machine_from("[mapping]\nranks_per_node = 8\n" + levels, world);
    std::string nodes;
    for (int r = 0; r < world; ++r) nodes += std::to_string(r / 8) + "\n";
    const std::string file = write_temp_file("block_levels_mapping.txt", nodes);
    auto placed = machine_from("[mapping]\nranks_per_node = 8\nkind = \"file\"\nfile = \"" + file + "\"\n" + levels, world);
    for (int a = 0; a < world; ++a)
        for (int b = 0; b < world; ++b) {
            const Path x = blocks->network->path(a, b);
            const Path y = placed->network->path(a, b);
            ASSERT_EQ(x.level, y.level) << a << " -> " << b;
            ASSERT_EQ(x.latency, y.latency) << a << " -> " << b;
        }
    EXPECT_EQ(blocks->network->path(0, 1).level, 0);
    EXPECT_EQ(blocks->network->path(1, 2).level, 1);
    EXPECT_EQ(blocks->network->path(3, 4).level, 2);
    EXPECT_EQ(blocks->network->path(23, 24).level, 3);
    EXPECT_EQ(blocks->network->path(96, 100).level, 2);
}

}  // namespace
}  // namespace xsim::net::test
