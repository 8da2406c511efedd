/* spin: rank 1 computes for a long time between two MPI calls, every other rank waits
 * in MPI_Barrier. argv[1]: forever (an infinite loop: only -xsim-watchdog ends it) or a
 * number of wall seconds (the loop reads the host clock through the system call, past
 * xsim's virtual-time interposition). Prints nothing the harness matches; after a
 * bounded spin it passes.
 */
#define _GNU_SOURCE
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static double host_seconds(void)
{
    struct timespec t;
    syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
    int rank, size;
    volatile unsigned long counter = 0;

    if (argc < 2) {
        fprintf(stderr, "usage: %s forever|SECONDS\n", argv[0]);
        return 2;
    }
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == (size > 1 ? 1 : 0)) {
        if (strcmp(argv[1], "forever") == 0) {
            for (;;) ++counter;
        } else {
            const double until = host_seconds() + atof(argv[1]);
            while (host_seconds() < until) ++counter;
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) printf("PASS spin\n");
    MPI_Finalize();
    return 0;
}
