// Linear scan (what xSim had): rank r waits for the prefix of ranks 0..r-1 from r-1,
// combines its own data on the right and passes the result to r+1. p-1 sequential steps.
#include "libxsim/colls/algorithm_registry.hpp"
#include "libxsim/colls/algorithms.hpp"

namespace xsim::colls {
namespace {

Steps run_scan_linear(Context& c, const ReduceArgs& a) {
    const BlocksOfShape whole(a.count, a.type);
    copy_block(c.payload, whole(a.sendbuf), whole(a.recvbuf));
    if (c.rank > 0) {
        TypedScratch prefix(c.payload, a.count, a.type);
        c.recv(c.rank - 1, whole(prefix.data()));
        co_await c.round();
        combine(c.payload, prefix.data(), a.recvbuf, a.count, a.type, a.op);
    }
    if (c.rank < c.size - 1) {
        c.send(c.rank + 1, whole(a.recvbuf));
        co_await c.round();
    }
}

SimTime cost_scan_linear(const CostModel& m, const ReduceArgs& a) {
    return (m.size() - 1) * m.message(1, a.bytes);
}

}  // namespace

const Algorithm<ReduceArgs> scan_linear{
    {"linear", "the prefix travels from rank 0 to rank p-1, one combine per rank"},
    run_scan_linear, nullptr, cost_scan_linear};
XSIM_REGISTER_ALGORITHM(scan_linear, CollKind::Scan);

}  // namespace xsim::colls
