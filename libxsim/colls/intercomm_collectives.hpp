// Blocking collectives on intercommunicators (MPI-4 section 6.2.2: the data moves between
// the two groups), composed as MPICH composes them: collectives of one group on its own
// (on Comm::local, an ordinary intracommunicator, with the usual algorithm selection) and
// messages between the groups over the intercommunicator.
//  - Barrier: each group's barrier, the leaders (local rank 0) swap, each group's barrier.
//  - Bcast: the root sends to the other group's leader, which broadcasts in its group.
//  - Reduce: the sending group reduces to its leader, which sends to the root.
//  - Allreduce: each group reduces to its leader, the leaders swap, each broadcasts what it got.
//  - Allgather: each group gathers to its leader, the leaders swap, each broadcasts.
//  - Reduce_scatter(_block): each group reduces to its leader, the leaders swap, each scatters.
//  - Gather(v), Scatter(v), Allgatherv, Alltoall(v,w): directly between the ranks, one round.
// Roots (Bcast, Reduce, Gather, Scatter) are MPI_ROOT at the root, MPI_PROC_NULL at the
// other members of its group, and the root's rank in the remote group at the other group.
// Buffers are described as for the intracommunicator forms, with as many blocks as the
// remote group has ranks. Every member takes the call's number on the intercommunicator
// (its messages' tag), also one that sends nothing. The nonblocking forms and the other
// collectives are refused with MPI_ERR_COMM (bindings/collectives.cpp).
#pragma once
#include "libxsim/colls/entry.hpp"
#include "libxsim/engine/call_scope.hpp"

namespace xsim::colls {

// `kind` names the call in message signatures (MPI_Barrier, MPI_Comm_dup, ...).
int intercomm_barrier(CallScope& scope, const Comm& inter, CollKind kind);
int intercomm_bcast(CallScope& scope, const Comm& inter, const BcastArgs& a);
int intercomm_reduce(CallScope& scope, const Comm& inter, const ReduceArgs& a);
int intercomm_allreduce(CallScope& scope, const Comm& inter, const ReduceArgs& a);
// Gather(v) (`gather`) or Scatter(v): a.blocks at the root, a.mine at the other group.
int intercomm_rooted(CallScope& scope, const Comm& inter, const RootedArgs& a, bool gather);
int intercomm_allgather(CallScope& scope, const Comm& inter, const AllgatherArgs& a);
int intercomm_alltoall(CallScope& scope, const Comm& inter, const AlltoallArgs& a);
// Reduce_scatter(_block): a.counts (or a.block) describe the caller's group; each group's
// input of a.total elements is reduced at its leader, the leaders swap, and each scatters
// what it got in its group.
int intercomm_reduce_scatter(CallScope& scope, const Comm& inter, const ReduceScatterArgs& a);

}  // namespace xsim::colls
