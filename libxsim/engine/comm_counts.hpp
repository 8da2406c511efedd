// -xsim-commmatrix: messages and bytes sent from each entity to each other entity, counted by
// p2p::start_send for every message (user point-to-point and the messages of collectives'
// algorithms) and by rma/operations.cpp where one-sided data moves. The entity is the world rank up to the limit (-xsim-commmatrix-limit, default
// 4,096), else the node of the machine model, else contiguous groups of nodes, whichever is
// the finest level with at most `limit` entities. Each process counts only its own senders:
// memory O(distinct pairs) <= O(local senders x entities), one hash entry per pair.
// report/comm_matrix merges the processes' counts and writes the CSV.
#pragma once
#include <cstdint>
#include <string>
#include <unordered_map>

#include "netmodels/machine.hpp"

namespace xsim {

class CommCounts {
public:
    enum class Level : std::uint8_t { Rank, Node, NodeGroup };
    struct Cell {
        std::uint64_t messages = 0;
        std::uint64_t bytes = 0;
    };

    // Chooses the level for `world_size` ranks on `machine` (reads every rank's node once).
    CommCounts(const net::Machine& machine, int world_size, long long limit);

    // One message of `bytes` from world rank `src` to world rank `dst`.
    void count(int src, int dst, std::uint64_t bytes) {
        Cell& c = cells_[key(entity(src), entity(dst))];
        ++c.messages;
        c.bytes += bytes;
    }

    int entity(int rank) const {
        switch (level_) {
            case Level::Rank: return rank;
            case Level::Node: return machine_.node_of(rank);
            case Level::NodeGroup: break;
        }
        return machine_.node_of(rank) / nodes_per_entity_;
    }
    static std::uint64_t key(int src, int dst) {
        return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(src)) << 32) | static_cast<std::uint32_t>(dst);
    }

    Level level() const { return level_; }
    // "rank", "node" or "node_group" (the CSV header's entity=).
    const char* level_name() const;
    int entities() const { return entities_; }
    int nodes_per_entity() const { return nodes_per_entity_; }
    const std::unordered_map<std::uint64_t, Cell>& cells() const { return cells_; }

private:
    const net::Machine& machine_;
    Level level_ = Level::Rank;
    int entities_ = 0;
    int nodes_per_entity_ = 1;
    std::unordered_map<std::uint64_t, Cell> cells_;
};

}  // namespace xsim
