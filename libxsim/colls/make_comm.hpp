// Making derived communicators (the engine side of MPI_Comm_dup, _create, _create_group
// and, in comm_split.hpp, _split). Every function is called on the member's fiber inside
// its MPI call; it runs the communication real MPI libraries need to agree on a new
// communicator (message-level, so it costs virtual time and catches ranks that call
// different collectives), then builds the caller's Comm object. *out is null for
// callers that are not members. Returns an MPI error class; ctx errors are reported
// through scope.fail with the parent communicator.
#pragma once
#include "libxsim/engine/call_scope.hpp"
#include "libxsim/colls/algorithm.hpp"
#include "libxsim/colls/collective_kind.hpp"
#include "libxsim/mpi/context_ids.hpp"

namespace xsim {

struct Group;

// The caller's object of a new communicator; takes over one reference to `group`.
// Inherits the parent's error handler (MPI-4 section 9.3).
Comm* new_derived_comm(Rank& me, const Comm& parent, Group* group, int my_rank, const ContextId& id);

// MPI_Comm_dup's copy of `parent`'s attributes into the new `c` (the keyvals' copy
// callbacks). If one fails, the copies already made are deleted (their delete callbacks
// run, so they hold their keyvals no longer), `c` is released and the failure reported.
int copy_comm_attributes(CallScope& scope, const Comm& parent, Comm* c);

// A dissemination barrier over `comm` tagged as `kind` (the agreement on a new context).
int agree_on_new_comm(CallScope& scope, const Comm& comm, colls::CollKind kind);

// The agreement of MPI_Comm_idup (and of MPI_Comm_dup of an intercommunicator): a barrier
// tagged as MPI_Comm_dup (on an intercommunicator, its algorithm: intercomm_collectives.hpp).
const colls::Collective<colls::BarrierArgs>& dup_agreement();

int dup_comm(CallScope& scope, const Comm& parent, Comm** out);
// MPI_Comm_idup: the communicator is made now (usable once *request completes); the
// agreement runs as a nonblocking collective on the parent.
int idup_comm(CallScope& scope, const Comm& parent, Comm** out, Request** request);
// `group` must be a subgroup of parent's group, the same on every member of parent.
int create_comm(CallScope& scope, const Comm& parent, Group& group, Comm** out);
// Collective over the members of `group` only.
int create_comm_from_group(CallScope& scope, const Comm& parent, Group& group, int tag, Comm** out);

}  // namespace xsim
