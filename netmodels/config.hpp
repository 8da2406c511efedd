// The machine configuration as plain data, after layering (built-in defaults, then the
// file, then overrides) and validation. Internal to netmodels: the engine only sees
// machine.hpp. Every field is in SI units (seconds, bytes, bytes per second).
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "netmodels/machine.hpp"

namespace xsim::net {

// An inclusive range of integers [first, last]; a single number is [n, n].
struct IdRange {
    std::int64_t first = 0;
    std::int64_t last = 0;
};

struct NoiseConfig {
    std::string kind = "none";   // none | periodic | random
    double period = 1e-3;        // seconds between detour opportunities
    double duration = 1e-5;      // seconds of each detour
    double probability = 0.1;    // random: chance of a detour in each period
    std::uint64_t seed = 1;
    bool sync = false;           // true: every rank sees the same detours
};

struct ProcessorOverride {
    std::vector<IdRange> nodes;  // sorted, merged
    std::vector<IdRange> ranks;  // sorted, merged
    std::optional<double> speed;
    std::optional<double> flops;
};

struct ProcessorConfig {
    double speed = 1.0;
    double flops = 1e9;
    double poll_cost = 1e-7;
    double clock_read_cost = 5e-8;
    NoiseConfig noise;
    std::vector<ProcessorOverride> overrides;  // later entries win
};

// MPI-IO's file system, per rank and call (storage_model.hpp).
struct StorageConfig {
    double latency = 1e-4;    // seconds per call that moves data
    double bandwidth = 1e9;   // bytes per second
};

struct MappingConfig {
    std::string kind = "block";  // block | round-robin | file
    int ranks_per_node = 16;
    std::string file;            // resolved path (relative to the file that named it)
};

struct LevelConfig {
    enum class Size { kRanks, kNodes, kAll };
    std::string name;
    Size size_kind = Size::kAll;
    std::int64_t size = 0;       // ranks or nodes per group; 0 for kAll
    double latency = 0;
    double bandwidth = 0;
    std::uint64_t rendezvous = 0;
    double eager_bandwidth = 0;      // 0: bandwidth
    double rendezvous_overhead = 0;  // seconds
};

struct TorusConfig {
    std::vector<int> dims;
    std::vector<bool> wrap;      // same length as dims after loading
    double base_latency = 1e-6;
    double hop_latency = 1e-6;
    double link_bandwidth = 2e9;
    std::uint64_t rendezvous = 65536;
};

struct NetworkConfig {
    std::string model = "star";
    bool contention = false;
    std::vector<LevelConfig> levels;  // innermost first
    TorusConfig torus;
};

// Where each effective value came from, to make one-line errors that name the file and
// line. Keys are the canonical dotted paths users also type in overrides
// (network.level.<name>.latency, processor.override.<index>.speed).
class ConfigOrigins {
public:
    void set(const std::string& key, std::string origin) { origins_[key] = std::move(origin); }
    void erase_prefix(const std::string& prefix);
    // "file.toml:12", "override 'k=v'" or "built-in default machine".
    std::string of(const std::string& key) const;
    // A ConfigError whose single line reads "<origin>: key '<key>': <problem>".
    ConfigError error(const std::string& key, const std::string& problem) const;

private:
    std::map<std::string, std::string> origins_;
};

struct MachineConfig {
    ProcessorConfig processor;
    StorageConfig storage;
    MappingConfig mapping;
    NetworkConfig network;
    ConfigOrigins origins;
    std::string effective_json;
};

// Layers defaults, spec.config_file and spec.overrides, validates every key and value
// (not yet the world-size dependent checks, which the models do), throws ConfigError.
MachineConfig load_machine_config(const MachineSpec& spec);

// The built-in default machine (the seed xSim machine) as TOML text.
const char* default_machine_toml();

}  // namespace xsim::net
