// Rank-to-node placement: block, round-robin or an explicit file. Constant memory except
// the file mapping, which keeps one (node, local index) pair per rank.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "netmodels/config.hpp"
#include "netmodels/fast_divisor.hpp"

namespace xsim::net {

// The name of simulated node `node`, "xsim-node<N>": what MPI_Get_processor_name and
// gethostname() tell a rank placed on it. Returns snprintf's result.
int format_node_name(int node, char* out, std::size_t size);

// Where a rank sits: its node and its index among the ranks of that node.
struct Place {
    std::int32_t node = 0;
    std::int32_t local = 0;
};

class RankMapping {
public:
    enum class Kind { kBlock, kRoundRobin, kFile };

    // Throws ConfigError (naming mapping.* keys) for an unreadable or too short file.
    RankMapping(const MappingConfig& cfg, const ConfigOrigins& origins, int world_size);

    Place place(int rank) const {
        switch (kind_) {
            case Kind::kBlock: {
                const int node = by_ranks_per_node_.quotient(rank);
                return {node, rank - node * ranks_per_node_};
            }
            case Kind::kRoundRobin: {
                const int local = by_num_nodes_.quotient(rank);
                return {rank - local * num_nodes_, local};
            }
            case Kind::kFile: break;
        }
        return table_[static_cast<std::size_t>(rank)];
    }
    int node_of(int rank) const {
        switch (kind_) {
            case Kind::kBlock: return by_ranks_per_node_.quotient(rank);
            case Kind::kRoundRobin: return by_num_nodes_.remainder(rank);
            case Kind::kFile: break;
        }
        return table_[static_cast<std::size_t>(rank)].node;
    }

    // How many ranks share `node` (0 for a node number a mapping file leaves empty).
    int ranks_on_node(int node) const {
        if (node < 0 || node >= num_nodes_) return 0;
        switch (kind_) {
            case Kind::kBlock: return node < num_nodes_ - 1 ? ranks_per_node_ : world_size_ - node * ranks_per_node_;
            case Kind::kRoundRobin: return world_size_ / num_nodes_ + (node < world_size_ % num_nodes_ ? 1 : 0);
            case Kind::kFile: break;
        }
        return on_node_[static_cast<std::size_t>(node)];
    }

    Kind kind() const { return kind_; }
    int world_size() const { return world_size_; }
    int ranks_per_node() const { return ranks_per_node_; }
    // Nodes in use: node numbers are 0 .. num_nodes()-1 (a file may leave some empty).
    int num_nodes() const { return num_nodes_; }
    // Most ranks any node holds.
    int max_ranks_on_node() const { return max_on_node_; }

private:
    Kind kind_ = Kind::kBlock;
    int world_size_ = 0;
    int ranks_per_node_ = 1;
    int num_nodes_ = 1;
    int max_on_node_ = 1;
    FastDivisor by_ranks_per_node_;  // kBlock: rank / ranks_per_node
    FastDivisor by_num_nodes_;       // kRoundRobin: rank / num_nodes
    std::vector<Place> table_;  // kFile only
    std::vector<int> on_node_;  // kFile only: ranks per node number
};

}  // namespace xsim::net
