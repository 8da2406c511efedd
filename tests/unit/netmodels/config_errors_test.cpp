// Every configuration error is one ConfigError line naming the key, and for file errors
// the file and line.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "test_support.hpp"

namespace xsim::net::test {
namespace {

using ::testing::HasSubstr;

// Asserts `msg` names `key` and, when given, `file:line`.
void expect_names(const std::string& msg, const std::string& key, const std::string& file_line = "") {
    EXPECT_THAT(msg, HasSubstr("key '" + key + "'"));
    if (!file_line.empty()) EXPECT_THAT(msg, HasSubstr(file_line));
}


TEST(FileErrors, UnknownKeyNamesFileLineAndKey) {
    const std::string msg = config_error_from("[network]\nmodel = \"star\"\nmodle = \"torus\"\n", 16);
    expect_names(msg, "network.modle", "bad.toml:3:");
    EXPECT_THAT(msg, HasSubstr("unknown key"));
}

TEST(FileErrors, UnknownTable) {
    expect_names(config_error_from("\n[netwrok]\nmodel = 1\n", 16), "netwrok", "bad.toml:2:");
}

TEST(FileErrors, WrongType) {
    const std::string msg = config_error_from("[processor]\nspeed = \"fast\"\n", 16);
    expect_names(msg, "processor.speed", "bad.toml:2:");
    EXPECT_THAT(msg, HasSubstr("must be a number"));
    expect_names(config_error_from("[mapping]\nranks_per_node = 2.5\n", 16), "mapping.ranks_per_node", "bad.toml:2:");
    expect_names(config_error_from("[network]\ncontention = 1\n", 16), "network.contention", "bad.toml:2:");
    expect_names(config_error_from("[network.torus]\ndims = [4, \"x\"]\n", 16), "network.torus.dims", "bad.toml:2:");
}

TEST(FileErrors, NonPositiveLatencyAndBandwidth) {
    const std::string level = R"(
[[network.level]]
name = "node"
latency = LAT
bandwidth = BW
)";
    auto with = [&](const std::string& lat, const std::string& bw) {
        std::string t = level;
        t.replace(t.find("LAT"), 3, lat);
        t.replace(t.find("BW"), 2, bw);
        return config_error_from(t, 16);
    };
    std::string msg = with("-1e-6", "1e9");
    expect_names(msg, "network.level.node.latency", "bad.toml:4:");
    EXPECT_THAT(msg, HasSubstr("must be > 0"));
    expect_names(with("0.0", "1e9"), "network.level.node.latency", "bad.toml:4:");
    expect_names(with("1e-6", "0"), "network.level.node.bandwidth", "bad.toml:5:");
    expect_names(with("1e-6", "-5e9"), "network.level.node.bandwidth", "bad.toml:5:");
    expect_names(config_error_from("[network.torus]\nhop_latency = 0.0\n", 16), "network.torus.hop_latency",
                 "bad.toml:2:");
    expect_names(config_error_from("[network.torus]\nlink_bandwidth = -1.0\n", 16), "network.torus.link_bandwidth",
                 "bad.toml:2:");
}

TEST(FileErrors, MissingRequiredLevelKeyNamesTheEntry) {
    const std::string msg = config_error_from("[[network.level]]\nname = \"x\"\nlatency = 1e-6\n", 16);
    expect_names(msg, "network.level.x.bandwidth", "bad.toml:1");
    EXPECT_THAT(msg, HasSubstr("required"));
}

TEST(FileErrors, DuplicateLevelName) {
    const std::string msg = config_error_from(
        "[[network.level]]\nname = \"a\"\nlatency = 1e-6\nbandwidth = 1e9\nranks = 16\n"
        "[[network.level]]\nname = \"a\"\nlatency = 1e-6\nbandwidth = 1e9\n",
        16);
    expect_names(msg, "network.level.a", "bad.toml:6");
}

TEST(FileErrors, StarTopologyTooSmall) {
    const std::string msg = config_error_from(R"(
[[network.level]]
name = "node"
nodes_per_group = 1
latency = 1e-6
bandwidth = 1e9
[[network.level]]
name = "top"
nodes_per_group = 2
latency = 2e-6
bandwidth = 1e9
)",
                                              64);  // 4 nodes of 16 ranks; top holds 2
    expect_names(msg, "network.level.top.nodes_per_group", "bad.toml:9");
    EXPECT_THAT(msg, HasSubstr("too small"));
    // The same machine fits 32 ranks.
    EXPECT_NO_THROW(machine_from(R"(
[[network.level]]
nodes_per_group = 1
latency = 1e-6
bandwidth = 1e9
[[network.level]]
nodes_per_group = 2
latency = 2e-6
bandwidth = 1e9
)",
                                 32));
}

TEST(FileErrors, LevelsMustNest) {
    const std::string base = "[[network.level]]\nname = \"a\"\nnodes_per_group = 4\nlatency = 1e-6\nbandwidth = 1e9\n"
                             "[[network.level]]\nname = \"b\"\nnodes_per_group = 6\nlatency = 1e-6\nbandwidth = 1e9\n"
                             "[[network.level]]\nname = \"c\"\nlatency = 1e-6\nbandwidth = 1e9\n";
    expect_names(config_error_from(base, 16), "network.level.b.nodes_per_group", "bad.toml:8");
    expect_names(config_error_from("[[network.level]]\nname = \"s\"\nranks = 5\nlatency = 1e-6\nbandwidth = 1e9\n"
                                   "[[network.level]]\nname = \"t\"\nlatency = 1e-6\nbandwidth = 1e9\n",
                                   16),
                 "network.level.s.ranks", "bad.toml:3");
    expect_names(config_error_from("[[network.level]]\nname = \"s\"\nlatency = 1e-6\nbandwidth = 1e9\n"
                                   "[[network.level]]\nname = \"t\"\nlatency = 1e-6\nbandwidth = 1e9\n",
                                   16),
                 "network.level.s", "bad.toml:1");
    expect_names(config_error_from("[[network.level]]\nname = \"s\"\nranks = 16\nnodes_per_group = 1\nlatency = 1e-6\n"
                                   "bandwidth = 1e9\n",
                                   16),
                 "network.level.s.ranks", "bad.toml:3");
}

TEST(FileErrors, TorusTooSmall) {
    const std::string msg = config_error_from("[network]\nmodel = \"torus\"\n[network.torus]\ndims = [2, 2]\n", 80);
    expect_names(msg, "network.torus.dims", "bad.toml:4");
    EXPECT_THAT(msg, HasSubstr("too small"));
    EXPECT_NO_THROW(machine_from("[network]\nmodel = \"torus\"\n[network.torus]\ndims = [2, 2]\n", 64));
    expect_names(config_error_from("[network]\nmodel = \"torus\"\n", 16), "network.torus.dims");
    expect_names(config_error_from("[network.torus]\ndims = [2, 2]\nwrap = [true]\n", 16), "network.torus.wrap",
                 "bad.toml:3");
}

TEST(FileErrors, UnknownModelAndChoices) {
    std::string msg = config_error_from("[network]\nmodel = \"dragonfly\"\n", 16);
    expect_names(msg, "network.model", "bad.toml:2");
    EXPECT_THAT(msg, HasSubstr("star, torus"));
    expect_names(config_error_from("[mapping]\nkind = \"scatter\"\n", 16), "mapping.kind", "bad.toml:2");
    expect_names(config_error_from("[processor.noise]\nkind = \"loud\"\n", 16), "processor.noise.kind", "bad.toml:2");
}

TEST(FileErrors, ProcessorAndNoiseValues) {
    expect_names(config_error_from("[processor]\nspeed = 0\n", 16), "processor.speed", "bad.toml:2");
    expect_names(config_error_from("[processor]\npoll_cost = -1e-7\n", 16), "processor.poll_cost", "bad.toml:2");
    expect_names(config_error_from("[processor]\nclock_read_cost = 0\n", 16), "processor.clock_read_cost",
                 "bad.toml:2");
    expect_names(config_error_from("[processor.noise]\nkind = \"periodic\"\nperiod = 1e-5\nduration = 1e-4\n", 16),
                 "processor.noise.duration", "bad.toml:4");
    expect_names(config_error_from("[processor.noise]\nprobability = 1.5\n", 16), "processor.noise.probability",
                 "bad.toml:2");
    expect_names(config_error_from("[[processor.override]]\nspeed = 0.5\n", 16), "processor.override.0",
                 "bad.toml:1");
    expect_names(config_error_from("[[processor.override]]\nnodes = [1]\n", 16), "processor.override.0",
                 "bad.toml:1");
    expect_names(config_error_from("[[processor.override]]\nnodes = [\"3-1\"]\nspeed = 1.0\n", 16),
                 "processor.override.0.nodes", "bad.toml:2");
}

TEST(FileErrors, SyntaxErrorNamesFileAndLine) {
    const std::string msg = config_error_from("[processor]\nspeed = = 1\n", 16);
    EXPECT_THAT(msg, HasSubstr("bad.toml:2:"));
    EXPECT_THAT(msg, HasSubstr("TOML syntax error"));
}

TEST(FileErrors, MissingFile) {
    const std::string msg = config_error({"/nonexistent/dir/machine.toml", {}}, 16);
    EXPECT_THAT(msg, HasSubstr("/nonexistent/dir/machine.toml"));
}

TEST(OverrideErrors, Malformed) {
    for (const char* bad : {"network.model", "=1", "network.level.node.latency=", "network..model=star"}) {
        const std::string msg = config_error({"", {bad}}, 16);
        EXPECT_THAT(msg, HasSubstr(std::string("override '") + bad + "'"));
        EXPECT_THAT(msg, HasSubstr("malformed"));
    }
}

TEST(OverrideErrors, NameTheKey) {
    auto err = [](const std::string& o) { return config_error({"", {o}}, 16); };
    expect_names(err("network.level.node.latency=abc"), "network.level.node.latency", "override '");
    expect_names(err("network.level.node.latency=-2e-6"), "network.level.node.latency");
    expect_names(err("network.level.nosuch.latency=1e-6"), "network.level.nosuch.latency");
    EXPECT_THAT(err("network.level.nosuch.latency=1e-6"), HasSubstr("no entry 'nosuch'"));
    expect_names(err("processor.nope=1"), "processor.nope");
    expect_names(err("processor.speed=true"), "processor.speed");
    expect_names(err("processor=1"), "processor");
    expect_names(err("network.model=dragonfly"), "network.model");
    expect_names(err("mapping.ranks_per_node=0"), "mapping.ranks_per_node");
    expect_names(err("network.torus.dims=[0,4]"), "network.torus.dims");
    expect_names(err("processor.speed.x=1"), "processor.speed.x");
    expect_names(err("network.level=[]"), "network.level");
    expect_names(err("network.level.node=1"), "network.level.node");
    expect_names(err("processor.override.0.speed=0.5"), "processor.override.0.speed");  // no entry 0
}

TEST(OverrideErrors, TopologyTooSmallBlamesTheOverride) {
    const std::string msg = config_error({"", {"network.model=torus", "network.torus.dims=[2,2]"}}, 16 * 5);
    expect_names(msg, "network.torus.dims", "override 'network.torus.dims=[2,2]'");
}

TEST(MappingErrors, ShortOrBadFile) {
    const std::string map = write_temp_file("map.txt", "0\n1\n");
    std::string msg = config_error({"", {"mapping.kind=file", "mapping.file=\"" + map + "\""}}, 4);
    expect_names(msg, "mapping.file");
    EXPECT_THAT(msg, HasSubstr("places 2 ranks"));
    const std::string bad = write_temp_file("map.txt", "0\nnode1\n");
    msg = config_error({"", {"mapping.kind=file", "mapping.file=" + bad}}, 2);
    expect_names(msg, "mapping.file");
    EXPECT_THAT(msg, HasSubstr(bad + ":2"));
    expect_names(config_error({"", {"mapping.kind=file"}}, 2), "mapping.file");
    expect_names(config_error({"", {"mapping.kind=file", "mapping.file=/nonexistent/map"}}, 2), "mapping.file");
}

}  // namespace
}  // namespace xsim::net::test
