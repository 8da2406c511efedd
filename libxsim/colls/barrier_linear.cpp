// Linear barrier (what xSim had): every rank signals rank 0, which answers all of them
// once it has heard from everyone. 2(p-1) zero-byte messages, all through rank 0.
#include "libxsim/colls/algorithm_registry.hpp"
#include "libxsim/colls/algorithms.hpp"

namespace xsim::colls {
namespace {

Steps run_barrier_linear(Context& c, const BarrierArgs&) {
    if (c.rank == 0) {
        for (int i = 1; i < c.size; ++i) c.recv_bytes(i, nullptr, 0);
        co_await c.round();
        for (int i = 1; i < c.size; ++i) c.send_bytes(i, nullptr, 0);
        co_await c.round();
    } else {
        c.send_bytes(0, nullptr, 0);
        c.recv_bytes(0, nullptr, 0);
        co_await c.round();
    }
}

SimTime cost_barrier_linear(const CostModel& m, const BarrierArgs&) {
    return m.size() > 1 ? 2 * m.latency(1) : 0;
}

}  // namespace

const Algorithm<BarrierArgs> barrier_linear{
    {"linear", "all ranks signal rank 0, which then releases them (2(p-1) messages)"},
    run_barrier_linear, nullptr, cost_barrier_linear};
XSIM_REGISTER_ALGORITHM(barrier_linear, CollKind::Barrier);

}  // namespace xsim::colls
