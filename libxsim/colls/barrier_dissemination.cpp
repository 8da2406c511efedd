// Dissemination barrier (Hensgen, Finkel, Manber): in round k every rank signals rank
// + 2^k and waits for rank - 2^k; after ceil(log2 p) rounds everyone has heard from
// everyone. Zero-byte messages.
#include "libxsim/colls/algorithm_registry.hpp"
#include "libxsim/colls/algorithms.hpp"

namespace xsim::colls {
namespace {

Steps run_barrier_dissemination(Context& c, const BarrierArgs&) {
    for (int d = 1; d < c.size; d <<= 1) {
        c.recv_bytes((c.rank - d + c.size) % c.size, nullptr, 0);
        c.send_bytes((c.rank + d) % c.size, nullptr, 0);
        co_await c.round();
    }
}

SimTime cost_barrier_dissemination(const CostModel& m, const BarrierArgs&) {
    return m.rounds([](int) { return std::uint64_t{0}; });
}

}  // namespace

const Algorithm<BarrierArgs> barrier_dissemination{
    {"dissemination", "ceil(log2 p) rounds: signal rank+2^k, wait for rank-2^k"},
    run_barrier_dissemination, nullptr, cost_barrier_dissemination};
XSIM_REGISTER_ALGORITHM(barrier_dissemination, CollKind::Barrier);

}  // namespace xsim::colls
