/* library_state_lib: a shared library of the program's own that starts MPI for it (as
 * PETSc's PetscInitialize does) and keeps a counter that the program reads directly (a copy
 * relocation in a PIE executable, as PETSC_COMM_WORLD is). Built into libxsim_test_state.so. */
#include <mpi.h>

int library_counter = 0;

int library_start(int *argc, char ***argv) { return MPI_Init(argc, argv); }

int library_bump(void) { return ++library_counter; }
