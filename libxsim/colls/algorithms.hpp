// The algorithm objects other files name (the default choices in selectors.cpp, and the
// algorithms composite ones run inside them) and the per-collective tables. An algorithm
// nothing names needs no line here: it registers itself in its own file
// (algorithm_registry.hpp).
#pragma once
#include "libxsim/colls/algorithm.hpp"

namespace xsim::colls {

extern const Algorithm<BarrierArgs> barrier_dissemination;
extern const Algorithm<BcastArgs> bcast_binomial, bcast_scatter_allgather, bcast_linear;
extern const Algorithm<ReduceArgs> reduce_binomial, reduce_linear;
extern const Algorithm<ReduceArgs> allreduce_recursive_doubling, allreduce_rabenseifner, allreduce_ring;
extern const Algorithm<RootedArgs> gather_binomial, gather_linear;
extern const Algorithm<RootedArgs> scatter_binomial, scatter_linear;
// Cost of the linear gather and scatter: every block through the root's NIC in turn.
SimTime root_serialized_cost(const CostModel& m, const RootedArgs& a);
extern const Algorithm<AllgatherArgs> allgather_recursive_doubling, allgather_bruck, allgather_ring;
extern const Algorithm<AlltoallArgs> alltoall_pairwise, alltoall_bruck, alltoall_linear;
extern const Algorithm<ReduceScatterArgs> reduce_scatter_reduce_scatterv, reduce_scatter_ring;
extern const Algorithm<ReduceArgs> scan_recursive_doubling;
extern const Algorithm<ReduceArgs> exscan_recursive_doubling;
// One algorithm for all five neighbor collectives.
extern const Algorithm<NeighborArgs> neighbor_linear;

// The tables, one per collective (filled by registration, see algorithm_registry.hpp).
const Collective<BarrierArgs>& barrier_table();
const Collective<BcastArgs>& bcast_table();
const Collective<ReduceArgs>& reduce_table();
const Collective<ReduceArgs>& allreduce_table();
const Collective<RootedArgs>& gather_table();
const Collective<RootedArgs>& gatherv_table();
const Collective<RootedArgs>& scatter_table();
const Collective<RootedArgs>& scatterv_table();
const Collective<AllgatherArgs>& allgather_table();
const Collective<AllgatherArgs>& allgatherv_table();
const Collective<AlltoallArgs>& alltoall_table();
const Collective<AlltoallArgs>& alltoallv_table();
const Collective<AlltoallArgs>& alltoallw_table();
const Collective<ReduceScatterArgs>& reduce_scatter_table();
const Collective<ReduceScatterArgs>& reduce_scatter_block_table();
const Collective<ReduceArgs>& scan_table();
const Collective<ReduceArgs>& exscan_table();
const Collective<NeighborArgs>& neighbor_allgather_table();
const Collective<NeighborArgs>& neighbor_allgatherv_table();
const Collective<NeighborArgs>& neighbor_alltoall_table();
const Collective<NeighborArgs>& neighbor_alltoallv_table();
const Collective<NeighborArgs>& neighbor_alltoallw_table();

}  // namespace xsim::colls
