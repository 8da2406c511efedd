// A library's references to functions it defines itself, named like one of libxsim's
// Fortran entry points (mpi_comm_rank, mpi_send, ...: the no-underscore mangling, a valid C
// name). Natively a C library built on MPI (libmpi, which exports no Fortran names) binds them
// to its own definitions: Rmpi's routine table names its R wrappers mpi_comm_rank, mpi_send,
// ... Under xsim libxsim, loaded first (LD_PRELOAD, or -lxsim before the program's
// libraries), exports those names as Fortran MPI calls and took them over: R called xsim's
// Fortran MPI_COMM_RANK with an R object for a handle. bind_own_definitions points such
// references (GOT entries, PLT slots and data words) back at the library's own definitions,
// as natively. MPI's libraries (their Fortran layers call libxsim's on purpose) and libxsim
// are left alone, and so are the C API's names (MPI_Send in a profiling library stays xsim's).
#pragma once
#include <vector>

namespace xsim::runtime {

// Does the above for the loaded objects not in `known` (loaded_objects(); empty: all).
void bind_own_definitions(const std::vector<const void*>& known);

}  // namespace xsim::runtime
