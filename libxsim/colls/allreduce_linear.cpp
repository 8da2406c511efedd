// Linear allreduce (what xSim had): linear reduce to rank 0, then linear broadcast.
#include "libxsim/colls/algorithm_registry.hpp"
#include "libxsim/colls/algorithms.hpp"

namespace xsim::colls {
namespace {

Steps run_allreduce_linear(Context& c, const ReduceArgs& a) {
    ReduceArgs to_zero = a;
    to_zero.root = 0;
    XSIM_CO_RUN(c, reduce_linear.run(c, to_zero));
    const BcastArgs from_zero{make_block(a.recvbuf, a.count, a.type), 0};
    XSIM_CO_RUN(c, bcast_linear.run(c, from_zero));
}

SimTime cost_allreduce_linear(const CostModel& m, const ReduceArgs& a) {
    ReduceArgs to_zero = a;
    to_zero.root = 0;
    return reduce_linear.cost(m, to_zero) + bcast_linear.cost(m, BcastArgs{make_block(nullptr, a.count, a.type), 0});
}

}  // namespace

const Algorithm<ReduceArgs> allreduce_linear{
    {"linear", "linear reduce to rank 0 followed by a linear broadcast"},
    run_allreduce_linear, nullptr, cost_allreduce_linear};
XSIM_REGISTER_ALGORITHM(allreduce_linear, CollKind::Allreduce);

}  // namespace xsim::colls
