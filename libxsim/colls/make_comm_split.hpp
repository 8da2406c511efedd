// MPI_Comm_split on the simulated network. Real libraries allgather (color, key); that is
// O(N) memory per rank and O(N^2) bytes in total, impossible at a million ranks. xsim
// gathers the pairs to the parent's rank 0 up a binomial tree, which sorts them and sends
// each member a descriptor of its new communicator down the same tree. A descriptor is
// O(1) when the new group is regular (world ranks in arithmetic progression: blocks,
// strided rows or columns, the usual splits); only irregular groups travel as explicit
// lists, once per subtree message, and are stored once per process.
#pragma once
#include "libxsim/engine/call_scope.hpp"

namespace xsim {

// Collective over `parent` (MPI_Comm_split semantics: color >= 0 or MPI_UNDEFINED, ties
// of key broken by parent rank). *out is the caller's new communicator, or null for
// MPI_UNDEFINED. Returns an MPI error class.
int split_comm(CallScope& scope, const Comm& parent, int color, int key, Comm** out);

}  // namespace xsim
