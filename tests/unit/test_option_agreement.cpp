// The settings real processes compare at start (runtime/option_agreement): equal for the
// same options however spelled, and a difference names the first option that differs.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "libxsim/runtime/option_agreement.hpp"

namespace xsim::runtime {
namespace {

Settings settings_of(std::vector<std::string> words, const char* env = nullptr) {
    std::vector<char*> argv;
    for (auto& w : words) argv.push_back(w.data());
    return option_settings(parse_command_line(static_cast<int>(argv.size()), argv.data(), env).options);
}

TEST(OptionAgreement, SameOptionsHoweverSpelledAgree) {
    EXPECT_EQ(settings_of({"./a", "-xsim-np", "8", "-xsim-quiet"}), settings_of({"./b", "-xsim-progress=off", "-xsim-np=8"}));
    EXPECT_EQ(settings_of({"./a", "-xsim-np", "8"}, "-xsim-np 4"), settings_of({"./a", "-xsim-np", "8"}));  // argv wins
    EXPECT_EQ(describe_difference(settings_of({"./a", "-xsim-np", "8"}), settings_of({"./a", "-xsim-np=8", "app"}), 1), "");
}

TEST(OptionAgreement, TheFirstDifferingOptionIsNamed) {
    const Settings p0 = settings_of({"./a", "-xsim-np", "8", "-xsim-stack", "64k"});
    const Settings p1 = settings_of({"./a", "-xsim-np", "16", "-xsim-stack", "64k"});
    EXPECT_EQ(describe_difference(p0, p1, 1),
              "the real processes were started differently: process 0 has '-xsim-np 8' where process 1 has "
              "'-xsim-np 16'; every process must get the same -xsim-* options (mpirun's ':' parts and "
              "XSIM_OPTIONS included) and read the same machine");
    // XSIM_OPTIONS exported to one process only.
    const std::string env_only =
        describe_difference(settings_of({"./a", "-xsim-np", "4"}), settings_of({"./a", "-xsim-np", "4"}, "-xsim-payload off"), 3);
    EXPECT_NE(env_only.find("process 3 has '-xsim-payload off' where process 0 has no -xsim-payload"),
              std::string::npos)
        << env_only;
    // One process lacks a setting.
    const std::string shorter = describe_difference(p0, Settings(p0.begin(), p0.end() - 1), 2);
    EXPECT_NE(shorter.find("process 0 has '-xsim-stack 64k' where process 2 has no -xsim-stack"), std::string::npos)
        << shorter;
}

TEST(OptionAgreement, OverrideOrderMatters) {
    EXPECT_NE(settings_of({"./a", "-xsim-set", "a=1", "-xsim-set", "a=2"}),
              settings_of({"./a", "-xsim-set", "a=2", "-xsim-set", "a=1"}));
}

TEST(OptionAgreement, MachineLinesAreCompared) {
    const Settings a = machine_settings("{\n  \"x\": 1,\n  \"y\": 2\n}");
    const Settings b = machine_settings("{\n  \"x\": 1,\n  \"y\": 3\n}");
    EXPECT_NE(describe_difference(a, b, 1).find("process 0 has 'machine configuration line 3 \"y\": 2' where process 1 has "
                                                "'machine configuration line 3 \"y\": 3'"),
              std::string::npos);
}

TEST(OptionAgreement, SerializationRoundTripsAnyBytes) {
    const Settings s = {{"-xsim-set", "a=\"x\ty\"\nz\\"}, {"-xsim-np", "8"}, {"start-up error:", ""}};
    EXPECT_EQ(deserialize_settings(serialize_settings(s)), s);
    EXPECT_NE(settings_hash(serialize_settings(s)), settings_hash(serialize_settings({{"-xsim-np", "8"}})));
}

}  // namespace
}  // namespace xsim::runtime
