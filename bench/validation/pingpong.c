/* Ping-pong between ranks 0 and 1 over sizes from 0 to 1 MiB (-n round trips per size). */
#include "validation.h"

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const long trips = arg_long(argc, argv, "-n", 200);
    char* buf = calloc(1 << 20, 1);
    double start = start_timing();
    for (int bytes = 0; bytes <= (1 << 20); bytes = bytes ? bytes * 4 : 1) {
        for (long i = 0; i < trips; ++i) {
            if (rank == 0) {
                MPI_Send(buf, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
                MPI_Recv(buf, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else if (rank == 1) {
                MPI_Recv(buf, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(buf, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
            }
        }
    }
    report_timing("pingpong", start, buf[0]);
    free(buf);
    MPI_Finalize();
    return 0;
}
