// The regions file: measured compute per named region (xsim_region_begin/end), written by
// a measured run (-xsim-regions-out) and replayed by an application-model run
// (-xsim-regions-in). A text file, one region per line, sorted by name:
//
//   xsim-regions 1
//   # name calls mean_s min_s max_s
//   solve 4096 0.001234567890 0.001200000000 0.001300000000
//
// - The first non-comment line is the header "xsim-regions 1" (format version 1).
// - '#' starts a comment line; blank lines are ignored.
// - name: 1 to 128 printable ASCII characters, no space and no '#'. Each name once.
// - calls: how many begin/end pairs were measured, over all simulated ranks (>= 1).
// - mean_s, min_s, max_s: simulated seconds (>= 0, min <= mean <= max). xsim writes
//   them with 12 decimals, i.e. exact picoseconds; the mean is the total over all calls
//   divided by calls, rounded to the nearest picosecond, so it does not depend on how the
//   ranks were spread over real processes. Replay uses mean_s.
#pragma once
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>

#include "pdes/sim_time.hpp"

namespace xsim {

class RegionFileError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct RegionRecord {
    std::uint64_t calls = 0;
    SimTime mean = 0;
    SimTime min = 0;
    SimTime max = 0;
};

using RegionTable = std::map<std::string, RegionRecord>;  // sorted by name: a stable file

// Whether `name` may be a region name (see above).
bool valid_region_name(const std::string& name);

// Parses the text of a regions file; `origin` names it in errors ("FILE:LINE: ...").
// Throws RegionFileError.
RegionTable parse_region_file(const std::string& text, const std::string& origin);
// Reads and parses a file; throws RegionFileError (also when it cannot be read).
RegionTable read_region_file(const std::string& path);

std::string format_region_file(const RegionTable& table);

// Picoseconds as seconds with 12 decimals ("0.001234567890"), exact.
std::string format_seconds_exact(SimTime ps);
// Inverse for a plain decimal ("0.5", "12", "1e-3" too); false when not a number >= 0.
bool parse_seconds(const std::string& text, SimTime* ps);

}  // namespace xsim
