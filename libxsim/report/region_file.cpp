#include "libxsim/report/region_file.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

namespace xsim {

bool valid_region_name(const std::string& name) {
    if (name.empty() || name.size() > 128) return false;
    for (char c : name)
        if (c <= ' ' || c > '~' || c == '#') return false;
    return true;
}

std::string format_seconds_exact(SimTime ps) {
    char text[48];
    std::snprintf(text, sizeof text, "%lld.%012lld", static_cast<long long>(ps / kPicosPerSecond),
                  static_cast<long long>(ps % kPicosPerSecond));
    return text;
}

bool parse_seconds(const std::string& text, SimTime* ps) {
    // Plain decimals with up to 12 fraction digits are converted exactly (what xsim writes).
    std::size_t dot = text.find('.');
    const std::string whole = text.substr(0, dot);
    const std::string fraction = dot == std::string::npos ? "" : text.substr(dot + 1);
    auto digits = [](const std::string& s) { return s.find_first_not_of("0123456789") == std::string::npos; };
    if (!whole.empty() && whole.size() <= 6 && digits(whole) && digits(fraction) && fraction.size() <= 12 &&
        (dot == std::string::npos || !fraction.empty())) {
        SimTime value = std::atoll(whole.c_str()) * kPicosPerSecond;
        SimTime scale = kPicosPerSecond;
        for (char c : fraction) {
            scale /= 10;
            value += (c - '0') * scale;
        }
        *ps = value;
        return true;
    }
    // Anything else strtod accepts in full (exponents), rounded to the picosecond.
    char* end = nullptr;
    errno = 0;
    const double seconds = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || errno == ERANGE || !std::isfinite(seconds) || seconds < 0 ||
        seconds > 1e6)
        return false;
    *ps = seconds_to_simtime(seconds);
    return true;
}

namespace {

// `text` fit for a terminal: at most 60 characters, bytes outside printable ASCII as \xNN.
std::string excerpt(const std::string& text) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (i == 60) return out + "...";
        const auto c = static_cast<unsigned char>(text[i]);
        if (c >= ' ' && c <= '~') {
            out += static_cast<char>(c);
        } else {
            char hex[8];
            std::snprintf(hex, sizeof hex, "\\x%02x", c);
            out += hex;
        }
    }
    return out;
}

// Offset of the first control byte of `line` (tab allowed), or npos: such a line is not
// text, and echoing it raw could garble the user's terminal.
std::size_t first_control_byte(const std::string& line) {
    for (std::size_t i = 0; i < line.size(); ++i) {
        const auto c = static_cast<unsigned char>(line[i]);
        if ((c < ' ' && c != '\t') || c == 0x7f) return i;
    }
    return std::string::npos;
}

}  // namespace

RegionTable parse_region_file(const std::string& text, const std::string& origin) {
    RegionTable table;
    std::istringstream in(text);
    std::string line;
    int number = 0;
    std::size_t next_offset = 0;  // byte offset of the next line in `text`
    bool header = false;
    auto fail = [&](const std::string& why) -> RegionFileError {
        return RegionFileError(origin + ":" + std::to_string(number) + ": " + why);
    };
    while (std::getline(in, line)) {
        ++number;
        const std::size_t offset = next_offset;
        next_offset += line.size() + 1;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (const std::size_t bad = first_control_byte(line); bad != std::string::npos) {
            char why[160];
            std::snprintf(why, sizeof why, "byte %zu (0x%02x) is not text: %s", offset + bad,
                          static_cast<unsigned char>(line[bad]),
                          header ? "the regions file is damaged" : "not a regions file");
            throw fail(why);
        }
        std::istringstream fields_in(line);
        std::vector<std::string> fields;
        for (std::string f; fields_in >> f;) fields.push_back(f);
        if (fields.empty() || fields[0][0] == '#') continue;
        if (!header) {
            if (fields.size() != 2 || fields[0] != "xsim-regions")
                throw fail("not a regions file: expected the header 'xsim-regions 1', got '" + excerpt(line) + "'");
            if (fields[1] != "1") throw fail("unsupported regions file version '" + excerpt(fields[1]) + "' (this xsim reads 1)");
            header = true;
            continue;
        }
        if (fields.size() != 5)
            throw fail("expected 5 fields 'name calls mean_s min_s max_s', got " + std::to_string(fields.size()));
        const std::string& name = fields[0];
        if (!valid_region_name(name))
            throw fail("bad region name '" + excerpt(name) + "' (1-128 printable characters, no space or '#')");
        RegionRecord r;
        char* end = nullptr;
        errno = 0;
        const unsigned long long calls = std::strtoull(fields[1].c_str(), &end, 10);
        if (*end != '\0' || errno == ERANGE || calls == 0 || fields[1][0] == '-')
            throw fail("region '" + name + "': calls must be a whole number >= 1, got '" + excerpt(fields[1]) + "'");
        r.calls = calls;
        const char* what[3] = {"mean_s", "min_s", "max_s"};
        SimTime* into[3] = {&r.mean, &r.min, &r.max};
        for (int i = 0; i < 3; ++i)
            if (!parse_seconds(fields[2 + i], into[i]))
                throw fail("region '" + name + "': " + what[i] + " must be a number of seconds >= 0, got '" +
                           excerpt(fields[2 + i]) + "'");
        if (r.min > r.mean || r.mean > r.max)
            throw fail("region '" + name + "': expected min_s <= mean_s <= max_s");
        if (!table.emplace(name, r).second) throw fail("region '" + name + "' appears twice");
    }
    if (!header) throw RegionFileError(origin + ": empty regions file (expected the header 'xsim-regions 1')");
    return table;
}

RegionTable read_region_file(const std::string& path) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) throw RegionFileError(path + ": is a directory, not a regions file");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw RegionFileError(path + ": cannot open the regions file (" + std::strerror(errno) + ")");
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) throw RegionFileError(path + ": cannot read the regions file");
    return parse_region_file(text.str(), path);
}

std::string format_region_file(const RegionTable& table) {
    std::string out = "xsim-regions 1\n# name calls mean_s min_s max_s (simulated seconds; see xsim README, Regions)\n";
    for (const auto& [name, r] : table) {
        out += name + " " + std::to_string(r.calls) + " " + format_seconds_exact(r.mean) + " " +
               format_seconds_exact(r.min) + " " + format_seconds_exact(r.max) + "\n";
    }
    return out;
}

}  // namespace xsim
