// Linear allgather (also MPI_Allgatherv): every rank sends its block to every other rank
// and receives theirs, all in one round. p-1 messages per rank.
#include "libxsim/colls/algorithm_registry.hpp"
#include "libxsim/colls/algorithms.hpp"

namespace xsim::colls {
namespace {

Steps run_allgather_linear(Context& c, const AllgatherArgs& a) {
    const Block own = a.in_place ? a.recv.block(c.rank) : a.mine;
    if (!a.in_place) copy_block(c.payload, a.mine, a.recv.block(c.rank));
    for (int k = 1; k < c.size; ++k) {
        const int from = (c.rank - k + c.size) % c.size, to = (c.rank + k) % c.size;
        c.recv_unless_empty(from, a.recv.block(from));
        c.send_unless_empty(to, own);
    }
    co_await c.round();
}

// Each NIC sends p-1 copies and receives p-1 blocks back to back.
SimTime cost_allgather_linear(const CostModel& m, const AllgatherArgs& a) {
    const int p = m.size();
    if (p < 2) return 0;
    std::uint64_t total = 0;
    for (int i = 0; i < p; ++i) total += a.recv.bytes_of(i);
    return m.message(m.typical_peer(), total / p) + m.transfer(m.typical_peer(), total - total / p);
}

}  // namespace

const Algorithm<AllgatherArgs> allgather_linear{
    {"linear", "every rank sends its block directly to every other rank, one round"},
    run_allgather_linear, nullptr, cost_allgather_linear,
    all_pairs_messages};
XSIM_REGISTER_ALGORITHM(allgather_linear, CollKind::Allgather, CollKind::Allgatherv);

}  // namespace xsim::colls
