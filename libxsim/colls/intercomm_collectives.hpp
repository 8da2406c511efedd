// Blocking collectives on intercommunicators, composed as MPICH composes them: a collective
// of one group on its own (on Comm::local, an ordinary intracommunicator) plus messages
// between the two groups' leaders (local rank 0, or the root) over the intercommunicator.
// The nonblocking forms are refused with MPI_ERR_COMM (bindings/collectives.cpp).
#pragma once
#include "libxsim/colls/entry.hpp"
#include "libxsim/engine/call_scope.hpp"

namespace xsim::colls {

// No member of either group leaves before every member of both has entered: each group
// has a barrier of its own, the leaders exchange, and each group waits for its leader.
// `kind` names the call in message signatures (MPI_Barrier, MPI_Comm_dup, ...).
int intercomm_barrier(CallScope& scope, const Comm& inter, CollKind kind);

// MPI_Bcast: a.root is MPI_ROOT at the root, MPI_PROC_NULL at the other members of its
// group, and the root's rank in the remote group at the receiving group's members. The
// root sends to the receiving group's leader, which broadcasts in its group with `local`.
int intercomm_bcast(CallScope& scope, const Comm& inter, const Collective<BcastArgs>& local, const BcastArgs& a);

}  // namespace xsim::colls
