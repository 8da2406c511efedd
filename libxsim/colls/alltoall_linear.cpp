// Linear all-to-all (what xSim had; also MPI_Alltoallv/w): every rank posts all its
// receives and sends at once. One round, but p-1 requests per rank.
#include "libxsim/colls/algorithm_registry.hpp"
#include "libxsim/colls/algorithms.hpp"

namespace xsim::colls {
namespace {

Steps run_alltoall_linear(Context& c, const AlltoallArgs& a) {
    const int p = c.size;
    const Block own = a.send.block(c.rank);
    copy_block(c.carries(own), own, a.recv.block(c.rank));
    for (int s = 1; s < p; ++s) {
        const int from = (c.rank - s + p) % p;
        c.recv_unless_empty(from, a.recv.block(from));
    }
    for (int s = 1; s < p; ++s) {
        const int to = (c.rank + s) % p;
        c.send_unless_empty(to, a.send.block(to));
    }
    co_await c.round();
}

// The NIC sends (and receives) everything back to back after one latency.
SimTime cost_alltoall_linear(const CostModel& m, const AlltoallArgs& a) {
    const int p = m.size();
    if (p < 2) return 0;
    std::uint64_t sent = 0, received = 0;
    for (int i = 0; i < p; ++i) {
        if (i == 0) continue;  // about one block stays local
        sent += a.send.bytes_of(i);
        received += a.recv.bytes_of(i);
    }
    const std::uint64_t most = std::max(sent, received);
    return m.message(m.typical_peer(), most / (p - 1)) + m.transfer(m.typical_peer(), most - most / (p - 1));
}

}  // namespace

const Algorithm<AlltoallArgs> alltoall_linear{
    {"linear", "all sends and receives posted at once (p-1 requests per rank)"},
    run_alltoall_linear, nullptr, cost_alltoall_linear,
    all_pairs_messages};
XSIM_REGISTER_ALGORITHM(alltoall_linear, CollKind::Alltoall, CollKind::Alltoallv, CollKind::Alltoallw);

}  // namespace xsim::colls
