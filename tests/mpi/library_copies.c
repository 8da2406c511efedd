/* library_copies: the program reads three variables of its library (library_copies_lib.c)
 * directly, so the executable holds their copies, next to each other: a double of 16-byte
 * alignment, then an MPI_Comm initialized to MPI_COMM_NULL and a long, as a PETSc program
 * holds petsc_TotalFlops then PETSC_COMM_WORLD. Each rank must start with their initial
 * values (1.5, MPI_COMM_NULL, 7): under xsim the communicator once read 0 in every rank, so
 * PetscInitialize refused to start ("You cannot set PETSC_COMM_WORLD if you have not
 * initialized MPI first"). Then each rank works rank + 1 times with barriers between (the
 * ranks' images are switched in between) and checks its own counts, read directly and
 * through the library. Rank 0 prints PASS or FAIL. */
#include <mpi.h>
#include <stdio.h>

extern double library_flops;
extern MPI_Comm library_comm;
extern long library_calls;
int library_initialize(int *argc, char ***argv);
double library_work_once(int rank);

int main(int argc, char **argv)
{
    int rank, size, i, errors = 0, total = 0;
    const int null_at_start = library_comm == MPI_COMM_NULL;
    const double flops_at_start = library_flops;
    const long calls_at_start = library_calls;
    const int started = library_initialize(&argc, &argv);
    if (started != 0) {
        printf("FAIL library_copies: the library refused to start (%d): its communicator was not MPI_COMM_NULL\n",
               started);
        return 1;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (!null_at_start || flops_at_start != 1.5 || calls_at_start != 7) {
        printf("FAIL library_copies: rank %d started with comm %s, flops %g, calls %ld (expected MPI_COMM_NULL, 1.5, 7)\n",
               rank, null_at_start ? "MPI_COMM_NULL" : "not MPI_COMM_NULL", flops_at_start, calls_at_start);
        ++errors;
    }
    if (library_comm != MPI_COMM_WORLD) {
        printf("FAIL library_copies: rank %d: the library's communicator is not MPI_COMM_WORLD after start\n", rank);
        ++errors;
    }
    for (i = 0; i < size; ++i) {
        if (i <= rank) {
            const double sum = library_work_once(rank);
            const double expected = 40000.0 * rank + 0.5 * (39999.0 * 40000.0 / 2);
            if (sum != expected) {
                printf("FAIL library_copies: rank %d: work sum %.17g, expected %.17g\n", rank, sum, expected);
                ++errors;
            }
        }
        MPI_Barrier(library_comm);
    }
    if (library_calls != 7 + rank + 1 || library_flops != 1.5 + 80000.0 * (rank + 1)) {
        printf("FAIL library_copies: rank %d: %ld calls, %g flops (expected %d, %g)\n", rank, library_calls,
               library_flops, 7 + rank + 1, 1.5 + 80000.0 * (rank + 1));
        ++errors;
    }
    MPI_Reduce(&errors, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) printf(total == 0 ? "PASS library_copies\n" : "FAIL library_copies: %d errors\n", total);
    MPI_Finalize();
    return 0;
}
