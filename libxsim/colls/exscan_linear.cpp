// Linear exclusive scan: rank r receives the prefix of ranks 0..r-1 from r-1 (its result)
// and passes that prefix combined with its own data to r+1. p-1 sequential steps.
#include "libxsim/colls/algorithm_registry.hpp"
#include "libxsim/colls/algorithms.hpp"

namespace xsim::colls {
namespace {

Steps run_exscan_linear(Context& c, const ReduceArgs& a) {
    const BlocksOfShape whole(a.count, a.type);
    // The rank's own data, kept aside: with MPI_IN_PLACE the result overwrites it.
    TypedScratch outgoing(c.payload && c.rank < c.size - 1, a.count, a.type);
    if (c.rank < c.size - 1) copy_block(c.payload, whole(a.sendbuf), whole(outgoing.data()));
    if (c.rank > 0) {
        c.recv(c.rank - 1, whole(a.recvbuf));
        co_await c.round();
        if (c.rank < c.size - 1) combine(c.payload, a.recvbuf, outgoing.data(), a.count, a.type, a.op);
    }
    if (c.rank < c.size - 1) {
        c.send(c.rank + 1, whole(outgoing.data()));
        co_await c.round();
    }
}

SimTime cost_exscan_linear(const CostModel& m, const ReduceArgs& a) {
    return m.size() < 2 ? 0 : (m.size() - 1) * m.message(1, a.bytes);
}

}  // namespace

const Algorithm<ReduceArgs> exscan_linear{
    {"linear", "the exclusive prefix travels from rank 0 to rank p-1"}, run_exscan_linear, nullptr, cost_exscan_linear};
XSIM_REGISTER_ALGORITHM(exscan_linear, CollKind::Exscan);

}  // namespace xsim::colls
