// Pairwise-exchange all-to-all (also MPI_Alltoallv/w): in step s every rank sends to
// rank + s and receives from rank - s, so each NIC carries one block at a time. p-1
// steps; blocks go straight from the send buffer into the receive buffer.
#include "libxsim/colls/algorithm_registry.hpp"
#include "libxsim/colls/algorithms.hpp"

namespace xsim::colls {
namespace {

Steps run_alltoall_pairwise(Context& c, const AlltoallArgs& a) {
    const int p = c.size;
    const Block own = a.send.block(c.rank);
    copy_block(c.carries(own), own, a.recv.block(c.rank));
    for (int s = 1; s < p; ++s) {
        const int to = (c.rank + s) % p, from = (c.rank - s + p) % p;
        c.recv_unless_empty(from, a.recv.block(from));
        c.send_unless_empty(to, a.send.block(to));
        co_await c.round();
    }
}

// p-1 sequential steps; the rank's own traffic spread evenly over them.
SimTime cost_alltoall_pairwise(const CostModel& m, const AlltoallArgs& a) {
    const int p = m.size();
    if (p < 2) return 0;
    std::uint64_t sent = 0, received = 0;
    for (int i = 0; i < p; ++i) {
        sent += a.send.bytes_of(i);
        received += a.recv.bytes_of(i);
    }
    return (p - 1) * m.message(m.typical_peer(), std::max(sent, received) / p);
}

}  // namespace

const Algorithm<AlltoallArgs> alltoall_pairwise{
    {"pairwise", "p-1 steps: send to rank+s, receive from rank-s"},
    run_alltoall_pairwise, nullptr, cost_alltoall_pairwise, all_pairs_messages};
XSIM_REGISTER_ALGORITHM(alltoall_pairwise, CollKind::Alltoall, CollKind::Alltoallv, CollKind::Alltoallw);

}  // namespace xsim::colls
