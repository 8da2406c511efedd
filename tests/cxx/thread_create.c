/* thread_create: simulated rank argv[1] (default 3) starts a thread with pthread_create
 * after MPI_Init, which runs while the rank communicates (a barrier) and is joined after it.
 * With several ranks in a real process xsim must end the run at once with a message naming
 * that rank; with one rank per real process (-xsim-np equal to mpirun's -np) the thread runs
 * as natively and computes its sum. Plain MPI runs the thread and passes. */
#include <pthread.h>

#include "xsim_test.h"

static void *sum_to_100(void *out)
{
    long s = 0;
    for (long i = 1; i <= 100; ++i) s += i;
    *(long *)out = s;
    return NULL;
}

int main(int argc, char **argv)
{
    xt_t xt, *t = &xt;
    xt_init(t, &argc, &argv, "thread_create");
    const int creator = argc > 1 ? atoi(argv[1]) : 3;
    const int mine = t->rank == creator % t->size;
    pthread_t thread;
    long sum = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    if (mine) XT_CHECK(t, pthread_create(&thread, NULL, sum_to_100, &sum) == 0, "pthread_create failed");
    MPI_Barrier(MPI_COMM_WORLD);
    if (mine) {
        pthread_join(thread, NULL);
        XT_CHECK(t, sum == 5050, "the thread computed %ld", sum);
    }
    return xt_finish(t, NULL);
}
