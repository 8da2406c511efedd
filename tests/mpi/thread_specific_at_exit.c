/* thread_specific_at_exit: a pthread key that a rank's code created, used by code that runs
 * outside every rank: an exit handler registered with the C library, which runs at the real
 * process's exit. HDF5 does this: the first rank to call it creates its API context key,
 * and its exit handler (H5_term_library, registered by the shared system library with atexit)
 * pushes and pops a context under that key at the process's exit; with the key unusable there
 * it dereferenced a null context (ABINIT, which writes netCDF-4 files, died after its last
 * line). Natively the handler runs on the main thread, which may set and read the key.
 *
 * Each rank creates a key, sets a value, and registers a handler with the C library. The
 * handler's argument is on the heap (state of a library of the system's, shared by the ranks
 * of a process), so xsim leaves it to the C library instead of keeping it with the rank as it
 * does for the rank's own handlers. At exit the handler must be able to set a value and read
 * it back, as a thread that has set none, and then delete the key (TBB's exit deletes the key
 * its first user created: "TBB Warning: failed to destroy task scheduler TLS: Invalid argument"
 * under gmsh in DOLFINx); it prints FAIL otherwise.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "xsim_test.h"

extern void *__dso_handle;
int __cxa_atexit(void (*function)(void *), void *arg, void *dso_handle);

struct state {
    pthread_key_t key;
    int rank;
    long token;
};

static void at_exit(void *arg)
{
    struct state *s = arg;
    int rc = pthread_setspecific(s->key, &s->token);
    void *got = pthread_getspecific(s->key);
    int deleted = pthread_key_delete(s->key);
    if (rc != 0 || got != &s->token || deleted != 0)
        printf("FAIL thread_specific_at_exit: key of rank %d at exit: pthread_setspecific %d, value %s, "
               "pthread_key_delete %d\n",
               s->rank, rc, got == &s->token ? "its own" : got ? "another" : "none", deleted);
    else
        printf("at-exit key ok\n");
    fflush(stdout);
    free(s);
}

int main(int argc, char **argv)
{
    xt_t t;
    struct state *s = malloc(sizeof *s);
    long mine;
    xt_init(&t, &argc, &argv, "thread_specific_at_exit");
    s->rank = t.rank;
    s->token = t.rank;
    XT_CHECK(&t, pthread_key_create(&s->key, NULL) == 0, "pthread_key_create failed");
    mine = 7L * t.rank;
    XT_CHECK(&t, pthread_setspecific(s->key, &mine) == 0, "pthread_setspecific failed");
    XT_CHECK(&t, __cxa_atexit(at_exit, s, &__dso_handle) == 0, "__cxa_atexit failed");
    MPI_Barrier(MPI_COMM_WORLD);
    XT_CHECK(&t, pthread_getspecific(s->key) == &mine, "rank %d: its key holds another value", t.rank);
    return xt_finish(&t, NULL);
}
