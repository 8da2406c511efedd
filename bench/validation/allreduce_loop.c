/* An allreduce loop: -n allreduces of 8 doubles with -w iterations of compute between. */
#include "validation.h"

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const long rounds = arg_long(argc, argv, "-n", 3000), work = arg_long(argc, argv, "-w", 20000);
    double v[8], sum[8], check = 0;
    double start = start_timing();
    for (long r = 0; r < rounds; ++r) {
        for (int i = 0; i < 8; ++i) v[i] = rank + r + i + 1e-30 * busy_work(work);
        MPI_Allreduce(v, sum, 8, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        check += sum[r % 8];
    }
    report_timing("allreduce_loop", start, check);
    MPI_Finalize();
    return 0;
}
