/* Bad input that must stop a run with one clear line, never a crash, a hang or a wrong
 * answer (tests/mpi/bad_input.sh runs it). argv[1] selects the case:
 *   sum               MPI_Allreduce of the ranks, checked: the control case (PASS)
 *   compute_twice     xsim_compute(5e6) twice: past int64 picoseconds, used to wrap negative
 *   compute_negative  xsim_compute(-1): used to be ignored
 *   compute_nan       xsim_compute(NaN): used to be ignored
 *   big_message       rank 0 sends 10 MB to rank 1 (run with a 1 B/s bandwidth: 1e7 s)
 *   sleep_huge        sleep(4e9): 4e21 ps, used to wrap
 *   big_isends        rank 0 starts three 10 MB sends to rank 1 at once (1 B/s: each one
 *                     alone passes the time limit; queued on the NIC they must not wrap) */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xsim.h"

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int rank = 0, size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char* mode = argc > 1 ? argv[1] : "sum";
    int failed = 0;
    if (strcmp(mode, "sum") == 0) {
        long long mine = rank, sum = 0;
        MPI_Allreduce(&mine, &sum, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
        if (sum != (long long)size * (size - 1) / 2) {
            printf("FAIL bad_input: rank %d: sum of ranks %lld, expected %lld\n", rank, sum,
                   (long long)size * (size - 1) / 2);
            failed = 1;
        }
    } else if (strcmp(mode, "compute_twice") == 0) {
        xsim_compute(5e6);
        xsim_compute(5e6);
        if (MPI_Wtime() < 1e7) {
            printf("FAIL bad_input: rank %d: MPI_Wtime %g after 1e7 s of compute\n", rank, MPI_Wtime());
            failed = 1;
        }
    } else if (strcmp(mode, "compute_negative") == 0) {
        xsim_compute(-1.0);
        printf("FAIL bad_input: rank %d: xsim_compute(-1) returned\n", rank);
        failed = 1;
    } else if (strcmp(mode, "compute_nan") == 0) {
        xsim_compute(nan(""));
        printf("FAIL bad_input: rank %d: xsim_compute(NaN) returned\n", rank);
        failed = 1;
    } else if (strcmp(mode, "big_message") == 0) {
        const int count = 10 * 1000 * 1000;
        char* buf = calloc((size_t)count, 1);
        if (rank == 0) MPI_Send(buf, count, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
        if (rank == 1) {
            MPI_Recv(buf, count, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (MPI_Wtime() < 1e7) { /* 10 MB at 1 B/s */
                printf("FAIL bad_input: rank 1: 10 MB at 1 B/s arrived at %g s\n", MPI_Wtime());
                failed = 1;
            }
        }
        free(buf);
    } else if (strcmp(mode, "big_isends") == 0) {
        const int count = 10 * 1000 * 1000;
        char* buf = calloc((size_t)count * 3, 1);
        MPI_Request req[3];
        for (int i = 0; i < 3; ++i) {
            if (rank == 0) MPI_Isend(buf + (size_t)i * count, count, MPI_CHAR, 1, i, MPI_COMM_WORLD, &req[i]);
            else if (rank == 1) MPI_Irecv(buf + (size_t)i * count, count, MPI_CHAR, 0, i, MPI_COMM_WORLD, &req[i]);
            else req[i] = MPI_REQUEST_NULL;
        }
        MPI_Waitall(3, req, MPI_STATUSES_IGNORE);
        if ((rank == 0 || rank == 1) && MPI_Wtime() < 3e7) {
            printf("FAIL bad_input: rank %d: three 10 MB messages at 1 B/s done at %g s\n", rank, MPI_Wtime());
            failed = 1;
        }
        free(buf);
    } else if (strcmp(mode, "sleep_huge") == 0) {
        sleep(4000000000u);
        if (MPI_Wtime() < 4e9) {
            printf("FAIL bad_input: rank %d: MPI_Wtime %g after sleep(4e9)\n", rank, MPI_Wtime());
            failed = 1;
        }
    } else {
        printf("FAIL bad_input: unknown case '%s'\n", mode);
        failed = 1;
    }
    int any = 0;
    MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0 && !any) printf("PASS bad_input %s\n", mode);
    MPI_Finalize();
    return any;
}
