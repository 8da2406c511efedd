// Whether the running program is an MPI program: the executable, or a library it loaded
// that initialises MPI for it (PETSc's PetscInitialize, ...), imports MPI_Init or
// MPI_Init_thread, in C or Fortran (MPI's own libraries and libxsim do not count).
// libxsim only takes over main() in such programs, so that a shell or a tool started under
// LD_PRELOAD=libxsim.so runs normally.
#pragma once
#include <string>

namespace xsim {

bool program_imports_mpi_init();
// Whether the program is an interpreter whose scripts load MPI only when they run: Python
// (it defines or imports Py_BytesMain; mpi4py's extension module imports MPI_Init) or R
// (it imports Rf_initialize_R; Rmpi's library imports MPI_Init) or Ruby (it imports
// ruby_run_node; ruby-mpi's mpi.so imports MPI_Init).
bool program_is_interpreter();
// The shared library that holds the interpreter when the executable only calls into it (R's
// libR.so, a libpython) or embeds it (Smilei calls libpython's Py_Initialize to read its
// input file), by its loaded name; empty if there is none (Debian's python3 holds its
// interpreter itself). Its globals are the interpreter's state (R's global environment,
// its heap's roots): per rank, as the executable's are.
const std::string& interpreter_library();
bool is_interpreter_library(const std::string& path);
// Whether the library file at `path` calls functions the program defines (the executable, or
// its interpreter library): a plugin of the program, such as an extension module of the
// Python interpreter or an R package's shared object.
bool imports_from_program(const std::string& path);
// A loaded library that defines MPI_Init or MPI_Finalize (a PMPI tool: mpiP, Caliper, a
// user's wrapper library) but comes after libxsim in the loader's search order, so that the
// program's MPI calls bind to libxsim's and never reach the tool (LD_PRELOAD=libxsim.so with a
// tool the executable links, or a tool linked after -lxsim); empty if there is none.
std::string pmpi_tool_behind_libxsim();
// The loaded Boehm-Demers-Weiser garbage collector (libgc: Guile, meep, ...), or empty.
std::string loaded_conservative_collector();
// The base address of the loaded object (executable or library) that holds `address`, or null.
const void* loaded_object_base(const void* address);
// Whether `code` lies in the loaded object that holds the program's main (the executable,
// not a library it loaded); false before main is known.
bool in_program_object(const void* code);

}  // namespace xsim
