#include "libxsim/colls/call_payload.hpp"

#include <algorithm>

namespace xsim::colls {
namespace {

// The whole call moves its data or none of it.
CallPayload whole(const PayloadPolicy& policy, std::uint64_t bytes) {
    const bool carry = policy.carries(bytes);
    return {carry, carry ? std::numeric_limits<std::uint64_t>::max() : 0};
}

// Each block decides by its own size.
CallPayload per_block(const PayloadPolicy& policy) { return {policy.any(), policy.carry_below}; }

const PayloadPolicy& policy_of(const Context& c) { return c.engine.options().payload; }

}  // namespace

// No data: like a zero-byte message (moves under on and any threshold, not under off).
CallPayload call_payload(const Context& c, const BarrierArgs&) { return whole(policy_of(c), 0); }

CallPayload call_payload(const Context& c, const BcastArgs& a) { return whole(policy_of(c), a.data.bytes); }

CallPayload call_payload(const Context& c, const ReduceArgs& a) { return whole(policy_of(c), a.bytes); }

// Gather/Scatter: every rank's own block is the block size (the root's too, by MPI's
// matching rule; with MPI_IN_PLACE it is the root's block in place).
CallPayload call_payload(const Context& c, const RootedArgs& a) {
    if (c.kind == CollKind::Gatherv || c.kind == CollKind::Scatterv) return per_block(policy_of(c));
    return whole(policy_of(c), a.mine.bytes);
}

// Every rank knows every block of the receive buffer.
CallPayload call_payload(const Context& c, const AllgatherArgs& a) {
    if (a.recv.uniform()) return whole(policy_of(c), a.recv.bytes_of(0));
    if (!policy_of(c).has_threshold()) return whole(policy_of(c), 0);  // on or off: no need to look
    std::uint64_t largest = 0;
    for (int i = 0; i < c.size; ++i) largest = std::max(largest, a.recv.bytes_of(i));
    return whole(policy_of(c), largest);
}

CallPayload call_payload(const Context& c, const AlltoallArgs& a) {
    if (!a.recv.uniform()) return per_block(policy_of(c));  // Alltoallv, Alltoallw
    return whole(policy_of(c), a.recv.bytes_of(0));
}

CallPayload call_payload(const Context& c, const ReduceScatterArgs& a) { return whole(policy_of(c), a.bytes); }

CallPayload call_payload(const Context& c, const NeighborArgs&) { return per_block(policy_of(c)); }

CallPayload intercomm_payload(const Context& c) { return whole(policy_of(c), 0); }  // moves unless off

}  // namespace xsim::colls
