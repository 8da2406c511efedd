// Every algorithm object (each defined in its own file, colls/<collective>_<name>.cpp)
// and the per-collective tables that list them (selectors.cpp). The tables name the
// objects explicitly rather than relying on static registrars: xsim_engine is a static
// archive, and the linker would drop algorithm files nothing refers to.
#pragma once
#include "libxsim/colls/algorithm.hpp"

namespace xsim::colls {

extern const Algorithm<BarrierArgs> barrier_dissemination, barrier_linear, barrier_analytic;
extern const Algorithm<BcastArgs> bcast_binomial, bcast_scatter_allgather, bcast_linear, bcast_analytic;
extern const Algorithm<ReduceArgs> reduce_binomial, reduce_linear, reduce_analytic;
extern const Algorithm<ReduceArgs> allreduce_recursive_doubling, allreduce_rabenseifner, allreduce_ring,
    allreduce_linear, allreduce_analytic;
extern const Algorithm<RootedArgs> gather_binomial, gather_linear, gather_analytic, gatherv_analytic;
extern const Algorithm<RootedArgs> scatter_binomial, scatter_linear, scatter_analytic, scatterv_analytic;
// Cost of the linear gather and scatter: every block through the root's NIC in turn.
SimTime root_serialized_cost(const CostModel& m, const RootedArgs& a);
extern const Algorithm<AllgatherArgs> allgather_recursive_doubling, allgather_bruck, allgather_ring,
    allgather_linear, allgather_analytic, allgatherv_analytic;
extern const Algorithm<AlltoallArgs> alltoall_pairwise, alltoall_bruck, alltoall_linear, alltoall_analytic,
    alltoallv_analytic, alltoallw_analytic;
extern const Algorithm<ReduceScatterArgs> reduce_scatter_reduce_scatterv, reduce_scatter_ring,
    reduce_scatter_analytic, reduce_scatter_block_analytic;
extern const Algorithm<ReduceArgs> scan_recursive_doubling, scan_linear, scan_analytic;
extern const Algorithm<ReduceArgs> exscan_recursive_doubling, exscan_linear, exscan_analytic;
// One algorithm for all five neighbor collectives.
extern const Algorithm<NeighborArgs> neighbor_linear;

// The tables, one per collective (selectors.cpp).
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
