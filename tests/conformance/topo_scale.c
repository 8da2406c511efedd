/* Process topologies at scale and without payload: a 3-D periodic grid over all ranks
 * (MPI_Dims_create + Cart_create), its rows (Cart_sub), a neighbor all-to-all on the grid,
 * and a distributed graph built with the general MPI_Dist_graph_create (rank r names the
 * edge r+1 -> r+2, so every edge is named by a third rank). Checks only what does not
 * depend on payload (sizes, ranks, coordinates, shifts, neighbor lists), then prints VTIME,
 * which must not depend on payload or on the number of real processes.
 * usage: topo_scale [bytes [nobuf]]  (bytes per neighbor block, default 8; nobuf: NULL buffers) */
#include "conformance.h"

int main(int argc, char** argv) {
    conf_t t;
    int dims[3] = {0, 0, 0}, periods[3] = {1, 1, 1}, coords[3], remain[3] = {0, 0, 1};
    int rank, size, bytes, i, source, dest, src, dst, w, indeg, outdeg, weighted, me, sub_size;
    char *sendbuf = NULL, *recvbuf = NULL;
    MPI_Comm cart, row, dist;
    MPI_Init(&argc, &argv);
    conf_init(&t, "topo_scale");
    size = t.size;
    bytes = argc > 1 ? atoi(argv[1]) : 8;
    if (!(argc > 2 && strcmp(argv[2], "nobuf") == 0)) {
        sendbuf = conf_alloc((size_t)bytes * 6);
        recvbuf = conf_alloc((size_t)bytes * 6);
        memset(sendbuf, 1, (size_t)bytes * 6);
    }

    CONF_CALL(&t, MPI_Dims_create(size, 3, dims));
    CONF_CALL(&t, MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 0, &cart));
    CONF_CALL(&t, MPI_Comm_rank(cart, &rank));
    CONF_CALL(&t, MPI_Cart_coords(cart, rank, 3, coords));
    CONF_CHECK(&t, rank == t.rank && coords[2] == rank % dims[2] && coords[0] == rank / (dims[1] * dims[2]),
               "rank %d coords (%d,%d,%d)", rank, coords[0], coords[1], coords[2]);
    for (i = 0; i < 3; i++) {
        int stride = i == 0 ? dims[1] * dims[2] : i == 1 ? dims[2] : 1;
        int up = (coords[i] + 1) % dims[i], down = (coords[i] - 1 + dims[i]) % dims[i];
        CONF_CALL(&t, MPI_Cart_shift(cart, i, 1, &source, &dest));
        CONF_CHECK(&t, dest == rank + (up - coords[i]) * stride && source == rank + (down - coords[i]) * stride,
                   "shift along %d: %d %d", i, source, dest);
    }
    CONF_CALL(&t, MPI_Neighbor_alltoall(sendbuf, bytes, MPI_BYTE, recvbuf, bytes, MPI_BYTE, cart));
    CONF_CALL(&t, MPI_Cart_sub(cart, remain, &row));
    CONF_CALL(&t, MPI_Comm_rank(row, &me));
    CONF_CALL(&t, MPI_Comm_size(row, &sub_size));
    CONF_CHECK(&t, me == coords[2] && sub_size == dims[2], "row: rank %d of %d", me, sub_size);
    CONF_CALL(&t, MPI_Neighbor_allgather(sendbuf, bytes, MPI_BYTE, recvbuf, bytes, MPI_BYTE, row));
    MPI_Comm_free(&row);
    MPI_Comm_free(&cart);

    /* Rank r names r+1 -> r+2 (weight r): r has the out-edge r -> r+1 and the in-edge r-1 -> r. */
    src = (t.rank + 1) % size;
    dst = (t.rank + 2) % size;
    w = t.rank;
    i = 1;
    CONF_CALL(&t, MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &src, &i, &dst, &w, MPI_INFO_NULL, 0, &dist));
    CONF_CALL(&t, MPI_Dist_graph_neighbors_count(dist, &indeg, &outdeg, &weighted));
    CONF_CHECK(&t, indeg == 1 && outdeg == 1 && weighted, "degrees %d %d %d", indeg, outdeg, weighted);
    if (indeg == 1 && outdeg == 1) {
        int in_w = -1, out_w = -1;
        CONF_CALL(&t, MPI_Dist_graph_neighbors(dist, 1, &source, &in_w, 1, &dest, &out_w));
        CONF_CHECK(&t, source == (t.rank - 1 + size) % size && dest == (t.rank + 1) % size,
                   "dist graph neighbors %d %d", source, dest);
        CONF_CHECK(&t, in_w == (t.rank - 2 + 2 * size) % size && out_w == (t.rank - 1 + size) % size,
                   "dist graph weights %d %d", in_w, out_w);
        CONF_CALL(&t, MPI_Neighbor_alltoall(sendbuf, bytes, MPI_BYTE, recvbuf, bytes, MPI_BYTE, dist));
    }
    MPI_Comm_free(&dist);
    free(sendbuf);
    free(recvbuf);
    return conf_finish(&t);
}
