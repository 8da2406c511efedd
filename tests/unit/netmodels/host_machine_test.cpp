// xsim-machine --from-host: the generated file loads and its levels follow the topology.
#include <gtest/gtest.h>

#include "host_machine.hpp"
#include "test_support.hpp"

namespace xsim::net::test {
namespace {

using xsim::machine::HostCounts;
using xsim::machine::host_machine_toml;

TEST(HostMachine, TwoSocketsTwoNumaEach) {
    // 32 cores, 2 sockets, 4 NUMA nodes: core(1) / numa(8) / socket(16) / node(32) / network.
    auto m = machine_from(host_machine_toml({32, 2, 4, 64}), 128);
    EXPECT_EQ(m->network->path(0, 0).level, 0);
    EXPECT_EQ(m->network->path(0, 7).level, 1);
    EXPECT_EQ(m->network->path(0, 8).level, 2);
    EXPECT_EQ(m->network->path(0, 16).level, 3);
    EXPECT_EQ(m->network->path(0, 32).level, 4);
    EXPECT_EQ(m->node_of(32), 1);
}

TEST(HostMachine, SingleSocket) {
    // 2 cores, one socket, one NUMA node: core / node / network.
    auto m = machine_from(host_machine_toml({2, 1, 1, 2}), 8);
    EXPECT_EQ(m->network->path(1, 1).level, 0);
    EXPECT_EQ(m->network->path(0, 1).level, 1);
    EXPECT_EQ(m->network->path(0, 2).level, 2);
}

TEST(HostMachine, OddCountsStillLoad) {
    for (const HostCounts& h : {HostCounts{1, 1, 1, 1}, HostCounts{6, 2, 3, 12}, HostCounts{12, 2, 1, 24},
                                HostCounts{10, 4, 4, 10}}) {
        // Uneven sockets or NUMA nodes (10 cores on 4 sockets) get no level of their own.
        auto m = machine_from(host_machine_toml(h), 3 * h.cores);
        EXPECT_GT(m->network->min_latency(), 0);
        EXPECT_NE(m->network->path(0, h.cores).level, m->network->path(0, 0).level);
        EXPECT_EQ(m->node_of(h.cores), 1);
    }
}

TEST(HostMachine, DetectsThisHost) {
    const HostCounts h = xsim::machine::detect_host();
    EXPECT_GE(h.cores, 1);
    EXPECT_GE(h.packages, 1);
    EXPECT_GE(h.pus, h.cores);
    // One rank per core: a world of `cores` ranks fills exactly one node.
    auto m = machine_from(host_machine_toml(h), 2 * h.cores);
    EXPECT_EQ(m->node_of(h.cores - 1), 0);
    EXPECT_EQ(m->node_of(h.cores), 1);
    EXPECT_EQ(m->network->path(0, 0).level, 0);
}

}  // namespace
}  // namespace xsim::net::test
