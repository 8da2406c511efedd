// Configuration layering: defaults, file, overrides; effective JSON; key descriptions;
// the shipped example machines.
#include <gtest/gtest.h>

#include <string>

#include "netmodels/config.hpp"
#include "netmodels/config_schema.hpp"
#include "test_support.hpp"

namespace xsim::net::test {
namespace {

TEST(Overrides, LevelByNameAndByIndex) {
    auto m = default_machine(1024, {"network.level.node.latency=2e-6", "network.level.2.bandwidth=1e9"});
    EXPECT_EQ(m->network->path(0, 1).latency, us(2));
    EXPECT_EQ(m->network->path(0, 16).latency, us(13));  // untouched
    EXPECT_DOUBLE_EQ(m->network->path(0, 288).bandwidth, 1e9);
    EXPECT_EQ(m->network->min_latency(), us(2));
}

TEST(Overrides, IntegerForNumberAndBareStrings) {
    auto m = default_machine(64, {"network.level.system.latency=1", "mapping.kind=round-robin",
                                  "mapping.ranks_per_node = 8"});
    // round-robin over 8 nodes: ranks 0 and 8 share node 0.
    EXPECT_EQ(m->node_of(8), 0);
    EXPECT_EQ(m->node_of(9), 1);
    EXPECT_EQ(m->network->path(0, 8).level, 0);
    EXPECT_EQ(m->network->path(0, 1).level, 1);
    EXPECT_NE(m->effective_config_json.find("\"round-robin\""), std::string::npos);
}

// MPI-IO's storage model: latency + bytes / bandwidth, from the defaults or the keys.
TEST(Storage, DefaultsAndOverrides) {
    auto m = default_machine(4);
    EXPECT_EQ(m->storage.call_time(0), us(100));                    // storage.latency = 1e-4 s
    EXPECT_EQ(m->storage.call_time(1'000'000), us(100) + us(1000));  // + 1e6 B / 1e9 B/s
    auto o = default_machine(4, {"storage.latency=1e-3", "storage.bandwidth=2e8"});
    EXPECT_EQ(o->storage.call_time(1 << 20), us(1000) + 5'242'880'000);  // 1 MiB / 2e8 B/s = 5242.88 us
    EXPECT_NE(o->effective_config_json.find("\"storage\""), std::string::npos);
}

TEST(Storage, BadValuesNameTheKey) {
    EXPECT_THROW(default_machine(4, {"storage.bandwidth=0"}), ConfigError);
    EXPECT_THROW(default_machine(4, {"storage.latency=-1"}), ConfigError);
    EXPECT_THROW(default_machine(4, {"storage.speed=1"}), ConfigError);
}

TEST(Overrides, ApplyAfterTheFile) {
    auto m = machine_from(R"(
[[network.level]]
name = "only"
latency = 3e-6
bandwidth = 1e9
)",
                          32, {"network.level.only.latency=4e-6"});
    EXPECT_EQ(m->network->path(0, 31).latency, us(4));
    EXPECT_EQ(m->network->path(0, 31).level, 0);
}

TEST(Overrides, ReplaceWholeLevelList) {
    auto m = default_machine(
        32, {R"(network.level=[{name="a", latency=1e-6, bandwidth=1e9, ranks=16}, {name="b", latency=2e-6, bandwidth=1e9}])",
             "network.level.b.rendezvous=100"});
    EXPECT_EQ(m->network->path(0, 15).latency, us(1));
    EXPECT_EQ(m->network->path(0, 16).latency, us(2));
    EXPECT_EQ(m->network->path(0, 16).eager_limit, 100u);
}

TEST(FileLayer, KeepsDefaultsForKeysItDoesNotSet) {
    auto m = machine_from("[processor]\nspeed = 2.0\n", 1024);
    EXPECT_EQ(m->network->path(0, 288).latency, us(14));  // default levels kept
    EXPECT_EQ(m->processor->measured_compute(0, 1000, 0), 500);
}

TEST(EffectiveConfig, IsCompleteJson) {
    auto m = default_machine(64, {"network.level.node.latency=2e-6"});
    const std::string& j = m->effective_config_json;
    ASSERT_FALSE(j.empty());
    EXPECT_EQ(j.front(), '{');
    EXPECT_EQ(j.back(), '}');
    for (const char* key : {"\"processor\"", "\"speed\"", "\"flops\"", "\"poll_cost\"", "\"noise\"", "\"mapping\"",
                            "\"ranks_per_node\"", "\"network\"", "\"level\"", "\"torus\"", "\"rendezvous\"",
                            "\"switch\"", "\"system\"", "\"contention\""})
        EXPECT_NE(j.find(key), std::string::npos) << key;
    EXPECT_NE(j.find("2e-06"), std::string::npos) << j;
}

TEST(EffectiveConfig, FillsEntryDefaults) {
    auto m = machine_from(R"(
[[network.level]]
latency = 3e-6
bandwidth = 1e9
)",
                          4);
    EXPECT_NE(m->effective_config_json.find("\"level0\""), std::string::npos);
    EXPECT_NE(m->effective_config_json.find("65536"), std::string::npos);
    EXPECT_EQ(m->network->path(0, 1).eager_limit, 65536u);
}

TEST(DescribeKeys, ListsEveryKeyWithTypeAndDefault) {
    const std::string d = describe_config_keys();
    for (const KeySpec& k : config_keys()) EXPECT_NE(d.find(k.path), std::string::npos) << k.path;
    EXPECT_NE(d.find("processor.speed  (number)  default 1.0"), std::string::npos) << d;
    EXPECT_NE(d.find("mapping.kind  (string: block|round-robin|file)  default \"block\""), std::string::npos);
    EXPECT_NE(d.find("network.level[].latency  (number)  required"), std::string::npos);
    EXPECT_NE(d.find("star"), std::string::npos);
    EXPECT_NE(d.find("torus"), std::string::npos);
}

const std::string kExamples = XSIM_EXAMPLE_MACHINES_DIR;

TEST(Examples, SeedMachineFileEqualsTheBuiltInDefault) {
    auto file = load_machine({kExamples + "/xsim-seed.toml", {}}, 1024);
    auto builtin = default_machine(1024);
    EXPECT_EQ(file->effective_config_json, builtin->effective_config_json);
}

TEST(Examples, Torus3d) {
    auto m = load_machine({kExamples + "/torus3d.toml", {}}, 65536);
    ASSERT_STREQ(m->network->name(), "torus");
    EXPECT_EQ(m->network->path(0, 1).latency, us(0.4));  // same socket
    EXPECT_EQ(m->network->path(0, 8).latency, us(0.7));  // other socket
    EXPECT_EQ(m->network->path(0, 16).level, 1);         // node 0 -> node 1, one hop
    EXPECT_EQ(m->network->path(0, 16).latency, us(2));   // base 1 us + 1 us
    EXPECT_EQ(m->network->path(0, 16 * 255).level, 2);   // (15,15,0): one hop back in x and y
    const int far = 16 * (8 + 16 * 8 + 256 * 8);         // (8,8,8): 24 hops
    EXPECT_EQ(m->network->path(0, far).level, 24);
    EXPECT_EQ(m->network->path(0, far).latency, us(25));
    EXPECT_EQ(m->network->min_latency(), us(0.4));
    EXPECT_THROW(load_machine({kExamples + "/torus3d.toml", {}}, 65537), ConfigError);
}

TEST(Examples, FatTree) {
    auto m = load_machine({kExamples + "/fat-tree.toml", {}}, 32768);
    ASSERT_STREQ(m->network->name(), "star");
    EXPECT_EQ(m->network->path(0, 1).latency, us(0.3));
    EXPECT_EQ(m->network->path(0, 16).latency, us(0.6));
    EXPECT_EQ(m->network->path(0, 32).latency, us(1.0));
    EXPECT_EQ(m->network->path(0, 32 * 32).latency, us(1.5));
    EXPECT_EQ(m->network->path(0, 32 * 512).latency, us(2.0));
    EXPECT_EQ(m->network->path(0, 32 * 512).level, 4);
}

TEST(Examples, HostMachineLoads) {
    auto m = load_machine({kExamples + "/host.toml", {}}, 64);
    EXPECT_STREQ(m->network->name(), "star");
    EXPECT_GT(m->network->min_latency(), 0);
    EXPECT_EQ(m->network->path(3, 3).level, 0);  // the core level: a rank to itself
}

}  // namespace
}  // namespace xsim::net::test
