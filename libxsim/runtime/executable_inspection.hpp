// Whether the running program is an MPI program: the executable, or a library it loaded
// that initialises MPI for it (PETSc's PetscInitialize, ...), imports MPI_Init or
// MPI_Init_thread, in C or Fortran (MPI's own libraries and libxsim do not count).
// libxsim only takes over main() in such programs, so that a shell or a tool started under
// LD_PRELOAD=libxsim.so runs normally.
#pragma once
#include <string>

namespace xsim {

bool program_imports_mpi_init();
// Whether the program is the Python interpreter (it defines or imports Py_BytesMain), whose
// scripts load MPI only when they run (mpi4py's extension module imports MPI_Init).
bool program_is_python();
// Whether the library file at `path` calls functions the program's executable defines (a
// plugin of the program: an extension module of the Python interpreter).
bool imports_from_program(const std::string& path);
// The loaded Boehm-Demers-Weiser garbage collector (libgc: Guile, meep, ...), or empty.
std::string loaded_conservative_collector();
// Whether `code` lies in the loaded object that holds the program's main (the executable,
// not a library it loaded); false before main is known.
bool in_program_object(const void* code);

}  // namespace xsim
