/* library_copies_lib: a library built on MPI whose variables the program reads directly, as
 * a PETSc program reads PETSC_COMM_WORLD and petsc_TotalFlops: the executable gets copies of
 * them (R_X86_64_COPY), next to each other in its .bss, and those copies are the variables
 * from then on. Its work array makes the per-rank image large (over 128 KB), so that it is
 * switched by written page. Built into libxsim_test_copies.so. */
#include <mpi.h>

/* library_flops and library_calls lie next to each other, the first 16-byte aligned and 8
 * bytes long, the second 8 bytes after it (laid out here, so that the linker gives their
 * copies in the executable the same alignments: the second starts in the middle of the 16
 * bytes xsim's slot gives the first, as PETSC_COMM_WORLD follows petsc_TotalFlops). */
__asm__(".data\n"
        ".balign 16\n"
        ".globl library_flops\n.type library_flops, @object\n.size library_flops, 8\n"
        "library_flops: .double 1.5\n"
        ".globl library_calls\n.type library_calls, @object\n.size library_calls, 8\n"
        "library_calls: .quad 7\n"
        ".text\n");
extern double library_flops;
extern long library_calls;
MPI_Comm library_comm = MPI_COMM_NULL;
double library_work[40000];

/* As PetscInitialize: refuses to start when the communicator was set before MPI started. */
int library_initialize(int *argc, char ***argv)
{
    int started = 0;
    MPI_Initialized(&started);
    if (!started && library_comm != MPI_COMM_NULL) return -1;
    if (MPI_Init(argc, argv) != MPI_SUCCESS) return -2;
    library_comm = MPI_COMM_WORLD;
    return 0;
}

/* Work that writes the whole array and counts its flops and calls. */
double library_work_once(int rank)
{
    int i;
    double sum = 0;
    for (i = 0; i < 40000; ++i) library_work[i] = rank + i * 0.5;
    for (i = 0; i < 40000; ++i) sum += library_work[i];
    library_flops += 80000;
    ++library_calls;
    return sum;
}
