// Binomial-tree gather (equal blocks): ranks relative to the root collect the blocks of
// their subtree (children with the smallest subtrees first) in a packed buffer and pass it
// to their parent; the root unpacks the p blocks in rank order. ceil(log2 p) rounds; a
// rank holds at most its subtree's blocks.
#include "libxsim/colls/algorithm_registry.hpp"
#include "libxsim/colls/algorithms.hpp"

namespace xsim::colls {
namespace {

Steps run_gather_binomial(Context& c, const RootedArgs& a) {
    const int p = c.size;
    const int vrank = (c.rank - a.root + p) % p;
    auto real = [&](int v) { return (v + a.root) % p; };
    int lowbit = 1;
    while (lowbit < p && !(vrank & lowbit)) lowbit <<= 1;
    const int subtree = std::min(lowbit, p - vrank);  // blocks this rank collects
    const std::uint64_t bb = c.rank == a.root ? a.blocks.bytes_of(0) : a.mine.bytes;

    if (subtree == 1 && vrank != 0) {  // a leaf sends its own block as it is
        c.send(real(vrank - lowbit), a.mine);
        co_await c.round();
        co_return;
    }
    ByteScratch packed(c.payload, bb * subtree);
    const Block own = a.in_place ? a.blocks.block(c.rank) : a.mine;
    pack_block(c.payload, own, packed.data());
    for (int mask = 1; mask < lowbit && vrank + mask < p; mask <<= 1) {
        const int n = std::min(mask, p - vrank - mask);
        c.recv_bytes(real(vrank + mask), packed.at(bb * mask), bb * n);
        co_await c.round();
    }
    if (vrank != 0) {
        c.send_bytes(real(vrank - lowbit), packed.data(), bb * subtree);
        co_await c.round();
        co_return;
    }
    // Root: block of vrank v goes to rank (v + root) % p.
    const int tail = p - a.root;  // vranks [0, tail) are ranks [root, p)
    unpack_block(c.payload, packed.data(), a.blocks.run(a.root, tail));
    if (a.root > 0) unpack_block(c.payload, packed.at(bb * tail), a.blocks.run(0, a.root));
}

SimTime cost_gather_binomial(const CostModel& m, const RootedArgs& a) {
    const std::uint64_t bb = a.mine.bytes ? a.mine.bytes : a.blocks.bytes_of(0);
    return m.rounds([&](int d) { return bb * d; });
}

}  // namespace

const Algorithm<RootedArgs> gather_binomial{
    {"binomial", "binomial tree: subtrees' blocks travel packed towards the root, ceil(log2 p) rounds"},
    run_gather_binomial, nullptr, cost_gather_binomial};
XSIM_REGISTER_ALGORITHM(gather_binomial, CollKind::Gather);

}  // namespace xsim::colls
