// The collectives xsim implements, their names and the internal tag of their messages.
#pragma once
#include <cstdint>
#include <string>

namespace xsim::colls {

enum class CollKind : std::uint8_t {
    Barrier = 1, Bcast, Reduce, Allreduce, Gather, Gatherv, Scatter, Scatterv, Allgather,
    Allgatherv, Alltoall, Alltoallv, Alltoallw, ReduceScatter, ReduceScatterBlock, Scan, Exscan,
    NeighborAllgather, NeighborAllgatherv, NeighborAlltoall, NeighborAlltoallv, NeighborAlltoallw,
    DistGraphCreate,  // the edge exchange of MPI_Dist_graph_create (no algorithm table)
    // Communicator construction exchanges messages too (not selectable collectives).
    CommDup = 24, CommSplit, CommCreate,
    // The agreements of MPI-IO's collective calls (MPI_File_open, _close, ordered access: libxsim/io/).
    FileAgreement,
};
constexpr int kFirstCommKind = 24;
constexpr int kLastCommKind = 27;
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
    {"MPI_File collective (open, close, ordered access)", "file_agreement", false},
};

inline bool known_kind(int kind) {
    return (kind > 0 && kind < kCollKindCount) || (kind >= kFirstCommKind && kind <= kLastCommKind);
}
inline const CollNames& names(CollKind kind) {
    const int k = static_cast<int>(kind);
    return k >= kFirstCommKind ? kCommCreationNames[k - kFirstCommKind] : kCollNames[k];
}

// "MPI_Ibcast" for MPI_Bcast.
std::string nonblocking_name(CollKind kind);
// The call a rank is in: names(kind).mpi, or its nonblocking form.
std::string call_name(CollKind kind, bool nonblocking);

// Internal messages are tagged with the call's number on its communicator
// (collective_sequence(): the n-th collective a rank starts there), so collectives in
// flight at the same time, nonblocking or not, never match each other's messages; receives
// name their source and that tag. Each message also carries a signature, the collective
// kind (bits 26..30), root (bits 0..25) and whether it is the nonblocking form (bit 31),
// compared on receipt: the n-th collective of every rank must be the same one with the
// same root, and nonblocking collectives never match blocking ones (MPI-3.1, 5.12), so a
// different signature proves that the ranks disagree.
constexpr int kSignatureKindShift = 26;
constexpr std::uint32_t kSignatureRootMask = (1u << kSignatureKindShift) - 1;

constexpr std::uint32_t kSignatureNonblocking = 1u << 31;

constexpr std::uint32_t collective_signature(CollKind kind, int root, bool nonblocking) {
    return (nonblocking ? kSignatureNonblocking : 0u) | (static_cast<std::uint32_t>(kind) << kSignatureKindShift) |
           (static_cast<std::uint32_t>(root) & kSignatureRootMask);
}
constexpr int signature_kind(std::uint32_t signature) {
    return static_cast<int>((signature & ~kSignatureNonblocking) >> kSignatureKindShift);
}
constexpr bool signature_nonblocking(std::uint32_t signature) { return (signature & kSignatureNonblocking) != 0; }
constexpr int signature_root(std::uint32_t signature) { return static_cast<int>(signature & kSignatureRootMask); }
// Tags are non-negative ints: the sequence number wraps after 2^31 collectives.
constexpr int sequence_tag(std::uint32_t sequence) { return static_cast<int>(sequence & 0x7fffffffu); }
// "MPI_Bcast (root 0)", "MPI_Ibcast (root 0)", or a description of an unknown signature.
std::string describe_signature(std::uint32_t signature);

}  // namespace xsim::colls
