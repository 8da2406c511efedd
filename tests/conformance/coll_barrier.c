/* MPI_Barrier: nobody leaves before the last rank has entered. One rank at a time
 * (first, middle, last) sleeps 20 ms before entering; every rank's exit time must not
 * precede the sleeper's entry time (CLOCK_MONOTONIC: one host's clock on plain MPI,
 * virtual time under xsim). Also MPI_COMM_SELF and MPI_COMM_NULL (MPI_ERR_COMM). */
#define _POSIX_C_SOURCE 199309L
#include <time.h>

#include "conformance.h"

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char** argv) {
    conf_t t;
    int k, r, rc, cls = 0;
    MPI_Init(&argc, &argv);
    conf_init(&t, "coll_barrier");
    for (k = 0; k < 3; k++) {
        const int sleeper = k == 0 ? 0 : k == 1 ? t.size / 2 : t.size - 1;
        double entered = 0.0, left;
        if (t.rank == sleeper) {
            const struct timespec nap = {0, 20000000L};
            nanosleep(&nap, NULL);
            entered = now();
        }
        CONF_CALL(&t, MPI_Barrier(MPI_COMM_WORLD));
        left = now();
        /* The sleeper tells everyone when it entered (point to point, not a collective). */
        if (t.rank == sleeper) {
            for (r = 0; r < t.size; r++)
                if (r != sleeper) MPI_Send(&entered, 1, MPI_DOUBLE, r, 11, MPI_COMM_WORLD);
        } else {
            MPI_Recv(&entered, 1, MPI_DOUBLE, sleeper, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        CONF_CHECK(&t, left >= entered, "left the barrier %.6f s before rank %d entered it", entered - left, sleeper);
    }
    CONF_CALL(&t, MPI_Barrier(MPI_COMM_SELF));
    rc = MPI_Barrier(MPI_COMM_NULL);
    if (rc != MPI_SUCCESS) MPI_Error_class(rc, &cls);
    CONF_CHECK(&t, cls == MPI_ERR_COMM, "MPI_COMM_NULL: expected MPI_ERR_COMM, got %d", rc);
    return conf_finish(&t);
}
