// The "analytic" algorithm of every collective: which skeleton it synchronizes on and
// which table's default choice it models (see analytic.hpp).
#include "libxsim/colls/algorithm_registry.hpp"
#include "libxsim/colls/analytic.hpp"

namespace xsim::colls {
namespace {

constexpr const char* kDescription =
    "closed-form time of the default algorithm on a zero-byte skeleton; data moved directly between the ranks, "
    "within a real process or across several";

template <class Args>
Algorithm<Args> analytic(Steps (*run)(Context&, const Args&)) {
    return Algorithm<Args>{{"analytic", kDescription}, run, nullptr, nullptr};
}

Steps barrier_analytic_steps(Context& c, const BarrierArgs& a) {
    return analytic_steps(c, a, barrier_table(), Skeleton::All, 0);
}
Steps bcast_analytic_steps(Context& c, const BcastArgs& a) { return analytic_steps(c, a, bcast_table(), Skeleton::FanOut, a.root); }
Steps reduce_analytic_steps(Context& c, const ReduceArgs& a) { return analytic_steps(c, a, reduce_table(), Skeleton::FanIn, a.root); }
Steps allreduce_analytic_steps(Context& c, const ReduceArgs& a) { return analytic_steps(c, a, allreduce_table(), Skeleton::All, 0); }
Steps gather_analytic_steps(Context& c, const RootedArgs& a) { return analytic_steps(c, a, gather_table(), Skeleton::FanIn, a.root); }
Steps gatherv(Context& c, const RootedArgs& a) {
    return analytic_steps(c, a, gatherv_table(), Skeleton::FanIn, a.root);
}
Steps scatter_analytic_steps(Context& c, const RootedArgs& a) {
    return analytic_steps(c, a, scatter_table(), Skeleton::FanOut, a.root);
}
Steps scatterv(Context& c, const RootedArgs& a) {
    return analytic_steps(c, a, scatterv_table(), Skeleton::FanOut, a.root);
}
Steps allgather_analytic_steps(Context& c, const AllgatherArgs& a) {
    return analytic_steps(c, a, allgather_table(), Skeleton::All, 0);
}
Steps allgatherv(Context& c, const AllgatherArgs& a) {
    return analytic_steps(c, a, allgatherv_table(), Skeleton::All, 0);
}
Steps alltoall_analytic_steps(Context& c, const AlltoallArgs& a) { return analytic_steps(c, a, alltoall_table(), Skeleton::All, 0); }
Steps alltoallv(Context& c, const AlltoallArgs& a) {
    return analytic_steps(c, a, alltoallv_table(), Skeleton::All, 0);
}
Steps alltoallw(Context& c, const AlltoallArgs& a) {
    return analytic_steps(c, a, alltoallw_table(), Skeleton::All, 0);
}
Steps reduce_scatter_analytic_steps(Context& c, const ReduceScatterArgs& a) {
    return analytic_steps(c, a, reduce_scatter_table(), Skeleton::All, 0);
}
Steps reduce_scatter_block(Context& c, const ReduceScatterArgs& a) {
    return analytic_steps(c, a, reduce_scatter_block_table(), Skeleton::All, 0);
}
Steps scan(Context& c, const ReduceArgs& a) { return analytic_steps(c, a, scan_table(), Skeleton::Prefix, 0); }
Steps exscan(Context& c, const ReduceArgs& a) { return analytic_steps(c, a, exscan_table(), Skeleton::Prefix, 0); }

}  // namespace

const Algorithm<BarrierArgs> barrier_analytic = analytic<BarrierArgs>(barrier_analytic_steps);
XSIM_REGISTER_ALGORITHM(barrier_analytic, CollKind::Barrier);
const Algorithm<BcastArgs> bcast_analytic = analytic<BcastArgs>(bcast_analytic_steps);
XSIM_REGISTER_ALGORITHM(bcast_analytic, CollKind::Bcast);
const Algorithm<ReduceArgs> reduce_analytic = analytic<ReduceArgs>(reduce_analytic_steps);
XSIM_REGISTER_ALGORITHM(reduce_analytic, CollKind::Reduce);
const Algorithm<ReduceArgs> allreduce_analytic = analytic<ReduceArgs>(allreduce_analytic_steps);
XSIM_REGISTER_ALGORITHM(allreduce_analytic, CollKind::Allreduce);
const Algorithm<RootedArgs> gather_analytic = analytic<RootedArgs>(gather_analytic_steps);
XSIM_REGISTER_ALGORITHM(gather_analytic, CollKind::Gather);
const Algorithm<RootedArgs> gatherv_analytic = analytic<RootedArgs>(gatherv);
XSIM_REGISTER_ALGORITHM(gatherv_analytic, CollKind::Gatherv);
const Algorithm<RootedArgs> scatter_analytic = analytic<RootedArgs>(scatter_analytic_steps);
XSIM_REGISTER_ALGORITHM(scatter_analytic, CollKind::Scatter);
const Algorithm<RootedArgs> scatterv_analytic = analytic<RootedArgs>(scatterv);
XSIM_REGISTER_ALGORITHM(scatterv_analytic, CollKind::Scatterv);
const Algorithm<AllgatherArgs> allgather_analytic = analytic<AllgatherArgs>(allgather_analytic_steps);
XSIM_REGISTER_ALGORITHM(allgather_analytic, CollKind::Allgather);
const Algorithm<AllgatherArgs> allgatherv_analytic = analytic<AllgatherArgs>(allgatherv);
XSIM_REGISTER_ALGORITHM(allgatherv_analytic, CollKind::Allgatherv);
const Algorithm<AlltoallArgs> alltoall_analytic = analytic<AlltoallArgs>(alltoall_analytic_steps);
XSIM_REGISTER_ALGORITHM(alltoall_analytic, CollKind::Alltoall);
const Algorithm<AlltoallArgs> alltoallv_analytic = analytic<AlltoallArgs>(alltoallv);
XSIM_REGISTER_ALGORITHM(alltoallv_analytic, CollKind::Alltoallv);
const Algorithm<AlltoallArgs> alltoallw_analytic = analytic<AlltoallArgs>(alltoallw);
XSIM_REGISTER_ALGORITHM(alltoallw_analytic, CollKind::Alltoallw);
const Algorithm<ReduceScatterArgs> reduce_scatter_analytic = analytic<ReduceScatterArgs>(reduce_scatter_analytic_steps);
XSIM_REGISTER_ALGORITHM(reduce_scatter_analytic, CollKind::ReduceScatter);
const Algorithm<ReduceScatterArgs> reduce_scatter_block_analytic = analytic<ReduceScatterArgs>(reduce_scatter_block);
XSIM_REGISTER_ALGORITHM(reduce_scatter_block_analytic, CollKind::ReduceScatterBlock);
const Algorithm<ReduceArgs> scan_analytic = analytic<ReduceArgs>(scan);
XSIM_REGISTER_ALGORITHM(scan_analytic, CollKind::Scan);
const Algorithm<ReduceArgs> exscan_analytic = analytic<ReduceArgs>(exscan);
XSIM_REGISTER_ALGORITHM(exscan_analytic, CollKind::Exscan);

}  // namespace xsim::colls
