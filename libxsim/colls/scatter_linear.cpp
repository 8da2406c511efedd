// Linear scatter (what xSim had; also MPI_Scatterv): the root sends every rank its block
// at once, straight from the send buffer. Empty blocks are not sent.
#include "libxsim/colls/algorithms.hpp"

namespace xsim::colls {
namespace {

Steps run(Context& c, const RootedArgs& a) {
    if (c.rank != a.root) {
        if (a.mine.bytes > 0) c.recv(a.root, a.mine);
        co_await c.round();
        co_return;
    }
    for (int i = 0; i < c.size; ++i)
        if (i != a.root && a.blocks.bytes_of(i) > 0) c.send(i, a.blocks.block(i));
    if (!a.in_place) copy_block(c.payload, a.blocks.block(a.root), a.mine);
    co_await c.round();
}

// The root's NIC sends the blocks one after the other.
SimTime cost(const CostModel& m, const RootedArgs& a) {
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

}  // namespace

const Algorithm<RootedArgs> scatter_linear{
    {"linear", "the root sends each rank its block, all at once"}, run, nullptr, cost};

}  // namespace xsim::colls
