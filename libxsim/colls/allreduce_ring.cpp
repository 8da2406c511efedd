// Ring allreduce (Open MPI's ring) for long vectors and commutative ops: the vector is cut
// into p blocks; p-1 steps of reduce-scatter around the ring leave rank r with block r+1
// fully reduced, p-1 steps of allgather pass the reduced blocks on. 2(p-1)/p x bytes per
// rank, but 2(p-1) latencies: only for vectors much longer than p elements.
#include "libxsim/colls/algorithm_registry.hpp"
#include "libxsim/colls/algorithms.hpp"

namespace xsim::colls {
namespace {

Steps run_allreduce_ring(Context& c, const ReduceArgs& a) {
    const int p = c.size;
    copy_block(c.payload, make_block(a.sendbuf, a.count, a.type), make_block(a.recvbuf, a.count, a.type));
    if (p == 1) co_return;
    const std::int64_t q = a.count / p, rem = a.count % p;
    auto first = [&](int b) { return b * q + std::min<std::int64_t>(b, rem); };
    auto length = [&](int b) { return static_cast<int>(q + (b < rem ? 1 : 0)); };
    auto piece = [&](void* buf, int b) { return make_block(element(buf, a.type, first(b)), length(b), a.type); };
    TypedScratch scratch(c.payload, static_cast<int>(q + (rem ? 1 : 0)), a.type);
    const int right = (c.rank + 1) % p, left = (c.rank - 1 + p) % p;
    auto block = [&](int k) { return ((k % p) + p) % p; };

    for (int k = 0; k < p - 1; ++k) {  // reduce-scatter
        const int out = block(c.rank - k), in = block(c.rank - k - 1);
        c.recv(left, make_block(scratch.data(), length(in), a.type));
        c.send(right, piece(a.recvbuf, out));
        co_await c.round();
        combine(c.payload, scratch.data(), element(a.recvbuf, a.type, first(in)), length(in), a.type, a.op);
    }
    for (int k = 0; k < p - 1; ++k) {  // allgather
        c.recv(left, piece(a.recvbuf, block(c.rank - k)));
        c.send(right, piece(a.recvbuf, block(c.rank + 1 - k)));
        co_await c.round();
    }
}

SimTime cost_allreduce_ring(const CostModel& m, const ReduceArgs& a) {
    const int p = m.size();
    return p < 2 ? 0 : 2 * (p - 1) * m.message(1, (a.bytes + p - 1) / p);
}

}  // namespace

const Algorithm<ReduceArgs> allreduce_ring{
    {"ring", "long vectors, commutative ops: ring reduce-scatter + ring allgather of p blocks"},
    run_allreduce_ring, commutative_op, cost_allreduce_ring};
XSIM_REGISTER_ALGORITHM(allreduce_ring, CollKind::Allreduce);

}  // namespace xsim::colls
