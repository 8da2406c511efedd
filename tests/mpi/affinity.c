/* affinity: a rank that pins itself to a core (sched_setaffinity, pthread_setaffinity_np, as
 * Graph500's aml does for rank r and core r) gets success; under xsim (XSIM_TEST_VIRTUAL=1)
 * the real process's CPU mask must stay what it was, since that process runs other ranks
 * too (xsim says once that it ignores the pinning). */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include "xsim_test.h"

int main(int argc, char **argv)
{
    xt_t xt, *t = &xt;
    cpu_set_t before, pin, after;
    long cpus;
    int rc;
    xt_init(t, &argc, &argv, "affinity");
    cpus = sysconf(_SC_NPROCESSORS_ONLN);
    XT_CHECK(t, sched_getaffinity(0, sizeof before, &before) == 0, "sched_getaffinity failed");
    CPU_ZERO(&pin);
    CPU_SET((int)(t->rank % (cpus > 0 ? cpus : 1)), &pin);
    rc = sched_setaffinity(0, sizeof pin, &pin);
    XT_CHECK(t, rc == 0, "sched_setaffinity returned %d", rc);
    rc = pthread_setaffinity_np(pthread_self(), sizeof pin, &pin);
    XT_CHECK(t, rc == 0, "pthread_setaffinity_np returned %d", rc);
    MPI_Barrier(MPI_COMM_WORLD); /* every rank has pinned */
    XT_CHECK(t, sched_getaffinity(0, sizeof after, &after) == 0, "sched_getaffinity failed");
    if (xt_env_flag("XSIM_TEST_VIRTUAL"))
        XT_CHECK(t, CPU_EQUAL(&before, &after), "the real process's CPU mask changed (%d CPUs, was %d)",
                 CPU_COUNT(&after), CPU_COUNT(&before));
    return xt_finish(t, NULL);
}
