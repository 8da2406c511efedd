// Numbers at the edges of what a machine file can hold: integers beyond 2^53, inf and nan,
// values too large or too small for integer-picosecond time, counts beyond an int. Each is
// either used exactly or refused with its key and line named; none may end in an
// uncaught exception, a wrap-around or a silently clamped value.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "test_support.hpp"

namespace xsim::net::test {
namespace {

using ::testing::HasSubstr;

std::string level_with(const std::string& latency, const std::string& bandwidth) {
    return "[[network.level]]\nname = \"all\"\nlatency = " + latency + "\nbandwidth = " + bandwidth + "\n";
}

// 2^53 + 1: an integer a double cannot hold exactly (toml++'s value<double>() is empty).
constexpr const char* kBeyond2to53 = "9007199254740993";

TEST(ConfigRange, IntegerBandwidthBeyond2to53IsUsed) {
    auto m = machine_from(level_with("1", kBeyond2to53), 16);
    EXPECT_DOUBLE_EQ(m->network->path(0, 1).bandwidth, 9007199254740992.0);
    EXPECT_EQ(m->network->path(0, 1).latency, kPicosPerSecond);
}

TEST(ConfigRange, IntegerLatencyBeyond2to53IsTooLarge) {
    const std::string msg = config_error_from(level_with(kBeyond2to53, "1e9"), 16);
    EXPECT_THAT(msg, HasSubstr("bad.toml:3: key 'network.level.all.latency': is too large"));
}

TEST(ConfigRange, IntegerOverrideSpeedBeyond2to53IsTooLarge) {
    const std::string msg =
        config_error_from(std::string("[[processor.override]]\nranks = [0]\nspeed = ") + kBeyond2to53 + "\n", 16);
    EXPECT_THAT(msg, HasSubstr("bad.toml:3: key 'processor.override.0.speed': is too large"));
    // An integer override speed in range is used, not dropped ("needs `speed` or `flops`").
    auto m = machine_from("[[processor.override]]\nranks = [0]\nspeed = 2\n", 16);
    EXPECT_EQ(m->processor->measured_compute(0, 1000, 0), 500);
}

TEST(ConfigRange, NonFiniteNumbersAreRefused) {
    for (const char* v : {"inf", "-inf", "nan", "+inf"}) {
        const std::string msg = config_error_from(level_with("1e-6", v), 16);
        EXPECT_THAT(msg, HasSubstr("bad.toml:4: key 'network.level.all.bandwidth': must be a finite number")) << v;
        EXPECT_THAT(config_error_from(std::string("[processor]\nspeed = ") + v + "\n", 16),
                    HasSubstr("key 'processor.speed': must be a finite number"))
            << v;
    }
    EXPECT_THAT(config_error({"", {"processor.noise.probability=nan"}}, 16),
                HasSubstr("key 'processor.noise.probability': must be a finite number"));
}

TEST(ConfigRange, HugeLatencyIsTooLargeNotBelowOnePicosecond) {
    const std::string msg = config_error({"", {"network.level.node.latency=1e300"}}, 16);
    EXPECT_THAT(msg, HasSubstr("key 'network.level.node.latency': is too large: at most 1e+06 seconds (got 1e+300)"));
    EXPECT_THAT(config_error({"", {"network.torus.hop_latency=2e6"}}, 16),
                HasSubstr("key 'network.torus.hop_latency': is too large"));
    EXPECT_THAT(config_error({"", {"processor.poll_cost=1e7"}}, 16), HasSubstr("key 'processor.poll_cost': is too large"));
}

TEST(ConfigRange, SubPicosecondDurationsAreRefused) {
    // Rounded to 0 ps a latency would be a zero lookahead between real processes.
    EXPECT_THAT(config_error({"", {"network.level.node.latency=1e-13"}}, 16),
                HasSubstr("key 'network.level.node.latency': is below one picosecond"));
    EXPECT_THAT(config_error({"", {"network.torus.base_latency=4e-13"}}, 16),
                HasSubstr("key 'network.torus.base_latency': is below one picosecond"));
    // Exactly one picosecond is fine.
    auto m = default_machine(16, {"network.level.node.latency=1e-12"});
    EXPECT_EQ(m->network->path(0, 1).latency, 1);
}

TEST(ConfigRange, AbsurdlySmallRatesAndSpeedsAreRefused) {
    // 1e-300 B/s made every transfer time infinite, cast to int64: messages were free.
    EXPECT_THAT(config_error({"", {"network.level.node.bandwidth=1e-300"}}, 16),
                HasSubstr("key 'network.level.node.bandwidth': is too small: at least 1 per second"));
    EXPECT_THAT(config_error({"", {"network.torus.link_bandwidth=0.5"}}, 16),
                HasSubstr("key 'network.torus.link_bandwidth': is too small"));
    EXPECT_THAT(config_error({"", {"processor.flops=1e-9"}}, 16), HasSubstr("key 'processor.flops': is too small"));
    // speed 1e-12 turned a millisecond of host compute into negative virtual time.
    EXPECT_THAT(config_error({"", {"processor.speed=1e-12"}}, 16), HasSubstr("key 'processor.speed': is too small"));
    EXPECT_THAT(config_error({"", {"processor.speed=1e12"}}, 16), HasSubstr("key 'processor.speed': is too large"));
}

TEST(ConfigRange, CountsBeyondAnIntAreRefusedNotClamped) {
    EXPECT_THAT(config_error({"", {"mapping.ranks_per_node=3000000000"}}, 16),
                HasSubstr("key 'mapping.ranks_per_node': is too large: at most 2147483647"));
    EXPECT_THAT(config_error({"", {"network.torus.dims=[4, 3000000000]"}}, 16),
                HasSubstr("key 'network.torus.dims': element is too large"));
    EXPECT_THAT(config_error({"", {"network.level.switch.nodes_per_group=9223372036854775807"}}, 16),
                HasSubstr("key 'network.level.switch.nodes_per_group': is too large"));
}

TEST(ConfigRange, ADirectoryIsNotAMachineFile) {
    const std::string dir = std::filesystem::path(write_temp_file("x.toml", "")).parent_path().string();
    EXPECT_EQ(config_error({dir, {}}, 16), dir + ": is a directory, not a machine configuration file");
}

TEST(ConfigRange, AMappingFileThatIsADirectoryIsNamedSo) {
    const std::string dir = std::filesystem::path(write_temp_file("x.toml", "")).parent_path().string();
    const std::string msg = config_error({"", {"mapping.kind=file", "mapping.file=\"" + dir + "\""}}, 16);
    EXPECT_THAT(msg, HasSubstr("key 'mapping.file': '" + dir + "' is a directory, not a mapping file"));
}

TEST(ConfigRange, RenamingALevelToATakenNameIsRefused) {
    // A file with two levels of one name is refused; an override must be too.
    const std::string msg = config_error({"", {"network.level.node.name=switch"}}, 16);
    EXPECT_THAT(msg, HasSubstr("override 'network.level.node.name=switch': key 'network.level.switch': duplicate name"));
    // Unnamed entries are called level<i>: taking that name is a duplicate as well.
    const std::string file = "[[network.level]]\nname = \"a\"\nranks = 16\nlatency = 1e-6\nbandwidth = 1e9\n"
                             "[[network.level]]\nlatency = 2e-6\nbandwidth = 1e9\n";
    EXPECT_THAT(config_error_from(file, 16, {"network.level.a.name=level1"}), HasSubstr("duplicate name 'level1'"));
    // Renaming to a fresh name, or to its own name, is fine.
    EXPECT_NO_THROW(default_machine(16, {"network.level.node.name=socket"}));
    EXPECT_NO_THROW(default_machine(16, {"network.level.node.name=node"}));
}

}  // namespace
}  // namespace xsim::net::test
