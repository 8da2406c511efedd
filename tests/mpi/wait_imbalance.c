/* Known-answer wait states (issue 11): ranks that reach a synchronisation point at known,
 * different virtual times. Run with -xsim-compute none so only xsim_compute moves clocks.
 *   allreduce T   rank i computes i*T seconds, then MPI_Allreduce: rank i waits (N-1-i)*T
 *                 for the last rank (plus a few message latencies).
 *   late_sender T odd ranks compute T seconds before sending to rank-1, which posted its
 *                 MPI_Recv at once: each even rank waits T (plus one latency).
 *   late_root T   rank 0 computes T seconds, then MPI_Bcast from it: every other rank waits
 *                 T for the root (late root).
 *   late_receiver T  even ranks compute T seconds before MPI_Recv from rank+1, which sent
 *                 at once with MPI_Ssend: each odd rank waits T for its receiver.
 *   reduce T      rank i computes i*T seconds, then MPI_Reduce to rank 0: the root waits
 *                 (N-1)*T for the last rank (N x 1, early reduce). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xsim.h"

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int rank = 0, size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc != 3) {
        if (rank == 0) fprintf(stderr, "usage: wait_imbalance allreduce|late_sender|late_root|late_receiver|reduce SECONDS\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    const double t = atof(argv[2]);
    if (strcmp(argv[1], "allreduce") == 0) {
        xsim_compute(rank * t);
        int one = 1, sum = 0;
        MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        if (sum != size) {
            fprintf(stderr, "rank %d: allreduce gave %d, expected %d\n", rank, sum, size);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    } else if (strcmp(argv[1], "late_sender") == 0) {
        int value = rank;
        if (rank % 2 == 1) {
            xsim_compute(t);
            MPI_Send(&value, 1, MPI_INT, rank - 1, 0, MPI_COMM_WORLD);
        } else if (rank + 1 < size) {
            MPI_Recv(&value, 1, MPI_INT, rank + 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (value != rank + 1) {
                fprintf(stderr, "rank %d: received %d, expected %d\n", rank, value, rank + 1);
                MPI_Abort(MPI_COMM_WORLD, 1);
            }
        }
    } else if (strcmp(argv[1], "late_root") == 0) {
        int value = rank == 0 ? 42 : 0;
        if (rank == 0) xsim_compute(t);
        MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD);
        if (value != 42) {
            fprintf(stderr, "rank %d: bcast gave %d, expected 42\n", rank, value);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    } else if (strcmp(argv[1], "late_receiver") == 0) {
        int value = rank;
        if (rank % 2 == 1) {
            MPI_Ssend(&value, 1, MPI_INT, rank - 1, 0, MPI_COMM_WORLD);
        } else if (rank + 1 < size) {
            xsim_compute(t);
            MPI_Recv(&value, 1, MPI_INT, rank + 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (value != rank + 1) {
                fprintf(stderr, "rank %d: received %d, expected %d\n", rank, value, rank + 1);
                MPI_Abort(MPI_COMM_WORLD, 1);
            }
        }
    } else if (strcmp(argv[1], "reduce") == 0) {
        xsim_compute(rank * t);
        int one = 1, sum = 0;
        MPI_Reduce(&one, &sum, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
        if (rank == 0 && sum != size) {
            fprintf(stderr, "rank 0: reduce gave %d, expected %d\n", sum, size);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    } else {
        if (rank == 0) fprintf(stderr, "wait_imbalance: unknown case '%s'\n", argv[1]);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (rank == 0) printf("PASS wait_imbalance\n");
    MPI_Finalize();
    return 0;
}
