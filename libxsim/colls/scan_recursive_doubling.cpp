// Recursive-doubling scan (MPICH): every rank keeps the partial reduction of the ranks it
// has heard from; in round k it swaps that partial with the partner 2^k away and, if the
// partner is lower, adds the partner's partial on the left of its result. ceil(log2 p)
// rounds; operand order is kept, so any op works.
#include <utility>

#include "libxsim/colls/algorithm_registry.hpp"
#include "libxsim/colls/algorithms.hpp"

namespace xsim::colls {
namespace {

Steps run_scan_recursive_doubling(Context& c, const ReduceArgs& a) {
    const BlocksOfShape whole(a.count, a.type);
    copy_block(c.payload, whole(a.sendbuf), whole(a.recvbuf));
    if (c.size == 1) co_return;
    TypedScratch partial_buf(c.payload, a.count, a.type), incoming_buf(c.payload, a.count, a.type);
    void* partial = partial_buf.data();
    void* incoming = incoming_buf.data();
    copy_block(c.payload, whole(a.recvbuf), whole(partial));
    for (int mask = 1; mask < c.size; mask <<= 1) {
        const int partner = c.rank ^ mask;
        if (partner >= c.size) continue;
        c.recv(partner, whole(incoming));
        c.send(partner, whole(partial));
        co_await c.round();
        if (partner < c.rank) {
            combine(c.payload, incoming, partial, a.count, a.type, a.op);
            combine(c.payload, incoming, a.recvbuf, a.count, a.type, a.op);
        } else if (a.commutative) {
            combine(c.payload, incoming, partial, a.count, a.type, a.op);
        } else {  // partial = partial op incoming, computed into incoming
            combine(c.payload, partial, incoming, a.count, a.type, a.op);
            std::swap(partial, incoming);
        }
    }
}

SimTime cost_scan_recursive_doubling(const CostModel& m, const ReduceArgs& a) {
    return m.rounds([&](int) { return a.bytes; });
}

}  // namespace

const Algorithm<ReduceArgs> scan_recursive_doubling{
    {"recursive_doubling", "ceil(log2 p) exchanges of partial reductions (any op)"},
    run_scan_recursive_doubling, nullptr, cost_scan_recursive_doubling};
XSIM_REGISTER_ALGORITHM(scan_recursive_doubling, CollKind::Scan);

}  // namespace xsim::colls
