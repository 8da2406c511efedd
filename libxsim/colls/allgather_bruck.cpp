// Bruck allgather (any size; also MPI_Allgatherv): blocks accumulate in a packed buffer
// starting with the rank's own; in round k every rank sends its first min(2^k, p-2^k)
// blocks to rank - 2^k and appends those of rank + 2^k. A final rotation puts them in
// rank order. ceil(log2 p) rounds.
#include <vector>

#include "libxsim/colls/algorithm_registry.hpp"
#include "libxsim/colls/algorithms.hpp"

namespace xsim::colls {
namespace {

Steps run_allgather_bruck(Context& c, const AllgatherArgs& a) {
    const int p = c.size;
    // Packed block j belongs to rank (rank + j) % p and starts at at[j].
    std::vector<std::uint64_t> at(static_cast<std::size_t>(p) + 1, 0);
    for (int j = 0; j < p; ++j) at[j + 1] = at[j] + a.recv.bytes_of((c.rank + j) % p);
    ByteScratch packed(c.payload, at[p]);
    pack_block(c.payload, a.in_place ? a.recv.block(c.rank) : a.mine, packed.data());
    for (int d = 1; d < p; d <<= 1) {
        const int n = std::min(d, p - d);
        c.recv_bytes((c.rank + d) % p, packed.at(at[d]), at[d + n] - at[d]);
        c.send_bytes((c.rank - d + p) % p, packed.data(), at[n]);
        co_await c.round();
    }
    if (a.recv.uniform()) {  // two runs of blocks
        const int tail = p - c.rank;
        unpack_block(c.payload, packed.data(), a.recv.run(c.rank, tail));
        if (c.rank > 0) unpack_block(c.payload, packed.at(at[tail]), a.recv.run(0, c.rank));
    } else {
        for (int j = 0; j < p; ++j) unpack_block(c.payload, packed.at(at[j]), a.recv.block((c.rank + j) % p));
    }
}

SimTime cost_allgather_bruck(const CostModel& m, const AllgatherArgs& a) {
    const int p = m.size();
    std::uint64_t total = 0;
    for (int i = 0; i < p; ++i) total += a.recv.bytes_of(i);
    return m.rounds([&](int d) { return total / p * std::min(d, p - d); });
}

}  // namespace

const Algorithm<AllgatherArgs> allgather_bruck{
    {"bruck", "any size: ceil(log2 p) rounds sending the first min(2^k, p-2^k) gathered blocks"},
    run_allgather_bruck, nullptr, cost_allgather_bruck};
XSIM_REGISTER_ALGORITHM(allgather_bruck, CollKind::Allgather, CollKind::Allgatherv);

}  // namespace xsim::colls
