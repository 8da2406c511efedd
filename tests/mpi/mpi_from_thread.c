/* An MPI call from a thread that is not the rank's: xsim must say so (the call comes from a
 * thread other than the simulation thread), not blame a stack overflow on the running rank
 * nor run the call beside the simulation. The thread is started before the
 * simulation by a shared library's constructor (mpi_from_thread_helper.c), and makes its
 * call while rank 0 waits for it. Expected to fail with that message. */
#include <mpi.h>
#include <stdio.h>

/* mpi_from_thread_helper.c */
void mpi_from_thread_go(void);
int mpi_from_thread_done(void);

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        mpi_from_thread_go();
        while (!mpi_from_thread_done()) {
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) printf("PASS mpi_from_thread\n");  /* not reached: the call above stops the run */
    MPI_Finalize();
    return 0;
}
