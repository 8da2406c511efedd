// The data of analytic collectives whose communicator spans several real processes.
// Each process keeps a meeting per call (keyed like direct_exchange's: the communicator's
// collective context, the world rank of its rank 0, the call's number) where its own
// ranks leave their arguments, and it sends what the other processes need as
// MessageKind::CollectiveData events of the inter-process channel, so the conservative
// synchronization delivers them in virtual-time order:
//  - everyone depends on everyone (Allgather(v), Allreduce, Alltoall(v,w)): when the last
//    of this process's members arrives, one event per other process hosting members
//    carries every local member's contribution (for all-to-all only the blocks meant for
//    that process's members); each process moves the results into its own ranks' buffers
//    once every rank's contribution is there (reductions in rank order, as in one process);
//  - Bcast: the root's data goes to the other processes when the root arrives.
// The event of a contribution that became complete at virtual time t (the last local
// arrival) is stamped t + lookahead - 1: earlier than any skeleton message that left at t
// can reach another process (>= t + lookahead), so it is processed before the skeleton lets
// a rank there leave the call. Times come from the analytic model alone: the same call has
// the same virtual times on any number of real processes and with -xsim-payload off.
#pragma once
#include "libxsim/colls/algorithm.hpp"

namespace xsim {
class Engine;
struct Message;
}  // namespace xsim

namespace xsim::colls {

// Collectives whose data the analytic algorithm can move between real processes.
bool spans_processes(CollKind kind);

// This rank's arrival in a call whose communicator spans real processes (see above).
void arrive_spanning(Context& c, const ReduceArgs& a);          // Allreduce, Reduce, Scan, Exscan
void arrive_spanning(Context& c, const AllgatherArgs& a);       // Allgather(v)
void arrive_spanning(Context& c, const AlltoallArgs& a);        // Alltoall(v,w)
void arrive_spanning(Context& c, const ReduceScatterArgs& a);   // Reduce_scatter(_block)
void arrive_spanning(Context& c, const BcastArgs& a);
void arrive_spanning(Context& c, const RootedArgs& a);          // Gather(v), Scatter(v)

// The handler of MessageKind::CollectiveData events (Engine::set_collective_data_handler).
void accept_collective_data(Engine& engine, Message* message);

}  // namespace xsim::colls
