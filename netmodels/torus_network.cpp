// N-dimensional torus between nodes (mesh and ring as special cases). Node n sits at the
// mixed-radix coordinates of n (dimension 0 fastest). Messages route in dimension order,
// each dimension the shortest way round (wrap links only where wrap is true):
//   latency = base_latency + hops * hop_latency, bandwidth = link_bandwidth.
// Ranks on the same node use the star levels (network.level) instead.
#include "netmodels/torus_network.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <string>

#include "netmodels/star_network.hpp"

namespace xsim::net {
namespace {

constexpr int kMaxDims = 16;

class TorusNetwork final : public RoutedNetwork {
public:
    TorusNetwork(const NetworkConfig& cfg, std::shared_ptr<const RankMapping> mapping, const ConfigOrigins& origins)
        : RoutedNetwork(cfg.contention), mapping_(std::move(mapping)), on_node_(cfg, *mapping_, origins, /*on_node_only=*/true) {
        const TorusConfig& t = cfg.torus;
        if (t.dims.empty())
            throw origins.error("network.torus.dims", "network.model = \"torus\" needs at least one dimension");
        if (t.dims.size() > kMaxDims)
            throw origins.error("network.torus.dims", "at most " + std::to_string(kMaxDims) + " dimensions");
        if (t.wrap.size() != t.dims.size())
            throw origins.error("network.torus.wrap", "needs one entry per dimension (" +
                                                          std::to_string(t.dims.size()) + "), got " +
                                                          std::to_string(t.wrap.size()));
        ndims_ = static_cast<int>(t.dims.size());
        std::int64_t nodes = 1;
        for (int d = 0; d < ndims_; ++d) {
            dims_[d] = t.dims[static_cast<std::size_t>(d)];
            wrap_[d] = t.wrap[static_cast<std::size_t>(d)];
            stride_[d] = static_cast<std::int32_t>(nodes);
            nodes *= dims_[d];
            if (nodes > INT32_MAX) throw origins.error("network.torus.dims", "more than 2^31 nodes");
        }
        if (nodes < mapping_->num_nodes())
            throw origins.error("network.torus.dims",
                                "the torus has " + std::to_string(nodes) + " nodes; too small for " +
                                    std::to_string(mapping_->world_size()) + " ranks on " +
                                    std::to_string(mapping_->num_nodes()) + " nodes");
        base_ = seconds_to_simtime(t.base_latency);
        hop_ = seconds_to_simtime(t.hop_latency);
        if (base_ <= 0) throw origins.error("network.torus.base_latency", "is below one picosecond");
        if (hop_ <= 0) throw origins.error("network.torus.hop_latency", "is below one picosecond");
        bandwidth_ = t.link_bandwidth;
        eager_ = t.rendezvous;
    }

    const char* name() const override { return "torus"; }

    Path path(int src, int dst) const override {
        const Place a = mapping_->place(src);
        const Place b = mapping_->place(dst);
        if (a.node == b.node) {
            Path p = on_node_.path_at(on_node_.level_of(a, b));
            p.level = 0;
            return p;
        }
        const int h = hops(a.node, b.node);
        Path p;
        p.latency = base_ + h * hop_;
        p.bandwidth = bandwidth_;
        p.eager_limit = eager_;
        p.level = h;
        return p;
    }

    SimTime min_latency() const override { return std::min(on_node_.min_on_node_latency(), base_ + hop_); }

    void route(int src, int dst, std::vector<std::uint64_t>& links) const override {
        links.clear();
        const Place a = mapping_->place(src);
        const Place b = mapping_->place(dst);
        if (a.node == b.node) {
            const int level = on_node_.level_of(a, b);
            links.push_back(on_node_.port(level, a, 0));
            links.push_back(on_node_.port(level, b, 1));
            return;
        }
        std::int64_t node = a.node;
        int ra = a.node;
        int rb = b.node;
        for (int d = 0; d < ndims_; ++d) {
            const int n = dims_[d];
            int c = ra % n;
            const int target = rb % n;
            ra /= n;
            rb /= n;
            int dir = 0;  // 0: +1, 1: -1
            int steps = 0;
            if (wrap_[d]) {
                const int fwd = ((target - c) % n + n) % n;
                if (fwd <= n - fwd) {
                    steps = fwd;
                } else {
                    steps = n - fwd;
                    dir = 1;
                }
            } else {
                steps = std::abs(target - c);
                dir = target < c ? 1 : 0;
            }
            for (int s = 0; s < steps; ++s) {
                links.push_back((std::uint64_t{1} << 63) | (static_cast<std::uint64_t>(d) << 56) |
                                (static_cast<std::uint64_t>(dir) << 55) | static_cast<std::uint64_t>(node));
                const int next = dir == 0 ? (c + 1 == n ? 0 : c + 1) : (c == 0 ? n - 1 : c - 1);
                node += static_cast<std::int64_t>(next - c) * stride_[d];
                c = next;
            }
        }
    }

    int hops(int na, int nb) const {
        int h = 0;
        for (int d = 0; d < ndims_; ++d) {
            const int n = dims_[d];
            int dist = std::abs(na % n - nb % n);
            if (wrap_[d]) dist = std::min(dist, n - dist);
            h += dist;
            na /= n;
            nb /= n;
        }
        return h;
    }

private:
    std::shared_ptr<const RankMapping> mapping_;
    StarHierarchy on_node_;
    int ndims_ = 0;
    std::array<std::int32_t, kMaxDims> dims_{};
    std::array<std::int32_t, kMaxDims> stride_{};
    std::array<bool, kMaxDims> wrap_{};
    SimTime base_ = 0;
    SimTime hop_ = 0;
    double bandwidth_ = 1.0;
    std::uint64_t eager_ = 0;
};

}  // namespace

std::unique_ptr<NetworkModel> make_torus_network(const NetworkConfig& cfg, std::shared_ptr<const RankMapping> mapping,
                                                 const ConfigOrigins& origins) {
    return std::make_unique<TorusNetwork>(cfg, std::move(mapping), origins);
}

}  // namespace xsim::net
