// Recursive-doubling allreduce (MPICH): ranks beyond the largest power of two first fold
// their data into a neighbour; the remaining 2^k ranks exchange and combine with partners
// at distance 1, 2, 4, ...; the folded ranks get the result back. Lower ranks' data is
// always on the left, so non-commutative ops are reduced in rank order.
#include <limits>
#include <utility>

#include "libxsim/colls/algorithm_registry.hpp"
#include "libxsim/colls/algorithms.hpp"

namespace xsim::colls {
namespace {

Steps run_allreduce_recursive_doubling(Context& c, const ReduceArgs& a) {
    const int p = c.size;
    const int pof2 = floor_pow2(p), rem = p - pof2;
    const BlocksOfShape whole(a.count, a.type);
    // Elements [0, count) receive a partner's vector; [count, 2 count) hold the running
    // result, not recvbuf: recvbuf is often on the rank's stack, one page per rank, and
    // touching it every round (combine, send) cost a cold page walk per message at 10^5
    // ranks. The result is copied to recvbuf once, at the end. (One scratch for both: a
    // second one pushed the coroutine frame out of the call's arena, +200 B per rank.)
    // (A count over INT_MAX / 2 keeps the result in recvbuf.)
    const bool result_aside = a.count <= std::numeric_limits<int>::max() / 2;
    TypedScratch scratch(c.payload && p > 1, result_aside ? 2 * a.count : a.count, a.type);
    void* tmp = scratch.data();
    void* acc = tmp && result_aside ? scratch.element(a.count) : a.recvbuf;
    copy_block(c.payload, whole(a.sendbuf), whole(acc));

    int newrank;
    if (c.rank < 2 * rem) {
        if (c.rank % 2 == 0) {
            c.send(c.rank + 1, whole(acc));
            co_await c.round();
            newrank = -1;
        } else {
            c.recv(c.rank - 1, whole(tmp));
            co_await c.round();
            combine(c.payload, tmp, acc, a.count, a.type, a.op);
            newrank = c.rank / 2;
        }
    } else {
        newrank = c.rank - rem;
    }
    if (newrank >= 0) {
        for (int mask = 1; mask < pof2; mask <<= 1) {
            const int newdst = newrank ^ mask;
            const int dst = newdst < rem ? newdst * 2 + 1 : newdst + rem;
            c.recv(dst, whole(tmp));
            c.send(dst, whole(acc));
            // The last round is followed by the copy of the result to recvbuf (cold).
            if (2 * mask >= pof2 && c.rank >= 2 * rem && acc != a.recvbuf) c.resume_on(a.recvbuf);
            co_await c.round();
            if (a.commutative || dst < c.rank) {
                combine(c.payload, tmp, acc, a.count, a.type, a.op);
            } else {  // acc = acc op tmp, computed into tmp
                combine(c.payload, acc, tmp, a.count, a.type, a.op);
                std::swap(acc, tmp);
            }
        }
    }
    if (c.rank < 2 * rem) {
        if (c.rank % 2) c.send(c.rank - 1, whole(acc));
        else c.recv(c.rank + 1, whole(acc));
        co_await c.round();
    }
    if (acc != a.recvbuf) copy_block(c.payload, whole(acc), whole(a.recvbuf));
}

SimTime cost_allreduce_recursive_doubling(const CostModel& m, const ReduceArgs& a) {
    const int p = m.size();
    const SimTime fold = p != floor_pow2(p) ? 2 * m.message(1, a.bytes) : 0;
    SimTime t = fold;
    for (int d = 1; d < floor_pow2(p); d <<= 1) t += m.message(d, a.bytes);
    return t;
}

}  // namespace

const Algorithm<ReduceArgs> allreduce_recursive_doubling{
    {"recursive_doubling", "log2 p exchanges of the whole vector with partners 1, 2, 4, ... apart (any op)"},
    run_allreduce_recursive_doubling, nullptr, cost_allreduce_recursive_doubling};
XSIM_REGISTER_ALGORITHM(allreduce_recursive_doubling, CollKind::Allreduce);

}  // namespace xsim::colls
