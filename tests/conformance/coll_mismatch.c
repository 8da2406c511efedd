/* Erroneous programs that xsim must report instead of hanging or corrupting memory
 * (run under xsim only; plain MPI may hang). argv[1] picks the mistake:
 *   kind    rank 0 calls MPI_Allreduce while the others call MPI_Bcast
 *   root    rank 0 passes root 0 to MPI_Bcast, the others root 1; a barrier follows
 *   shorter rank 1 expects more data in MPI_Bcast than the root sends
 *   longer  rank 1 expects less data in MPI_Bcast than the root sends (truncation)
 *   missing rank 0 skips an MPI_Barrier the others call (deadlock)
 *   split   rank 0 calls MPI_Comm_split while the others call MPI_Barrier (reported
 *           as a mismatch or a deadlock naming both calls)
 *   nbkind  rank 0 calls MPI_Iallreduce while the others call MPI_Ibcast (then MPI_Wait)
 *   nbroot  MPI_Ibcast with root 0 on rank 0, root 1 on the others; a barrier follows
 *   nbmixed rank 0 calls MPI_Bcast, the others MPI_Ibcast: they never match (MPI-3.1 5.12)
 *   nbneighbor on a ring, rank 0 calls MPI_Neighbor_alltoall, the others
 *           MPI_Ineighbor_alltoall: they never match
 *   nbmissing rank 0 waits in MPI_Recv for a message nobody sends instead of joining the
 *           MPI_Ibarrier the others start and wait for (deadlock)
 * Expected: a non-zero exit with xsim's explanation on stderr. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char** argv) {
    int rank, size, buf[64], out[64];
    const char* mode = argc > 1 ? argv[1] : "kind";
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    memset(buf, 0, sizeof buf);
    if (strcmp(mode, "kind") == 0) {
        if (rank == 0) MPI_Allreduce(buf, out, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        else MPI_Bcast(buf, 4, MPI_INT, 0, MPI_COMM_WORLD);
    } else if (strcmp(mode, "root") == 0) {
        MPI_Bcast(buf, 4, MPI_INT, rank == 0 ? 0 : 1, MPI_COMM_WORLD);
    } else if (strcmp(mode, "shorter") == 0) {
        MPI_Bcast(buf, rank == 1 ? 8 : 4, MPI_INT, 0, MPI_COMM_WORLD);
    } else if (strcmp(mode, "longer") == 0) {
        MPI_Bcast(buf, rank == 1 ? 2 : 4, MPI_INT, 0, MPI_COMM_WORLD);
    } else if (strcmp(mode, "agcount") == 0) {
        /* rank 1 contributes and expects 2 ints per block, the others 1 */
        const int n = rank == 1 ? 2 : 1;
        MPI_Allgather(buf, n, MPI_INT, out, n, MPI_INT, MPI_COMM_WORLD);
    } else if (strcmp(mode, "split") == 0) {
        MPI_Comm piece;
        if (rank == 0) MPI_Comm_split(MPI_COMM_WORLD, 0, 0, &piece);
        else MPI_Barrier(MPI_COMM_WORLD);
    } else if (strcmp(mode, "missing") == 0) {
        if (rank != 0) MPI_Barrier(MPI_COMM_WORLD);
    } else if (strcmp(mode, "nbkind") == 0) {
        MPI_Request r;
        if (rank == 0) MPI_Iallreduce(buf, out, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r);
        else MPI_Ibcast(buf, 4, MPI_INT, 0, MPI_COMM_WORLD, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    } else if (strcmp(mode, "nbroot") == 0) {
        MPI_Request r;
        MPI_Ibcast(buf, 4, MPI_INT, rank == 0 ? 0 : 1, MPI_COMM_WORLD, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    } else if (strcmp(mode, "nbmixed") == 0) {
        MPI_Request r;
        if (rank == 0) {
            MPI_Bcast(buf, 4, MPI_INT, 0, MPI_COMM_WORLD);
        } else {
            MPI_Ibcast(buf, 4, MPI_INT, 0, MPI_COMM_WORLD, &r);
            MPI_Wait(&r, MPI_STATUS_IGNORE);
        }
    } else if (strcmp(mode, "nbneighbor") == 0) {
        MPI_Request r;
        MPI_Comm ring;
        int periods[1] = {1};
        MPI_Cart_create(MPI_COMM_WORLD, 1, &size, periods, 0, &ring);
        if (rank == 0) {
            MPI_Neighbor_alltoall(buf, 4, MPI_INT, out, 4, MPI_INT, ring);
        } else {
            MPI_Ineighbor_alltoall(buf, 4, MPI_INT, out, 4, MPI_INT, ring, &r);
            MPI_Wait(&r, MPI_STATUS_IGNORE);
        }
    } else if (strcmp(mode, "nbmissing") == 0) {
        MPI_Request r;
        if (rank != 0) {
            MPI_Ibarrier(MPI_COMM_WORLD, &r);
            MPI_Wait(&r, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(out, 1, MPI_INT, 1, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) printf("NO ERROR DETECTED (%s, %d ranks)\n", mode, size);
    MPI_Finalize();
    return 0;
}
