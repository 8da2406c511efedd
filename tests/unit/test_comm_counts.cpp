// -xsim-commmatrix (issue 11): the entity each message is counted under (rank, node, group of
// nodes, by the limit), the counts it adds up, and the options.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "libxsim/engine/comm_counts.hpp"
#include "libxsim/engine/options.hpp"
#include "option_parsing.hpp"

using namespace xsim;

namespace {

// A machine whose node of rank r is r / per_node (block mapping); no network needed.
struct BlockMachine : net::Machine {
    explicit BlockMachine(int per_node) : per_node(per_node) {}
    int node_of(int rank) const override { return rank / per_node; }
    int local_rank_of(int rank) const override { return rank % per_node; }
    int ranks_on_node_of(int) const override { return per_node; }
    int per_node;
};

Options parse_comm_counts(std::vector<std::string> words) { return option_test::parsed_options(std::move(words)); }
std::string comm_counts_refusal(std::vector<std::string> words) { return option_test::option_refusal(std::move(words)); }

}  // namespace

TEST(CommCounts, RanksUpToTheLimit) {
    BlockMachine m(4);
    CommCounts c(m, 24, 24);
    EXPECT_EQ(c.level(), CommCounts::Level::Rank);
    EXPECT_STREQ(c.level_name(), "rank");
    EXPECT_EQ(c.entities(), 24);
    EXPECT_EQ(c.entity(23), 23);
}

TEST(CommCounts, NodesAboveTheLimitInRanks) {
    BlockMachine m(4);
    CommCounts c(m, 24, 8);  // 6 nodes of 4 ranks
    EXPECT_EQ(c.level(), CommCounts::Level::Node);
    EXPECT_STREQ(c.level_name(), "node");
    EXPECT_EQ(c.entities(), 6);
    EXPECT_EQ(c.entity(7), 1);
    EXPECT_EQ(c.entity(23), 5);
}

TEST(CommCounts, GroupsOfNodesAboveTheLimitInNodes) {
    BlockMachine m(4);
    CommCounts c(m, 40, 4);  // 10 nodes: groups of 3 nodes, 4 groups (the last of 1 node)
    EXPECT_EQ(c.level(), CommCounts::Level::NodeGroup);
    EXPECT_STREQ(c.level_name(), "node_group");
    EXPECT_EQ(c.nodes_per_entity(), 3);
    EXPECT_EQ(c.entities(), 4);
    EXPECT_EQ(c.entity(11), 0);
    EXPECT_EQ(c.entity(12), 1);
    EXPECT_EQ(c.entity(39), 3);
}

TEST(CommCounts, AddsMessagesAndBytesPerPairOfEntities) {
    BlockMachine m(4);
    CommCounts c(m, 24, 8);
    c.count(0, 4, 100);   // node 0 -> node 1
    c.count(3, 7, 50);    // node 0 -> node 1 again
    c.count(4, 0, 8);     // node 1 -> node 0
    c.count(5, 5, 1);     // within node 1
    ASSERT_EQ(c.cells().size(), 3u);
    const auto& a = c.cells().at(CommCounts::key(0, 1));
    EXPECT_EQ(a.messages, 2u);
    EXPECT_EQ(a.bytes, 150u);
    EXPECT_EQ(c.cells().at(CommCounts::key(1, 0)).bytes, 8u);
    EXPECT_EQ(c.cells().at(CommCounts::key(1, 1)).messages, 1u);
}

TEST(CommCountsOption, OffByDefaultWithLimit4096) {
    const Options o = parse_comm_counts({"./app"});
    EXPECT_TRUE(o.commmatrix_path.empty());
    EXPECT_EQ(o.commmatrix_limit, 4096);
    const Options p = parse_comm_counts({"./app", "-xsim-commmatrix", "m.csv", "-xsim-commmatrix-limit=16"});
    EXPECT_EQ(p.commmatrix_path, "m.csv");
    EXPECT_EQ(p.commmatrix_limit, 16);
}

TEST(CommCountsOption, RefusesBadValues) {
    EXPECT_EQ(comm_counts_refusal({"./app", "-xsim-commmatrix="}), "-xsim-commmatrix: expected a file name");
    EXPECT_EQ(comm_counts_refusal({"./app", "-xsim-commmatrix-limit", "0"}),
              "-xsim-commmatrix-limit: expected a number of entities from 1 to 16777216, got 0");
    EXPECT_EQ(comm_counts_refusal({"./app", "-xsim-commmatrix-limit", "many"}), "-xsim-commmatrix-limit: 'many' is not a whole number");
}
