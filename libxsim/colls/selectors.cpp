// The default choice among the algorithms of each collective, by message size
// and communicator size. Thresholds follow Open MPI's "tuned" fixed decisions (4.1) where
// xsim has the same algorithm, MPICH's otherwise; README.md lists them. The choice must
// depend only on values every rank agrees on (byte counts, communicator size, the op).
#include "libxsim/colls/algorithm_registry.hpp"
#include "libxsim/colls/algorithms.hpp"
#include "libxsim/mpi/real_mpi.hpp"

namespace xsim::colls {
namespace {

bool power_of_two(int p) { return (p & (p - 1)) == 0; }

const Algorithm<BarrierArgs>* choose_barrier(const Context&, const BarrierArgs&) { return &barrier_dissemination; }

const Algorithm<BcastArgs>* choose_bcast(const Context& c, const BcastArgs& a) {
    // MPICH: binomial below 12 KiB or 8 ranks; beyond, scatter + allgather moves 2x bytes,
    // not log2(p)x. Its ring has p-1 steps, so xsim also wants chunks (bytes/p) of at
    // least 16 KiB, where a step's transfer outweighs its latency: then the p-1 steps are
    // proportional to the data every rank receives, never O(p^2) tiny messages.
    if (a.data.bytes < 12288 || c.size < 8 || a.data.bytes / static_cast<std::uint64_t>(c.size) < 16384)
        return &bcast_binomial;
    return &bcast_scatter_allgather;
}

const Algorithm<ReduceArgs>* choose_reduce(const Context&, const ReduceArgs&) { return &reduce_binomial; }

const Algorithm<ReduceArgs>* choose_allreduce(const Context& c, const ReduceArgs& a) {
    // Open MPI: recursive doubling below 10000 bytes; ring for long commutative vectors
    // (count >= p). xsim keeps ring to small communicators (its 2(p-1) latencies), and
    // uses Rabenseifner beyond (2 log2 p latencies, same bandwidth term).
    if (!a.commutative || a.bytes < 10000 || c.size < 2) return &allreduce_recursive_doubling;
    if (a.count >= c.size && c.size <= 16) return &allreduce_ring;
    return &allreduce_rabenseifner;
}

const Algorithm<RootedArgs>* choose_gather(const Context& c, const RootedArgs& a) {
    // Open MPI: binomial for blocks up to 6000 bytes on large (> 60) or medium (> 10,
    // blocks < 1 KiB) communicators, linear otherwise.
    const std::uint64_t block = a.mine.bytes ? a.mine.bytes : a.blocks.bytes_of(0);
    if (block <= 6000 && (c.size > 60 || (c.size > 10 && block < 1024))) return &gather_binomial;
    return &gather_linear;
}

const Algorithm<RootedArgs>* choose_scatter(const Context& c, const RootedArgs& a) {
    // Open MPI: binomial for blocks under 300 bytes on communicators over 10 ranks.
    const std::uint64_t block = a.mine.bytes ? a.mine.bytes : a.blocks.bytes_of(0);
    if (c.size > 10 && block < 300) return &scatter_binomial;
    return &scatter_linear;
}

const Algorithm<RootedArgs>* choose_gatherv(const Context&, const RootedArgs&) { return &gather_linear; }
const Algorithm<RootedArgs>* choose_scatterv(const Context&, const RootedArgs&) { return &scatter_linear; }

const Algorithm<AllgatherArgs>* choose_allgather(const Context& c, const AllgatherArgs& a) {
    // Open MPI: below 50000 bytes in total, recursive doubling (power of two) or Bruck; ring beyond.
    if (a.recv.bytes_of(0) * static_cast<std::uint64_t>(c.size) < 50000)
        return power_of_two(c.size) ? &allgather_recursive_doubling : &allgather_bruck;
    return &allgather_ring;
}

const Algorithm<AllgatherArgs>* choose_allgatherv(const Context& c, const AllgatherArgs& a) {
    // Open MPI: Bruck below 50000 bytes in total, ring beyond (the counts are O(p) anyway).
    std::uint64_t total = 0;
    for (int i = 0; i < c.size; ++i) total += a.recv.bytes_of(i);
    return total < 50000 ? &allgather_bruck : &allgather_ring;
}

const Algorithm<AlltoallArgs>* choose_alltoall(const Context& c, const AlltoallArgs& a) {
    // Open MPI: Bruck for blocks under 200 bytes on over 12 ranks, linear under 3000
    // bytes, pairwise beyond. Linear holds p-1 requests per rank at once, so xsim uses it
    // only up to 64 ranks.
    const std::uint64_t block = a.send.bytes_of(0);
    if (block < 200 && c.size > 12) return &alltoall_bruck;
    if (block < 3000 && c.size <= 64) return &alltoall_linear;
    return &alltoall_pairwise;
}

const Algorithm<AlltoallArgs>* choose_alltoallv(const Context& c, const AlltoallArgs&) {
    return c.size <= 64 ? &alltoall_linear : &alltoall_pairwise;
}

std::uint64_t type_bytes(MPI_Datatype type) {
    int size = 0;
    real_mpi.Type_size(type, &size);
    return static_cast<std::uint64_t>(size);
}

const Algorithm<ReduceScatterArgs>* choose_reduce_scatter(const Context& c, const ReduceScatterArgs& a) {
    // Open MPI: reduce + scatterv for non-commutative ops and up to 12 KiB in total, ring
    // for long vectors. xsim's ring also needs pieces of at least 1 KiB on average (p-1 steps).
    const std::uint64_t total = type_bytes(a.type) * static_cast<std::uint64_t>(a.total);
    if (a.commutative && total > 12288 && total / static_cast<std::uint64_t>(c.size) >= 1024)
        return &reduce_scatter_ring;
    return &reduce_scatter_reduce_scatterv;
}

const Algorithm<ReduceArgs>* choose_scan(const Context&, const ReduceArgs&) { return &scan_recursive_doubling; }
const Algorithm<ReduceArgs>* choose_exscan(const Context&, const ReduceArgs&) { return &exscan_recursive_doubling; }
const Algorithm<NeighborArgs>* choose_neighbor(const Context&, const NeighborArgs&) { return &neighbor_linear; }

}  // namespace

// The default choice of every collective; its algorithms register themselves in their files.
XSIM_REGISTER_DEFAULT(CollKind::Barrier, choose_barrier);
XSIM_REGISTER_DEFAULT(CollKind::Bcast, choose_bcast);
XSIM_REGISTER_DEFAULT(CollKind::Reduce, choose_reduce);
XSIM_REGISTER_DEFAULT(CollKind::Allreduce, choose_allreduce);
XSIM_REGISTER_DEFAULT(CollKind::Gather, choose_gather);
XSIM_REGISTER_DEFAULT(CollKind::Gatherv, choose_gatherv);
XSIM_REGISTER_DEFAULT(CollKind::Scatter, choose_scatter);
XSIM_REGISTER_DEFAULT(CollKind::Scatterv, choose_scatterv);
XSIM_REGISTER_DEFAULT(CollKind::Allgather, choose_allgather);
XSIM_REGISTER_DEFAULT(CollKind::Allgatherv, choose_allgatherv);
XSIM_REGISTER_DEFAULT(CollKind::Alltoall, choose_alltoall);
XSIM_REGISTER_DEFAULT(CollKind::Alltoallv, choose_alltoallv);
XSIM_REGISTER_DEFAULT(CollKind::Alltoallw, choose_alltoallv);
XSIM_REGISTER_DEFAULT(CollKind::ReduceScatter, choose_reduce_scatter);
XSIM_REGISTER_DEFAULT(CollKind::ReduceScatterBlock, choose_reduce_scatter);
XSIM_REGISTER_DEFAULT(CollKind::Scan, choose_scan);
XSIM_REGISTER_DEFAULT(CollKind::Exscan, choose_exscan);
XSIM_REGISTER_DEFAULT(CollKind::NeighborAllgather, choose_neighbor);
XSIM_REGISTER_DEFAULT(CollKind::NeighborAllgatherv, choose_neighbor);
XSIM_REGISTER_DEFAULT(CollKind::NeighborAlltoall, choose_neighbor);
XSIM_REGISTER_DEFAULT(CollKind::NeighborAlltoallv, choose_neighbor);
XSIM_REGISTER_DEFAULT(CollKind::NeighborAlltoallw, choose_neighbor);

// The tables by name, for the bindings and the analytic algorithms.
const Collective<BarrierArgs>& barrier_table() { return table_of<CollKind::Barrier>(); }
const Collective<BcastArgs>& bcast_table() { return table_of<CollKind::Bcast>(); }
const Collective<ReduceArgs>& reduce_table() { return table_of<CollKind::Reduce>(); }
const Collective<ReduceArgs>& allreduce_table() { return table_of<CollKind::Allreduce>(); }
const Collective<RootedArgs>& gather_table() { return table_of<CollKind::Gather>(); }
const Collective<RootedArgs>& gatherv_table() { return table_of<CollKind::Gatherv>(); }
const Collective<RootedArgs>& scatter_table() { return table_of<CollKind::Scatter>(); }
const Collective<RootedArgs>& scatterv_table() { return table_of<CollKind::Scatterv>(); }
const Collective<AllgatherArgs>& allgather_table() { return table_of<CollKind::Allgather>(); }
const Collective<AllgatherArgs>& allgatherv_table() { return table_of<CollKind::Allgatherv>(); }
const Collective<AlltoallArgs>& alltoall_table() { return table_of<CollKind::Alltoall>(); }
const Collective<AlltoallArgs>& alltoallv_table() { return table_of<CollKind::Alltoallv>(); }
const Collective<AlltoallArgs>& alltoallw_table() { return table_of<CollKind::Alltoallw>(); }
const Collective<ReduceScatterArgs>& reduce_scatter_table() { return table_of<CollKind::ReduceScatter>(); }
const Collective<ReduceScatterArgs>& reduce_scatter_block_table() { return table_of<CollKind::ReduceScatterBlock>(); }
const Collective<ReduceArgs>& scan_table() { return table_of<CollKind::Scan>(); }
const Collective<ReduceArgs>& exscan_table() { return table_of<CollKind::Exscan>(); }
const Collective<NeighborArgs>& neighbor_allgather_table() { return table_of<CollKind::NeighborAllgather>(); }
const Collective<NeighborArgs>& neighbor_allgatherv_table() { return table_of<CollKind::NeighborAllgatherv>(); }
const Collective<NeighborArgs>& neighbor_alltoall_table() { return table_of<CollKind::NeighborAlltoall>(); }
const Collective<NeighborArgs>& neighbor_alltoallv_table() { return table_of<CollKind::NeighborAlltoallv>(); }
const Collective<NeighborArgs>& neighbor_alltoallw_table() { return table_of<CollKind::NeighborAlltoallw>(); }

}  // namespace xsim::colls
