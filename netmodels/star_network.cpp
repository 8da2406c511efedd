// The hierarchical star network and its level tables.
#include "netmodels/star_network.hpp"

#include <algorithm>
#include <string>

namespace xsim::net {
namespace {

constexpr int kMaxLevels = 32;

std::string size_key(const LevelConfig& l) {
    return "network.level." + l.name + (l.size_kind == LevelConfig::Size::kNodes ? ".nodes_per_group" : ".ranks");
}

class StarNetwork final : public RoutedNetwork {
public:
    StarNetwork(const NetworkConfig& cfg, std::shared_ptr<const RankMapping> mapping, const ConfigOrigins& origins)
        : RoutedNetwork(cfg.contention), mapping_(std::move(mapping)), levels_(cfg, *mapping_, origins),
          by_rank_(levels_.by_rank()) {}

    const char* name() const override { return "star"; }

    Path path(int src, int dst) const override {
        // Asked at every send: in blocks (the default mapping) the level comes from the ranks.
        if (by_rank_) return levels_.path_at(levels_.level_of_ranks(src, dst));
        return levels_.path_at(levels_.level_of(mapping_->place(src), mapping_->place(dst)));
    }

    SimTime min_latency() const override { return levels_.min_latency(); }

    void route(int src, int dst, std::vector<std::uint64_t>& links) const override {
        const Place a = mapping_->place(src);
        const Place b = mapping_->place(dst);
        const int level = levels_.level_of(a, b);
        links.clear();
        links.push_back(levels_.port(level, a, 0));
        links.push_back(levels_.port(level, b, 1));
    }

private:
    std::shared_ptr<const RankMapping> mapping_;
    StarHierarchy levels_;
    bool by_rank_;  // levels_.level_of_ranks answers for this mapping
};

}  // namespace

StarHierarchy::StarHierarchy(const NetworkConfig& cfg, const RankMapping& mapping, const ConfigOrigins& origins,
                             bool on_node_only) {
    const auto& levels = cfg.levels;
    if (levels.empty()) throw origins.error("network.level", "at least one level is needed");
    if (levels.size() > kMaxLevels)
        throw origins.error("network.level", "at most " + std::to_string(kMaxLevels) + " levels are supported");
    const std::int64_t rpn = mapping.ranks_per_node();
    std::int64_t prev_ranks = 0;  // group size of the previous level, in ranks
    std::vector<std::int64_t> group_ranks;  // each inner level's group size, in ranks
    std::string prev_key;
    for (std::size_t i = 0; i < levels.size(); ++i) {
        const LevelConfig& l = levels[i];
        const bool last = i + 1 == levels.size();
        Path p;
        p.latency = seconds_to_simtime(l.latency);
        p.bandwidth = l.bandwidth;
        p.eager_limit = l.rendezvous;
        p.eager_bandwidth = l.eager_bandwidth;
        p.rendezvous_overhead = seconds_to_simtime(l.rendezvous_overhead);
        p.level = static_cast<int>(i);
        if (p.latency <= 0)
            throw origins.error("network.level." + l.name + ".latency", "is below one picosecond");
        paths_.push_back(p);
        if (l.size_kind == LevelConfig::Size::kAll) {
            if (!last)
                throw origins.error("network.level." + l.name,
                                    "only the outermost level may omit `ranks` and `nodes_per_group`");
            break;
        }
        const std::string key = size_key(l);
        Grouping g{};
        std::int64_t ranks = 0;
        if (l.size_kind == LevelConfig::Size::kRanks && l.size < rpn) {
            if (rpn % l.size != 0)
                throw origins.error(key, "must divide mapping.ranks_per_node = " + std::to_string(rpn) +
                                             " (got " + std::to_string(l.size) + ")");
            g = {true, static_cast<std::int32_t>(l.size), {}};
            ranks = l.size;
        } else if (l.size_kind == LevelConfig::Size::kRanks) {
            if (l.size % rpn != 0)
                throw origins.error(key, "must be a multiple of mapping.ranks_per_node = " + std::to_string(rpn) +
                                             " (got " + std::to_string(l.size) + ")");
            g = {false, static_cast<std::int32_t>(std::min<std::int64_t>(l.size / rpn, INT32_MAX)), {}};
            ranks = l.size;
        } else {
            g = {false, static_cast<std::int32_t>(std::min<std::int64_t>(l.size, INT32_MAX)), {}};
            ranks = l.size * rpn;
        }
        if (prev_ranks > 0 && (ranks <= prev_ranks || ranks % prev_ranks != 0))
            throw origins.error(key, "groups must grow outward, each a multiple of the one inside: " +
                                         std::to_string(ranks) + " ranks is not a larger multiple of " +
                                         std::to_string(prev_ranks) + " (" + prev_key + ")");
        prev_ranks = ranks;
        prev_key = key;
        if (last) {
            // Every pair of ranks (on_node_only: of one node) must share the outermost level.
            if (g.sub_node) {
                if ((!on_node_only && mapping.num_nodes() > 1) || mapping.max_ranks_on_node() > g.div)
                    throw origins.error(key, "the outermost level holds " + std::to_string(g.div) +
                                                 " ranks of one node; too small for " +
                                                 std::to_string(mapping.world_size()) + " ranks on " +
                                                 std::to_string(mapping.num_nodes()) + " node(s)");
            } else if (!on_node_only && mapping.num_nodes() > g.div) {
                throw origins.error(key, "the outermost level holds " + std::to_string(g.div) +
                                             " nodes; too small for " + std::to_string(mapping.world_size()) +
                                             " ranks on " + std::to_string(mapping.num_nodes()) + " nodes");
            }
            break;
        }
        g.by_div = FastDivisor(g.div);
        groups_.push_back(g);
        // In blocks, rank / ranks is node / nodes_per_group (ranks = nodes x rpn), or, for a
        // group inside a node (ranks divides rpn), the node and local / ranks together.
        group_ranks.push_back(std::min<std::int64_t>(ranks, INT32_MAX));
    }
    last_ = static_cast<int>(paths_.size()) - 1;
    groups_.resize(static_cast<std::size_t>(last_));
    if (mapping.kind() == RankMapping::Kind::kBlock)
        for (int i = 0; i < last_; ++i)
            rank_groups_.emplace_back(static_cast<std::int32_t>(group_ranks[static_cast<std::size_t>(i)]));
}

SimTime StarHierarchy::min_latency() const {
    SimTime m = kNever;
    for (const Path& p : paths_) m = std::min(m, p.latency);
    return m;
}

SimTime StarHierarchy::min_on_node_latency() const {
    SimTime m = kNever;
    for (int i = 0; i <= last_; ++i) {
        m = std::min(m, paths_[static_cast<std::size_t>(i)].latency);
        // The first level that groups whole nodes holds every same-node pair.
        if (i < last_ && !groups_[static_cast<std::size_t>(i)].sub_node) break;
    }
    return m;
}

std::uint64_t StarHierarchy::port(int level, Place p, int dir) const {
    std::uint64_t a = 0;
    std::uint64_t b = 0;
    if (level == 0) {
        a = static_cast<std::uint32_t>(p.node);
        b = static_cast<std::uint32_t>(p.local);
    } else {
        const Grouping& g = groups_[static_cast<std::size_t>(level - 1)];
        if (g.sub_node) {
            a = static_cast<std::uint32_t>(p.node);
            b = static_cast<std::uint32_t>(g.by_div.quotient(p.local));
        } else {
            a = static_cast<std::uint32_t>(g.by_div.quotient(p.node));
        }
    }
    // Bit 63 clear (the torus uses it), level in bits 57..62, direction bit 56.
    return (static_cast<std::uint64_t>(level) << 57) | (static_cast<std::uint64_t>(dir) << 56) | (a << 24) |
           (b & 0xFFFFFFu);
}

std::unique_ptr<NetworkModel> make_star_network(const NetworkConfig& cfg, std::shared_ptr<const RankMapping> mapping,
                                                const ConfigOrigins& origins) {
    return std::make_unique<StarNetwork>(cfg, std::move(mapping), origins);
}

}  // namespace xsim::net
