// Checks of the reduction operator of MPI_Reduce, Allreduce, Scan, ... The ops themselves
// are the real library's: collectives combine with PMPI_Reduce_local.
#pragma once
#include <mpi.h>

#include "libxsim/engine/call_scope.hpp"

namespace xsim::checks {

// MPI_ERR_OP for MPI_OP_NULL, an invalid handle, or an op the real library does not
// define for `type` (MPI_SUM on MPI_2INT, MPI_MINLOC on MPI_INT, MPI_REPLACE, ...).
// Sets *commutative (user ops from MPI_Op_create may be non-commutative).
int op(CallScope& s, const Comm* c, MPI_Op op, MPI_Datatype type, bool* commutative);

}  // namespace xsim::checks
