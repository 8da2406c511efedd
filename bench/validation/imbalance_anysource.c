/* Imbalanced compute and MPI_ANY_SOURCE: rank r computes (r+1) * -w iterations, then sends to
 * rank 0, which receives from any source in arrival order and answers each; -n rounds. */
#include "validation.h"

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const long rounds = arg_long(argc, argv, "-n", 200), work = arg_long(argc, argv, "-w", 50000);
    double check = 0, x = 0;
    double start = start_timing();
    for (long r = 0; r < rounds; ++r) {
        if (rank == 0) {
            x = busy_work(work);
            for (int k = 1; k < size; ++k) {
                MPI_Status st;
                double got;
                MPI_Recv(&got, 1, MPI_DOUBLE, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &st);
                check += got;
                MPI_Send(&x, 1, MPI_DOUBLE, st.MPI_SOURCE, 1, MPI_COMM_WORLD);
            }
        } else {
            x = busy_work((rank + 1) * work);
            MPI_Send(&x, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
            MPI_Recv(&x, 1, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            check += x;
        }
    }
    report_timing("imbalance_anysource", start, check);
    MPI_Finalize();
    return 0;
}
