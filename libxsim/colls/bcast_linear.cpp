// Linear broadcast (what xSim had): the root sends the message to every other rank.
#include "libxsim/colls/algorithm_registry.hpp"
#include "libxsim/colls/algorithms.hpp"

namespace xsim::colls {
namespace {

Steps run_bcast_linear(Context& c, const BcastArgs& a) {
    if (c.rank == a.root) {
        for (int i = 0; i < c.size; ++i)
            if (i != a.root) c.send(i, a.data);
    } else {
        c.recv(a.root, a.data);
    }
    co_await c.round();
}

// The root's NIC sends the p-1 copies one after the other.
SimTime cost_bcast_linear(const CostModel& m, const BcastArgs& a) {
    if (m.size() < 2) return 0;
    return m.message(m.typical_peer(), a.data.bytes) + (m.size() - 2) * m.transfer(m.typical_peer(), a.data.bytes);
}

}  // namespace

const Algorithm<BcastArgs> bcast_linear{
    {"linear", "the root sends the whole message to each rank in turn"}, run_bcast_linear, nullptr, cost_bcast_linear};
XSIM_REGISTER_ALGORITHM(bcast_linear, CollKind::Bcast);

}  // namespace xsim::colls
