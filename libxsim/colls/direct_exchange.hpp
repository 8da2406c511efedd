// The data of analytic collectives, moved directly between the buffers of the call's ranks
// when they all run in this real process: no message carries it. Each rank arrives (its
// analytic steps call arrive() before their skeleton) and leaves its arguments in the
// call's meeting; the last to arrive moves every rank's result into place, on its own
// fiber. That is safe because the collectives done here are those whose analytic skeleton
// makes everyone depend on everyone (Skeleton::All): no rank leaves the call, or touches
// its buffers, before every rank has arrived. Time is the analytic model's alone, so a
// call's virtual times are those of the same call with -xsim-payload off.
//
// Done here: Allgather(v), Alltoall(v,w), Allreduce, Reduce_scatter(_block) and Barrier
// (nothing to move). Rooted collectives and scans, whose skeletons let some ranks leave
// early, and communicators spread over several real processes run analytic only without
// their data (-xsim-payload off), as before.
#pragma once
#include "libxsim/colls/algorithm.hpp"

namespace xsim::colls {

// Whether every rank of the call's communicator runs in this real process (all ranks of
// the call agree: it depends only on the communicator).
bool all_ranks_local(const Context& c);

// Whether the analytic algorithm of collective `kind` can move this call's data.
bool moves_data_directly(const Context& c);

// This rank's arrival in the call with its arguments, which stay valid until the call ends
// (the call's own copy). The last arrival moves every rank's data; a disagreement found
// then (block sizes, another collective) becomes the error of the ranks concerned.
void arrive(Context& c, const ReduceArgs& a);
void arrive(Context& c, const AllgatherArgs& a);
void arrive(Context& c, const AlltoallArgs& a);
void arrive(Context& c, const ReduceScatterArgs& a);
inline void arrive(Context&, const BarrierArgs&) {}  // no data
// Not done directly (moves_data_directly is false for them).
inline void arrive(Context&, const BcastArgs&) {}
inline void arrive(Context&, const RootedArgs&) {}

}  // namespace xsim::colls
