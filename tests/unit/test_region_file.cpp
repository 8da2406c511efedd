// The regions file format (libxsim/report/region_file.hpp): parsing, errors, exact round trips.
#include <gtest/gtest.h>

#include "libxsim/report/region_file.hpp"

namespace xsim {
namespace {

std::string region_file_error(const std::string& text) {
    try {
        parse_region_file(text, "f.txt");
    } catch (const RegionFileError& e) {
        return e.what();
    }
    return "(no error)";
}

TEST(RegionFile, ParsesRegionsCommentsAndBlankLines) {
    const RegionTable t = parse_region_file(
        "# made by hand\n\nxsim-regions 1\n# name calls mean min max\nsolve 8 0.5 0.25 1\r\n"
        "halo.pack 3 0.000001000001 0.000001 0.000002\n",
        "f.txt");
    ASSERT_EQ(t.size(), 2u);
    EXPECT_EQ(t.at("solve").calls, 8u);
    EXPECT_EQ(t.at("solve").mean, kPicosPerSecond / 2);
    EXPECT_EQ(t.at("solve").min, kPicosPerSecond / 4);
    EXPECT_EQ(t.at("solve").max, kPicosPerSecond);
    EXPECT_EQ(t.at("halo.pack").mean, 1'000'001);
    EXPECT_EQ(t.at("halo.pack").min, 1'000'000);
}

TEST(RegionFile, FormatThenParseIsExact) {
    RegionTable t;
    t["a"] = RegionRecord{1, 1, 1, 1};
    t["b/c"] = RegionRecord{1000000, 123'456'789'012'345, 3, 999'999'999'999'999};
    t["zero"] = RegionRecord{2, 0, 0, 0};
    const std::string text = format_region_file(t);
    EXPECT_EQ(text.substr(0, 15), "xsim-regions 1\n");
    EXPECT_NE(text.find("b/c 1000000 123.456789012345 0.000000000003 999.999999999999\n"), std::string::npos);
    const RegionTable back = parse_region_file(text, "f.txt");
    ASSERT_EQ(back.size(), 3u);
    for (const auto& [name, r] : t) {
        EXPECT_EQ(back.at(name).calls, r.calls) << name;
        EXPECT_EQ(back.at(name).mean, r.mean) << name;
        EXPECT_EQ(back.at(name).min, r.min) << name;
        EXPECT_EQ(back.at(name).max, r.max) << name;
    }
}

TEST(RegionFile, AcceptsExponentsRoundedToPicoseconds) {
    SimTime ps = 0;
    ASSERT_TRUE(parse_seconds("1e-3", &ps));
    EXPECT_EQ(ps, 1'000'000'000);
    ASSERT_TRUE(parse_seconds("2.5E-12", &ps));
    EXPECT_EQ(ps, 3);
    ASSERT_TRUE(parse_seconds("7", &ps));
    EXPECT_EQ(ps, 7 * kPicosPerSecond);
    for (const char* bad : {"", "-1", ".5x", "abc", "nan", "inf", "1e300", "0.1.2", "-0.5"})
        EXPECT_FALSE(parse_seconds(bad, &ps)) << bad;
}

TEST(RegionFile, RejectsBadFilesWithLineNumbers) {
    EXPECT_EQ(region_file_error(""), "f.txt: empty regions file (expected the header 'xsim-regions 1')");
    EXPECT_EQ(region_file_error("# only a comment\n"), "f.txt: empty regions file (expected the header 'xsim-regions 1')");
    EXPECT_EQ(region_file_error("solve 1 1 1 1\n"),
              "f.txt:1: not a regions file: expected the header 'xsim-regions 1', got 'solve 1 1 1 1'");
    EXPECT_EQ(region_file_error("xsim-regions 2\n"), "f.txt:1: unsupported regions file version '2' (this xsim reads 1)");
    EXPECT_EQ(region_file_error("xsim-regions 1\nsolve 1 1 1\n"),
              "f.txt:2: expected 5 fields 'name calls mean_s min_s max_s', got 4");
    EXPECT_EQ(region_file_error("xsim-regions 1\nsolve 0 1 1 1\n"),
              "f.txt:2: region 'solve': calls must be a whole number >= 1, got '0'");
    EXPECT_EQ(region_file_error("xsim-regions 1\nsolve -3 1 1 1\n"),
              "f.txt:2: region 'solve': calls must be a whole number >= 1, got '-3'");
    EXPECT_EQ(region_file_error("xsim-regions 1\nsolve 2 x 1 1\n"),
              "f.txt:2: region 'solve': mean_s must be a number of seconds >= 0, got 'x'");
    EXPECT_EQ(region_file_error("xsim-regions 1\nsolve 2 1 1 -1\n"),
              "f.txt:2: region 'solve': max_s must be a number of seconds >= 0, got '-1'");
    EXPECT_EQ(region_file_error("xsim-regions 1\nsolve 2 1 2 3\n"), "f.txt:2: region 'solve': expected min_s <= mean_s <= max_s");
    EXPECT_EQ(region_file_error("xsim-regions 1\n\nsolve 2 1 1 1\nsolve 2 1 1 1\n"), "f.txt:4: region 'solve' appears twice");
    EXPECT_EQ(region_file_error("xsim-regions 1\n" + std::string(129, 'a') + " 1 1 1 1\n").substr(0, 25),
              "f.txt:2: bad region name ");
}

TEST(RegionFile, NamesArePrintableWithoutSpaceOrHash) {
    EXPECT_TRUE(valid_region_name("solve"));
    EXPECT_TRUE(valid_region_name("a.b/c:d-e_f[2]"));
    EXPECT_TRUE(valid_region_name(std::string(128, 'x')));
    EXPECT_FALSE(valid_region_name(""));
    EXPECT_FALSE(valid_region_name(std::string(129, 'x')));
    EXPECT_FALSE(valid_region_name("two words"));
    EXPECT_FALSE(valid_region_name("tab\tname"));
    EXPECT_FALSE(valid_region_name("hash#name"));
    EXPECT_FALSE(valid_region_name("caf\xc3\xa9"));
}

TEST(RegionFile, MissingFileIsAnError) {
    EXPECT_THROW(read_region_file("/nonexistent/dir/regions.txt"), RegionFileError);
}

}  // namespace
}  // namespace xsim
