// What an algorithm is: a name and one-line description, its steps, when it can run, and
// the closed form of its completion time (used by the analytic algorithms). The argument
// structs are what the bindings hand over after validation and MPI_IN_PLACE resolution.
#pragma once
#include <mpi.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "libxsim/colls/buffers.hpp"
#include "libxsim/colls/schedule.hpp"
#include "libxsim/mpi/topology.hpp"

namespace xsim::colls {

struct BarrierArgs {};

struct BcastArgs {
    Block data;
    int root = 0;
};

// Reduce, Allreduce, Scan, Exscan. With MPI_IN_PLACE, sendbuf == recvbuf and in_place is set.
struct ReduceArgs {
    const void* sendbuf = nullptr;
    void* recvbuf = nullptr;   // significant at the root only for Reduce
    int count = 0;
    MPI_Datatype type = MPI_DATATYPE_NULL;
    MPI_Op op = MPI_OP_NULL;
    int root = 0;
    bool commutative = true;
    bool in_place = false;
    std::uint64_t bytes = 0;   // count x type size
};

// Gather(v) and Scatter(v): `blocks` is the root's buffer of size blocks, `mine` this
// rank's own block. in_place: the root's own block stays where it is in `blocks`.
struct RootedArgs {
    Blocks blocks;
    Block mine;
    int root = 0;
    bool in_place = false;
};

// Allgather(v): every rank contributes `mine`; in_place: it is already at recv.at(rank).
struct AllgatherArgs {
    Block mine;
    Blocks recv;
    bool in_place = false;
};

// Alltoall(v, w). in_place: `send` describes a packed copy of the receive buffer.
struct AlltoallArgs {
    Blocks send;
    Blocks recv;
};

// Reduce_scatter (counts) and Reduce_scatter_block (block): the input has `total`
// elements; rank i receives count_of(i) of them starting at offset_of(i).
struct ReduceScatterArgs {
    const void* sendbuf = nullptr;   // == recvbuf with MPI_IN_PLACE
    void* recvbuf = nullptr;
    MPI_Datatype type = MPI_DATATYPE_NULL;
    MPI_Op op = MPI_OP_NULL;
    bool commutative = true;
    int block = 0;
    const int* counts = nullptr;
    const std::int64_t* offsets = nullptr;   // prefix sums of counts (size + 1 entries)
    std::int64_t total = 0;
    std::uint64_t bytes = 0;   // the whole input: total x type size
    int count_of(int i) const { return counts ? counts[i] : block; }
    std::int64_t offset_of(int i) const { return offsets ? offsets[i] : static_cast<std::int64_t>(i) * block; }
};

// Neighbor_allgather(v) and Neighbor_alltoall(v, w): the rank's messages (which peer, which
// block, which key; see topology.hpp) and its buffers. allgather: `mine` goes to every
// out-neighbor; otherwise send block i goes to out-neighbor i. Receive block i comes from
// in-neighbor i. The plan is shared so that copies of the arguments (a nonblocking call
// keeps one) keep it alive.
struct NeighborArgs {
    std::shared_ptr<const topo::NeighborPlan> plan;
    bool allgather = false;
    Block mine;
    Blocks send;
    Blocks recv;
};

// Closed-form message costs on the simulated machine: latency (three of them above the
// eager limit: request, clear-to-send, data) plus size over bandwidth, on the path from
// communicator rank 0 to rank `distance`, which stands for a partner that far away.
class CostModel {
public:
    explicit CostModel(const Context& ctx) : ctx_(ctx) {}
    int size() const { return ctx_.size; }
    SimTime message(int distance, std::uint64_t bytes) const;
    SimTime latency(int distance) const { return message(distance, 0); }
    // Bytes over the bandwidth of that path, without latency (serialized NIC time).
    SimTime transfer(int distance, std::uint64_t bytes) const;
    // Stands for "any peer" in linear and pairwise algorithms: most peers are far away.
    int typical_peer() const { return size() > 1 ? size() / 2 : 1; }
    // Sum over binomial/recursive-doubling rounds k (distance 2^k, k < ceil(log2 p)) of
    // message(2^k, bytes_in_round(2^k)).
    template <class F>
    SimTime rounds(F bytes_in_round) const {
        SimTime t = 0;
        for (int d = 1; d < size(); d <<= 1) t += message(d, bytes_in_round(d));
        return t;
    }

private:
    const Context& ctx_;
};

struct AlgorithmInfo {
    const char* name;
    const char* description;
};

template <class Args>
struct Algorithm : AlgorithmInfo {
    Steps (*run)(Context&, const Args&);
    // Whether it can run this call (commutative op, power-of-two size, ...); null: always.
    bool (*usable)(const Context&, const Args&);
    // Completion time on the slowest rank, from entry of the last one; null: analytic itself.
    SimTime (*cost)(const CostModel&, const Args&);
    // What simulating it costs: messages in the whole call on p ranks, when that grows
    // faster than the analytic skeleton's p ceil(log2 p) (null: it does not). Above
    // -xsim-analytic-ranks the default choice runs analytic instead (default_choice.hpp).
    std::uint64_t (*simulated_messages)(int p) = nullptr;
};

// p(p-1): every rank sends to every other (rings, pairwise and linear all-to-all).
inline std::uint64_t all_pairs_messages(int p) {
    return static_cast<std::uint64_t>(p) * static_cast<std::uint64_t>(p - 1);
}

template <class Args>
struct Collective {
    CollKind kind;
    std::vector<const Algorithm<Args>*> algorithms;
    // The default: a message-level algorithm picked by message and communicator size.
    const Algorithm<Args>* (*choose)(const Context&, const Args&);
};

inline bool commutative_op(const Context&, const ReduceArgs& a) { return a.commutative; }
inline bool commutative_op_rs(const Context&, const ReduceScatterArgs& a) { return a.commutative; }
inline int ceil_log2(int p) {
    int k = 0;
    while ((1 << k) < p) ++k;
    return k;
}
inline int floor_pow2(int p) {
    int q = 1;
    while (q * 2 <= p) q *= 2;
    return q;
}

}  // namespace xsim::colls
