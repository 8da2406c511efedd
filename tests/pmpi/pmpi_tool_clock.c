/* A tool that times the C library calls the MPI library makes for MPI-IO (posix_timer_tool.c,
 * as Darshan's POSIX module does) reads the rank's clock: under xsim the write calls that the
 * real library's MPI-IO makes inside MPI_File_write_at happen inside the simulated call, so
 * the tool's clock_gettime gives the rank's virtual time there (within the call's bounds),
 * not the host's (Darshan put them 96 million seconds after the job's virtual start). */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

long posix_timer_report(double* start, double* end);

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int rank, size, failures = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char name[64], block[4096];
    snprintf(name, sizeof name, "pmpi_tool_clock.%d.dat", size);
    memset(block, 'a' + rank % 26, sizeof block);
    MPI_File fh;
    MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_WRONLY | MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL,
                  &fh);
    double start, end;
    posix_timer_report(&start, &end); /* forget what the open wrote */
    for (int round = 0; round < 3; ++round) {
        const double before = now();
        MPI_File_write_at(fh, ((MPI_Offset)round * size + rank) * (MPI_Offset)sizeof block, block, sizeof block,
                          MPI_CHAR, MPI_STATUS_IGNORE);
        const double after = now();
        const long calls = posix_timer_report(&start, &end);
        if (calls < 1) {
            printf("FAIL rank %d: the tool saw no write call inside MPI_File_write_at\n", rank);
            ++failures;
        } else if (!(before <= start && start <= end && end <= after)) {
            printf("FAIL rank %d: the tool timed the write calls of MPI_File_write_at at [%.9f, %.9f], outside the "
                   "call's [%.9f, %.9f]\n",
                   rank, start, end, before, after);
            ++failures;
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_File_close(&fh);
    int all = 0;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && all == 0) printf("PASS pmpi_tool_clock (%d ranks)\n", size);
    MPI_Finalize();
    return all == 0 ? 0 : 1;
}
