/* master_worker: a task farm skeleton. Rank 0 hands out tasks; ranks 1..N-1 work.
 *
 * Each worker sends a request (its first message, then the result of its last task) to
 * rank 0. The master receives with MPI_ANY_SOURCE / MPI_ANY_TAG, spends a little time on
 * each message, and answers the sender (status.MPI_SOURCE) with the next task, or with a
 * stop once all tasks are handed out. The task number travels in the tag (tag = 1 + task),
 * so workers know their task with -xsim-payload off too, when message data do not move.
 * Task t costs a task-dependent time between -min and -max seconds (a hash of t), so
 * workers finish at different times and the master serves them in arrival order (xsim:
 * earliest virtual arrival first, ties to the lowest rank).
 * Options: -k tasks per worker (2), -min / -max task seconds (1e-4 / 1e-3),
 *   -m master seconds per message (1e-6), -b bytes of a task and of a result (64).
 * With one rank the master does all tasks itself. */
#include "skeleton.h"

#define TAG_STOP 0
#define TAG_REQUEST 1

int main(int argc, char **argv)
{
    int rank, size, payload;
    char details[160];
    double start;
    MPI_Status status;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int per_worker = skel_opt_int(argc, argv, "-k", 2);
    const double min_s = skel_opt_double(argc, argv, "-min", 1e-4);
    const double max_s = skel_opt_double(argc, argv, "-max", 1e-3);
    const double master_s = skel_opt_double(argc, argv, "-m", 1e-6);
    const int bytes = skel_opt_int(argc, argv, "-b", 64);
    const long long workers = size > 1 ? size - 1 : 1;
    const long long tasks = workers * per_worker;
    if (per_worker < 0 || min_s < 0 || max_s < min_s || bytes < 0 || tasks > 0x7ffffffeLL) {
        if (rank == 0) fprintf(stderr, "master_worker: bad options (-k >= 0, 0 <= -min <= -max, -b >= 0)\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }

    payload = skel_payload_on(MPI_COMM_WORLD);
    char *task = skel_alloc((size_t)bytes, payload), *result = skel_alloc((size_t)bytes, payload);

    start = skel_start(MPI_COMM_WORLD);
    if (size == 1) {
        long long t;
        for (t = 0; t < tasks; ++t) skel_compute(min_s + (max_s - min_s) * skel_hash01((unsigned long long)t));
    } else if (rank == 0) {
        long long next = 0;
        int stopped = 0;
        while (stopped < size - 1) {
            MPI_Recv(result, bytes, MPI_CHAR, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
            skel_compute(master_s);
            if (next < tasks) {
                MPI_Send(task, bytes, MPI_CHAR, status.MPI_SOURCE, (int)(1 + next), MPI_COMM_WORLD);
                ++next;
            } else {
                MPI_Send(task, 0, MPI_CHAR, status.MPI_SOURCE, TAG_STOP, MPI_COMM_WORLD);
                ++stopped;
            }
        }
    } else {
        MPI_Send(result, 0, MPI_CHAR, 0, TAG_REQUEST, MPI_COMM_WORLD);
        for (;;) {
            MPI_Recv(task, bytes, MPI_CHAR, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
            if (status.MPI_TAG == TAG_STOP) break;
            skel_compute(min_s + (max_s - min_s) * skel_hash01((unsigned long long)(status.MPI_TAG - 1)));
            MPI_Send(result, bytes, MPI_CHAR, 0, TAG_REQUEST, MPI_COMM_WORLD);
        }
    }
    snprintf(details, sizeof details, "%lld tasks of %g..%g s on %lld workers", tasks, min_s, max_s, workers);
    skel_finish(MPI_COMM_WORLD, "master_worker", start, details);
    free(task);
    free(result);
    MPI_Finalize();
    return 0;
}
