// Binomial-tree reduction: each rank combines the partial results of its subtrees (lower
// ranks' data always on the left) and sends the result to its parent. For commutative ops
// the tree is rooted at the root; otherwise it is rooted at rank 0, whose subtrees are
// contiguous rank ranges in order, and rank 0 forwards the result to the root.
#include <utility>

#include "libxsim/colls/algorithm_registry.hpp"
#include "libxsim/colls/algorithms.hpp"

namespace xsim::colls {
namespace {

Steps run_reduce_binomial(Context& c, const ReduceArgs& a) {
    const int p = c.size;
    const int tree_root = a.commutative ? a.root : 0;
    const int vrank = (c.rank - tree_root + p) % p;
    auto real = [&](int v) { return (v + tree_root) % p; };
    const bool result_here = c.rank == a.root && c.rank == tree_root;
    const BlocksOfShape whole(a.count, a.type);

    // The partial result: the rank's own data until it combines something; then a writable
    // accumulator (the root's receive buffer when the result ends here, else scratch).
    const void* current = a.sendbuf;
    void* acc = nullptr;
    void* spare = nullptr;
    TypedScratch acc_scratch, spare_scratch;

    for (int mask = 1; mask < p; mask <<= 1) {
        if (vrank & mask) {
            c.send(real(vrank & ~mask), whole(current));
            co_await c.round();
            break;
        }
        if (vrank + mask >= p) continue;
        if (!acc) {
            if (!result_here) acc_scratch = TypedScratch(c.payload, a.count, a.type);
            acc = result_here ? a.recvbuf : acc_scratch.data();
            copy_block(c.payload, whole(current), whole(acc));
            spare_scratch = TypedScratch(c.payload, a.count, a.type);
            spare = spare_scratch.data();
        }
        c.recv(real(vrank + mask), whole(spare));
        co_await c.round();
        if (a.commutative) {
            combine(c.payload, spare, acc, a.count, a.type, a.op);
        } else {  // acc holds the lower ranks: spare = acc op spare, then swap roles
            combine(c.payload, acc, spare, a.count, a.type, a.op);
            std::swap(acc, spare);
        }
        current = acc;
    }
    if (result_here) {
        copy_block(c.payload, whole(current), whole(a.recvbuf));
    } else if (a.root != tree_root) {  // non-commutative with root != 0: rank 0 forwards
        if (c.rank == tree_root) c.send(a.root, whole(current));
        if (c.rank == a.root) c.recv(tree_root, whole(a.recvbuf));
        co_await c.round();
    }
}

SimTime cost_reduce_binomial(const CostModel& m, const ReduceArgs& a) {
    return m.rounds([&](int) { return a.bytes; }) + (a.commutative || a.root == 0 ? 0 : m.message(a.root, a.bytes));
}

}  // namespace

const Algorithm<ReduceArgs> reduce_binomial{
    {"binomial", "binomial tree, ordered for non-commutative ops (rooted at 0, then forwarded)"},
    run_reduce_binomial, nullptr, cost_reduce_binomial};
XSIM_REGISTER_ALGORITHM(reduce_binomial, CollKind::Reduce);

}  // namespace xsim::colls
