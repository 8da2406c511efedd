/* A collective given one buffer as both its send and its receive buffer (not MPI_IN_PLACE),
 * or as its send buffer the rank's own block of the receive buffer, is MPI_ERR_BUFFER (MPI-4.0 section 2.5.1, no aliasing of arguments), as MPICH reports it
 * (errors/coll/noalias, noalias3): under xsim the call used to compute over data it was
 * overwriting, and a nonblocking one could write into the buffer after the program freed
 * it. Every rank passes aliased buffers to the calls on MPI_COMM_WORLD (so every rank
 * returns the error and none waits for the others); the rooted calls run on MPI_COMM_SELF,
 * where the root is alone. MPI_IN_PLACE, MPI_BOTTOM for both, and buffers with no data
 * stay accepted, and so does one element aliased in a reduction, as Open MPI accepts it
 * (programs written for it pass &x twice): the result must be right. */
#include "conformance.h"

#define EXPECT_ALIAS(t, call)                                                                               \
    do {                                                                                                     \
        int cls_ = conf_error_class(call);                                                                   \
        CONF_CHECK((t), cls_ == MPI_ERR_BUFFER, "%s: error class %d, expected MPI_ERR_BUFFER", #call, cls_); \
    } while (0)

int main(int argc, char** argv) {
    conf_t t;
    int *buf, *counts, *displs, i;
    MPI_Datatype* types;
    MPI_Request req;
    MPI_Comm world = MPI_COMM_WORLD, self = MPI_COMM_SELF;
    MPI_Init(&argc, &argv);
    conf_init(&t, "coll_aliasing");
    MPI_Comm_set_errhandler(self, MPI_ERRORS_RETURN);
    buf = calloc((size_t)t.size * 2, sizeof(int));
    counts = malloc((size_t)t.size * sizeof(int));
    displs = malloc((size_t)t.size * sizeof(int));
    types = malloc((size_t)t.size * sizeof(MPI_Datatype));
    for (i = 0; i < t.size; i++) {
        counts[i] = 1;
        displs[i] = i;
        types[i] = MPI_INT;
    }

    EXPECT_ALIAS(&t, MPI_Allreduce(buf, buf, 2, MPI_INT, MPI_SUM, world));
    EXPECT_ALIAS(&t, MPI_Iallreduce(buf, buf, 2, MPI_INT, MPI_SUM, world, &req));
    EXPECT_ALIAS(&t, MPI_Scan(buf, buf, 2, MPI_INT, MPI_SUM, world));
    EXPECT_ALIAS(&t, MPI_Exscan(buf, buf, 2, MPI_INT, MPI_SUM, world));
    EXPECT_ALIAS(&t, MPI_Allgather(buf, 1, MPI_INT, buf, 1, MPI_INT, world));
    /* The rank's own block of the receive buffer is the send buffer (MPI_IN_PLACE's case). */
    EXPECT_ALIAS(&t, MPI_Allgather(buf + t.rank, 1, MPI_INT, buf, 1, MPI_INT, world));
    EXPECT_ALIAS(&t, MPI_Gather(buf, 1, MPI_INT, buf, 1, MPI_INT, 0, self));
    EXPECT_ALIAS(&t, MPI_Iallgatherv(buf, 1, MPI_INT, buf, counts, displs, MPI_INT, world, &req));
    EXPECT_ALIAS(&t, MPI_Alltoall(buf, 1, MPI_INT, buf, 1, MPI_INT, world));
    EXPECT_ALIAS(&t, MPI_Ialltoallv(buf, counts, displs, MPI_INT, buf, counts, displs, MPI_INT, world, &req));
    EXPECT_ALIAS(&t, MPI_Alltoallw(buf, counts, displs, types, buf, counts, displs, types, world));
    EXPECT_ALIAS(&t, MPI_Reduce_scatter_block(buf, buf, 1, MPI_INT, MPI_SUM, world));
    EXPECT_ALIAS(&t, MPI_Reduce_scatter(buf, buf, counts, MPI_INT, MPI_SUM, world));
    EXPECT_ALIAS(&t, MPI_Reduce(buf, buf, 2, MPI_INT, MPI_SUM, 0, self));
    EXPECT_ALIAS(&t, MPI_Ireduce(buf, buf, 2, MPI_INT, MPI_SUM, 0, self, &req));
    EXPECT_ALIAS(&t, MPI_Gather(buf, 1, MPI_INT, buf, 1, MPI_INT, 0, self));
    EXPECT_ALIAS(&t, MPI_Igatherv(buf, 1, MPI_INT, buf, counts, displs, MPI_INT, 0, self, &req));
    EXPECT_ALIAS(&t, MPI_Scatter(buf, 1, MPI_INT, buf, 1, MPI_INT, 0, self));
    EXPECT_ALIAS(&t, MPI_Iscatterv(buf, counts, displs, MPI_INT, buf, 1, MPI_INT, 0, self, &req));

    /* Still accepted: MPI_IN_PLACE, and no data at all. */
    for (i = 0; i < t.size; i++) buf[i] = 1;
    CONF_CALL(&t, MPI_Allreduce(MPI_IN_PLACE, buf, 1, MPI_INT, MPI_SUM, world));
    CONF_CHECK(&t, buf[0] == t.size, "MPI_Allreduce in place gave %d, expected %d", buf[0], t.size);
    CONF_CALL(&t, MPI_Allgather(buf, 0, MPI_INT, buf, 0, MPI_INT, world));
    CONF_CALL(&t, MPI_Reduce(buf, buf, 0, MPI_INT, MPI_SUM, 0, self));
    {
        const int sum = t.size * (t.size + 1) / 2, before = t.rank * (t.rank + 1) / 2;
        int x = t.rank + 1;
        CONF_CALL(&t, MPI_Allreduce(&x, &x, 1, MPI_INT, MPI_SUM, world));
        CONF_CHECK(&t, x == sum, "MPI_Allreduce of one aliased element gave %d, expected %d", x, sum);
        x = t.rank + 1;
        CONF_CALL(&t, MPI_Iallreduce(&x, &x, 1, MPI_INT, MPI_MAX, world, &req));
        CONF_CALL(&t, MPI_Wait(&req, MPI_STATUS_IGNORE));
        CONF_CHECK(&t, x == t.size, "MPI_Iallreduce of one aliased element gave %d, expected %d", x, t.size);
        x = t.rank + 1;
        CONF_CALL(&t, MPI_Reduce(&x, &x, 1, MPI_INT, MPI_SUM, 0, world));
        CONF_CHECK(&t, t.rank != 0 || x == sum, "MPI_Reduce of one aliased element gave %d, expected %d", x, sum);
        x = t.rank + 1;
        CONF_CALL(&t, MPI_Scan(&x, &x, 1, MPI_INT, MPI_SUM, world));
        CONF_CHECK(&t, x == before + t.rank + 1, "MPI_Scan of one aliased element gave %d, expected %d", x,
                   before + t.rank + 1);
        x = t.rank + 1;
        CONF_CALL(&t, MPI_Exscan(&x, &x, 1, MPI_INT, MPI_SUM, world));
        CONF_CHECK(&t, t.rank == 0 || x == before, "MPI_Exscan of one aliased element gave %d, expected %d", x, before);
    }

    free(buf);
    free(counts);
    free(displs);
    free(types);
    return conf_finish(&t);
}
