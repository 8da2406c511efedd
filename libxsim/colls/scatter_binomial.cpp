// Binomial-tree scatter (equal blocks), the mirror of the binomial gather: the root packs
// the blocks in relative-rank order, every rank receives its subtree's blocks and passes
// on the children's parts (largest subtree first). ceil(log2 p) rounds.
#include "libxsim/colls/algorithm_registry.hpp"
#include "libxsim/colls/algorithms.hpp"

namespace xsim::colls {
namespace {

Steps run_scatter_binomial(Context& c, const RootedArgs& a) {
    const int p = c.size;
    const int vrank = (c.rank - a.root + p) % p;
    auto real = [&](int v) { return (v + a.root) % p; };
    int lowbit = 1;
    while (lowbit < p && !(vrank & lowbit)) lowbit <<= 1;
    const int subtree = std::min(lowbit, p - vrank);
    const std::uint64_t bb = c.rank == a.root ? a.blocks.bytes_of(0) : a.mine.bytes;

    if (subtree == 1 && vrank != 0) {  // a leaf receives its block straight into place
        c.recv(real(vrank - lowbit), a.mine);
        co_await c.round();
        co_return;
    }
    ByteScratch packed(c.payload, bb * subtree);
    if (vrank == 0) {
        const int tail = p - a.root;
        pack_block(c.payload, a.blocks.run(a.root, tail), packed.data());
        if (a.root > 0) pack_block(c.payload, a.blocks.run(0, a.root), packed.at(bb * tail));
    } else {
        c.recv_bytes(real(vrank - lowbit), packed.data(), bb * subtree);
        co_await c.round();
    }
    for (int mask = lowbit >> 1; mask > 0; mask >>= 1) {
        if (vrank + mask >= p) continue;
        const int n = std::min(mask, p - vrank - mask);
        c.send_bytes(real(vrank + mask), packed.at(bb * mask), bb * n);
    }
    co_await c.round();
    if (!(vrank == 0 && a.in_place)) unpack_block(c.payload, packed.data(), a.mine);
}

SimTime cost_scatter_binomial(const CostModel& m, const RootedArgs& a) {
    const std::uint64_t bb = a.mine.bytes ? a.mine.bytes : a.blocks.bytes_of(0);
    return m.rounds([&](int d) { return bb * d; });
}

}  // namespace

const Algorithm<RootedArgs> scatter_binomial{
    {"binomial", "binomial tree: the root's blocks travel packed down subtrees, ceil(log2 p) rounds"},
    run_scatter_binomial, nullptr, cost_scatter_binomial};
XSIM_REGISTER_ALGORITHM(scatter_binomial, CollKind::Scatter);

}  // namespace xsim::colls
