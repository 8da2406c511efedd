/* master_worker: rank 0 sends a task (one int) to worker 1 + i % (size - 1), waits for its
 * reply, then the next: EXCHANGES (-n, default 20000) round trips, one at a time. With the
 * workers in another real process every exchange needs two synchronization windows (the
 * task's, the reply's), and the windows hold almost no work: the run measures what a window
 * costs between real processes (link_rate.sh). Checks the sum of the replies; rank 0 prints
 * `master_worker: N ranks, E exchanges, predicted time X s`. Plain MPI. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, n = 20000;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 1; i + 1 < argc; ++i)
        if (!strcmp(argv[i], "-n")) n = atoi(argv[i + 1]);
    if (size < 2 || n < 1) {
        if (rank == 0) fprintf(stderr, "master_worker: needs 2 ranks or more and -n >= 1\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (rank == 0) {
        long long sum = 0, expected = 0;
        for (int i = 0; i < n; ++i) {
            int task = i, reply;
            MPI_Send(&task, 1, MPI_INT, 1 + i % (size - 1), 1, MPI_COMM_WORLD);
            MPI_Recv(&reply, 1, MPI_INT, 1 + i % (size - 1), 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            sum += reply;
            expected += 2LL * i + 1;
        }
        for (int w = 1; w < size; ++w) {
            int stop = -1;
            MPI_Send(&stop, 1, MPI_INT, w, 3, MPI_COMM_WORLD);
        }
        if (sum != expected) {
            fprintf(stderr, "master_worker: sum of replies %lld, expected %lld\n", sum, expected);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        printf("master_worker: %d ranks, %d exchanges, predicted time %.9f s\n", size, n, MPI_Wtime());
    } else {
        for (;;) {
            int task;
            MPI_Status st;
            MPI_Recv(&task, 1, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
            if (st.MPI_TAG == 3) break;
            task = 2 * task + 1;
            MPI_Send(&task, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
        }
    }
    MPI_Finalize();
    return 0;
}
