// The collectives xsim implements, their names and the internal tag of their messages.
#pragma once
#include <cstdint>

namespace xsim::colls {

enum class CollKind : std::uint8_t {
    Barrier = 1, Bcast, Reduce, Allreduce, Gather, Gatherv, Scatter, Scatterv, Allgather,
    Allgatherv, Alltoall, Alltoallv, Alltoallw, ReduceScatter, ReduceScatterBlock, Scan, Exscan,
    NeighborAllgather, NeighborAllgatherv, NeighborAlltoall, NeighborAlltoallv, NeighborAlltoallw,
    DistGraphCreate,  // the edge exchange of MPI_Dist_graph_create (no algorithm table)
    // Communicator construction exchanges messages too (not selectable collectives).
    CommDup = 24, CommSplit, CommCreate,
};
constexpr int kFirstCommKind = 24;
constexpr int kLastCommKind = 26;
constexpr int kCollKindCount = 24;  // one past the largest value (index 0 unused)

struct CollNames {
    const char* mpi;  // "MPI_Allreduce", for error messages
    const char* key;  // "allreduce": XSIM_COLL_ALLREDUCE, config key collectives.allreduce
    bool rooted;
    // The root bits of the tag hold a per-message key instead (neighbor collectives: the
    // receiver's block, see topology.hpp).
    bool keyed = false;
};

constexpr CollNames kCollNames[kCollKindCount] = {
    {"", "", false},
    {"MPI_Barrier", "barrier", false},
    {"MPI_Bcast", "bcast", true},
    {"MPI_Reduce", "reduce", true},
    {"MPI_Allreduce", "allreduce", false},
    {"MPI_Gather", "gather", true},
    {"MPI_Gatherv", "gatherv", true},
    {"MPI_Scatter", "scatter", true},
    {"MPI_Scatterv", "scatterv", true},
    {"MPI_Allgather", "allgather", false},
    {"MPI_Allgatherv", "allgatherv", false},
    {"MPI_Alltoall", "alltoall", false},
    {"MPI_Alltoallv", "alltoallv", false},
    {"MPI_Alltoallw", "alltoallw", false},
    {"MPI_Reduce_scatter", "reduce_scatter", false},
    {"MPI_Reduce_scatter_block", "reduce_scatter_block", false},
    {"MPI_Scan", "scan", false},
    {"MPI_Exscan", "exscan", false},
    {"MPI_Neighbor_allgather", "neighbor_allgather", false, true},
    {"MPI_Neighbor_allgatherv", "neighbor_allgatherv", false, true},
    {"MPI_Neighbor_alltoall", "neighbor_alltoall", false, true},
    {"MPI_Neighbor_alltoallv", "neighbor_alltoallv", false, true},
    {"MPI_Neighbor_alltoallw", "neighbor_alltoallw", false, true},
    {"MPI_Dist_graph_create", "dist_graph_create", false},
};

constexpr CollNames kCommCreationNames[] = {
    {"MPI_Comm_dup", "comm_dup", false},
    {"MPI_Comm_split", "comm_split", false},
    {"MPI_Comm_create", "comm_create", false},
};

inline bool known_kind(int kind) {
    return (kind > 0 && kind < kCollKindCount) || (kind >= kFirstCommKind && kind <= kLastCommKind);
}
inline const CollNames& names(CollKind kind) {
    const int k = static_cast<int>(kind);
    return k >= kFirstCommKind ? kCommCreationNames[k - kFirstCommKind] : kCollNames[k];
}

// Internal messages carry the collective kind (bits 26..30) and root (bits 0..25) in their
// tag. Receives take any tag from their source and then compare it: per source and context
// messages do not overtake, so in a correct program the next message from a peer is always
// the one expected, and a different tag proves the ranks disagree (different collective or root).
constexpr int kTagKindShift = 26;
constexpr int kTagRootMask = (1 << kTagKindShift) - 1;

constexpr int collective_tag(CollKind kind, int root) {
    return (static_cast<int>(kind) << kTagKindShift) | (root & kTagRootMask);
}
constexpr int tag_kind(int tag) { return tag >> kTagKindShift; }
constexpr int tag_root(int tag) { return tag & kTagRootMask; }

}  // namespace xsim::colls
