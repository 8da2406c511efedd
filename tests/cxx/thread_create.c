/* thread_create: simulated rank `creator` (argv[1], default 3) starts a thread with
 * pthread_create after MPI_Init; the thread reads a global its rank wrote (each rank's own
 * value) and sums to 100 from it.
 *   across (argv[2], the default): the thread waits until its rank has passed an
 *     MPI_Barrier, and is joined after it. With several ranks in a real process xsim ends the
 *     run at the barrier, naming the rank (no other rank may run while the thread can see the
 *     rank's globals); with one rank per real process (-xsim-np equal to mpirun's -np) the
 *     thread runs as natively.
 *   joined: the thread is joined before the barrier: passes with any number of ranks per
 *     process, and every rank then checks the global is still its own.
 * Plain MPI passes both. */
#include <pthread.h>

#include "xsim_test.h"

/* Written by each rank before it starts the thread: per rank under xsim (privatized). */
static long g_base;

typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    int go;
    long sum;
} work_t;

static void *sum_to_100(void *arg)
{
    work_t *w = (work_t *)arg;
    long s = 0;
    pthread_mutex_lock(&w->lock);
    while (!w->go) pthread_cond_wait(&w->changed, &w->lock);
    pthread_mutex_unlock(&w->lock);
    for (long i = 1; i <= 100; ++i) s += g_base + i;
    w->sum = s;
    return NULL;
}

static void let_go(work_t *w)
{
    pthread_mutex_lock(&w->lock);
    w->go = 1;
    pthread_cond_signal(&w->changed);
    pthread_mutex_unlock(&w->lock);
}

int main(int argc, char **argv)
{
    xt_t xt, *t = &xt;
    xt_init(t, &argc, &argv, "thread_create");
    const int creator = argc > 1 ? atoi(argv[1]) : 3;
    const int joined = argc > 2 && strcmp(argv[2], "joined") == 0;
    const int mine = t->rank == creator % t->size;
    pthread_t thread;
    work_t w = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0};
    g_base = 1000L * t->rank;
    MPI_Barrier(MPI_COMM_WORLD);
    if (mine) {
        XT_CHECK(t, pthread_create(&thread, NULL, sum_to_100, &w) == 0, "pthread_create failed");
        if (joined) {
            let_go(&w);
            pthread_join(thread, NULL);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (mine && !joined) {
        let_go(&w);
        pthread_join(thread, NULL);
    }
    if (mine) XT_CHECK(t, w.sum == 5050 + 100 * 1000L * t->rank, "the thread computed %ld", w.sum);
    XT_CHECK(t, g_base == 1000L * t->rank, "the rank's global reads %ld", g_base);
    return xt_finish(t, NULL);
}
