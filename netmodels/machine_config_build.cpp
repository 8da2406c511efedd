// From the layered, per-key checked TOML table to MachineConfig: fills the defaults of
// array-of-tables entries, checks keys that depend on each other, and renders the
// effective configuration as JSON.
#include <algorithm>
#include <sstream>

#include <toml++/toml.h>

#include "netmodels/config.hpp"
#include "netmodels/config_schema.hpp"
#include "netmodels/network_registry.hpp"

namespace xsim::net {
namespace {

// Every key was checked against the schema before: present where required, of its type.
double num(const toml::table& t, const char* k) { return number_of(*t.get(k)); }
std::int64_t integer(const toml::table& t, const char* k) { return t[k].value<std::int64_t>().value(); }
std::string str(const toml::table& t, const char* k) { return t[k].value<std::string>().value(); }
bool boolean(const toml::table& t, const char* k) { return t[k].value<bool>().value(); }
toml::table& sub(toml::table& t, const char* k) { return *t[k].as_table(); }

// Fills kDefault keys and rejects missing kRequired keys of every array-of-tables entry.
void complete_elements(toml::table& root, const ConfigOrigins& origins) {
    for (const KeySpec& arr : config_keys()) {
        if (arr.type != KeyType::kTableArray) continue;
        const std::string apath = arr.path;
        toml::array* a = root.at_path(apath).as_array();
        if (a == nullptr) continue;
        for (std::size_t i = 0; i < a->size(); ++i) {
            toml::table& e = *(*a)[i].as_table();
            const std::string prefix = apath + "[].";
            for (const KeySpec& k : config_keys()) {
                const std::string kp = k.path;
                if (!kp.starts_with(prefix) || kp.find('.', prefix.size()) != std::string::npos) continue;
                const std::string name = kp.substr(prefix.size());
                if (e.contains(name)) continue;
                if (k.presence == Presence::kDefault) {
                    if (name == "name")
                        e.insert("name", "level" + std::to_string(i));
                    else
                        toml::parse(std::string("v = ") + k.element_default).get("v")->visit([&](const auto& v) {
                            e.insert(name, v);
                        });
                } else if (k.presence == Presence::kRequired) {
                    const std::string id = e["name"].value<std::string>().value_or(std::to_string(i));
                    const std::string key = apath + "." + id + "." + name;
                    throw origins.error(key, "is required");
                }
            }
        }
    }
}

std::vector<IdRange> id_ranges(const toml::table& e, const char* k) {
    std::vector<IdRange> out;
    const toml::array* a = e[k].as_array();
    if (a == nullptr) return out;
    for (const toml::node& n : *a) {
        if (n.is_integer()) {
            const auto v = *n.value<std::int64_t>();
            out.push_back({v, v});
        } else {
            long long f = 0, l = 0;
            parse_id_range(*n.value<std::string>(), f, l);
            out.push_back({f, l});
        }
    }
    std::sort(out.begin(), out.end(), [](const IdRange& a, const IdRange& b) { return a.first < b.first; });
    std::vector<IdRange> merged;
    for (const IdRange& r : out) {
        if (!merged.empty() && r.first <= merged.back().last + 1)
            merged.back().last = std::max(merged.back().last, r.last);
        else
            merged.push_back(r);
    }
    return merged;
}

void build_processor(toml::table& p, const ConfigOrigins& origins, ProcessorConfig& c) {
    c.speed = num(p, "speed");
    c.flops = num(p, "flops");
    // (The schema bounds every duration: at least one picosecond, at most kMaxConfigSeconds.)
    c.poll_cost = num(p, "poll_cost");
    c.clock_read_cost = num(p, "clock_read_cost");
    const toml::table& n = sub(p, "noise");
    c.noise.kind = str(n, "kind");
    c.noise.period = num(n, "period");
    c.noise.duration = num(n, "duration");
    c.noise.probability = num(n, "probability");
    c.noise.seed = static_cast<std::uint64_t>(integer(n, "seed"));
    c.noise.sync = boolean(n, "sync");
    if (c.noise.kind != "none") {
        if (seconds_to_simtime(c.noise.duration) >= seconds_to_simtime(c.noise.period))
            throw origins.error("processor.noise.duration", "must be less than processor.noise.period");
    }
    const toml::array& ov = *p["override"].as_array();
    for (std::size_t i = 0; i < ov.size(); ++i) {
        const toml::table& e = *ov[i].as_table();
        const std::string key = "processor.override." + std::to_string(i);
        ProcessorOverride o;
        o.nodes = id_ranges(e, "nodes");
        o.ranks = id_ranges(e, "ranks");
        if (e.contains("speed")) o.speed = num(e, "speed");
        if (e.contains("flops")) o.flops = num(e, "flops");
        if (!e.contains("nodes") && !e.contains("ranks"))
            throw origins.error(key, "needs `nodes` or `ranks` to say which ranks it applies to");
        if (!o.speed && !o.flops) throw origins.error(key, "needs `speed` or `flops`");
        c.overrides.push_back(std::move(o));
    }
}

void build_network(toml::table& n, const ConfigOrigins& origins, NetworkConfig& c) {
    c.model = str(n, "model");
    if (find_network_model(c.model) == nullptr) {
        std::string known;
        for (const NetworkModelEntry& m : network_models()) known += (known.empty() ? "" : ", ") + std::string(m.name);
        throw origins.error("network.model", "unknown model \"" + c.model + "\" (known: " + known + ")");
    }
    c.contention = boolean(n, "contention");
    const toml::array& levels = *n["level"].as_array();
    for (std::size_t i = 0; i < levels.size(); ++i) {
        const toml::table& e = *levels[i].as_table();
        LevelConfig l;
        l.name = str(e, "name");
        const std::string key = "network.level." + l.name;
        if (e.contains("ranks") && e.contains("nodes_per_group"))
            throw origins.error(key + ".ranks", "give either `ranks` or `nodes_per_group`, not both");
        if (e.contains("ranks")) {
            l.size_kind = LevelConfig::Size::kRanks;
            l.size = integer(e, "ranks");
        } else if (e.contains("nodes_per_group")) {
            l.size_kind = LevelConfig::Size::kNodes;
            l.size = integer(e, "nodes_per_group");
        }
        l.latency = num(e, "latency");
        l.bandwidth = num(e, "bandwidth");
        l.rendezvous = static_cast<std::uint64_t>(integer(e, "rendezvous"));
        if (e.contains("eager_bandwidth")) l.eager_bandwidth = num(e, "eager_bandwidth");
        if (e.contains("rendezvous_overhead")) l.rendezvous_overhead = num(e, "rendezvous_overhead");
        c.levels.push_back(l);
    }
    toml::table& t = sub(n, "torus");
    for (const toml::node& d : *t["dims"].as_array()) c.torus.dims.push_back(static_cast<int>(*d.value<std::int64_t>()));  // kCount: fits
    for (const toml::node& w : *t["wrap"].as_array()) c.torus.wrap.push_back(*w.value<bool>());
    if (c.torus.wrap.empty() && !c.torus.dims.empty()) {
        c.torus.wrap.assign(c.torus.dims.size(), true);
        toml::array all;
        for (std::size_t d = 0; d < c.torus.dims.size(); ++d) all.push_back(true);
        t.insert_or_assign("wrap", std::move(all));
    }
    if (c.torus.wrap.size() != c.torus.dims.size())
        throw origins.error("network.torus.wrap", "needs one entry per dimension of network.torus.dims (" +
                                                      std::to_string(c.torus.dims.size()) + "), got " +
                                                      std::to_string(c.torus.wrap.size()));
    c.torus.base_latency = num(t, "base_latency");
    c.torus.hop_latency = num(t, "hop_latency");
    c.torus.link_bandwidth = num(t, "link_bandwidth");
    c.torus.rendezvous = static_cast<std::uint64_t>(integer(t, "rendezvous"));
}

}  // namespace

MachineConfig build_machine_config(toml::table& eff, ConfigOrigins origins) {
    complete_elements(eff, origins);
    MachineConfig c;
    build_processor(sub(eff, "processor"), origins, c.processor);
    const toml::table& st = sub(eff, "storage");
    c.storage.latency = num(st, "latency");
    c.storage.bandwidth = num(st, "bandwidth");
    const toml::table& m = sub(eff, "mapping");
    c.mapping.kind = str(m, "kind");
    c.mapping.ranks_per_node = static_cast<int>(integer(m, "ranks_per_node"));  // kCount: fits in an int
    c.mapping.file = str(m, "file");
    if (c.mapping.kind == "file" && c.mapping.file.empty())
        throw origins.error("mapping.file", "mapping.kind = \"file\" needs mapping.file");
    build_network(sub(eff, "network"), origins, c.network);
    std::ostringstream json;
    // Relaxed precision prints 2e-06, not 1.9999999999999999e-06 (15 significant digits).
    json << toml::json_formatter{eff, toml::json_formatter::default_flags | toml::format_flags::relaxed_float_precision};
    c.effective_json = json.str();
    c.origins = std::move(origins);
    return c;
}

}  // namespace xsim::net
