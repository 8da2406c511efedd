// The communication of MPI_Dist_graph_create: each rank names edges between any ranks, and
// both ends of every edge must learn it. No rank may hold O(p) state, so instead of an
// all-to-all of counts, the edge notices are routed like Bruck's all-to-all: in step k
// (distance 2^k, k < ceil(log2 p)) a rank passes on, to the rank 2^k ahead, the notices
// whose distance to their target has bit k set. Each step is two rounds (count, then the
// notices). O(log p) messages per rank; a rank holds its own notices and those in transit.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "libxsim/engine/engine.hpp"

namespace xsim::colls {

struct EdgeNotice {
    std::int32_t target;    // the rank that must learn the edge
    std::int32_t peer;      // the other end of the edge
    std::int32_t weight;
    std::int32_t origin;    // the rank that named the edge, and its position in that rank's
    std::int32_t position;  // list: they order a rank's edges the same way on any number of processes
    std::int32_t incoming;  // 1: peer -> target (peer is a source of target); 0: target -> peer
};

// Collective over `comm`: delivers every rank's `notices` to their targets. *arrived gets
// the notices whose target is the calling rank, ordered by (origin, position, incoming).
// Returns MPI_SUCCESS or an error class with *error set (the ranks disagreed).
int exchange_edges(Engine& engine, Rank& me, const Comm& comm, std::vector<EdgeNotice> notices,
                   std::vector<EdgeNotice>* arrived, std::string* error);

}  // namespace xsim::colls
