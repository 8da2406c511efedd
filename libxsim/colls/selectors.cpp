// The algorithms of each collective and the default choice among them, by message size
// and communicator size. Thresholds follow Open MPI's "tuned" fixed decisions (4.1) where
// xsim has the same algorithm, MPICH's otherwise; README.md lists them. The choice must
// depend only on values every rank agrees on (byte counts, communicator size, the op).
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

// Defaults first, analytic last.
const Collective<BarrierArgs>& barrier_table() {
    static const Collective<BarrierArgs> t{CollKind::Barrier,
                                           {&barrier_dissemination, &barrier_linear, &barrier_analytic},
                                           choose_barrier};
    return t;
}
const Collective<BcastArgs>& bcast_table() {
    static const Collective<BcastArgs> t{
        CollKind::Bcast, {&bcast_binomial, &bcast_scatter_allgather, &bcast_linear, &bcast_analytic}, choose_bcast};
    return t;
}
const Collective<ReduceArgs>& reduce_table() {
    static const Collective<ReduceArgs> t{CollKind::Reduce, {&reduce_binomial, &reduce_linear, &reduce_analytic},
                                          choose_reduce};
    return t;
}
const Collective<ReduceArgs>& allreduce_table() {
    static const Collective<ReduceArgs> t{CollKind::Allreduce,
                                          {&allreduce_recursive_doubling, &allreduce_rabenseifner, &allreduce_ring,
                                           &allreduce_linear, &allreduce_analytic},
                                          choose_allreduce};
    return t;
}
const Collective<RootedArgs>& gather_table() {
    static const Collective<RootedArgs> t{CollKind::Gather, {&gather_binomial, &gather_linear, &gather_analytic},
                                          choose_gather};
    return t;
}
const Collective<RootedArgs>& gatherv_table() {
    static const Collective<RootedArgs> t{CollKind::Gatherv, {&gather_linear, &gatherv_analytic}, choose_gatherv};
    return t;
}
const Collective<RootedArgs>& scatter_table() {
    static const Collective<RootedArgs> t{
        CollKind::Scatter, {&scatter_binomial, &scatter_linear, &scatter_analytic}, choose_scatter};
    return t;
}
const Collective<RootedArgs>& scatterv_table() {
    static const Collective<RootedArgs> t{CollKind::Scatterv, {&scatter_linear, &scatterv_analytic},
                                          choose_scatterv};
    return t;
}
const Collective<AllgatherArgs>& allgather_table() {
    static const Collective<AllgatherArgs> t{CollKind::Allgather,
                                             {&allgather_recursive_doubling, &allgather_bruck, &allgather_ring,
                                              &allgather_linear, &allgather_analytic},
                                             choose_allgather};
    return t;
}
const Collective<AllgatherArgs>& allgatherv_table() {
    static const Collective<AllgatherArgs> t{
        CollKind::Allgatherv, {&allgather_bruck, &allgather_ring, &allgather_linear, &allgatherv_analytic},
        choose_allgatherv};
    return t;
}
const Collective<AlltoallArgs>& alltoall_table() {
    static const Collective<AlltoallArgs> t{
        CollKind::Alltoall, {&alltoall_bruck, &alltoall_linear, &alltoall_pairwise, &alltoall_analytic},
        choose_alltoall};
    return t;
}
const Collective<AlltoallArgs>& alltoallv_table() {
    static const Collective<AlltoallArgs> t{
        CollKind::Alltoallv, {&alltoall_linear, &alltoall_pairwise, &alltoallv_analytic}, choose_alltoallv};
    return t;
}
const Collective<AlltoallArgs>& alltoallw_table() {
    static const Collective<AlltoallArgs> t{
        CollKind::Alltoallw, {&alltoall_linear, &alltoall_pairwise, &alltoallw_analytic}, choose_alltoallv};
    return t;
}
const Collective<ReduceScatterArgs>& reduce_scatter_table() {
    static const Collective<ReduceScatterArgs> t{
        CollKind::ReduceScatter,
        {&reduce_scatter_reduce_scatterv, &reduce_scatter_ring, &reduce_scatter_analytic},
        choose_reduce_scatter};
    return t;
}
const Collective<ReduceScatterArgs>& reduce_scatter_block_table() {
    static const Collective<ReduceScatterArgs> t{
        CollKind::ReduceScatterBlock,
        {&reduce_scatter_reduce_scatterv, &reduce_scatter_ring, &reduce_scatter_block_analytic},
        choose_reduce_scatter};
    return t;
}
const Collective<ReduceArgs>& scan_table() {
    static const Collective<ReduceArgs> t{
        CollKind::Scan, {&scan_recursive_doubling, &scan_linear, &scan_analytic}, choose_scan};
    return t;
}
const Collective<ReduceArgs>& exscan_table() {
    static const Collective<ReduceArgs> t{
        CollKind::Exscan, {&exscan_recursive_doubling, &exscan_linear, &exscan_analytic}, choose_exscan};
    return t;
}

const Collective<NeighborArgs>& neighbor_allgather_table() {
    static const Collective<NeighborArgs> t{CollKind::NeighborAllgather, {&neighbor_linear}, choose_neighbor};
    return t;
}
const Collective<NeighborArgs>& neighbor_allgatherv_table() {
    static const Collective<NeighborArgs> t{CollKind::NeighborAllgatherv, {&neighbor_linear}, choose_neighbor};
    return t;
}
const Collective<NeighborArgs>& neighbor_alltoall_table() {
    static const Collective<NeighborArgs> t{CollKind::NeighborAlltoall, {&neighbor_linear}, choose_neighbor};
    return t;
}
const Collective<NeighborArgs>& neighbor_alltoallv_table() {
    static const Collective<NeighborArgs> t{CollKind::NeighborAlltoallv, {&neighbor_linear}, choose_neighbor};
    return t;
}
const Collective<NeighborArgs>& neighbor_alltoallw_table() {
    static const Collective<NeighborArgs> t{CollKind::NeighborAlltoallw, {&neighbor_linear}, choose_neighbor};
    return t;
}

}  // namespace xsim::colls
