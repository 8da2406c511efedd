// Rank-to-node mappings. Block and round-robin are closed forms; the file mapping reads
// one node number per rank.
#include "netmodels/rank_mapping.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <unordered_map>

namespace xsim::net {

int format_node_name(int node, char* out, std::size_t size) {
    return std::snprintf(out, size, "xsim-node%d", node);
}
namespace {

std::string trim(const std::string& s) {
    const auto b = s.find_first_not_of(" \t\r");
    if (b == std::string::npos) return {};
    const auto e = s.find_last_not_of(" \t\r");
    return s.substr(b, e - b + 1);
}

}  // namespace

RankMapping::RankMapping(const MappingConfig& cfg, const ConfigOrigins& origins, int world_size)
    : world_size_(world_size), ranks_per_node_(cfg.ranks_per_node) {
    if (world_size < 1) throw ConfigError("xsim machine: world size must be >= 1 (got " + std::to_string(world_size) + ")");
    if (cfg.kind == "block") {
        kind_ = Kind::kBlock;
        num_nodes_ = (world_size + ranks_per_node_ - 1) / ranks_per_node_;
        max_on_node_ = std::min(world_size, ranks_per_node_);
        by_ranks_per_node_ = FastDivisor(ranks_per_node_);
        return;
    }
    if (cfg.kind == "round-robin") {
        kind_ = Kind::kRoundRobin;
        num_nodes_ = (world_size + ranks_per_node_ - 1) / ranks_per_node_;
        max_on_node_ = (world_size + num_nodes_ - 1) / num_nodes_;
        by_num_nodes_ = FastDivisor(num_nodes_);
        return;
    }
    kind_ = Kind::kFile;
    if (cfg.file.empty()) throw origins.error("mapping.file", "mapping.kind = \"file\" needs mapping.file");
    // An ifstream opens a directory without complaint and reads it as empty.
    std::error_code ec;
    if (std::filesystem::is_directory(cfg.file, ec))
        throw origins.error("mapping.file", "'" + cfg.file + "' is a directory, not a mapping file");
    std::ifstream in(cfg.file);
    if (!in)
        throw origins.error("mapping.file", "cannot open mapping file '" + cfg.file + "' (" + std::strerror(errno) + ")");
    table_.reserve(static_cast<std::size_t>(world_size));
    std::unordered_map<std::int32_t, std::int32_t> count;  // ranks placed so far per node
    std::string line;
    int line_no = 0;
    int max_node = -1;
    while (static_cast<int>(table_.size()) < world_size && std::getline(in, line)) {
        ++line_no;
        if (const auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
        line = trim(line);
        if (line.empty()) continue;
        long long node = -1;
        const auto r = std::from_chars(line.data(), line.data() + line.size(), node);
        if (r.ec != std::errc() || r.ptr != line.data() + line.size() || node < 0 || node > INT32_MAX)
            throw origins.error("mapping.file", cfg.file + ":" + std::to_string(line_no) +
                                                    ": expected one node number >= 0, got '" + line + "'");
        const auto n = static_cast<std::int32_t>(node);
        table_.push_back({n, count[n]++});
        max_node = std::max(max_node, static_cast<int>(n));
    }
    if (static_cast<int>(table_.size()) < world_size)
        throw origins.error("mapping.file", "mapping file '" + cfg.file + "' places " + std::to_string(table_.size()) +
                                                " ranks, but the world has " + std::to_string(world_size));
    num_nodes_ = max_node + 1;
    max_on_node_ = 0;
    on_node_.assign(static_cast<std::size_t>(num_nodes_), 0);
    for (const auto& [node, n] : count) {
        max_on_node_ = std::max(max_on_node_, static_cast<int>(n));
        on_node_[static_cast<std::size_t>(node)] = static_cast<int>(n);
    }
}

}  // namespace xsim::net
