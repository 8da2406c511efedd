// The key table and per-value checks; describe_config_keys() renders it.
#include "netmodels/config_schema.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "netmodels/config.hpp"
#include "netmodels/network_registry.hpp"

namespace xsim::net {
namespace {

using P = Presence;
using K = KeyType;
using C = Check;

constexpr KeySpec kKeys[] = {
    {"processor", K::kTable, C::kNone, nullptr, P::kTopLevel, nullptr,
     "Compute timing of the simulated ranks."},
    {"processor.speed", K::kNumber, C::kSpeed, nullptr, P::kTopLevel, nullptr,
     "Relative speed of a simulated core versus the host: measured compute time is divided "
     "by it (0.5 = half as fast, charges twice the measured time)."},
    {"processor.flops", K::kNumber, C::kRate, nullptr, P::kTopLevel, nullptr,
     "Floating-point operations per second of a simulated core (xsim flops_compute)."},
    {"processor.poll_cost", K::kNumber, C::kSeconds, nullptr, P::kTopLevel, nullptr,
     "Seconds charged for one unsuccessful MPI_Test/MPI_Iprobe poll."},
    {"processor.clock_read_cost", K::kNumber, C::kSeconds, nullptr, P::kTopLevel, nullptr,
     "Seconds charged for one clock read (MPI_Wtime, clock_gettime, gettimeofday, time) with "
     "-xsim-compute none, so loops that wait for the clock to advance end."},
    {"processor.noise", K::kTable, C::kNone, nullptr, P::kTopLevel, nullptr,
     "Operating-system noise: detours that delay compute, deterministic per (rank, time, seed)."},
    {"processor.noise.kind", K::kString, C::kNone, "none|periodic|random", P::kTopLevel, nullptr,
     "none; periodic: one detour every `period`; random: each period holds a detour with "
     "`probability`, at a pseudo-random offset."},
    {"processor.noise.period", K::kNumber, C::kSeconds, nullptr, P::kTopLevel, nullptr,
     "Seconds between detour opportunities."},
    {"processor.noise.duration", K::kNumber, C::kSeconds, nullptr, P::kTopLevel, nullptr,
     "Seconds each detour steals from compute; must be less than period."},
    {"processor.noise.probability", K::kNumber, C::kProbability, nullptr, P::kTopLevel, nullptr,
     "random noise: probability that a period holds a detour."},
    {"processor.noise.seed", K::kInteger, C::kNonNegative, nullptr, P::kTopLevel, nullptr,
     "Seed of the detour phases and draws; the same seed gives the same run."},
    {"processor.noise.sync", K::kBool, C::kNone, nullptr, P::kTopLevel, nullptr,
     "true: all ranks see the same detours (co-scheduled noise); false: each rank its own."},
    {"processor.override", K::kTableArray, C::kNone, nullptr, P::kTopLevel, nullptr,
     "Heterogeneous processors: [[processor.override]] entries set speed/flops for some nodes "
     "or ranks; later entries win."},
    {"processor.override[].nodes", K::kIdArray, C::kNonNegative, nullptr, P::kOptional, nullptr,
     "Nodes the entry applies to: numbers or \"first-last\" ranges."},
    {"processor.override[].ranks", K::kIdArray, C::kNonNegative, nullptr, P::kOptional, nullptr,
     "Ranks the entry applies to: numbers or \"first-last\" ranges."},
    {"processor.override[].speed", K::kNumber, C::kSpeed, nullptr, P::kOptional, nullptr,
     "processor.speed for the selected ranks."},
    {"processor.override[].flops", K::kNumber, C::kRate, nullptr, P::kOptional, nullptr,
     "processor.flops for the selected ranks."},

    {"storage", K::kTable, C::kNone, nullptr, P::kTopLevel, nullptr,
     "The file system MPI-IO calls reach (MPI_File_read/write...): each call that moves data "
     "costs latency + bytes / bandwidth on the calling rank's clock."},
    {"storage.latency", K::kNumber, C::kSeconds, nullptr, P::kTopLevel, nullptr,
     "Seconds of one MPI-IO call that moves data, besides its bytes."},
    {"storage.bandwidth", K::kNumber, C::kRate, nullptr, P::kTopLevel, nullptr,
     "Bytes per second one rank reads or writes."},

    {"mapping", K::kTable, C::kNone, nullptr, P::kTopLevel, nullptr,
     "Placement of ranks on nodes."},
    {"mapping.kind", K::kString, C::kNone, "block|round-robin|file", P::kTopLevel, nullptr,
     "block: rank r on node r / ranks_per_node; round-robin: on node r % nodes; file: listed."},
    {"mapping.ranks_per_node", K::kInteger, C::kCount, nullptr, P::kTopLevel, nullptr,
     "Ranks per node (block, round-robin; also sizes `ranks` levels of the star)."},
    {"mapping.file", K::kString, C::kNone, nullptr, P::kTopLevel, nullptr,
     "mapping.kind = \"file\": one node number per line, line i for rank i ('#' comments); a "
     "relative path is relative to the configuration file."},

    {"network", K::kTable, C::kNone, nullptr, P::kTopLevel, nullptr, "The interconnect."},
    {"network.model", K::kString, C::kNone, nullptr, P::kTopLevel, nullptr,
     "Network model by name (see the model list below)."},
    {"network.contention", K::kBool, C::kNone, nullptr, P::kTopLevel, nullptr,
     "Serialize transfers that use the same link at the same time (costs a hash lookup per "
     "link per message)."},
    {"network.level", K::kTableArray, C::kNone, nullptr, P::kTopLevel, nullptr,
     "Star hierarchy, innermost level first; a message uses the innermost level both ranks "
     "share. The torus uses these levels for ranks on the same node."},
    {"network.level[].name", K::kString, C::kNone, nullptr, P::kDefault, "\"level<i>\"",
     "Unique name; overrides address the level as network.level.<name>.<key>."},
    {"network.level[].ranks", K::kInteger, C::kCount, nullptr, P::kOptional, nullptr,
     "Group size in ranks: a divisor of mapping.ranks_per_node (groups inside a node) or a "
     "multiple of it (groups of whole nodes)."},
    {"network.level[].nodes_per_group", K::kInteger, C::kCount, nullptr, P::kOptional,
     nullptr, "Group size in nodes. Only the outermost level may omit both sizes."},
    {"network.level[].latency", K::kNumber, C::kSeconds, nullptr, P::kRequired, nullptr,
     "Seconds from send to the first byte arriving."},
    {"network.level[].bandwidth", K::kNumber, C::kRate, nullptr, P::kRequired, nullptr,
     "Bytes per second."},
    {"network.level[].rendezvous", K::kInteger, C::kNonNegative, nullptr, P::kDefault, "65536",
     "Eager limit in bytes: messages of at most this size are sent eagerly, larger ones use "
     "the rendezvous protocol."},
    {"network.level[].eager_bandwidth", K::kNumber, C::kRate, nullptr, P::kOptional, nullptr,
     "Bytes per second of eager messages (default: `bandwidth`). Shared-memory MPI copies an "
     "eager message twice (into a shared buffer and out) and a rendezvous one once, so its "
     "eager bytes cost more than its large messages' (xsim-machine --calibrate fits both)."},
    {"network.level[].rendezvous_overhead", K::kNumber, C::kSeconds, nullptr, P::kOptional, nullptr,
     "Seconds a rendezvous message's transfer costs beyond its bytes and the handshake's two "
     "latencies (default 0): the setup of its single copy (e.g. a system call); it holds the "
     "NIC like the bytes do."},

    {"network.torus", K::kTable, C::kNone, nullptr, P::kTopLevel, nullptr,
     "N-dimensional torus/mesh between nodes (network.model = \"torus\")."},
    {"network.torus.dims", K::kIntArray, C::kCount, nullptr, P::kTopLevel, nullptr,
     "Nodes along each dimension (node n has coordinates in mixed radix, dimension 0 "
     "fastest); their product must be at least the number of nodes."},
    {"network.torus.wrap", K::kBoolArray, C::kNone, nullptr, P::kTopLevel, nullptr,
     "Per dimension: true = ring (wrap-around links), false = mesh line; empty = all true."},
    {"network.torus.base_latency", K::kNumber, C::kSeconds, nullptr, P::kTopLevel, nullptr,
     "Seconds of injection plus ejection for any off-node message."},
    {"network.torus.hop_latency", K::kNumber, C::kSeconds, nullptr, P::kTopLevel, nullptr,
     "Seconds per link traversed (dimension-order routing, shortest way round)."},
    {"network.torus.link_bandwidth", K::kNumber, C::kRate, nullptr, P::kTopLevel, nullptr,
     "Bytes per second of every torus link."},
    {"network.torus.rendezvous", K::kInteger, C::kNonNegative, nullptr, P::kTopLevel, nullptr,
     "Eager limit in bytes for off-node messages."},
};

bool is_number(const toml::node& v) { return v.is_floating_point() || v.is_integer(); }

// The shortest text that reads back as x (1e+300, not 1.0000000000000001e+300).
std::string text_of(double x) {
    char buf[64];
    for (int digits = 6; digits <= 17; ++digits) {
        std::snprintf(buf, sizeof buf, "%.*g", digits, x);
        if (std::strtod(buf, nullptr) == x) break;
    }
    return buf;
}

std::string check_number(Check check, double x) {
    const std::string got = " (got " + text_of(x) + ")";
    // inf and nan are TOML floats; no key takes them.
    if (!std::isfinite(x)) return "must be a finite number" + got;
    switch (check) {
        case Check::kSeconds:
            if (!(x > 0)) return "must be > 0" + got;
            if (seconds_to_simtime(x) < 1) return "is below one picosecond, the unit of simulated time" + got;
            if (x > kMaxConfigSeconds) return "is too large: at most " + text_of(kMaxConfigSeconds) + " seconds" + got;
            break;
        case Check::kRate:
            if (!(x > 0)) return "must be > 0" + got;
            if (x < kMinConfigRate) return "is too small: at least " + text_of(kMinConfigRate) + " per second" + got;
            break;
        case Check::kSpeed:
            if (!(x > 0)) return "must be > 0" + got;
            if (x < kMinConfigSpeed) return "is too small: at least " + text_of(kMinConfigSpeed) + got;
            if (x > kMaxConfigSpeed) return "is too large: at most " + text_of(kMaxConfigSpeed) + got;
            break;
        case Check::kCount:
            if (!(x >= 1)) return "must be >= 1" + got;
            if (x > 2147483647.0) return "is too large: at most 2147483647" + got;
            break;
        case Check::kNonNegative:
            if (!(x >= 0)) return "must be >= 0" + got;
            break;
        case Check::kProbability:
            if (!(x >= 0 && x <= 1)) return "must be in [0, 1]" + got;
            break;
        case Check::kNone:
            break;
    }
    return {};
}

}  // namespace

double number_of(const toml::node& v) {
    // value<double>() of an integer beyond 2^53 is empty (not exactly representable).
    if (const auto* i = v.as_integer()) return static_cast<double>(i->get());
    if (const auto* f = v.as_floating_point()) return f->get();
    return 0;
}

std::span<const KeySpec> config_keys() { return kKeys; }

const KeySpec* find_key(std::string_view schema_path) {
    for (const KeySpec& k : kKeys)
        if (schema_path == k.path) return &k;
    return nullptr;
}

const char* type_name(KeyType type) {
    switch (type) {
        case KeyType::kNumber: return "number";
        case KeyType::kInteger: return "integer";
        case KeyType::kBool: return "boolean";
        case KeyType::kString: return "string";
        case KeyType::kIntArray: return "array of integers";
        case KeyType::kBoolArray: return "array of booleans";
        case KeyType::kIdArray: return "array of integers or \"first-last\" strings";
        case KeyType::kTable: return "table";
        case KeyType::kTableArray: return "array of tables";
    }
    return "?";
}

bool parse_id_range(std::string_view text, long long& first, long long& last) {
    const auto dash = text.find('-');
    if (dash == std::string_view::npos || dash == 0) return false;
    const char* b = text.data();
    const char* e = b + text.size();
    auto r1 = std::from_chars(b, b + dash, first);
    if (r1.ec != std::errc() || r1.ptr != b + dash) return false;
    auto r2 = std::from_chars(b + dash + 1, e, last);
    return r2.ec == std::errc() && r2.ptr == e && last >= first;
}

std::string check_value(const KeySpec& spec, const toml::node& v) {
    const std::string want = std::string("must be ") + (spec.type == KeyType::kInteger ? "an " : "a ")
                             + type_name(spec.type);
    switch (spec.type) {
        case KeyType::kNumber:
            if (!is_number(v)) return want;
            return check_number(spec.check, number_of(v));
        case KeyType::kInteger:
            if (!v.is_integer()) return want;
            return check_number(spec.check, number_of(v));
        case KeyType::kBool:
            return v.is_boolean() ? std::string() : want;
        case KeyType::kString: {
            if (!v.is_string()) return want;
            if (spec.choices == nullptr) return {};
            const std::string s = *v.value<std::string>();
            std::string_view choices = spec.choices;
            while (!choices.empty()) {
                const auto bar = choices.find('|');
                if (choices.substr(0, bar) == s) return {};
                if (bar == std::string_view::npos) break;
                choices.remove_prefix(bar + 1);
            }
            return "must be one of " + std::string(spec.choices) + " (got \"" + s + "\")";
        }
        case KeyType::kIntArray:
        case KeyType::kBoolArray:
        case KeyType::kIdArray: {
            const toml::array* a = v.as_array();
            if (a == nullptr) return want;
            for (const toml::node& e : *a) {
                if (spec.type == KeyType::kBoolArray) {
                    if (!e.is_boolean()) return want;
                } else if (e.is_integer()) {
                    if (auto p = check_number(spec.check, number_of(e)); !p.empty()) return "element " + p;
                } else if (spec.type == KeyType::kIdArray && e.is_string()) {
                    long long f = 0, l = 0;
                    const std::string s = *e.value<std::string>();
                    if (!parse_id_range(s, f, l) || f < 0)
                        return "element \"" + s + "\" is not a range \"first-last\" with 0 <= first <= last";
                } else {
                    return want;
                }
            }
            return {};
        }
        case KeyType::kTable:
            return v.is_table() ? std::string() : want;
        case KeyType::kTableArray:
            return v.is_array_of_tables() || (v.is_array() && v.as_array()->empty()) ? std::string() : want;
    }
    return {};
}

std::string describe_config_keys() {
    toml::table defaults = toml::parse(std::string_view(default_machine_toml()), std::string_view("built-in default machine"));
    std::ostringstream out;
    out << "xsim machine configuration keys (TOML; override any with -xsim-set key=value)\n";
    for (const KeySpec& k : kKeys) {
        if (k.type == KeyType::kTable) {
            out << "\n[" << k.path << "]  " << k.meaning << "\n";
            continue;
        }
        out << "  " << k.path << "  (" << type_name(k.type);
        if (k.choices != nullptr) out << ": " << k.choices;
        out << ")  ";
        switch (k.presence) {
            case Presence::kTopLevel: {
                std::string path = k.path;
                toml::node_view<toml::node> v = defaults.at_path(path);
                std::ostringstream val;
                if (v.is_array_of_tables()) {
                    val << v.as_array()->size() << " entries in the default machine";
                } else if (v) {
                    val << toml::toml_formatter(*v.node(), toml::format_flags::relaxed_float_precision);
                }
                out << "default " << val.str();
                break;
            }
            case Presence::kRequired: out << "required"; break;
            case Presence::kOptional: out << "optional"; break;
            case Presence::kDefault: out << "default " << k.element_default; break;
        }
        out << "\n      " << k.meaning << "\n";
    }
    out << "\nNetwork models (network.model):\n";
    for (const NetworkModelEntry& m : network_models())
        out << "  " << m.name << "  " << m.description << "\n";
    return out.str();
}

}  // namespace xsim::net
