// Collectives on intercommunicators (MPI-4 section 6.2.2: the data moves between the two
// groups), blocking and nonblocking alike: each is one algorithm over a Context of the
// intercommunicator, whose messages go between the groups (Context::send / recv, remote
// ranks) and within the caller's own group (Context::send_local / recv_local), as MPICH
// composes them:
//  - Barrier: each group gathers at its leader (local rank 0), the leaders swap, each
//    leader releases its group.
//  - Bcast: the root sends to the other group's leader, which broadcasts in its group.
//  - Reduce: the sending group reduces at its leader, which sends to the root.
//  - Allreduce, Allgather, Reduce_scatter(_block): each group reduces (gathers) at its
//    leader, the leaders swap, each broadcasts (scatters) what it got.
//  - Gather(v), Scatter(v), Allgatherv, Alltoall(v,w): directly between the ranks, one round.
// Roots (Bcast, Reduce, Gather, Scatter) are MPI_ROOT at the root, MPI_PROC_NULL at the
// other members of its group, and the root's rank in the remote group at the other group.
// Buffers of many blocks have a block per remote rank. choose_algorithm (registry.cpp)
// takes these for every call on an intercommunicator; they are not in the tables, which
// list the algorithms one may force on intracommunicators.
#pragma once
#include "libxsim/colls/algorithm.hpp"

namespace xsim::colls {

// The algorithm of `kind` on an intercommunicator, or null where MPI defines no such
// collective (Scan, Exscan, the neighbor collectives).
template <class Args>
const Algorithm<Args>* intercomm_algorithm(CollKind kind);

}  // namespace xsim::colls
