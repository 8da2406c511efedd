/* library_state: MPI started by a library, and a library's variable per rank.
 *
 * The program never calls MPI_Init itself: its library (library_state_lib.c) does, as
 * PETSc's PetscInitialize does for PETSc programs; xsim must still simulate the ranks.
 * Each rank then bumps the library's counter rank + 1 times, with a barrier after each
 * bump (the other ranks bump in between), and reads the counter both through the library
 * and directly (the executable's copy of the variable): both must be rank + 1, as in a real
 * run where each rank is a process. A constant table of the library, read directly (its copy
 * is read-only once relocated), holds its values in every rank. The error count is summed with MPI_Reduce and rank 0
 * prints PASS or FAIL. */
#include <mpi.h>
#include <stdio.h>

extern int library_counter;
extern const int library_table[64];
int library_start(int *argc, char ***argv);
int library_bump(void);

int main(int argc, char **argv)
{
    int rank, size, i, through_library = 0, errors = 0, total = 0;
    if (library_start(&argc, &argv) != MPI_SUCCESS) return 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (i = 0; i < size; ++i) {
        if (i <= rank) through_library = library_bump();
        MPI_Barrier(MPI_COMM_WORLD);
    }
    if (through_library != rank + 1) {
        printf("FAIL library_state: rank %d: the library's counter is %d, expected %d\n", rank, through_library, rank + 1);
        ++errors;
    }
    if (library_counter != rank + 1) {
        printf("FAIL library_state: rank %d: the program reads the library's counter as %d, expected %d\n", rank,
               library_counter, rank + 1);
        ++errors;
    }
    if (library_table[5] != 13 || library_table[63] != 0) {
        printf("FAIL library_state: rank %d: the library's constant table reads %d, %d\n", rank, library_table[5],
               library_table[63]);
        ++errors;
    }
    MPI_Reduce(&errors, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0 && total == 0) printf("PASS library_state\n");
    MPI_Finalize();
    return 0;
}
