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
    kPositive,     // > 0
    kNonNegative,  // >= 0
    kProbability,  // in [0, 1]
    kAtLeastOne,   // integer >= 1 (for arrays: every element)
};

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

// Parses an "a-b" range string or returns false.
bool parse_id_range(std::string_view text, long long& first, long long& last);

}  // namespace xsim::net
