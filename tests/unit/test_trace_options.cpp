// -xsim-trace and its filters (issue 11): what each value means and which are refused.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "libxsim/engine/options.hpp"
#include "option_parsing.hpp"

using namespace xsim;

namespace {

// The words after the program's name.
Options parse_trace(std::vector<std::string> words) {
    words.insert(words.begin(), "app");
    return option_test::parsed_options(std::move(words));
}
std::string trace_refusal(std::vector<std::string> words) {
    words.insert(words.begin(), "app");
    return option_test::option_refusal(std::move(words));
}

bool mentions(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST(TraceOptions, DefaultsTraceNothingAndEverythingOnceAsked) {
    const Options none = parse_trace({});
    EXPECT_TRUE(none.trace_path.empty());
    const Options o = parse_trace({"-xsim-trace", "run.otf2"});
    EXPECT_EQ(o.trace_path, "run.otf2");
    EXPECT_TRUE(o.trace_ranks.empty());
    EXPECT_EQ(o.trace_begin_ps, 0);
    EXPECT_EQ(o.trace_end_ps, -1);
    EXPECT_EQ(o.trace_calls, static_cast<unsigned>(kTraceAllCalls));
    EXPECT_EQ(parse_trace({"-xsim-trace=out/t.json"}).trace_path, "out/t.json");
}

TEST(TraceOptions, FileMustBeOtf2OrJson) {
    EXPECT_TRUE(mentions(trace_refusal({"-xsim-trace", "run.txt"}), "ending in .otf2 or .json"));
    EXPECT_TRUE(mentions(trace_refusal({"-xsim-trace", ".json"}), "ending in .otf2 or .json"));
    EXPECT_TRUE(mentions(trace_refusal({"-xsim-trace", "dir/.otf2"}), "ending in .otf2 or .json"));
}

TEST(TraceOptions, RankRanges) {
    const auto r = parse_rank_ranges("-xsim-trace-ranks", "0-63,1024,7-7");
    ASSERT_EQ(r.size(), 3u);
    EXPECT_EQ(r[0].first, 0);
    EXPECT_EQ(r[0].last, 63);
    EXPECT_EQ(r[1].first, 1024);
    EXPECT_EQ(r[1].last, 1024);
    EXPECT_EQ(r[2].first, 7);
    EXPECT_EQ(r[2].last, 7);
    const Options o = parse_trace({"-xsim-trace", "t.json", "-xsim-trace-ranks", "3,5-6"});
    ASSERT_EQ(o.trace_ranks.size(), 2u);
    EXPECT_EQ(o.trace_ranks[1].last, 6);
}

TEST(TraceOptions, BadRankRangesAreRefused) {
    const std::string o = "-xsim-trace-ranks";
    EXPECT_THROW(parse_rank_ranges(o, ""), OptionError);
    EXPECT_THROW(parse_rank_ranges(o, "0-63,"), OptionError);
    EXPECT_THROW(parse_rank_ranges(o, "a"), OptionError);
    EXPECT_THROW(parse_rank_ranges(o, "-3"), OptionError);
    EXPECT_THROW(parse_rank_ranges(o, "3-"), OptionError);
    EXPECT_THROW(parse_rank_ranges(o, "1 2"), OptionError);
    EXPECT_THROW(parse_rank_ranges(o, "99999999999"), OptionError);
    EXPECT_TRUE(mentions(trace_refusal({"-xsim-trace", "t.json", "-xsim-trace-ranks", "9-2"}), "ends before it starts"));
    EXPECT_TRUE(mentions(trace_refusal({"-xsim-trace", "t.json", "-xsim-trace-ranks", "x"}), "'x' is not a rank"));
}

TEST(TraceOptions, TimeWindowInSeconds) {
    auto w = parse_time_window("-xsim-trace-window", "0.5:1");
    EXPECT_EQ(w.first, 500'000'000'000LL);
    EXPECT_EQ(w.second, 1'000'000'000'000LL);
    w = parse_time_window("-xsim-trace-window", "2e-6:");
    EXPECT_EQ(w.first, 2'000'000LL);
    EXPECT_EQ(w.second, -1);
    w = parse_time_window("-xsim-trace-window", ":1e-12");
    EXPECT_EQ(w.first, 0);
    EXPECT_EQ(w.second, 1);
}

TEST(TraceOptions, BadTimeWindowsAreRefused) {
    const std::string o = "-xsim-trace-window";
    EXPECT_THROW(parse_time_window(o, "1"), OptionError);
    EXPECT_THROW(parse_time_window(o, "1:2:3"), OptionError);
    EXPECT_THROW(parse_time_window(o, "-1:2"), OptionError);
    EXPECT_THROW(parse_time_window(o, "1s:2"), OptionError);
    EXPECT_THROW(parse_time_window(o, "nan:"), OptionError);
    EXPECT_TRUE(mentions(trace_refusal({"-xsim-trace", "t.json", "-xsim-trace-window", "2:1"}), "is empty"));
    EXPECT_TRUE(mentions(trace_refusal({"-xsim-trace", "t.json", "-xsim-trace-window", "1:1"}), "is empty"));
}

TEST(TraceOptions, CallKinds) {
    EXPECT_EQ(parse_call_kinds("-xsim-trace-calls", "p2p"), static_cast<unsigned>(kTraceP2p));
    EXPECT_EQ(parse_call_kinds("-xsim-trace-calls", "coll,other"), static_cast<unsigned>(kTraceColl | kTraceOther));
    EXPECT_EQ(parse_call_kinds("-xsim-trace-calls", "all"), static_cast<unsigned>(kTraceAllCalls));
    EXPECT_EQ(parse_call_kinds("-xsim-trace-calls", "rma"), static_cast<unsigned>(kTraceRma));
    EXPECT_EQ(parse_call_kinds("-xsim-trace-calls", "p2p,rma"), static_cast<unsigned>(kTraceP2p | kTraceRma));
    EXPECT_EQ(parse_call_kinds("-xsim-trace-calls", "p2p,coll,rma,other"), static_cast<unsigned>(kTraceAllCalls));
    EXPECT_TRUE(mentions(trace_refusal({"-xsim-trace", "t.json", "-xsim-trace-calls", "one-sided"}),
                         "(expected p2p, coll, rma, other or all, comma-separated)"));
    EXPECT_TRUE(mentions(trace_refusal({"-xsim-trace", "t.json", "-xsim-trace-calls", "p2p,io"}), "unknown call kind 'io'"));
    EXPECT_TRUE(mentions(trace_refusal({"-xsim-trace", "t.json", "-xsim-trace-calls", "p2p,"}), "unknown call kind ''"));
}

TEST(TraceOptions, FiltersWithoutATraceAreRefused) {
    EXPECT_TRUE(mentions(trace_refusal({"-xsim-trace-ranks", "0-3"}), "no -xsim-trace"));
    EXPECT_TRUE(mentions(trace_refusal({"-xsim-trace-calls", "p2p"}), "no -xsim-trace"));
}
