// Ring reduce-scatter for commutative ops: p-1 steps around the ring, each passing one
// partially reduced piece to the right neighbour, arranged so that rank r ends with piece
// r reduced over all ranks. (p-1)/p x bytes per rank.
#include "libxsim/colls/algorithm_registry.hpp"
#include "libxsim/colls/algorithms.hpp"
#include "libxsim/mpi/real_mpi.hpp"

namespace xsim::colls {
namespace {

Steps run_reduce_scatter_ring(Context& c, const ReduceScatterArgs& a) {
    const int p = c.size;
    const int total = static_cast<int>(a.total);
    TypedScratch acc(c.payload, total, a.type);
    copy_block(c.payload, make_block(a.sendbuf, total, a.type), make_block(acc.data(), total, a.type));
    int largest = 0;
    if (a.counts) {
        for (int i = 0; i < p; ++i) largest = std::max(largest, a.counts[i]);
    } else {
        largest = a.block;
    }
    TypedScratch incoming(c.payload && p > 1, largest, a.type);
    auto piece = [&](int i) { return make_block(element(acc.data(), a.type, a.offset_of(i)), a.count_of(i), a.type); };
    const int right = (c.rank + 1) % p, left = (c.rank - 1 + p) % p;
    for (int k = 0; k < p - 1; ++k) {
        const int out = (c.rank - k - 1 + 2 * p) % p, in = (c.rank - k - 2 + 2 * p) % p;
        if (a.count_of(in) > 0) c.recv(left, make_block(incoming.data(), a.count_of(in), a.type));
        if (a.count_of(out) > 0) c.send(right, piece(out));
        co_await c.round();
        combine(c.payload, incoming.data(), piece(in).buf, a.count_of(in), a.type, a.op);
    }
    copy_block(c.payload, piece(c.rank), make_block(a.recvbuf, a.count_of(c.rank), a.type));
}

SimTime cost_reduce_scatter_ring(const CostModel& m, const ReduceScatterArgs& a) {
    const int p = m.size();
    if (p < 2) return 0;
    int s = 0;
    real_mpi.Type_size(a.type, &s);
    return (p - 1) * m.message(1, static_cast<std::uint64_t>(s) * a.total / p);
}

}  // namespace

const Algorithm<ReduceScatterArgs> reduce_scatter_ring{
    {"ring", "commutative ops: p-1 ring steps passing partially reduced pieces"},
    run_reduce_scatter_ring, commutative_op_rs, cost_reduce_scatter_ring,
    all_pairs_messages};
XSIM_REGISTER_ALGORITHM(reduce_scatter_ring, CollKind::ReduceScatter, CollKind::ReduceScatterBlock);

}  // namespace xsim::colls
