// Machine configuration: built-in defaults, then the TOML file, then "dotted.key=value"
// overrides, each key checked against the schema (config_schema.cpp) as it is applied,
// then converted to MachineConfig with the cross-key checks. Every error is a ConfigError
// with one line naming where the value came from (file and line, override, default) and
// the key, in the dotted form overrides use.
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <toml++/toml.h>

#include "netmodels/config.hpp"
#include "netmodels/config_schema.hpp"
#include "netmodels/network_registry.hpp"

namespace xsim::net {

void ConfigOrigins::erase_prefix(const std::string& prefix) {
    for (auto it = origins_.lower_bound(prefix); it != origins_.end() && it->first.starts_with(prefix);)
        it = origins_.erase(it);
}

std::string ConfigOrigins::of(const std::string& key) const {
    // The value's own origin, else that of the innermost enclosing entry that has one
    // (a missing key of a [[network.level]] entry is blamed on the entry).
    std::string k = key;
    for (;;) {
        if (auto it = origins_.find(k); it != origins_.end()) return it->second;
        const auto dot = k.rfind('.');
        if (dot == std::string::npos) return "built-in default machine";
        k.resize(dot);
    }
}

ConfigError ConfigOrigins::error(const std::string& key, const std::string& problem) const {
    return ConfigError(of(key) + ": key '" + key + "': " + problem);
}

namespace {

constexpr const char* kDefaultOrigin = "built-in default machine";

std::string where(const toml::node& n, const std::string& fallback) {
    const toml::source_region& s = n.source();
    if (s.path && s.begin.line > 0) return *s.path + ":" + std::to_string(s.begin.line);
    return fallback;
}

// Stores a copy of `v` under `key`, integers as floats for number keys.
void assign(toml::table& t, std::string_view key, const toml::node& v, const KeySpec& spec) {
    if (spec.type == KeyType::kNumber && v.is_integer()) {
        t.insert_or_assign(key, static_cast<double>(*v.value<std::int64_t>()));
        return;
    }
    v.visit([&](const auto& concrete) { t.insert_or_assign(key, concrete); });
}

// The name overrides use for element i of the array of tables at `schema_path`.
std::string element_id(const std::string& schema_path, const toml::table& element, std::size_t i) {
    if (find_key(schema_path + "[].name") == nullptr) return std::to_string(i);
    if (auto name = element["name"].value<std::string>()) return *name;
    return "level" + std::to_string(i);
}

class Layers {
public:
    Layers() {
        eff_ = toml::parse(std::string_view(default_machine_toml()), std::string_view(kDefaultOrigin));
        check_table(eff_, "", "", kDefaultOrigin);
    }

    void apply_file(const std::string& file) {
        // An ifstream opens a directory without complaint and reads it as empty.
        std::error_code ec;
        if (std::filesystem::is_directory(file, ec))
            throw ConfigError(file + ": is a directory, not a machine configuration file");
        if (!std::ifstream(file))
            throw ConfigError(file + ": cannot open machine configuration file (" + std::strerror(errno) + ")");
        toml::table t;
        try {
            t = toml::parse_file(file);
        } catch (const toml::parse_error& e) {
            std::ostringstream msg;
            msg << file << ":" << e.source().begin.line << ":" << e.source().begin.column
                << ": TOML syntax error: " << e.description();
            throw ConfigError(msg.str());
        }
        check_table(t, "", "", file);
        const std::filesystem::path dir = std::filesystem::path(file).parent_path();
        merge(eff_, t, "", "", file, dir);
    }

    void apply_override(const std::string& text);

    MachineConfig finish();

private:
    // Rejects unknown keys and badly typed values of `t` (a file or the defaults).
    void check_table(const toml::table& t, const std::string& canon, const std::string& schema,
                     const std::string& origin) const {
        for (const auto& [k, v] : t) {
            const std::string key = canon + std::string(k.str());
            const std::string spath = schema + std::string(k.str());
            const KeySpec* spec = find_key(spath);
            if (spec == nullptr) throw ConfigError(where(v, origin) + ": key '" + key + "': unknown key");
            if (auto problem = check_value(*spec, v); !problem.empty())
                throw ConfigError(where(v, origin) + ": key '" + key + "': " + problem);
            if (spec->type == KeyType::kTable) check_table(*v.as_table(), key + ".", spath + ".", origin);
            if (spec->type == KeyType::kTableArray) check_elements(*v.as_array(), key, spath, origin);
        }
    }

    void check_elements(const toml::array& a, const std::string& key, const std::string& spath,
                        const std::string& origin) const {
        std::set<std::string> ids;
        for (std::size_t i = 0; i < a.size(); ++i) {
            const toml::table& e = *a[i].as_table();
            const std::string id = element_id(spath, e, i);
            if (!ids.insert(id).second)
                throw ConfigError(where(e, origin) + ": key '" + key + "." + id + "': duplicate name '" + id + "'");
            check_table(e, key + "." + id + ".", spath + "[].", origin);
        }
    }

    // Copies the (checked) file table `t` into `into`, recording origins.
    void merge(toml::table& into, const toml::table& t, const std::string& canon, const std::string& schema,
               const std::string& origin, const std::filesystem::path& dir) {
        for (const auto& [k, v] : t) {
            const std::string key = canon + std::string(k.str());
            const std::string spath = schema + std::string(k.str());
            const KeySpec& spec = *find_key(spath);
            if (spec.type == KeyType::kTable) {
                if (!into.contains(k.str())) into.insert(k.str(), toml::table{});
                merge(*into[k.str()].as_table(), *v.as_table(), key + ".", spath + ".", origin, dir);
                continue;
            }
            origins_.erase_prefix(key + ".");
            origins_.set(key, where(v, origin));
            if (spec.type == KeyType::kTableArray) {
                const toml::array& a = *v.as_array();
                for (std::size_t i = 0; i < a.size(); ++i) record_origins(*a[i].as_table(), key + "." +
                                                                             element_id(spath, *a[i].as_table(), i) + ".", origin);
            }
            if (spath == "mapping.file" && !v.value<std::string>()->empty() && !dir.empty() &&
                std::filesystem::path(*v.value<std::string>()).is_relative()) {
                into.insert_or_assign(k.str(), (dir / *v.value<std::string>()).string());
                continue;
            }
            assign(into, k.str(), v, spec);
        }
    }

    void record_origins(const toml::table& t, const std::string& canon, const std::string& origin) {
        origins_.set(canon.substr(0, canon.size() - 1), where(t, origin));
        for (const auto& [k, v] : t) origins_.set(canon + std::string(k.str()), where(v, origin));
    }

    toml::table eff_;
    ConfigOrigins origins_;
};

void Layers::apply_override(const std::string& text) {
    const std::string origin = "override '" + text + "'";
    const auto eq = text.find('=');
    auto trim = [](std::string s) {
        const auto b = s.find_first_not_of(" \t");
        const auto e = s.find_last_not_of(" \t");
        return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
    };
    if (eq == std::string::npos) throw ConfigError(origin + ": malformed override, expected dotted.key=value");
    const std::string key = trim(text.substr(0, eq));
    const std::string value = trim(text.substr(eq + 1));
    if (key.empty() || value.empty())
        throw ConfigError(origin + ": malformed override, expected dotted.key=value");

    // Walk the key: tables by name, arrays of tables by element name or index.
    std::vector<std::string> parts;
    for (std::size_t b = 0;;) {
        const auto dot = key.find('.', b);
        parts.push_back(key.substr(b, dot == std::string::npos ? std::string::npos : dot - b));
        if (dot == std::string::npos) break;
        b = dot + 1;
    }
    toml::table* table = &eff_;
    std::string canon;
    std::string spath;
    const KeySpec* spec = nullptr;
    toml::array* entries = nullptr;  // the array of tables holding `table`, if any
    std::string entries_key;          // its dotted key
    std::string entries_schema;       // and schema path
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const std::string& part = parts[i];
        if (part.empty()) throw ConfigError(origin + ": malformed override key '" + key + "' (empty part)");
        if (!canon.empty()) canon += '.';
        canon += part;
        if (!spath.empty()) spath += '.';
        spath += part;
        spec = find_key(spath);
        if (spec == nullptr) throw ConfigError(origin + ": key '" + key + "': unknown key");
        if (i + 1 == parts.size()) break;
        if (spec->type == KeyType::kTable) {
            table = (*table)[part].as_table();
            continue;
        }
        if (spec->type != KeyType::kTableArray)
            throw ConfigError(origin + ": key '" + key + "': '" + canon + "' is a " + type_name(spec->type) +
                              ", not a table");
        toml::array& a = *(*table)[part].as_array();
        entries = &a;
        entries_key = canon;
        entries_schema = spath;
        const std::string& want = parts[++i];
        table = nullptr;
        for (std::size_t e = 0; e < a.size(); ++e) {
            if (element_id(spath, *a[e].as_table(), e) == want || std::to_string(e) == want) {
                table = a[e].as_table();
                canon += '.';
                canon += element_id(spath, *table, e);
                break;
            }
        }
        if (table == nullptr)
            throw ConfigError(origin + ": key '" + key + "': no entry '" + want + "' in " + canon);
        if (i + 1 == parts.size())
            throw ConfigError(origin + ": key '" + key + "': names a whole entry; set one of its keys");
        spath += "[]";
    }
    if (spec->type == KeyType::kTable)
        throw ConfigError(origin + ": key '" + key + "': is a table; set its keys one by one");

    toml::table parsed;
    bool parsed_ok = true;
    try {
        parsed = toml::parse("v = " + value, origin);
    } catch (const toml::parse_error&) {
        parsed_ok = false;
    }
    if (!parsed_ok) {
        // A bare word is a string where the key wants one: network.model=torus.
        if (spec->type != KeyType::kString)
            throw ConfigError(origin + ": key '" + canon + "': '" + value + "' is not a TOML value (" +
                              type_name(spec->type) + " expected)");
        parsed.insert_or_assign("v", value);
    }
    const toml::node& v = *parsed.get("v");
    if (auto problem = check_value(*spec, v); !problem.empty())
        throw ConfigError(origin + ": key '" + canon + "': " + problem);
    if (spec->type == KeyType::kTableArray) check_elements(*v.as_array(), canon, spath, origin);
    const std::string last = parts.back();
    if (entries != nullptr && last == "name") {
        // Renaming an entry: names stay unique, as check_elements demands of a file.
        const std::string name = *v.value<std::string>();
        for (std::size_t e = 0; e < entries->size(); ++e) {
            const toml::table& other = *(*entries)[e].as_table();
            if (&other != table && element_id(entries_schema, other, e) == name)
                throw ConfigError(origin + ": key '" + entries_key + "." + name + "': duplicate name '" + name + "'");
        }
    }
    origins_.erase_prefix(canon + ".");
    origins_.set(canon, origin);
    assign(*table, last, v, *spec);
}

}  // namespace

// Conversion to MachineConfig with the cross-key checks lives in machine_config_build.cpp.
MachineConfig build_machine_config(toml::table& eff, ConfigOrigins origins);

MachineConfig Layers::finish() { return build_machine_config(eff_, std::move(origins_)); }

MachineConfig load_machine_config(const MachineSpec& spec) {
    Layers layers;
    if (!spec.config_file.empty()) layers.apply_file(spec.config_file);
    for (const std::string& o : spec.overrides) layers.apply_override(o);
    return layers.finish();
}

}  // namespace xsim::net
