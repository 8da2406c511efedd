/* One-sided traffic in -xsim-commmatrix: every rank puts 3 ints into rank+1's window, gets 5
 * doubles from it and adds 1 to an int there with MPI_Fetch_and_op, between two fences.
 * With "none" it makes the same window and fences without the operations, so the two
 * matrices differ by exactly the operations' data: tests/mpi/check_comm_matrix_rma.sh.
 * usage: comm_pattern_rma ops|none */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

typedef struct {
    int ints[3];
    int counter;
    double doubles[5];
} window_t;

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int rank = 0, size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc != 2 || (strcmp(argv[1], "ops") != 0 && strcmp(argv[1], "none") != 0)) {
        if (rank == 0) fprintf(stderr, "usage: comm_pattern_rma ops|none\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    const int ops = strcmp(argv[1], "ops") == 0;
    const int next = (rank + 1) % size;
    window_t* mine = NULL;
    MPI_Win win;
    MPI_Win_allocate(sizeof(window_t), 1, MPI_INFO_NULL, MPI_COMM_WORLD, &mine, &win);
    memset(mine, 0, sizeof *mine);
    for (int i = 0; i < 5; ++i) mine->doubles[i] = rank + 0.5 * i;
    MPI_Win_fence(0, win);
    int out[3] = {rank, rank + 1, rank + 2}, one = 1, before = -1;
    double got[5] = {0};
    if (ops) {
        MPI_Put(out, 3, MPI_INT, next, offsetof(window_t, ints), 3, MPI_INT, win);
        MPI_Get(got, 5, MPI_DOUBLE, next, offsetof(window_t, doubles), 5, MPI_DOUBLE, win);
        MPI_Fetch_and_op(&one, &before, MPI_INT, next, offsetof(window_t, counter), MPI_SUM, win);
    }
    MPI_Win_fence(0, win);
    const int prev = (rank + size - 1) % size;
    int ok = 1;
    if (ops) {
        ok = mine->ints[0] == prev && mine->ints[2] == prev + 2 && mine->counter == 1 && before == 0;
        for (int i = 0; i < 5; ++i) ok = ok && got[i] == next + 0.5 * i;
    }
    if (!ok) {
        fprintf(stderr, "rank %d: wrong one-sided results\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Win_free(&win);
    if (rank == 0) printf("PASS comm_pattern_rma\n");
    MPI_Finalize();
    return 0;
}
