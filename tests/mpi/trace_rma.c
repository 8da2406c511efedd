/* -xsim-trace of one-sided communication (check_trace_rma.sh). One window of MPI_Win_create
 * over MPI_COMM_WORLD; ITER times each of:
 *  1. fence epoch: MPI_Put of 4 ints to the right neighbour, MPI_Get of 3 ints from the left
 *     one, MPI_Accumulate (MPI_SUM) of 5 ints to the rank two to the right; fence;
 *  2. MPI_Win_lock exclusive on the right neighbour: MPI_Put of 4 ints, MPI_Fetch_and_op
 *     (MPI_SUM) of one int; unlock. MPI_Win_lock shared on the left one: MPI_Get of 3 ints,
 *     MPI_Compare_and_swap of one int; unlock; MPI_Barrier;
 *  3. MPI_Win_lock_all: MPI_Rput of 2 ints to the right, MPI_Rget of 2 ints from the left,
 *     MPI_Waitall on both, MPI_Win_flush_all; MPI_Win_unlock_all;
 *  4. general active target: post to the left neighbour, start to the right one, MPI_Put of
 *     one int, complete, wait.
 * Every value read or written is checked. Prints the virtual time, so traced and untraced
 * runs can be compared. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { kPut = 0, kGet = 8, kAcc = 16, kCounter = 24, kSwap = 25, kRput = 28, kPscw = 32, kWords = 40 };

static int rank, size;

static void check(int ok, const char* what, int iteration, int got, int expected) {
    if (ok) return;
    fprintf(stderr, "rank %d, iteration %d: %s is %d, expected %d\n", rank, iteration, what, got, expected);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

static int value(int owner, int iteration, int slot) { return 1000 * owner + 10 * iteration + slot; }

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc != 2 || atoi(argv[1]) < 1) {
        if (rank == 0) fprintf(stderr, "usage: trace_rma ITER (>= 1)\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    const int iterations = atoi(argv[1]);
    const int right = (rank + 1) % size, left = (rank + size - 1) % size, right2 = (rank + 2) % size;
    int* memory = calloc(kWords, sizeof(int));
    MPI_Win win;
    MPI_Win_create(memory, kWords * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_set_name(win, "halo words"); /* the window's name in the traces */
    MPI_Group world_group, left_group, right_group;
    MPI_Comm_group(MPI_COMM_WORLD, &world_group);
    MPI_Group_incl(world_group, 1, &left, &left_group);
    MPI_Group_incl(world_group, 1, &right, &right_group);
    int counter_expected = 0;
    for (int i = 0; i < iterations; ++i) {
        /* 1. fence */
        int out[8], in[8], acc[5];
        for (int k = 0; k < 8; ++k) out[k] = value(rank, i, k);
        for (int k = 0; k < 5; ++k) acc[k] = rank + k;
        MPI_Win_fence(0, win);
        for (int k = 0; k < 8; ++k) memory[kGet + k] = value(rank, i, 100 + k);
        for (int k = 0; k < 5; ++k) memory[kAcc + k] = 0;
        MPI_Win_fence(0, win);
        MPI_Put(out, 4, MPI_INT, right, kPut, 4, MPI_INT, win);
        MPI_Get(in, 3, MPI_INT, left, kGet, 3, MPI_INT, win);
        MPI_Accumulate(acc, 5, MPI_INT, right2, kAcc, 5, MPI_INT, MPI_SUM, win);
        MPI_Win_fence(0, win);
        for (int k = 0; k < 4; ++k) check(memory[kPut + k] == value(left, i, k), "fence put", i, memory[kPut + k], value(left, i, k));
        for (int k = 0; k < 3; ++k) check(in[k] == value(left, i, 100 + k), "fence get", i, in[k], value(left, i, 100 + k));
        for (int k = 0; k < 5; ++k) {
            /* with 1 or 2 ranks some accumulate reaches the same rank twice: sum over the origins */
            int expected = 0;
            for (int o = 0; o < size; ++o)
                if ((o + 2) % size == rank) expected += o + k;
            check(memory[kAcc + k] == expected, "fence accumulate", i, memory[kAcc + k], expected);
        }

        /* 2. lock / unlock; the counter of each rank gets rank+1 from its left neighbour */
        int add = rank + 1, fetched = -1;
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win);
        MPI_Put(out + 4, 4, MPI_INT, right, kPut + 4, 4, MPI_INT, win);
        MPI_Fetch_and_op(&add, &fetched, MPI_INT, right, kCounter, MPI_SUM, win);
        MPI_Win_unlock(right, win);
        int swap_new = value(rank, i, 7), swap_compare = -12345, swap_old = 0, got[3];
        MPI_Win_lock(MPI_LOCK_SHARED, left, 0, win);
        MPI_Get(got, 3, MPI_INT, left, kGet + 3, 3, MPI_INT, win);
        MPI_Compare_and_swap(&swap_new, &swap_compare, &swap_old, MPI_INT, left, kSwap, win);
        MPI_Win_unlock(left, win);
        for (int k = 0; k < 3; ++k) check(got[k] == value(left, i, 103 + k), "locked get", i, got[k], value(left, i, 103 + k));
        check(swap_old == 0, "compare-and-swap's old value", i, swap_old, 0);
        MPI_Barrier(MPI_COMM_WORLD);
        counter_expected += left + 1;
        check(memory[kCounter] == counter_expected, "fetch-and-op counter", i, memory[kCounter], counter_expected);
        for (int k = 0; k < 4; ++k)
            check(memory[kPut + 4 + k] == value(left, i, 4 + k), "locked put", i, memory[kPut + 4 + k], value(left, i, 4 + k));

        /* 3. lock_all with request-based operations */
        int rput[2] = {value(rank, i, 50), value(rank, i, 51)}, rget[2] = {-1, -1};
        MPI_Request requests[2];
        MPI_Win_lock_all(0, win);
        MPI_Rput(rput, 2, MPI_INT, right, kRput, 2, MPI_INT, win, &requests[0]);
        MPI_Rget(rget, 2, MPI_INT, left, kGet, 2, MPI_INT, win, &requests[1]);
        MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
        MPI_Win_flush_all(win);
        MPI_Win_unlock_all(win);
        for (int k = 0; k < 2; ++k) check(rget[k] == value(left, i, 100 + k), "rget", i, rget[k], value(left, i, 100 + k));
        MPI_Barrier(MPI_COMM_WORLD);
        for (int k = 0; k < 2; ++k)
            check(memory[kRput + k] == value(left, i, 50 + k), "rput", i, memory[kRput + k], value(left, i, 50 + k));

        /* 4. post / start / complete / wait */
        int token = value(rank, i, 60);
        MPI_Win_post(left_group, 0, win);
        MPI_Win_start(right_group, 0, win);
        MPI_Put(&token, 1, MPI_INT, right, kPscw, 1, MPI_INT, win);
        MPI_Win_complete(win);
        MPI_Win_wait(win);
        check(memory[kPscw] == value(left, i, 60), "post/start put", i, memory[kPscw], value(left, i, 60));
        MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Group_free(&left_group);
    MPI_Group_free(&right_group);
    MPI_Group_free(&world_group);
    MPI_Win_free(&win);
    free(memory);
    double t = MPI_Wtime();
    if (rank == 0) printf("VTIME %.9f\nPASS trace_rma\n", t);
    MPI_Finalize();
    return 0;
}
