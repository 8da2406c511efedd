// The agreements of MPI-IO's collective calls, run as xsim's own message-level
// collectives on the file's simulated communicator (so they cost virtual time, count in
// the deadlock detection, and work across real processes). Their messages always carry
// their data (xsim's own, like MPI_Comm_split's colors), whatever -xsim-payload says.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "libxsim/engine/call_scope.hpp"

namespace xsim::io {

// values[i] = the maximum of values[i] over the ranks of `comm`. Returns MPI_SUCCESS or
// an error class with *why saying what the ranks disagreed about (mismatched calls).
int allreduce_max(CallScope& scope, const Comm& comm, std::vector<std::int64_t>& values, std::string* why);

// *inclusive = the sum of `mine` over the ranks of `comm` up to this one: minus `mine`, where
// the rank's block starts in an ordered access; the last rank's is the total.
int inclusive_sum(CallScope& scope, const Comm& comm, std::int64_t mine, std::int64_t* inclusive, std::string* why);

}  // namespace xsim::io
