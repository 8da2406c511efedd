// Ring allgather (also MPI_Allgatherv): in step k every rank passes the block it received
// in the previous step (its own first) to its right neighbour. p-1 steps, blocks go
// straight from and into the receive buffer; empty blocks are not sent.
#include "libxsim/colls/algorithm_registry.hpp"
#include "libxsim/colls/algorithms.hpp"

namespace xsim::colls {
namespace {

Steps run_allgather_ring(Context& c, const AllgatherArgs& a) {
    const int p = c.size;
    if (!a.in_place) copy_block(c.payload, a.mine, a.recv.block(c.rank));
    const int right = (c.rank + 1) % p, left = (c.rank - 1 + p) % p;
    for (int k = 0; k < p - 1; ++k) {
        const int out = (c.rank - k + p) % p, in = (c.rank - k - 1 + p) % p;
        c.recv_unless_empty(left, a.recv.block(in));
        c.send_unless_empty(right, a.recv.block(out));
        co_await c.round();
    }
}

SimTime cost_allgather_ring(const CostModel& m, const AllgatherArgs& a) {
    const int p = m.size();
    if (p < 2) return 0;
    std::uint64_t total = 0;
    for (int i = 0; i < p; ++i) total += a.recv.bytes_of(i);
    return (p - 1) * m.message(1, total / p);
}

}  // namespace

const Algorithm<AllgatherArgs> allgather_ring{
    {"ring", "p-1 steps passing blocks to the right neighbour; long messages"},
    run_allgather_ring, nullptr, cost_allgather_ring, all_pairs_messages};
XSIM_REGISTER_ALGORITHM(allgather_ring, CollKind::Allgather, CollKind::Allgatherv);

}  // namespace xsim::colls
