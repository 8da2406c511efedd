// Binomial-tree broadcast: ranks relative to the root receive from the rank that differs
// in their lowest set bit, then forward to the ranks below it (farthest first).
// ceil(log2 p) rounds of the whole message.
#include "libxsim/colls/algorithm_registry.hpp"
#include "libxsim/colls/algorithms.hpp"

namespace xsim::colls {
namespace {

Steps run_bcast_binomial(Context& c, const BcastArgs& a) {
    const int p = c.size;
    const int vrank = (c.rank - a.root + p) % p;
    int mask = 1;
    for (; mask < p; mask <<= 1) {
        if (vrank & mask) {
            c.recv((vrank - mask + a.root) % p, a.data);
            co_await c.round();
            break;
        }
    }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (vrank + mask < p) c.send((vrank + mask + a.root) % p, a.data);
    co_await c.round();
}

SimTime cost_bcast_binomial(const CostModel& m, const BcastArgs& a) {
    return m.rounds([&](int) { return a.data.bytes; });
}

}  // namespace

const Algorithm<BcastArgs> bcast_binomial{
    {"binomial", "binomial tree from the root: ceil(log2 p) rounds of the whole message"},
    run_bcast_binomial, nullptr, cost_bcast_binomial};
XSIM_REGISTER_ALGORITHM(bcast_binomial, CollKind::Bcast);

}  // namespace xsim::colls
