// Neighbor collectives (MPI_(I)neighbor_allgather(v), MPI_(I)neighbor_alltoall(v, w)): every
// rank posts its receives from its in-neighbors and its sends to its out-neighbors at
// once, in one round. The topology's plan (topo::neighbor_plan) says which block each
// message carries and in which order they are posted; the receiver's block key travels in
// the message's signature, so a peer that is a neighbor several times (multi-edges, periodic dimensions of
// size 1 or 2) fills the right blocks and a disagreement is reported. MPI_PROC_NULL
// neighbors are not in the plan: their receive blocks stay untouched. Empty blocks are
// not sent (both sides know the sizes from their counts).
#include "libxsim/colls/algorithm_registry.hpp"
#include "libxsim/colls/algorithms.hpp"

namespace xsim::colls {
namespace {

Block send_block(const NeighborArgs& a, int slot) { return a.allgather ? a.mine : a.send.block(slot); }

Steps run_neighbor_linear(Context& c, const NeighborArgs& a) {
    for (const topo::NeighborMessage& m : a.plan->receives) {
        const Block b = a.recv.block(m.slot);
        if (b.bytes > 0) c.recv_keyed(m.peer, b, m.key);
    }
    for (const topo::NeighborMessage& m : a.plan->sends) {
        const Block b = send_block(a, m.slot);
        if (b.bytes > 0) c.send_keyed(m.peer, b, m.key);
    }
    co_await c.round();
}

// One latency, then the NIC sends (and receives) everything back to back; neighbors are
// taken to be near (distance 1).
SimTime cost_neighbor_linear(const CostModel& m, const NeighborArgs& a) {
    std::uint64_t sent = 0, received = 0;
    std::size_t messages = 0;
    for (const topo::NeighborMessage& s : a.plan->sends) sent += send_block(a, s.slot).bytes;
    for (const topo::NeighborMessage& r : a.plan->receives) received += a.recv.bytes_of(r.slot);
    messages = std::max(a.plan->sends.size(), a.plan->receives.size());
    if (messages == 0) return 0;
    const std::uint64_t most = std::max(sent, received);
    return m.message(1, most / messages) + m.transfer(1, most - most / messages);
}

}  // namespace

const Algorithm<NeighborArgs> neighbor_linear{
    {"linear", "all sends to out-neighbors and receives from in-neighbors posted at once"},
    run_neighbor_linear, nullptr, cost_neighbor_linear};
XSIM_REGISTER_ALGORITHM(neighbor_linear,
                        CollKind::NeighborAllgather,
                        CollKind::NeighborAllgatherv,
                        CollKind::NeighborAlltoall,
                        CollKind::NeighborAlltoallv,
                        CollKind::NeighborAlltoallw);

}  // namespace xsim::colls
