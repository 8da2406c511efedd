// Context ids of derived communicators, computed the same way by every member without
// any agreement traffic: a hash of how the communicator was made (the parent's context
// and the parent's creation counter, or for MPI_Comm_create_group the group, tag and
// repeat count). Members of one split share the id; that is safe because they are
// disjoint. Ids are 31-bit even numbers, so two different derivations could collide:
// every process registers the live ids it uses and stops with a clear message if one
// id stands for two derivations (a member of both would see it), never mixing messages.
// The odds grow with the square of the live ids (n^2 / 2^31 for n ids): negligible for
// thousands of communicators, likely past about 40,000 alive in one process (MPICH's
// errors/comm/too_many_icomms2 makes 200,000); the message says how many were alive.
// The state (live ids, repeat counts) is the current ProcessObjects' (process_objects.hpp).
#pragma once
#include <cstdint>
#include <string>

namespace xsim {

struct ContextId {
    std::uint32_t context;     // even, >= 4
    std::uint64_t derivation;  // the full 64-bit hash it was cut from
};

ContextId derive_context(std::uint32_t parent, std::uint64_t a, std::uint64_t b);

// Registers one more user of the id / one less. On a collision (the id is live with
// another derivation) nothing is registered and the returned text says so; the caller
// ends the run with it. Empty on success.
[[nodiscard]] std::string acquire_context(const ContextId& id);
void release_context(std::uint32_t context);

// Repeat counts. MPI_Comm_create_group (only the group's members take part) and
// MPI_Intercomm_create (only the two leaders talk) cannot use the parent's creation
// counter, which other ranks do not advance; so their context also hashes how many
// communicators the rank derived before from the same parent with the same (tag, what),
// a number every member counts alike. next_repeat returns that number and counts one more.
std::uint32_t next_repeat(std::uint32_t parent_context, int world_rank, int tag, std::uint64_t what);
// The rank can derive nothing more from `parent_context` (its communicator is gone, or
// for WORLD and SELF the rank has finished): its counts are no longer needed.
void forget_repeats(std::uint32_t parent_context, int world_rank);

}  // namespace xsim
