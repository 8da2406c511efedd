/* master_worker: rank 0 hands out TASKS tasks (argv[1], default 3000) to the other ranks one
 * at a time and waits for each result before the next hand-out to that worker: a dynamic
 * master-worker loop (MPI_ANY_SOURCE), the pattern where every exchange between real
 * processes needs a round of the link (libxsim/runtime/pmpi_link.cpp, link_doorbells.hpp).
 *
 * A worker's result for task k is f(k) = (k * 2654435761) mod 2^32 xor its rank's
 * tag (checked by rank 0 against the sender it came from); a worker sleeps (k * 37) mod 97
 * microseconds before it answers (virtual under xsim), so that results come back out of order.
 * Every FLOOD-th task (argv[2], default 500), the worker spins for WALL_MS (argv[3], default 20)
 * milliseconds of wall time, which under xsim (-xsim-compute none) costs no virtual time but
 * keeps the other real process waiting for a window's end long enough to go to sleep.
 *
 * Rank 0 checks that every task came back once, from the worker it was given to, with the
 * right value; each worker checks it got the tasks rank 0 says it sent (count and sum).
 * Rank 0 prints "ORDER master_worker <hash>": FNV-1a of the order of (task, worker) of the
 * results, which must not depend on the number of real processes (compare_p.sh). */
#define _DEFAULT_SOURCE
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "xsim_test.h"

#define TAG_TASK 1
#define TAG_RESULT 2
#define TAG_STOP 3

static unsigned int result_of(unsigned int task, int worker)
{
    return (unsigned int)(task * 2654435761u) ^ (unsigned int)(worker * 40503u);
}

/* The host's clock through the system call: xsim makes the C library's clocks virtual. */
static void host_now(struct timespec *ts)
{
    syscall(SYS_clock_gettime, CLOCK_MONOTONIC, ts);
}

static void spin_wall_ms(int ms)
{
    struct timespec start, now;
    host_now(&start);
    do {
        host_now(&now);
    } while ((now.tv_sec - start.tv_sec) * 1000.0 + (now.tv_nsec - start.tv_nsec) * 1e-6 < ms);
}

int main(int argc, char **argv)
{
    xt_t xt, *t = &xt;
    xt_init(t, &argc, &argv, "master_worker");
    const int tasks = argc > 1 ? atoi(argv[1]) : 3000;
    const int flood = argc > 2 ? atoi(argv[2]) : 500;
    const int wall_ms = argc > 3 ? atoi(argv[3]) : 20;
    if (t->size < 2) xt_fatal(t, "needs at least 2 ranks");
    if (tasks < 1 || flood < 1 || wall_ms < 0) xt_fatal(t, "bad arguments");
    if (t->rank == 0) {
        int *given = calloc((size_t)tasks, sizeof *given); /* worker of each task, 0 = not yet */
        int *done = calloc((size_t)tasks, sizeof *done);
        long long *sent_sum = calloc((size_t)t->size, sizeof *sent_sum);
        int *sent_count = calloc((size_t)t->size, sizeof *sent_count);
        if (!given || !done || !sent_sum || !sent_count) xt_fatal(t, "out of memory");
        unsigned long long hash = XT_FNV_OFFSET;
        int next = 0, outstanding = 0;
        for (int w = 1; w < t->size && next < tasks; ++w, ++next, ++outstanding) {
            given[next] = w, sent_sum[w] += next, ++sent_count[w];
            MPI_Send(&next, 1, MPI_INT, w, TAG_TASK, MPI_COMM_WORLD);
        }
        while (outstanding > 0) {
            unsigned int reply[2];
            MPI_Status st;
            MPI_Recv(reply, 2, MPI_UNSIGNED, MPI_ANY_SOURCE, TAG_RESULT, MPI_COMM_WORLD, &st);
            --outstanding;
            const int w = st.MPI_SOURCE;
            const unsigned int task = reply[0];
            if (task >= (unsigned int)tasks) {
                xt_fail(t, "result for task %u from rank %d: no such task", task, w);
                continue;
            }
            XT_CHECK(t, given[task] == w, "task %u came back from rank %d, given to rank %d", task, w, given[task]);
            XT_CHECK(t, !done[task], "task %u came back twice", task);
            XT_CHECK(t, reply[1] == result_of(task, w), "task %u from rank %d: result %u, expected %u", task, w,
                     reply[1], result_of(task, w));
            done[task] = 1;
            hash = xt_fnv_int(hash, task);
            hash = xt_fnv_int(hash, (unsigned int)w);
            if (next < tasks) {
                given[next] = w, sent_sum[w] += next, ++sent_count[w];
                MPI_Send(&next, 1, MPI_INT, w, TAG_TASK, MPI_COMM_WORLD);
                ++next, ++outstanding;
            }
        }
        for (int k = 0; k < tasks; ++k) XT_CHECK(t, done[k], "task %d never came back", k);
        for (int w = 1; w < t->size; ++w) {
            long long tally[2] = {sent_count[w], sent_sum[w]};
            MPI_Send(tally, 2, MPI_LONG_LONG, w, TAG_STOP, MPI_COMM_WORLD);
        }
        printf("ORDER master_worker 0x%016llx\n", hash);
        free(given), free(done), free(sent_sum), free(sent_count);
    } else {
        long long count = 0, sum = 0;
        for (;;) {
            MPI_Status st;
            MPI_Probe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
            if (st.MPI_TAG == TAG_STOP) {
                long long tally[2];
                MPI_Recv(tally, 2, MPI_LONG_LONG, 0, TAG_STOP, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                XT_CHECK(t, tally[0] == count && tally[1] == sum,
                         "rank 0 sent %lld tasks (sum %lld), this rank got %lld (sum %lld)", tally[0], tally[1],
                         count, sum);
                break;
            }
            int task;
            MPI_Recv(&task, 1, MPI_INT, 0, TAG_TASK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            ++count, sum += task;
            usleep((useconds_t)((task * 37) % 97));
            if (task % flood == flood - 1) spin_wall_ms(wall_ms);
            unsigned int reply[2] = {(unsigned int)task, result_of((unsigned int)task, t->rank)};
            MPI_Send(reply, 2, MPI_UNSIGNED, 0, TAG_RESULT, MPI_COMM_WORLD);
        }
    }
    return xt_finish(t, NULL);
}
