/* A known communication pattern for -xsim-commmatrix (issue 11): every rank sends COUNT
 * messages of BYTES bytes to rank+1 (mod size) and receives as many from rank-1, then rank 0
 * broadcasts BYTES bytes. tests/mpi/check_comm_matrix.sh knows the matrix this must give.
 * usage: comm_pattern COUNT BYTES */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int rank = 0, size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc != 3 || atoi(argv[1]) < 0 || atoi(argv[2]) < 1) {
        if (rank == 0) fprintf(stderr, "usage: comm_pattern COUNT BYTES (COUNT >= 0, BYTES >= 1)\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    const int count = atoi(argv[1]), bytes = atoi(argv[2]);
    char* out = malloc((size_t)bytes);
    char* in = malloc((size_t)bytes);
    const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    for (int i = 0; i < count; ++i) {
        MPI_Request request;
        memset(out, (rank + i) & 0x7f, (size_t)bytes);
        MPI_Isend(out, bytes, MPI_BYTE, next, i, MPI_COMM_WORLD, &request);
        MPI_Recv(in, bytes, MPI_BYTE, prev, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Wait(&request, MPI_STATUS_IGNORE);
        if (in[0] != (char)((prev + i) & 0x7f) || in[bytes - 1] != in[0]) {
            fprintf(stderr, "rank %d: message %d from rank %d holds %d\n", rank, i, prev, in[0]);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
    memset(in, rank == 0 ? 42 : 0, (size_t)bytes);
    MPI_Bcast(in, bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
    if (in[0] != 42 || in[bytes - 1] != 42) {
        fprintf(stderr, "rank %d: the broadcast gave %d\n", rank, in[0]);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    free(out);
    free(in);
    if (rank == 0) printf("PASS comm_pattern\n");
    MPI_Finalize();
    return 0;
}
