// Recursive-doubling exclusive scan (MPICH): as the recursive-doubling scan, but the
// result only collects partials from lower partners (never the rank's own data); the
// first such partial is copied, later ones are added on the left. Rank 0's result stays
// undefined, as MPI says.
#include <utility>

#include "libxsim/colls/algorithm_registry.hpp"
#include "libxsim/colls/algorithms.hpp"

namespace xsim::colls {
namespace {

Steps run_exscan_recursive_doubling(Context& c, const ReduceArgs& a) {
    if (c.size == 1) co_return;
    const BlocksOfShape whole(a.count, a.type);
    TypedScratch partial_buf(c.payload, a.count, a.type), incoming_buf(c.payload, a.count, a.type);
    void* partial = partial_buf.data();
    void* incoming = incoming_buf.data();
    copy_block(c.payload, whole(a.sendbuf), whole(partial));  // before a result can overwrite it
    bool have_result = false;
    for (int mask = 1; mask < c.size; mask <<= 1) {
        const int partner = c.rank ^ mask;
        if (partner >= c.size) continue;
        c.recv(partner, whole(incoming));
        c.send(partner, whole(partial));
        co_await c.round();
        if (partner < c.rank) {
            combine(c.payload, incoming, partial, a.count, a.type, a.op);
            if (!have_result) copy_block(c.payload, whole(incoming), whole(a.recvbuf));
            else combine(c.payload, incoming, a.recvbuf, a.count, a.type, a.op);
            have_result = true;
        } else if (a.commutative) {
            combine(c.payload, incoming, partial, a.count, a.type, a.op);
        } else {
            combine(c.payload, partial, incoming, a.count, a.type, a.op);
            std::swap(partial, incoming);
        }
    }
}

SimTime cost_exscan_recursive_doubling(const CostModel& m, const ReduceArgs& a) {
    return m.rounds([&](int) { return a.bytes; });
}

}  // namespace

const Algorithm<ReduceArgs> exscan_recursive_doubling{
    {"recursive_doubling", "ceil(log2 p) exchanges of partial reductions (any op)"},
    run_exscan_recursive_doubling, nullptr, cost_exscan_recursive_doubling};
XSIM_REGISTER_ALGORITHM(exscan_recursive_doubling, CollKind::Exscan);

}  // namespace xsim::colls
