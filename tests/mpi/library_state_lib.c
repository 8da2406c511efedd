/* library_state_lib: a shared library of the program's own that starts MPI for it (as
 * PETSc's PetscInitialize does) and keeps a counter that the program reads directly (a copy
 * relocation in a PIE executable, as PETSC_COMM_WORLD is). It registers an exit handler of
 * its own with atexit (with no argument): natively each process runs it once, on its own
 * counter; it prints "LIBRARY_EXIT rank <r> counter <c>". It also has a constant table the
 * program reads directly: that copy goes to the executable's read-only-after-relocation
 * data (.data.rel.ro), which xsim must leave shared (meep's copies of libmeep's vtables).
 * Built into libxsim_test_state.so. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int library_counter = 0;
const int library_table[64] = {2, 3, 5, 7, 11, 13};
static int library_rank = -1;

static void library_at_exit(void)
{
    printf("LIBRARY_EXIT rank %d counter %d\n", library_rank, library_counter);
    fflush(stdout);
}

int library_start(int *argc, char ***argv)
{
    const int code = MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &library_rank);
    atexit(library_at_exit);
    return code;
}

int library_bump(void) { return ++library_counter; }
