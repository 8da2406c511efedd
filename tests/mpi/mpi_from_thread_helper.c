/* The helper thread of mpi_from_thread.c, in a shared library: its constructor starts the
 * thread before the simulation (the constructors of shared libraries run once per process,
 * before any rank; the program's own run in each rank, where pthread_create is refused on its
 * own, tests/cxx). The thread waits for mpi_from_thread_go(), then calls MPI_Comm_rank. */
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

void mpi_from_thread_go(void) { atomic_store(&go, 1); }
int mpi_from_thread_done(void) { return atomic_load(&done); }
