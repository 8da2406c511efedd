// Which data of one collective call moves under -xsim-payload (payload_policy.hpp). Every
// rank of the call must decide alike (a message carries its data or not at both ends), so
// the decision uses only values MPI requires all ranks to agree on:
//  - calls whose ranks all know the sizes are decided as a whole, by the call's
//    "count x type size": the vector of Bcast, Reduce, Allreduce, Scan and Exscan; the
//    whole input of Reduce_scatter(_block) (what each rank reduces); the block of Gather,
//    Scatter, Allgather and Alltoall (so a small count per rank, such as the sizes
//    exchanged before a v-collective, keeps its data at any number of ranks); the largest
//    block of Allgatherv. The data moves when that is at most the threshold;
//  - calls whose ranks know only their own blocks (Gatherv, Scatterv, Alltoallv/w, the
//    neighbor collectives) decide block by block, as point-to-point messages do: their
//    algorithms send each block as one message, whose two ends know its size.
// Virtual times never depend on the decision: messages keep their sizes either way.
#pragma once
#include <cstdint>
#include <limits>

#include "libxsim/colls/algorithm.hpp"
#include "libxsim/engine/payload_policy.hpp"

namespace xsim::colls {

struct CallPayload {
    bool any = true;  // some of the call's data may move (false: buffers may be null)
    // A block or message of fewer bytes moves its data; the whole-call decisions make it
    // all (the largest value) or nothing (0).
    std::uint64_t carry_below = std::numeric_limits<std::uint64_t>::max();
};

// The decision for one rank's part in a call (c.kind, c.size, the engine's options).

CallPayload call_payload(const Context& c, const BarrierArgs& a);
CallPayload call_payload(const Context& c, const BcastArgs& a);
CallPayload call_payload(const Context& c, const ReduceArgs& a);
CallPayload call_payload(const Context& c, const RootedArgs& a);
CallPayload call_payload(const Context& c, const AllgatherArgs& a);
CallPayload call_payload(const Context& c, const AlltoallArgs& a);
CallPayload call_payload(const Context& c, const ReduceScatterArgs& a);
CallPayload call_payload(const Context& c, const NeighborArgs& a);

// A call on an intercommunicator: the two groups know different sizes (each the other's
// blocks), so no size-based decision would agree at both ends. All of its data moves,
// unless -xsim-payload off.
CallPayload intercomm_payload(const Context& c);

}  // namespace xsim::colls
