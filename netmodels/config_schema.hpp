// The typed table of every configuration key: its type, value check, default and
// meaning. Loading checks every key of the file and of the overrides against it, and
// describe_config_keys() prints it.
#pragma once
#include <span>
#include <string>
#include <string_view>

#include <toml++/toml.h>

namespace xsim::net {

enum class KeyType {
    kNumber,      // float or integer, stored as float
    kInteger,
    kBool,
    kString,
    kIntArray,    // array of integers
    kBoolArray,   // array of booleans
    kIdArray,     // array of integers or "first-last" range strings
    kTable,
    kTableArray,  // array of tables ([[...]])
};

enum class Check {
    kNone,
    kNonNegative,  // >= 0
    kProbability,  // in [0, 1]
    kCount,        // integer in [1, 2^31 - 1] (for arrays: every element)
    kSeconds,      // a duration: from one picosecond to kMaxConfigSeconds
    kRate,         // bytes or flops per second: finite, at least kMinConfigRate
    kSpeed,        // relative core speed: in [kMinConfigSpeed, kMaxConfigSpeed]
};

// Bounds of the machine's numbers. Each is far beyond any real machine; they exist so that
// an absurd value is refused with its key named instead of wrapping virtual time.
constexpr double kMaxConfigSeconds = 1e6;  // about 11.6 days, well below kTimeLimit
constexpr double kMinConfigRate = 1.0;     // one byte (flop) per second
constexpr double kMinConfigSpeed = 1e-6;
constexpr double kMaxConfigSpeed = 1e6;

enum class Presence {
    kTopLevel,  // outside arrays of tables: always present (built-in defaults hold it)
    kRequired,  // inside an array of tables element: must be given
    kOptional,  // inside an array of tables element: may be absent (no default)
    kDefault,   // inside an array of tables element: `element_default` when absent
};

struct KeySpec {
    const char* path;             // "network.level[].latency": [] marks array-of-tables elements
    KeyType type;
    Check check;
    const char* choices;          // "a|b|c" for strings with fixed values, else nullptr
    Presence presence;
    const char* element_default;  // TOML value text for Presence::kDefault
    const char* meaning;
};

std::span<const KeySpec> config_keys();
const KeySpec* find_key(std::string_view schema_path);
const char* type_name(KeyType type);

// Problem with `value` as the value of `spec` ("" when fine): wrong type, failed check or
// a string outside the choices.
std::string check_value(const KeySpec& spec, const toml::node& value);

// The value of a number node (integer or float) as a double. Unlike
// node::value<double>(), also for integers beyond 2^53.
double number_of(const toml::node& value);

// Parses an "a-b" range string or returns false.
bool parse_id_range(std::string_view text, long long& first, long long& last);

}  // namespace xsim::net
