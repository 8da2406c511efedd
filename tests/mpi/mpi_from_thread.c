/* An MPI call from a thread that is not the rank's: xsim must say so (the call comes from a
 * thread other than the simulation thread), not blame a stack overflow on the running rank
 * nor run the call beside the simulation. The thread is started by a constructor, before the
 * simulation (pthread_create from a rank is refused on its own, tests/cxx), and makes its
 * call while rank 0 waits for it. Expected to fail with that message. */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <mpi.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

static atomic_int go = 0, done = 0;

static void* helper(void* unused) {
    (void)unused;
    const struct timespec pause = {0, 1000000};
    while (!atomic_load(&go)) nanosleep(&pause, NULL);
    int rank = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    printf("INFO the helper thread's MPI_Comm_rank returned (rank %d)\n", rank);
    atomic_store(&done, 1);
    return NULL;
}

__attribute__((constructor)) static void start_helper(void) {
    pthread_t t;
    if (pthread_create(&t, NULL, helper, NULL) == 0) pthread_detach(t);
}

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        atomic_store(&go, 1);
        while (!atomic_load(&done)) {
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) printf("PASS mpi_from_thread\n");  /* not reached: the call above stops the run */
    MPI_Finalize();
    return 0;
}
