// Whether the running executable is an MPI program (it imports MPI_Init or
// MPI_Init_thread, in C or Fortran). libxsim only takes over main() in such programs, so
// that a shell or a tool started under LD_PRELOAD=libxsim.so runs normally.
#pragma once

namespace xsim {

bool executable_imports_mpi_init();
// Whether it calls the Fortran 2008 bindings (`use mpi_f08`), which xsim does not provide.
bool executable_uses_mpi_f08();

}  // namespace xsim
