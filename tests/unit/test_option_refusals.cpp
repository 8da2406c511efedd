// Options that used to be accepted silently or refused with a misleading reason (issue 10).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "libxsim/engine/options.hpp"

namespace xsim {
namespace {

std::string error_of(std::vector<std::string> words, const char* env = nullptr) {
    std::vector<char*> argv;
    for (auto& w : words) argv.push_back(w.data());
    try {
        parse_command_line(static_cast<int>(argv.size()), argv.data(), env);
    } catch (const OptionError& e) {
        return e.what();
    }
    return "(accepted)";
}

TEST(OptionRefusals, EmptyConfigPathIsRefused) {
    // Empty used to mean "the built-in default machine", silently.
    EXPECT_EQ(error_of({"./app", "-xsim-config="}), "-xsim-config: expected a machine file name, got an empty path");
    EXPECT_EQ(error_of({"./app", "-xsim-config", ""}), "-xsim-config: expected a machine file name, got an empty path");
    EXPECT_EQ(error_of({"./app"}, "-xsim-config="), "-xsim-config: expected a machine file name, got an empty path");
}

TEST(OptionRefusals, SizesBeyondTheRangeAreTooLargeNotTooSmall) {
    // 2^64 bytes wrapped to 0 and was called "too small".
    EXPECT_EQ(error_of({"./app", "-xsim-stack", "18446744073709551616"}), "-xsim-stack: '18446744073709551616' is too large");
    EXPECT_EQ(error_of({"./app", "-xsim-stack", "1e400"}), "-xsim-stack: '1e400' is too large");
    EXPECT_EQ(error_of({"./app", "-xsim-stack", "inf"}), "-xsim-stack: 'inf' is too large");
    EXPECT_EQ(error_of({"./app", "-xsim-stack", "9000000000g"}), "-xsim-stack: '9000000000g' is too large");
    EXPECT_EQ(error_of({"./app", "-xsim-payload", "1e30"}), "-xsim-payload: '1e30' is too large");
    EXPECT_EQ(error_of({"./app", "-xsim-stack", "nan"}), "-xsim-stack: 'nan' is not a size (examples: 64k, 1m, 65536)");
    EXPECT_EQ(error_of({"./app", "-xsim-stack", "1k"}), "-xsim-stack: 1k is too small; at least 2k is needed");
}

TEST(OptionRefusals, EveryAppliedOptionIsRecordedForTheAgreementCheck) {
    std::vector<std::string> words = {"./app", "-xsim-np", "8", "-xsim-set=a.b=1", "-xsim-quiet"};
    std::vector<char*> argv;
    for (auto& w : words) argv.push_back(w.data());
    const CommandLine cl = parse_command_line(static_cast<int>(argv.size()), argv.data(), "-xsim-compute none");
    const std::vector<std::pair<std::string, std::string>> want = {
        {"-xsim-compute", "none"}, {"-xsim-np", "8"}, {"-xsim-set", "a.b=1"}, {"-xsim-quiet", ""}};
    EXPECT_EQ(cl.options.given, want);
}

}  // namespace
}  // namespace xsim
