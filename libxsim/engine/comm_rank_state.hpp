// What a rank keeps about a communicator besides the communicator object: WORLD and SELF
// are one object per process, so their per-rank counters live in Rank and their rarely
// used name and attributes in sparse tables of the process objects; a derived
// communicator is the rank's own object and keeps them itself.
#pragma once
#include <cstdint>

#include "libxsim/engine/rank.hpp"
#include "libxsim/mpi/comm.hpp"

namespace xsim {

// Per-(rank, communicator) counters that agree across the members because every member
// makes the same sequence of calls on a communicator.
std::uint32_t& creation_counter(Rank& rank, const Comm& comm);
std::uint32_t& collective_sequence(Rank& rank, const Comm& comm);

// The caller's group of the communicator (a new reference).
Group* comm_group(const Comm& comm, const Rank& caller);

// Name and attribute storage; WORLD's and SELF's are per rank, kept in sparse tables.
const char* comm_name(const Comm& comm, const Rank& caller);
void set_comm_name(const Comm& comm, const Rank& caller, const char* name);
Attributes*& attributes_slot(const Comm& comm, const Rank& caller);

// The rank has finished: what the process objects keep for it about WORLD and SELF
// (the repeat counts of communicators derived from them) is no longer needed.
void forget_predefined_comm_state(const Rank& rank);

}  // namespace xsim
