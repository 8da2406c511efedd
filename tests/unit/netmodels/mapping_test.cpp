// Rank-to-node mappings: block, round-robin and file.
#include <gtest/gtest.h>

#include "test_support.hpp"

namespace xsim::net::test {
namespace {

TEST(Mapping, Block) {
    auto m = default_machine(10, {"mapping.ranks_per_node=4"});
    const int want[] = {0, 0, 0, 0, 1, 1, 1, 1, 2, 2};
    for (int r = 0; r < 10; ++r) EXPECT_EQ(m->node_of(r), want[r]) << r;
    for (int r = 0; r < 10; ++r) EXPECT_EQ(m->local_rank_of(r), r % 4) << r;
    for (int r = 0; r < 10; ++r) EXPECT_EQ(m->ranks_on_node_of(r), r < 8 ? 4 : 2) << r;  // the last node half full
    EXPECT_EQ(m->network->path(0, 3).level, 0);
    EXPECT_EQ(m->network->path(3, 4).level, 1);
}

TEST(Mapping, RoundRobin) {
    // 10 ranks at 4 per node need 3 nodes; rank r goes to node r % 3.
    auto m = default_machine(10, {"mapping.ranks_per_node=4", "mapping.kind=\"round-robin\""});
    for (int r = 0; r < 10; ++r) EXPECT_EQ(m->node_of(r), r % 3) << r;
    for (int r = 0; r < 10; ++r) EXPECT_EQ(m->local_rank_of(r), r / 3) << r;
    for (int r = 0; r < 10; ++r) EXPECT_EQ(m->ranks_on_node_of(r), r % 3 == 0 ? 4 : 3) << r;  // 0 3 6 9 on node 0
    EXPECT_EQ(m->network->path(0, 3).level, 0);
    EXPECT_EQ(m->network->path(0, 1).level, 1);
}

TEST(Mapping, RoundRobinWithSubNodeLevels) {
    // 2 nodes x 4 ranks, sockets of 2: the local index of rank r is r / 2 (nodes),
    // so ranks 0, 2 share node 0's socket 0 and ranks 0, 4 are on node 0, socket 1.
    auto m = default_machine(8, {"mapping.ranks_per_node=4", "mapping.kind=round-robin",
                                 R"(network.level=[{name="socket", ranks=2, latency=1e-6, bandwidth=1e9},)"
                                 R"({name="node", ranks=4, latency=2e-6, bandwidth=1e9},)"
                                 R"({name="net", latency=3e-6, bandwidth=1e9}])"});
    EXPECT_EQ(m->network->path(0, 2).level, 0);
    EXPECT_EQ(m->network->path(0, 4).level, 1);
    EXPECT_EQ(m->network->path(0, 1).level, 2);
}

TEST(Mapping, FileWithCommentsAndBlankLines) {
    const std::string map = write_temp_file("map.txt", "# node per rank\n3\n3  # two on node 3\n\n0\n1\n7\n");
    auto m = default_machine(4, {"mapping.kind=file", "mapping.file=" + map});
    EXPECT_EQ(m->node_of(0), 3);
    EXPECT_EQ(m->node_of(1), 3);
    EXPECT_EQ(m->node_of(2), 0);
    EXPECT_EQ(m->node_of(3), 1);  // the line for a fifth rank is not read
    EXPECT_EQ(m->local_rank_of(1), 1);
    EXPECT_EQ(m->local_rank_of(2), 0);
    EXPECT_EQ(m->ranks_on_node_of(0), 2);
    EXPECT_EQ(m->ranks_on_node_of(3), 1);
    EXPECT_EQ(m->network->path(0, 1).level, 0);
    EXPECT_EQ(m->network->path(0, 2).level, 1);
}

TEST(Mapping, FileRelativeToTheConfigFile) {
    // machine_from writes machine.toml in a fresh directory; put map.txt beside it.
    const std::string cfg = write_temp_file("machine.toml", "[mapping]\nkind = \"file\"\nfile = \"map.txt\"\n");
    const std::string dir = cfg.substr(0, cfg.rfind('/'));
    {
        std::FILE* f = std::fopen((dir + "/map.txt").c_str(), "w");
        ASSERT_NE(f, nullptr);
        std::fputs("5\n4\n", f);
        std::fclose(f);
    }
    auto m = load_machine({cfg, {}}, 2);
    EXPECT_EQ(m->node_of(0), 5);
    EXPECT_EQ(m->node_of(1), 4);
    EXPECT_NE(m->effective_config_json.find(dir + "/map.txt"), std::string::npos);
}

TEST(Mapping, FileMappingOnTorus) {
    // Ranks 0 and 1 on nodes 0 and 3 of a 4-node ring: one hop the short way round.
    const std::string map = write_temp_file("map.txt", "0\n3\n");
    auto m = default_machine(2, {"mapping.kind=file", "mapping.file=" + map, "network.model=torus",
                                 "network.torus.dims=[4]"});
    EXPECT_EQ(m->network->path(0, 1).level, 1);
    // Node 3 needs a torus of at least 4 nodes.
    const std::string msg = config_error({"", {"mapping.kind=file", "mapping.file=" + map, "network.model=torus",
                                               "network.torus.dims=[3]"}},
                                         2);
    EXPECT_NE(msg.find("network.torus.dims"), std::string::npos);
}

}  // namespace
}  // namespace xsim::net::test
