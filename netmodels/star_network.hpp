// Hierarchical star: nested groups of ranks (inside a node) and of nodes, innermost first;
// a message pays the latency/bandwidth/eager limit of the innermost level both ranks share.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "netmodels/config.hpp"
#include "netmodels/fast_divisor.hpp"
#include "netmodels/rank_mapping.hpp"
#include "netmodels/routed_network.hpp"

namespace xsim::net {

// The level tables, shared by the star model and by the torus for on-node messages.
class StarHierarchy {
public:
    // Validates the levels against the mapping (sizes, nesting, room for every rank).
    // on_node_only: the levels only serve ranks on the same node (the torus), so the
    // outermost level must hold a node's ranks rather than the whole world.
    StarHierarchy(const NetworkConfig& cfg, const RankMapping& mapping, const ConfigOrigins& origins,
                  bool on_node_only = false);

    int level_of(Place a, Place b) const {
        for (int i = 0; i < last_; ++i) {
            const Grouping& g = groups_[static_cast<std::size_t>(i)];
            if (g.sub_node ? (a.node == b.node && g.by_div.quotient(a.local) == g.by_div.quotient(b.local))
                           : (g.by_div.quotient(a.node) == g.by_div.quotient(b.node)))
                return i;
        }
        return last_;
    }
    // level_of for ranks placed in blocks (mapping.kind = block): there a rank's group at
    // every level is the rank divided by the group's size in ranks, so the pair needs neither
    // its places nor the branch between groups inside a node and groups of nodes.
    // Only when by_rank() is true.
    int level_of_ranks(std::int32_t a, std::int32_t b) const {
        const FastDivisor* g = rank_groups_.data();
        for (int i = 0; i < last_; ++i)
            if (g[i].quotient(a) == g[i].quotient(b)) return i;
        return last_;
    }
    bool by_rank() const { return !rank_groups_.empty() || last_ == 0; }
    const Path& path_at(int level) const { return paths_[static_cast<std::size_t>(level)]; }
    int levels() const { return last_ + 1; }
    // Smallest latency of any level.
    SimTime min_latency() const;
    // Smallest latency of the levels two ranks on one node can use.
    SimTime min_on_node_latency() const;
    // Id of the port that connects `p`'s group at level-1 (the rank itself for level 0)
    // into `level`; dir 0 = out of the group, 1 = into it.
    std::uint64_t port(int level, Place p, int dir) const;

private:
    struct Grouping {
        bool sub_node;     // groups of `div` ranks inside a node, else groups of `div` nodes
        std::int32_t div;
        FastDivisor by_div{};  // x / div, asked at every path()
    };
    std::vector<Grouping> groups_;
    // Block mapping only: each inner level's group size in ranks (capped at INT32_MAX, which
    // no rank reaches), innermost first; empty for the other mappings.
    std::vector<FastDivisor> rank_groups_;
    std::vector<Path> paths_;
    int last_ = 0;
};

std::unique_ptr<NetworkModel> make_star_network(const NetworkConfig& cfg,
                                                std::shared_ptr<const RankMapping> mapping,
                                                const ConfigOrigins& origins);

}  // namespace xsim::net
