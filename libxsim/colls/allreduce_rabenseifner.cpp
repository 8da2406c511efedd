// Rabenseifner's allreduce (MPICH's reduce_scatter_allgather) for long vectors and
// commutative ops: a reduce-scatter by recursive halving leaves each of the 2^k ranks with
// one reduced piece, an allgather by recursive doubling spreads them. Ranks beyond 2^k fold
// into a neighbour first, as in recursive doubling. About 2 x bytes moved per rank.
#include "libxsim/colls/algorithm_registry.hpp"
#include "libxsim/colls/algorithms.hpp"

namespace xsim::colls {
namespace {

Steps run_allreduce_rabenseifner(Context& c, const ReduceArgs& a) {
    const int p = c.size;
    const int pof2 = floor_pow2(p), rem = p - pof2;
    auto part = [&](void* buf, std::int64_t first, std::int64_t n) {
        return make_block(element(buf, a.type, first), static_cast<int>(n), a.type);
    };
    const BlocksOfShape whole(a.count, a.type);
    copy_block(c.payload, whole(a.sendbuf), whole(a.recvbuf));
    TypedScratch scratch(c.payload && p > 1, a.count, a.type);
    void* tmp = scratch.data();
    // Piece i of the vector: count/pof2 elements, one more for the first count%pof2 pieces.
    const std::int64_t q = a.count / pof2, r = a.count % pof2;
    auto disp = [&](int i) { return i * q + std::min<std::int64_t>(i, r); };

    int newrank;
    if (c.rank < 2 * rem) {
        if (c.rank % 2 == 0) {
            c.send(c.rank + 1, whole(a.recvbuf));
            co_await c.round();
            newrank = -1;
        } else {
            c.recv(c.rank - 1, whole(tmp));
            co_await c.round();
            combine(c.payload, tmp, a.recvbuf, a.count, a.type, a.op);
            newrank = c.rank / 2;
        }
    } else {
        newrank = c.rank - rem;
    }

    if (newrank >= 0) {
        auto real = [&](int nr) { return nr < rem ? nr * 2 + 1 : nr + rem; };
        int send_idx = 0, recv_idx = 0, last_idx = pof2, mask = 1;
        for (; mask < pof2; mask <<= 1) {  // reduce-scatter by recursive halving
            const int newdst = newrank ^ mask;
            int send_end, recv_end;
            if (newrank < newdst) {
                send_idx = recv_idx + pof2 / (mask * 2);
                send_end = last_idx;
                recv_end = send_idx;
            } else {
                recv_idx = send_idx + pof2 / (mask * 2);
                send_end = recv_idx;
                recv_end = last_idx;
            }
            const std::int64_t recv_n = disp(recv_end) - disp(recv_idx);
            c.recv(real(newdst), part(tmp, disp(recv_idx), recv_n));
            c.send(real(newdst), part(a.recvbuf, disp(send_idx), disp(send_end) - disp(send_idx)));
            co_await c.round();
            combine(c.payload, element(tmp, a.type, disp(recv_idx)), element(a.recvbuf, a.type, disp(recv_idx)),
                    static_cast<int>(recv_n), a.type, a.op);
            send_idx = recv_idx;
            if (mask * 2 < pof2) last_idx = recv_idx + pof2 / (mask * 2);
        }
        for (mask >>= 1; mask > 0; mask >>= 1) {  // allgather by recursive doubling
            const int newdst = newrank ^ mask;
            int send_end, recv_end;
            if (newrank < newdst) {
                if (mask != pof2 / 2) last_idx += pof2 / (mask * 2);
                recv_idx = send_idx + pof2 / (mask * 2);
                send_end = recv_idx;
                recv_end = last_idx;
            } else {
                recv_idx = send_idx - pof2 / (mask * 2);
                send_end = last_idx;
                recv_end = send_idx;
            }
            c.recv(real(newdst), part(a.recvbuf, disp(recv_idx), disp(recv_end) - disp(recv_idx)));
            c.send(real(newdst), part(a.recvbuf, disp(send_idx), disp(send_end) - disp(send_idx)));
            co_await c.round();
            if (newrank > newdst) send_idx = recv_idx;
        }
    }
    if (c.rank < 2 * rem) {
        if (c.rank % 2) c.send(c.rank - 1, whole(a.recvbuf));
        else c.recv(c.rank + 1, whole(a.recvbuf));
        co_await c.round();
    }
}

SimTime cost_allreduce_rabenseifner(const CostModel& m, const ReduceArgs& a) {
    const int p = m.size(), pof2 = floor_pow2(p);
    SimTime t = p != pof2 ? 2 * m.message(1, a.bytes) : 0;
    for (int d = 1; d < pof2; d <<= 1) t += 2 * m.message(d, a.bytes / (2 * d));
    return t;
}

}  // namespace

const Algorithm<ReduceArgs> allreduce_rabenseifner{
    {"rabenseifner", "long vectors, commutative ops: reduce-scatter by recursive halving + allgather"},
    run_allreduce_rabenseifner, commutative_op, cost_allreduce_rabenseifner};
XSIM_REGISTER_ALGORITHM(allreduce_rabenseifner, CollKind::Allreduce);

}  // namespace xsim::colls
