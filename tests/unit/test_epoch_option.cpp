// -xsim-epoch fixed|now|SECONDS: what the realtime clocks read at virtual time 0.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "libxsim/engine/options.hpp"
#include "option_parsing.hpp"

using namespace xsim;

namespace {

Options parse_epoch(std::vector<std::string> words) { return option_test::parsed_options(std::move(words)); }
std::string epoch_refusal(std::vector<std::string> words) { return option_test::option_refusal(std::move(words)); }

}  // namespace

TEST(EpochOption, FixedByDefault) {
    const Options o = parse_epoch({"./app"});
    EXPECT_EQ(o.epoch_seconds, 1'700'000'000);
    EXPECT_FALSE(o.epoch_now);
}

TEST(EpochOption, AcceptsFixedNowAndSeconds) {
    EXPECT_EQ(parse_epoch({"./app", "-xsim-epoch", "0"}).epoch_seconds, 0);
    EXPECT_EQ(parse_epoch({"./app", "-xsim-epoch=86400"}).epoch_seconds, 86400);
    EXPECT_EQ(parse_epoch({"./app", "-xsim-epoch", "253402300799"}).epoch_seconds, 253'402'300'799);
    EXPECT_TRUE(parse_epoch({"./app", "-xsim-epoch", "now"}).epoch_now);
    // The later option wins, `fixed` included.
    const Options back = parse_epoch({"./app", "-xsim-epoch", "now", "-xsim-epoch", "fixed"});
    EXPECT_FALSE(back.epoch_now);
    EXPECT_EQ(back.epoch_seconds, 1'700'000'000);
    EXPECT_FALSE(parse_epoch({"./app", "-xsim-epoch", "now", "-xsim-epoch", "5"}).epoch_now);
}

TEST(EpochOption, BadValuesAreOneLineNamingOptionAndValue) {
    const std::string expected = "-xsim-epoch: expected 'fixed', 'now' or seconds since 1970 (0 to 253402300799), got '";
    for (const char* bad : {"yesterday", "-1", "253402300800", "1e9", "", "99999999999999999999"})
        EXPECT_EQ(epoch_refusal({"./app", "-xsim-epoch", bad}), expected + bad + "'") << bad;
    EXPECT_NE(epoch_refusal({"./app", "-xsim-epoch"}).find("-xsim-epoch"), std::string::npos);
}

TEST(EpochOption, HelpListsIt) {
    EXPECT_NE(options_help().find("-xsim-epoch"), std::string::npos);
}
