// A binary file given as -xsim-regions-in is not echoed raw to the terminal (issue 10): the
// error names the line and the byte offset, and what it quotes is sanitised.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "libxsim/report/region_file.hpp"

namespace xsim {
namespace {

std::string binary_region_file_error(const std::string& text) {
    try {
        parse_region_file(text, "f.bin");
    } catch (const RegionFileError& e) {
        return e.what();
    }
    return "(no error)";
}

bool has_control_bytes(const std::string& s) {
    for (unsigned char c : s)
        if (c < ' ' || c == 0x7f) return true;
    return false;
}

TEST(RegionFileBinary, AnElfHeaderIsReportedByOffsetNotEchoed) {
    const std::string elf("\x7f" "ELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x03\0>\0", 20);
    EXPECT_EQ(binary_region_file_error(elf), "f.bin:1: byte 0 (0x7f) is not text: not a regions file");
}

TEST(RegionFileBinary, ControlBytesAfterTheHeaderAreReportedByOffset) {
    EXPECT_EQ(binary_region_file_error("xsim-regions 1\nsolve 1 1\x1b[2J 1 1\n"),
              "f.bin:2: byte 24 (0x1b) is not text: the regions file is damaged");
}

TEST(RegionFileBinary, QuotedTextIsSanitisedAndShort) {
    const std::string msg = binary_region_file_error("\xff\xfe not a header at all, and a long line that goes on and on and on and on\n");
    EXPECT_FALSE(has_control_bytes(msg)) << msg;
    EXPECT_NE(msg.find("got '\\xff\\xfe not a header"), std::string::npos) << msg;
    EXPECT_NE(msg.find("...'"), std::string::npos) << msg;
    for (unsigned char c : msg) EXPECT_LT(c, 0x80) << msg;
}

TEST(RegionFileBinary, ADirectoryIsNamedSo) {
    const std::string dir = std::filesystem::temp_directory_path().string();
    try {
        read_region_file(dir);
        FAIL() << "a directory was read as a regions file";
    } catch (const RegionFileError& e) {
        EXPECT_EQ(std::string(e.what()), dir + ": is a directory, not a regions file");
    }
}

}  // namespace
}  // namespace xsim
