/* thread_specific: pthread keys created by ranks' code are per rank and not limited by the
 * process's 1,024 (PTHREAD_KEYS_MAX). Every rank creates KEYS keys (more than a process has
 * once there are a few ranks per process), sets a value per key, and after a barrier (every
 * other rank of the process has done the same) reads its own values back; a deleted key
 * answers EINVAL to pthread_setspecific.
 */
#include <errno.h>
#include <pthread.h>

#include "xsim_test.h"

#define KEYS 300

int main(int argc, char **argv)
{
    xt_t t;
    pthread_key_t keys[KEYS];
    long mine[KEYS];
    int i, bad = 0;
    xt_init(&t, &argc, &argv, "thread_specific");
    for (i = 0; i < KEYS; ++i) {
        XT_CHECK(&t, pthread_key_create(&keys[i], NULL) == 0, "pthread_key_create %d failed", i);
        XT_CHECK(&t, pthread_getspecific(keys[i]) == NULL, "a new key has a value");
        mine[i] = 1000L * t.rank + i;
        pthread_setspecific(keys[i], &mine[i]);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    for (i = 0; i < KEYS; ++i) bad += pthread_getspecific(keys[i]) != &mine[i];
    XT_CHECK(&t, bad == 0, "rank %d: %d keys hold another rank's value", t.rank, bad);
    XT_CHECK(&t, pthread_key_delete(keys[0]) == 0, "pthread_key_delete failed");
    XT_CHECK(&t, pthread_setspecific(keys[0], &mine[0]) == EINVAL, "a deleted key took a value");
    return xt_finish(&t, NULL);
}
