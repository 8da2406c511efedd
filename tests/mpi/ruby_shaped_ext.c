/* The extension module of ruby_shaped_main.c (a stand-in for ruby-mpi's mpi.so): linked
 * against MPI, it imports MPI_Init and the interpreter library's functions. Each simulated
 * rank registers once in its own interpreter, then the ranks exchange data. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int rb_shaped_define_module(const char* name);
const char* rb_shaped_last_module(void);

int Init_ruby_shaped_ext(void) {
    int registered = rb_shaped_define_module("MPI");
    MPI_Init(NULL, NULL);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int failures = 0;
    const char* expect = getenv("XSIM_TEST_EXPECT_SIZE");
    if (expect && atoi(expect) != size) {
        printf("FAIL ruby_shaped: rank %d: size %d, expected %s\n", rank, size, expect);
        ++failures;
    }
    if (registered != 1 || strcmp(rb_shaped_last_module(), "MPI") != 0) {
        /* The interpreter library was shared with another rank of this process. */
        printf("FAIL ruby_shaped: rank %d: the interpreter holds %d registrations\n", rank, registered);
        ++failures;
    }
    long mine = rank + 1, sum = 0;
    MPI_Allreduce(&mine, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (sum != (long)size * (size + 1) / 2) {
        printf("FAIL ruby_shaped: rank %d: allreduce %ld, expected %ld\n", rank, sum, (long)size * (size + 1) / 2);
        ++failures;
    }
    int right = (rank + 1) % size, left = (rank + size - 1) % size, got = -1;
    MPI_Sendrecv(&rank, 1, MPI_INT, right, 7, &got, 1, MPI_INT, left, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (got != left) {
        printf("FAIL ruby_shaped: rank %d: ring got %d, expected %d\n", rank, got, left);
        ++failures;
    }
    int total = 0;
    MPI_Reduce(&failures, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0 && total == 0) printf("PASS ruby_shaped (%d ranks, one interpreter each)\n", size);
    MPI_Finalize();
    return failures ? 1 : 0;
}
