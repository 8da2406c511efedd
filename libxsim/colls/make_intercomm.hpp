// Intercommunicators: MPI_Intercomm_create, MPI_Intercomm_merge, and MPI_Comm_dup, _split
// and _create of one.
// Point-to-point on an intercommunicator names ranks of the remote group (Comm::remote_group);
// its collectives are in intercomm_collectives.hpp.
#pragma once
#include <cstdint>

#include "libxsim/engine/call_scope.hpp"

namespace xsim {

struct Group;

// Collective over both groups. The two leaders exchange their groups over `peer` (only
// the leaders use it), then each leader broadcasts the remote group and the new context
// in its local communicator. Group descriptions are O(1) for regular groups.
int create_intercomm(CallScope& scope, const Comm& local, int local_leader, const Comm* peer, int remote_leader,
                     int tag, Comm** out);

// MPI_Comm_dup of an intercommunicator: collective over both groups (a barrier across
// them), the same groups with a new context and a copy of the caller's attributes.
int dup_intercomm(CallScope& scope, const Comm& inter, Comm** out);
// MPI_Comm_idup of one: the communicator is made now, the barrier runs as a nonblocking
// collective on `inter`.
int idup_intercomm(CallScope& scope, const Comm& inter, Comm** out, Request** request);

// MPI_Comm_split of an intercommunicator: each group splits on its own (color >= 0 or
// MPI_UNDEFINED, ties of key broken by rank); the caller's new intercommunicator joins its
// part to the remote group's members of the same color, or is null (MPI_UNDEFINED, or no
// remote member has that color). The leaders swap the groups' (color, key) lists: O(group
// size) per member, fine for the intercommunicators of coupled codes, not for millions.
int split_intercomm(CallScope& scope, const Comm& inter, int color, int key, Comm** out);

// MPI_Comm_create of an intercommunicator: `group` is a subgroup of the caller's local
// group, the same at every member of that group; the result joins it to the group the
// other side passed (null for non-members, or when either group is empty).
int create_intercomm_from(CallScope& scope, const Comm& inter, Group& group, Comm** out);

// The caller's copy of `comm`, an intra- or intercommunicator (its groups, topology and
// error handler, not its attributes), under a context derived from comm's creation counter
// and `derivation`, made without any message: for what a collective call makes alike on every
// member (MPI_Comm_dup's copy after its agreement, make_comm.cpp; the own communicator of a
// persistent collective, bindings/persistent_collective.hpp).
Comm* private_copy(Rank& me, const Comm& comm, std::uint64_t derivation);

// Collective over both groups: the intracommunicator of both groups, the group that
// passed high = false first (ties: the group of the lower leader world rank first).
int merge_intercomm(CallScope& scope, const Comm& inter, bool high, Comm** out);

}  // namespace xsim
