// What MPI_Type_dup and MPI_Type_free (local_calls.cpp) do with a datatype's attributes
// (type_attributes.cpp).
#pragma once
#include <mpi.h>

#include <string>

#include "libxsim/engine/rank.hpp"

namespace xsim {

// MPI_Type_dup: the copy callbacks of `from`'s attributes, into `to`'s. On failure `why` says
// which callback failed.
int copy_type_attributes(const Rank& rank, MPI_Datatype from, MPI_Datatype to, std::string* why);
// MPI_Type_free: the delete callbacks, in reverse order of setting; MPI_SUCCESS or the
// error code a callback returned.
int delete_type_attributes(const Rank& rank, MPI_Datatype type);

}  // namespace xsim
