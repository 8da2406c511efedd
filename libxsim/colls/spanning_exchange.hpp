// The data of analytic collectives whose communicator spans several real processes.
// Each process keeps a meeting per call (keyed like direct_exchange's: the communicator's
// collective context, the world rank of its rank 0, the call's number) where its own
// ranks leave their arguments, and it sends what the other processes need as
// MessageKind::CollectiveData events of the inter-process channel, so the conservative
// synchronization delivers them in virtual-time order:
//  - everyone depends on everyone (Allgather(v), Allreduce, Alltoall(v,w),
//    Reduce_scatter(_block)): when the last of this process's members arrives, one event
//    per other process hosting members carries every local member's contribution (for
//    all-to-all and reduce-scatter only the blocks or pieces meant for that process's
//    members); each process moves the results into its own ranks' buffers once every
//    rank's contribution is there (reductions in rank order, as in one process);
//  - fan-out (Bcast, Scatter(v)): the root's data (the blocks of each process's members)
//    goes to the other processes when the root arrives;
//  - fan-in (Gather(v), Reduce): contributions are staged at arrival (their ranks may leave
//    first); when this process's last member arrives they go to the root's process (Reduce:
//    the communicator's top ranks, if this process holds them, folded into one);
//  - prefix (Scan, Exscan): each rank's input goes, at its arrival, to every process
//    hosting a higher rank, which folds the inputs in rank order as they come (the
//    process holding ranks 0..b sends their fold once they have all arrived).
// An event sent on behalf of arrivals the latest of which was at virtual time t is stamped
// t + lookahead - 1. Every rank that needs that data depends, through the skeleton, on
// each of those arrivals, so a skeleton message that left at t or later crossed to its
// process (>= t + lookahead) before it could leave: the data is processed first
// (README.md "Between real processes" goes through each shape). Times come from the
// analytic model alone: the same call has the same virtual times on any number of real
// processes and with -xsim-payload off.
#pragma once
#include "libxsim/colls/algorithm.hpp"

namespace xsim {
class Engine;
struct Message;
}  // namespace xsim

namespace xsim::colls {

// This rank's arrival in a call whose communicator spans real processes (see above).
void arrive_spanning(Context& c, const ReduceArgs& a);          // Allreduce, Reduce, Scan, Exscan
void arrive_spanning(Context& c, const AllgatherArgs& a);       // Allgather(v)
void arrive_spanning(Context& c, const AlltoallArgs& a);        // Alltoall(v,w)
void arrive_spanning(Context& c, const ReduceScatterArgs& a);   // Reduce_scatter(_block)
void arrive_spanning(Context& c, const BcastArgs& a);
void arrive_spanning(Context& c, const RootedArgs& a);          // Gather(v), Scatter(v)

// The handler of MessageKind::CollectiveData events (Engine::set_layer_handler).
void accept_collective_data(Engine& engine, Message* message);

}  // namespace xsim::colls
