// Bruck all-to-all (equal blocks) for short messages: after a local rotation, round k
// sends every packed block whose index has bit k set to rank + 2^k (and receives the
// same positions from rank - 2^k); a final rotation puts blocks in rank order.
// ceil(log2 p) rounds of about p/2 blocks instead of p-1 messages.
#include <algorithm>
#include <cstring>

#include "libxsim/colls/algorithm_registry.hpp"
#include "libxsim/colls/algorithms.hpp"

namespace xsim::colls {
namespace {

// How many of the block indices 0..p-1 have the bit `d` (a power of two) set: the blocks a
// round sends. Counted, not looped over, so that a payload-free all-to-all of p ranks costs
// O(log p) per rank (the loops over blocks below only run when data moves).
int blocks_with_bit(int p, int d) {
    const long long period = 2LL * d;  // 2^31 for the last round of 2^31 - 1 ranks
    return static_cast<int>(p / period * d + std::max(0LL, p % period - d));
}

Steps run_alltoall_bruck(Context& c, const AlltoallArgs& a) {
    const int p = c.size;
    const std::uint64_t bb = a.send.bytes_of(0);
    ByteScratch blocks(c.payload, bb * p);
    // Rotation: packed block j is the one for rank (rank + j) % p.
    const int tail = p - c.rank;
    pack_block(c.payload, a.send.run(c.rank, tail), blocks.data());
    if (c.rank > 0) pack_block(c.payload, a.send.run(0, c.rank), blocks.at(bb * tail));

    ByteScratch outgoing(c.payload, bb * ((p + 1) / 2)), incoming(c.payload, bb * ((p + 1) / 2));
    for (int d = 1; d < p; d <<= 1) {
        const int n = blocks_with_bit(p, d);
        if (c.payload)
            for (int j = d, k = 0; j < p; ++j)
                if (j & d) std::memcpy(outgoing.at(bb * k++), blocks.at(bb * j), bb);
        c.recv_bytes((c.rank - d + p) % p, incoming.data(), bb * n);
        c.send_bytes((c.rank + d) % p, outgoing.data(), bb * n);
        co_await c.round();
        if (c.payload)
            for (int j = d, k = 0; j < p; ++j)
                if (j & d) std::memcpy(blocks.at(bb * j), incoming.at(bb * k++), bb);
    }
    // Packed block j now came from rank (rank - j) % p.
    if (c.payload)
        for (int j = 0; j < p; ++j)
            unpack_block(true, blocks.at(bb * j), a.recv.block((c.rank - j + p) % p));
}

SimTime cost_alltoall_bruck(const CostModel& m, const AlltoallArgs& a) {
    return m.rounds([&](int) { return a.send.bytes_of(0) * (m.size() / 2); });
}

}  // namespace

const Algorithm<AlltoallArgs> alltoall_bruck{
    {"bruck", "short blocks: ceil(log2 p) rounds of about p/2 packed blocks"},
    run_alltoall_bruck, nullptr, cost_alltoall_bruck};
XSIM_REGISTER_ALGORITHM(alltoall_bruck, CollKind::Alltoall);

}  // namespace xsim::colls
