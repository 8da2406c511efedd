// Context ids of derived communicators, computed the same way by every member without
// any agreement traffic: a hash of how the communicator was made (the parent's context
// and the parent's creation counter, or for MPI_Comm_create_group the group, tag and
// repeat count). Members of one split share the id; that is safe because they are
// disjoint. Ids are 31-bit even numbers, so two different derivations could collide:
// every process registers the live ids it uses and stops with a clear message if one
// id stands for two derivations (a member of both would see it), never mixing messages.
#pragma once
#include <cstdint>

namespace xsim {

struct ContextId {
    std::uint32_t context;     // even, >= 4
    std::uint64_t derivation;  // the full 64-bit hash it was cut from
};

ContextId derive_context(std::uint32_t parent, std::uint64_t a, std::uint64_t b);

// Registers one more user of the id (aborts the run on a collision) / one less.
void acquire_context(const ContextId& id);
void release_context(std::uint32_t context);

}  // namespace xsim
