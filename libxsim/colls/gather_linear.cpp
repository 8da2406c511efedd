// Linear gather (what xSim had; also MPI_Gatherv): every rank sends its block to the
// root, which receives them all at once straight into place. Empty blocks are not sent.
#include "libxsim/colls/algorithm_registry.hpp"
#include "libxsim/colls/algorithms.hpp"

namespace xsim::colls {
namespace {

Steps run_gather_linear(Context& c, const RootedArgs& a) {
    if (c.rank != a.root) {
        c.send_unless_empty(a.root, a.mine);
        co_await c.round();
        co_return;
    }
    for (int i = 0; i < c.size; ++i)
        if (i != a.root) c.recv_unless_empty(i, a.blocks.block(i));
    if (!a.in_place) copy_block(c.carries(a.mine), a.mine, a.blocks.block(a.root));
    co_await c.round();
}

}  // namespace

// The root's NIC takes (gather) or sends (scatter) the blocks one after the other; the
// first one pays the latency.
SimTime root_serialized_cost(const CostModel& m, const RootedArgs& a) {
    if (m.size() < 2) return 0;
    // A non-root does not know the other blocks: it assumes they are like its own.
    std::uint64_t total = 0, largest = a.mine.bytes;
    if (!a.blocks.known()) total = a.mine.bytes * static_cast<std::uint64_t>(m.size() - 1);
    for (int i = 0; a.blocks.known() && i < m.size(); ++i) {
        total += a.blocks.bytes_of(i);
        largest = std::max(largest, a.blocks.bytes_of(i));
    }
    const int typical = m.typical_peer();
    return m.message(typical, largest) + m.transfer(typical, total > largest ? total - largest : 0);
}

const Algorithm<RootedArgs> gather_linear{
    {"linear", "every rank sends its block to the root, which receives all of them at once"},
    run_gather_linear, nullptr, root_serialized_cost};
XSIM_REGISTER_ALGORITHM(gather_linear, CollKind::Gather, CollKind::Gatherv);

}  // namespace xsim::colls
