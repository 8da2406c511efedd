// The data of analytic collectives, moved directly between the buffers of the call's ranks
// when they all run in this real process: no message carries it. Each rank arrives (its
// analytic steps call arrive() before their skeleton) and leaves its arguments in the
// call's meeting (per process, keyed by the communicator and the call's number). The
// skeleton decides who may leave when, and so what must be copied aside:
//  - everyone depends on everyone (Allgather(v), Alltoall(v,w), Allreduce,
//    Reduce_scatter(_block)): the last rank to arrive moves every rank's result into place;
//  - Bcast, Scatter(v): the others depend on the root, which may leave first: its data is
//    packed at its arrival and each rank gets its part when both have arrived;
//  - Gather(v), Reduce: the root depends on everyone, the others may leave first: their
//    contributions are packed at their arrival (straight into the root's buffer if it is
//    there); Reduce combines at the last arrival, in rank order;
//  - Scan, Exscan: rank r depends on 0..r: inputs are packed at arrival, and each rank's
//    prefix is delivered as soon as all lower ranks have arrived.
// Time is the analytic model's alone, so a call's virtual times are those of the same call
// with -xsim-payload off. On communicators spread over several real processes the data
// moves with spanning_exchange.hpp instead.
#pragma once
#include "libxsim/colls/algorithm.hpp"

namespace xsim::colls {

// Whether every rank of the call's communicator runs in this real process (all ranks of
// the call agree: it depends only on the communicator).
bool all_ranks_local(const Context& c);

// This rank's arrival in the call with its arguments, which stay valid until the call ends
// (the call's own copy): moves whatever data can move now (see above), or hands the call
// to spanning_exchange.hpp when its communicator spans real processes. A disagreement
// found (block sizes, another collective) becomes the error of the ranks concerned.
void arrive(Context& c, const ReduceArgs& a);
void arrive(Context& c, const AllgatherArgs& a);
void arrive(Context& c, const AlltoallArgs& a);
void arrive(Context& c, const ReduceScatterArgs& a);
inline void arrive(Context&, const BarrierArgs&) {}  // no data
void arrive(Context& c, const BcastArgs& a);
void arrive(Context& c, const RootedArgs& a);

}  // namespace xsim::colls
