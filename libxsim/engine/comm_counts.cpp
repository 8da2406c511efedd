#include "libxsim/engine/comm_counts.hpp"

#include <algorithm>

namespace xsim {

CommCounts::CommCounts(const net::Machine& machine, int world_size, long long limit) : machine_(machine) {
    if (world_size <= limit) {
        level_ = Level::Rank;
        entities_ = world_size;
        return;
    }
    // Node numbers are 0 .. nodes-1 (a mapping file may leave some empty; they count).
    int nodes = 0;
    for (int r = 0; r < world_size; ++r) nodes = std::max(nodes, machine.node_of(r) + 1);
    if (nodes <= limit) {
        level_ = Level::Node;
        entities_ = nodes;
        return;
    }
    level_ = Level::NodeGroup;
    nodes_per_entity_ = static_cast<int>((nodes + limit - 1) / limit);
    entities_ = (nodes + nodes_per_entity_ - 1) / nodes_per_entity_;
}

const char* CommCounts::level_name() const {
    switch (level_) {
        case Level::Rank: return "rank";
        case Level::Node: return "node";
        case Level::NodeGroup: break;
    }
    return "node_group";
}

}  // namespace xsim
