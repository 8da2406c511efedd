/* rank_crash: one simulated rank dies of a signal between MPI calls (xsim must name it).
 *
 * argv[1]: segv         rank 1 writes through a null pointer
 *          segv_in_libc rank 1 passes a null pointer to strlen: the crash is in the C library
 *          segv_in_gotcha  rank 1 crashes in a stand-in for GOTCHA's gotcha_get_wrappee
 *                          (fake_gotcha.c): xsim names GOTCHA's remedy
 *          segv_in_xsim rank 1 sends two ints from address 16 to rank 0: the crash is in
 *                       xsim's own code (its copy of a small message), which the report names by function (libxsim
 *                       exports none of its C++ functions: the name is from its .symtab)
 *          abort        rank 1 calls abort(), as glibc does on heap corruption
 * Every rank first times region "work" (xsim_region_begin/end), which a regions file must
 * still hold after the crash. Every other rank waits in MPI_Barrier. Prints nothing the
 * harness matches.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xsim.h>

void *gotcha_get_wrappee(void *handle); /* fake_gotcha.c */

int main(int argc, char **argv)
{
    int rank, size;
    volatile int *nowhere = NULL;
    const char *volatile no_string = NULL;

    if (argc < 2 || (strcmp(argv[1], "segv") && strcmp(argv[1], "segv_in_libc") && strcmp(argv[1], "segv_in_gotcha") &&
                     strcmp(argv[1], "segv_in_xsim") && strcmp(argv[1], "abort"))) {
        fprintf(stderr, "usage: %s segv|segv_in_libc|segv_in_gotcha|segv_in_xsim|abort\n", argv[0]);
        return 2;
    }
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    xsim_region_begin("work");
    MPI_Barrier(MPI_COMM_WORLD);
    xsim_region_end("work");
    if (rank == (size > 1 ? 1 : 0)) {
        if (strcmp(argv[1], "segv") == 0) *nowhere = 1;
        else if (strcmp(argv[1], "segv_in_libc") == 0) printf("%zu\n", strlen(no_string));
        else if (strcmp(argv[1], "segv_in_gotcha") == 0) printf("%p\n", gotcha_get_wrappee(NULL));
        else if (strcmp(argv[1], "segv_in_xsim") == 0)
            MPI_Send((const void *)(size_t)16, 2, MPI_INT, 0, 99, MPI_COMM_WORLD);
        else abort();
    }
    MPI_Barrier(MPI_COMM_WORLD);
    printf("FAIL rank_crash: rank %d passed the second barrier\n", rank);
    MPI_Finalize();
    return 1;
}
