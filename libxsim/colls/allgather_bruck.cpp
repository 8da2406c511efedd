// Bruck allgather (equal blocks, any size): blocks accumulate in a packed buffer starting
// with the rank's own; in round k every rank sends its first min(2^k, p-2^k) blocks to
// rank - 2^k and appends those of rank + 2^k. A final rotation puts them in rank order.
// ceil(log2 p) rounds.
#include "libxsim/colls/algorithms.hpp"

namespace xsim::colls {
namespace {

Steps run(Context& c, const AllgatherArgs& a) {
    const int p = c.size;
    const std::uint64_t bb = a.recv.bytes_of(0);
    ByteScratch packed(c.payload, bb * p);
    pack_block(c.payload, a.in_place ? a.recv.block(c.rank) : a.mine, packed.data());
    for (int d = 1; d < p; d <<= 1) {
        const int n = std::min(d, p - d);
        c.recv_bytes((c.rank + d) % p, packed.at(bb * d), bb * n);
        c.send_bytes((c.rank - d + p) % p, packed.data(), bb * n);
        co_await c.round();
    }
    // Packed block j belongs to rank (rank + j) % p.
    const int tail = p - c.rank;
    unpack_block(c.payload, packed.data(), a.recv.run(c.rank, tail));
    if (c.rank > 0) unpack_block(c.payload, packed.at(bb * tail), a.recv.run(0, c.rank));
}

SimTime cost(const CostModel& m, const AllgatherArgs& a) {
    return m.rounds([&](int d) { return a.recv.bytes_of(0) * std::min(d, m.size() - d); });
}

}  // namespace

const Algorithm<AllgatherArgs> allgather_bruck{
    {"bruck", "any size: ceil(log2 p) rounds sending the first min(2^k, p-2^k) gathered blocks"},
    run, nullptr, cost};

}  // namespace xsim::colls
