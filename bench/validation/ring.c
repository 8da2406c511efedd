/* A ring: each rank sends 4 KiB to its right neighbour and receives from its left, -n times,
 * with -w iterations of compute between. */
#include "validation.h"

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const long rounds = arg_long(argc, argv, "-n", 2000), work = arg_long(argc, argv, "-w", 20000);
    double out[512], in[512], check = 0;
    for (int i = 0; i < 512; ++i) out[i] = rank + i;
    double start = start_timing();
    for (long r = 0; r < rounds; ++r) {
        MPI_Sendrecv(out, 512, MPI_DOUBLE, (rank + 1) % size, 0, in, 512, MPI_DOUBLE, (rank + size - 1) % size, 0,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        check += in[r % 512] + 1e-30 * busy_work(work);
    }
    report_timing("ring", start, check);
    MPI_Finalize();
    return 0;
}
