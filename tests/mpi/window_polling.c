/* window_polling: a rank waits for other ranks' one-sided writes by polling its own window,
 * as OpenCoarrays' EVENT WAIT does: MPI_Win_lock_all(MPI_MODE_NOCHECK), then MPI_Win_sync
 * and a load in a loop (with usleep between tries, or without), never an MPI call that
 * waits. Every other rank adds 1 to rank 0's counter under an exclusive lock (the
 * EVENT POST); rank 0 must see all of them. xsim runs ranks as fibers: unless MPI_Win_sync
 * lets earlier events be processed, the poller spins ahead in virtual time (usleep) or for
 * ever (no usleep) while the writers never run; each MPI_Win_sync costs processor.poll_cost.
 *   window_polling [spin]   spin: poll without usleep
 * Rank 0 prints "INFO polls <n>" and the harness's PASS line. */
#define _DEFAULT_SOURCE
#include <unistd.h>

#include "xsim_test.h"

int main(int argc, char** argv) {
    xt_t t;
    int* counter = NULL;
    MPI_Win win;
    long polls = 0;
    const int spin = argc > 1 && strcmp(argv[1], "spin") == 0;
    xt_init(&t, &argc, &argv, "window_polling");
    MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &counter, &win);
    *counter = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    if (t.rank == 0) {
        int* base = NULL;
        int flag = 0;
        MPI_Win_get_attr(win, MPI_WIN_BASE, &base, &flag);
        XT_CHECK(&t, flag && base == counter, "MPI_WIN_BASE is not the allocated memory");
        MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
        for (;;) {
            MPI_Win_sync(win);
            if (*counter >= t.size - 1 || polls >= XT_POLL_LIMIT) break;
            ++polls;
            if (!spin) usleep(10);
        }
        MPI_Win_unlock_all(win);
        XT_CHECK(&t, *counter == t.size - 1, "counter %d after %ld polls, expected %d", *counter, polls, t.size - 1);
        printf("INFO polls %ld\n", polls);
    } else {
        const int one = 1;
        MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
        MPI_Accumulate(&one, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, win);
        MPI_Win_unlock(0, win);
    }
    MPI_Win_free(&win);
    return xt_finish(&t, NULL);
}
