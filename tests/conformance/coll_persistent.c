/* Persistent collectives (MPI-4.0 section 6.13; Open MPI 4.1: MPIX_<Coll>_init of <mpi-ext.h>).
 * Every one of them (the 17 collectives on MPI_COMM_WORLD, with and without MPI_IN_PLACE
 * where allowed, on a communicator from MPI_Comm_split, and the 5 neighbor collectives on
 * a ring) is initialized once and started several times, the input changed before
 * every start, each start completed in another way (MPI_Wait, MPI_Test loop,
 * MPI_Request_get_status loop then MPI_Wait, MPI_Waitall) and its result compared with the
 * blocking collective's on the same input; the request stays allocated and inactive after
 * completion (a wait or test on it returns an empty status at once) and is freed with
 * MPI_Request_free. Then: MPI_Startall of several persistent collectives on one
 * communicator, started in reverse order on odd ranks (only the init calls are ordered);
 * persistent point-to-point and collective requests in one MPI_Startall; a derived datatype
 * freed right after the init; an allreduce on an intercommunicator; and erroneous use:
 * MPI_Start and MPI_Startall of an active request, MPI_Request_free of an active persistent
 * collective (MPI_ERR_REQUEST, as Open MPI), bad arguments at the init (communicator, root,
 * count, info).
 *   coll_persistent
 * Runs on plain Open MPI too (mpicc tests/conformance/coll_persistent.c; mpirun -np 4). */
#include "conformance.h"
#if defined(__has_include)
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif
#endif

/* MPI-4 libraries name them MPI_<Coll>_init. */
#if !defined(OMPI_HAVE_MPI_EXT_PCOLLREQ) && MPI_VERSION >= 4
#define MPIX_Barrier_init MPI_Barrier_init
#define MPIX_Bcast_init MPI_Bcast_init
#define MPIX_Reduce_init MPI_Reduce_init
#define MPIX_Allreduce_init MPI_Allreduce_init
#define MPIX_Gather_init MPI_Gather_init
#define MPIX_Gatherv_init MPI_Gatherv_init
#define MPIX_Scatter_init MPI_Scatter_init
#define MPIX_Scatterv_init MPI_Scatterv_init
#define MPIX_Allgather_init MPI_Allgather_init
#define MPIX_Allgatherv_init MPI_Allgatherv_init
#define MPIX_Alltoall_init MPI_Alltoall_init
#define MPIX_Alltoallv_init MPI_Alltoallv_init
#define MPIX_Alltoallw_init MPI_Alltoallw_init
#define MPIX_Reduce_scatter_init MPI_Reduce_scatter_init
#define MPIX_Reduce_scatter_block_init MPI_Reduce_scatter_block_init
#define MPIX_Scan_init MPI_Scan_init
#define MPIX_Exscan_init MPI_Exscan_init
#define MPIX_Neighbor_allgather_init MPI_Neighbor_allgather_init
#define MPIX_Neighbor_allgatherv_init MPI_Neighbor_allgatherv_init
#define MPIX_Neighbor_alltoall_init MPI_Neighbor_alltoall_init
#define MPIX_Neighbor_alltoallv_init MPI_Neighbor_alltoallv_init
#define MPIX_Neighbor_alltoallw_init MPI_Neighbor_alltoallw_init
#define OMPI_HAVE_MPI_EXT_PCOLLREQ 1
#endif

#ifndef OMPI_HAVE_MPI_EXT_PCOLLREQ
int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    fprintf(stderr, "FAIL coll_persistent: this MPI has no persistent collectives\n");
    MPI_Finalize();
    return 1;
}
#else

enum { BARRIER, BCAST, REDUCE, ALLREDUCE, GATHER, GATHERV, SCATTER, SCATTERV, ALLGATHER, ALLGATHERV, ALLTOALL,
       ALLTOALLV, ALLTOALLW, REDUCE_SCATTER, REDUCE_SCATTER_BLOCK, SCAN, EXSCAN, NB_ALLGATHER, NB_ALLGATHERV,
       NB_ALLTOALL, NB_ALLTOALLV, NB_ALLTOALLW, NCOLL };
static const char* const kNames[NCOLL] = {
    "barrier",   "bcast",     "reduce",         "allreduce",            "gather",     "gatherv",
    "scatter",   "scatterv",  "allgather",      "allgatherv",           "alltoall",   "alltoallv",
    "alltoallw", "reduce_scatter", "reduce_scatter_block", "scan",      "exscan",     "neighbor_allgather",
    "neighbor_allgatherv", "neighbor_alltoall", "neighbor_alltoallv", "neighbor_alltoallw"};
enum { STARTS = 4 };

/* One collective's arguments and buffers (ints); `n` is the vector length of reductions
 * and bcast, `blk` the block of the per-rank ones. The neighbor collectives have
 * `nbrs` (2: left and right on a periodic ring) blocks each way. */
typedef struct {
    MPI_Comm comm;
    int rank, size, n, blk, inplace, nbrs;
    int *in, *out; /* `len` ints each */
    long len;
    int *counts, *displs, *wdispls, *rcounts;
    MPI_Aint *adispls;
    MPI_Datatype* types;
} call_t;

static int root_of(const call_t* c, int coll) { return (coll + c->n) % c->size; }

static int inplace_allowed(const call_t* c, int coll) {
    switch (coll) {
        case BARRIER: case BCAST: return 0;
        case REDUCE: case GATHER: case GATHERV: case SCATTER: case SCATTERV: return c->rank == root_of(c, coll);
        default: return coll < NB_ALLGATHER;
    }
}

/* Input for start `start` (different before every start) and a poisoned output. */
static void fill(call_t* c, int coll, int start) {
    long i;
    for (i = 0; i < c->len; i++) {
        c->in[i] = c->rank * 1000003 + (int)i * 7 + coll * 31 + start * 100019;
        c->out[i] = -1 - (int)i - start;
    }
    if (c->inplace && inplace_allowed(c, coll)) memcpy(c->out, c->in, (size_t)c->len * sizeof(int));
}

/* What a start of `coll` expects in the buffers besides its input: the root's data in the
 * broadcast buffer, an in-place gather's own block where it goes. */
static void prepare(call_t* c, int coll) {
    const int me = c->rank, ip = c->inplace && inplace_allowed(c, coll);
    if (coll == BCAST && me == root_of(c, coll)) memcpy(c->out, c->in, (size_t)c->n * sizeof(int));
    if (ip && (coll == GATHER || coll == ALLGATHER))
        memcpy(c->out + (long)me * c->blk, c->in, (size_t)c->blk * sizeof(int));
    if (ip && (coll == GATHERV || coll == ALLGATHERV))
        memcpy(c->out + c->displs[me], c->in, (size_t)c->counts[me] * sizeof(int));
}

/* Runs `coll` (req NULL) or initializes its persistent form into *req. */
static int call(call_t* c, int coll, MPI_Request* req, MPI_Info info) {
    const int root = root_of(c, coll), me = c->rank, ip = c->inplace && inplace_allowed(c, coll);
    const void* sb = ip ? MPI_IN_PLACE : c->in;
    void* rb = ip ? MPI_IN_PLACE : (void*)c->out; /* the scatters' receive buffer */
    MPI_Comm k = c->comm;
    switch (coll) {
        case BARRIER: return req ? MPIX_Barrier_init(k, info, req) : MPI_Barrier(k);
        case BCAST:
            return req ? MPIX_Bcast_init(c->out, c->n, MPI_INT, root, k, info, req)
                       : MPI_Bcast(c->out, c->n, MPI_INT, root, k);
        case REDUCE:
            return req ? MPIX_Reduce_init(sb, c->out, c->n, MPI_INT, MPI_SUM, root, k, info, req)
                       : MPI_Reduce(sb, c->out, c->n, MPI_INT, MPI_SUM, root, k);
        case ALLREDUCE:
            return req ? MPIX_Allreduce_init(sb, c->out, c->n, MPI_INT, MPI_MAX, k, info, req)
                       : MPI_Allreduce(sb, c->out, c->n, MPI_INT, MPI_MAX, k);
        case GATHER:
            return req ? MPIX_Gather_init(sb, c->blk, MPI_INT, c->out, c->blk, MPI_INT, root, k, info, req)
                       : MPI_Gather(sb, c->blk, MPI_INT, c->out, c->blk, MPI_INT, root, k);
        case GATHERV:
            return req ? MPIX_Gatherv_init(sb, c->counts[me], MPI_INT, c->out, c->counts, c->displs, MPI_INT, root, k,
                                           info, req)
                       : MPI_Gatherv(sb, c->counts[me], MPI_INT, c->out, c->counts, c->displs, MPI_INT, root, k);
        case SCATTER:
            return req ? MPIX_Scatter_init(c->in, c->blk, MPI_INT, rb, c->blk, MPI_INT, root, k, info, req)
                       : MPI_Scatter(c->in, c->blk, MPI_INT, rb, c->blk, MPI_INT, root, k);
        case SCATTERV:
            return req ? MPIX_Scatterv_init(c->in, c->counts, c->displs, MPI_INT, rb, c->counts[me], MPI_INT, root, k,
                                            info, req)
                       : MPI_Scatterv(c->in, c->counts, c->displs, MPI_INT, rb, c->counts[me], MPI_INT, root, k);
        case ALLGATHER:
            return req ? MPIX_Allgather_init(sb, c->blk, MPI_INT, c->out, c->blk, MPI_INT, k, info, req)
                       : MPI_Allgather(sb, c->blk, MPI_INT, c->out, c->blk, MPI_INT, k);
        case ALLGATHERV:
            return req ? MPIX_Allgatherv_init(sb, c->counts[me], MPI_INT, c->out, c->counts, c->displs, MPI_INT, k,
                                              info, req)
                       : MPI_Allgatherv(sb, c->counts[me], MPI_INT, c->out, c->counts, c->displs, MPI_INT, k);
        case ALLTOALL:
            return req ? MPIX_Alltoall_init(sb, c->blk, MPI_INT, c->out, c->blk, MPI_INT, k, info, req)
                       : MPI_Alltoall(sb, c->blk, MPI_INT, c->out, c->blk, MPI_INT, k);
        case ALLTOALLV:
            return req ? MPIX_Alltoallv_init(sb, c->rcounts, c->displs, MPI_INT, c->out, c->rcounts, c->displs,
                                             MPI_INT, k, info, req)
                       : MPI_Alltoallv(sb, c->rcounts, c->displs, MPI_INT, c->out, c->rcounts, c->displs, MPI_INT, k);
        case ALLTOALLW:
            return req ? MPIX_Alltoallw_init(sb, c->rcounts, c->wdispls, c->types, c->out, c->rcounts, c->wdispls,
                                             c->types, k, info, req)
                       : MPI_Alltoallw(sb, c->rcounts, c->wdispls, c->types, c->out, c->rcounts, c->wdispls, c->types,
                                       k);
        case REDUCE_SCATTER:
            return req ? MPIX_Reduce_scatter_init(sb, c->out, c->counts, MPI_INT, MPI_SUM, k, info, req)
                       : MPI_Reduce_scatter(sb, c->out, c->counts, MPI_INT, MPI_SUM, k);
        case REDUCE_SCATTER_BLOCK:
            return req ? MPIX_Reduce_scatter_block_init(sb, c->out, c->blk, MPI_INT, MPI_SUM, k, info, req)
                       : MPI_Reduce_scatter_block(sb, c->out, c->blk, MPI_INT, MPI_SUM, k);
        case SCAN:
            return req ? MPIX_Scan_init(sb, c->out, c->n, MPI_INT, MPI_SUM, k, info, req)
                       : MPI_Scan(sb, c->out, c->n, MPI_INT, MPI_SUM, k);
        case EXSCAN:
            return req ? MPIX_Exscan_init(sb, c->out, c->n, MPI_INT, MPI_SUM, k, info, req)
                       : MPI_Exscan(sb, c->out, c->n, MPI_INT, MPI_SUM, k);
        /* Neighbors on the ring: counts[i], displs[i] per neighbor (c->nbrs of them). */
        case NB_ALLGATHER:
            return req ? MPIX_Neighbor_allgather_init(c->in, c->blk, MPI_INT, c->out, c->blk, MPI_INT, k, info, req)
                       : MPI_Neighbor_allgather(c->in, c->blk, MPI_INT, c->out, c->blk, MPI_INT, k);
        case NB_ALLGATHERV:
            return req ? MPIX_Neighbor_allgatherv_init(c->in, c->blk, MPI_INT, c->out, c->rcounts, c->displs, MPI_INT,
                                                       k, info, req)
                       : MPI_Neighbor_allgatherv(c->in, c->blk, MPI_INT, c->out, c->rcounts, c->displs, MPI_INT, k);
        case NB_ALLTOALL:
            return req ? MPIX_Neighbor_alltoall_init(c->in, c->blk, MPI_INT, c->out, c->blk, MPI_INT, k, info, req)
                       : MPI_Neighbor_alltoall(c->in, c->blk, MPI_INT, c->out, c->blk, MPI_INT, k);
        case NB_ALLTOALLV:
            return req ? MPIX_Neighbor_alltoallv_init(c->in, c->rcounts, c->displs, MPI_INT, c->out, c->rcounts,
                                                      c->displs, MPI_INT, k, info, req)
                       : MPI_Neighbor_alltoallv(c->in, c->rcounts, c->displs, MPI_INT, c->out, c->rcounts, c->displs,
                                                MPI_INT, k);
        case NB_ALLTOALLW:
            return req ? MPIX_Neighbor_alltoallw_init(c->in, c->rcounts, c->adispls, c->types, c->out, c->rcounts,
                                                      c->adispls, c->types, k, info, req)
                       : MPI_Neighbor_alltoallw(c->in, c->rcounts, c->adispls, c->types, c->out, c->rcounts,
                                                c->adispls, c->types, k);
    }
    return MPI_ERR_OTHER;
}

static void setup(call_t* c, MPI_Comm comm, int n, int blk) {
    int i, blocks;
    MPI_Comm_rank(comm, &c->rank);
    MPI_Comm_size(comm, &c->size);
    c->comm = comm;
    c->n = n;
    c->blk = blk;
    c->inplace = 0;
    c->nbrs = 2;
    blocks = c->size > c->nbrs ? c->size : c->nbrs;
    c->counts = (int*)conf_alloc((size_t)blocks * sizeof(int));
    c->rcounts = (int*)conf_alloc((size_t)blocks * sizeof(int));
    c->displs = (int*)conf_alloc((size_t)blocks * sizeof(int));
    c->wdispls = (int*)conf_alloc((size_t)blocks * sizeof(int));
    c->adispls = (MPI_Aint*)conf_alloc((size_t)blocks * sizeof(MPI_Aint));
    c->types = (MPI_Datatype*)conf_alloc((size_t)blocks * sizeof(MPI_Datatype));
    for (i = 0; i < blocks; i++) {
        c->counts[i] = blk - (i % 3 == 1 ? blk : 0) + (i % 3 == 2 ? 1 : 0); /* some empty, some longer */
        c->rcounts[i] = blk;
        c->displs[i] = i * (blk + 1);
        c->wdispls[i] = c->displs[i] * (int)sizeof(int);
        c->adispls[i] = (MPI_Aint)c->wdispls[i];
        c->types[i] = MPI_INT;
    }
    c->len = (long)blocks * (blk + 1) + n + 1;
    c->in = (int*)conf_alloc((size_t)c->len * sizeof(int));
    c->out = (int*)conf_alloc((size_t)c->len * sizeof(int));
}

static void teardown(call_t* c) {
    free(c->counts);
    free(c->rcounts);
    free(c->displs);
    free(c->wdispls);
    free(c->adispls);
    free(c->types);
    free(c->in);
    free(c->out);
}

/* Exscan's result on rank 0 is undefined. */
static int comparable(const call_t* c, int coll) { return !(coll == EXSCAN && c->rank == 0); }

static int check_same(conf_t* t, const call_t* c, int coll, const int* ref, int start, const char* where) {
    long i;
    if (!comparable(c, coll)) return 1;
    for (i = 0; i < c->len; i++)
        if (ref[i] != c->out[i]) {
            conf_fail(t, "%s (%s%s, start %d): element %ld is %d, the blocking call gave %d", kNames[coll], where,
                      c->inplace ? ", in place" : "", start, i, c->out[i], ref[i]);
            return 0;
        }
    return 1;
}

/* An inactive persistent request: waits and tests return at once with an empty status,
 * and leave it allocated. */
static void check_inactive(conf_t* t, MPI_Request* req, const char* what) {
    MPI_Status st;
    int flag = 0;
    st.MPI_SOURCE = 12345;
    st.MPI_TAG = 12345;
    CONF_CALL(t, MPI_Wait(req, &st));
    CONF_CHECK(t, *req != MPI_REQUEST_NULL, "%s: MPI_Wait freed the inactive persistent request", what);
    CONF_CHECK(t, st.MPI_SOURCE == MPI_ANY_SOURCE && st.MPI_TAG == MPI_ANY_TAG,
               "%s: MPI_Wait on an inactive request: status (%d, %d), expected the empty status", what, st.MPI_SOURCE,
               st.MPI_TAG);
    CONF_CALL(t, MPI_Test(req, &flag, MPI_STATUS_IGNORE));
    CONF_CHECK(t, flag == 1 && *req != MPI_REQUEST_NULL, "%s: MPI_Test on an inactive request: flag %d", what, flag);
    flag = 0;
    CONF_CALL(t, MPI_Request_get_status(*req, &flag, MPI_STATUS_IGNORE));
    CONF_CHECK(t, flag == 1, "%s: MPI_Request_get_status on an inactive request: flag %d", what, flag);
}

/* Start number `start` of *req, completed in one of four ways. */
static void start_and_complete(conf_t* t, MPI_Request* req, int start, const char* what) {
    MPI_Status st;
    int flag = 0;
    CONF_CALL(t, MPI_Start(req));
    switch (start % 4) {
        case 0: CONF_CALL(t, MPI_Wait(req, &st)); break;
        case 1:
            do CONF_CALL(t, MPI_Test(req, &flag, &st));
            while (!flag && t->failures == 0);
            break;
        case 2:
            do CONF_CALL(t, MPI_Request_get_status(*req, &flag, &st));
            while (!flag && t->failures == 0);
            CONF_CALL(t, MPI_Wait(req, &st));
            break;
        default: CONF_CALL(t, MPI_Waitall(1, req, &st)); break;
    }
    CONF_CHECK(t, *req != MPI_REQUEST_NULL, "%s: completion freed the persistent request", what);
    flag = 1;
    MPI_Test_cancelled(&st, &flag);
    CONF_CHECK(t, flag == 0, "%s: a completed start reported as cancelled", what);
}

/* Every collective of [first, last) on c->comm, with and without MPI_IN_PLACE. */
static void each(conf_t* t, call_t* c, int first, int last, const char* where, MPI_Info info) {
    int coll, ip, start;
    int* ref = (int*)conf_alloc((size_t)c->len * sizeof(int));
    for (coll = first; coll < last; coll++)
        for (ip = 0; ip < 2; ip++) {
            MPI_Request req = MPI_REQUEST_NULL;
            char what[96];
            if (ip && (coll <= BCAST || coll >= NB_ALLGATHER)) continue;
            c->inplace = ip;
            snprintf(what, sizeof what, "%s (%s%s)", kNames[coll], where, ip ? ", in place" : "");
            fill(c, coll, 0);
            CONF_CALL(t, call(c, coll, &req, (coll % 2) ? info : MPI_INFO_NULL));
            CONF_CHECK(t, req != MPI_REQUEST_NULL, "%s: no request from the init", what);
            if (req == MPI_REQUEST_NULL) continue;
            check_inactive(t, &req, what); /* not started yet */
            for (start = 0; start < STARTS; start++) {
                /* The reference first, from the same input, then the persistent start. */
                fill(c, coll, start);
                prepare(c, coll);
                CONF_CALL(t, call(c, coll, NULL, MPI_INFO_NULL));
                memcpy(ref, c->out, (size_t)c->len * sizeof(int));
                fill(c, coll, start);
                prepare(c, coll);
                start_and_complete(t, &req, start, what);
                check_same(t, c, coll, ref, start, where);
            }
            check_inactive(t, &req, what);
            CONF_CALL(t, MPI_Request_free(&req));
            CONF_CHECK(t, req == MPI_REQUEST_NULL, "%s: MPI_Request_free left the handle", what);
        }
    free(ref);
}

/* Several persistent collectives on one communicator started together by MPI_Startall, in
 * reverse order on odd ranks, with a persistent send/receive pair among them. */
static void startall(conf_t* t, MPI_Comm comm) {
    enum { N = 6 };
    int rank, size, i, start, sum, bval, a2a_ok;
    int *a2a_in, *a2a_out, rsum[2], in[2], ring_in, ring_out;
    MPI_Request reqs[N], order[N];
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    a2a_in = (int*)conf_alloc((size_t)size * sizeof(int));
    a2a_out = (int*)conf_alloc((size_t)size * sizeof(int));
    CONF_CALL(t, MPIX_Allreduce_init(in, rsum, 2, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &reqs[0]));
    CONF_CALL(t, MPIX_Bcast_init(&bval, 1, MPI_INT, size - 1, comm, MPI_INFO_NULL, &reqs[1]));
    CONF_CALL(t, MPIX_Alltoall_init(a2a_in, 1, MPI_INT, a2a_out, 1, MPI_INT, comm, MPI_INFO_NULL, &reqs[2]));
    CONF_CALL(t, MPIX_Barrier_init(comm, MPI_INFO_NULL, &reqs[3]));
    CONF_CALL(t, MPI_Send_init(&ring_in, 1, MPI_INT, (rank + 1) % size, 7, comm, &reqs[4]));
    CONF_CALL(t, MPI_Recv_init(&ring_out, 1, MPI_INT, (rank + size - 1) % size, 7, comm, &reqs[5]));
    for (start = 0; start < STARTS; start++) {
        in[0] = rank + start;
        in[1] = 2 * rank - start;
        bval = rank == size - 1 ? 4242 + start : -1;
        for (i = 0; i < size; i++) a2a_in[i] = rank * 1000 + i + start;
        ring_in = rank * 10 + start;
        ring_out = -1;
        for (i = 0; i < N; i++) order[i] = reqs[rank % 2 ? N - 1 - i : i];
        CONF_CALL(t, MPI_Startall(N, order));
        CONF_CALL(t, MPI_Waitall(N, order, MPI_STATUSES_IGNORE));
        for (i = 0; i < N; i++) CONF_CHECK(t, order[i] != MPI_REQUEST_NULL, "startall: request %d freed", i);
        sum = size * (size - 1) / 2;
        CONF_CHECK(t, rsum[0] == sum + size * start && rsum[1] == 2 * sum - size * start,
                   "startall %d: allreduce gave (%d, %d)", start, rsum[0], rsum[1]);
        CONF_CHECK(t, bval == 4242 + start, "startall %d: bcast gave %d", start, bval);
        a2a_ok = 1;
        for (i = 0; i < size; i++) a2a_ok &= a2a_out[i] == i * 1000 + rank + start;
        CONF_CHECK(t, a2a_ok, "startall %d: alltoall result wrong", start);
        CONF_CHECK(t, ring_out == ((rank + size - 1) % size) * 10 + start, "startall %d: ring got %d", start,
                   ring_out);
    }
    for (i = 0; i < N; i++) CONF_CALL(t, MPI_Request_free(&reqs[i]));
    free(a2a_in);
    free(a2a_out);
}

/* A derived datatype freed right after the init: the request still uses it. */
static void freed_type(conf_t* t) {
    MPI_Datatype pair;
    MPI_Request req;
    int buf[4], start, rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    CONF_CALL(t, MPIX_Bcast_init(buf, 2, pair, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &req));
    CONF_CALL(t, MPI_Type_free(&pair));
    for (start = 0; start < STARTS; start++) {
        int i;
        for (i = 0; i < 4; i++) buf[i] = rank == 0 ? 77 * start + i : -1;
        CONF_CALL(t, MPI_Start(&req));
        CONF_CALL(t, MPI_Wait(&req, MPI_STATUS_IGNORE));
        for (i = 0; i < 4; i++)
            CONF_CHECK(t, buf[i] == 77 * start + i, "freed type: start %d: element %d is %d", start, i, buf[i]);
    }
    CONF_CALL(t, MPI_Request_free(&req));
    (void)size;
}

/* An allreduce across the two halves of WORLD: each side gets the other's sum. */
static void intercomm(conf_t* t) {
    MPI_Comm half, inter;
    MPI_Request req;
    int rank, size, color, in, out, start, i, expect;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2) return;
    color = rank < size / 2 ? 0 : 1;
    MPI_Comm_split(MPI_COMM_WORLD, color, rank, &half);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, color ? 0 : size / 2, 5, &inter);
    CONF_CALL(t, MPIX_Allreduce_init(&in, &out, 1, MPI_INT, MPI_SUM, inter, MPI_INFO_NULL, &req));
    for (start = 0; start < STARTS; start++) {
        in = rank + 3 * start;
        out = -1;
        CONF_CALL(t, MPI_Start(&req));
        CONF_CALL(t, MPI_Wait(&req, MPI_STATUS_IGNORE));
        expect = 0;
        for (i = color ? 0 : size / 2; i < (color ? size / 2 : size); i++) expect += i + 3 * start;
        CONF_CHECK(t, out == expect, "intercomm allreduce: start %d gave %d, expected %d", start, out, expect);
    }
    CONF_CALL(t, MPI_Request_free(&req));
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
}

/* Erroneous use, under MPI_ERRORS_RETURN. */
static void errors(conf_t* t) {
    MPI_Request req, two[2];
    MPI_Info info;
    int rank, size, x = 1, y = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    /* Starting an active request (MPI_Start, MPI_Startall: MPI-4.0 section 3.9, the request
     * must be inactive) and freeing an active persistent collective are erroneous; xsim
     * refuses them with MPI_ERR_REQUEST (Open MPI 4.1 does not check the starts), and the
     * request stays active and completes normally. */
    CONF_CALL(t, MPIX_Allreduce_init(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &req));
    CONF_CALL(t, MPI_Start(&req));
    if (conf_under_xsim()) {
        CONF_EXPECT_CLASS(t, MPI_ERR_REQUEST, MPI_Start(&req));
        two[0] = req;
        two[1] = req;
        CONF_EXPECT_CLASS(t, MPI_ERR_REQUEST, MPI_Startall(1, two));
        CONF_EXPECT_CLASS(t, MPI_ERR_REQUEST, MPI_Startall(2, two));
        CONF_EXPECT_CLASS(t, MPI_ERR_REQUEST, MPI_Request_free(&req));
        CONF_CHECK(t, req != MPI_REQUEST_NULL, "MPI_Request_free of an active persistent collective cleared it");
        CONF_EXPECT_CLASS(t, MPI_ERR_REQUEST, MPI_Cancel(&req));
    }
    CONF_CALL(t, MPI_Wait(&req, MPI_STATUS_IGNORE));
    CONF_CHECK(t, y == size, "allreduce after the refused calls gave %d, expected %d", y, size);
    CONF_CALL(t, MPI_Request_free(&req));
    /* Bad arguments at the init: nothing is created. */
    req = MPI_REQUEST_NULL;
    CONF_EXPECT_CLASS(t, MPI_ERR_COMM, MPIX_Barrier_init(MPI_COMM_NULL, MPI_INFO_NULL, &req));
    CONF_EXPECT_CLASS(t, MPI_ERR_ROOT, MPIX_Bcast_init(&x, 1, MPI_INT, size, MPI_COMM_WORLD, MPI_INFO_NULL, &req));
    CONF_EXPECT_CLASS(t, MPI_ERR_COUNT,
                      MPIX_Allreduce_init(&x, &y, -1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &req));
    CONF_EXPECT_CLASS(t, MPI_ERR_OP,
                      MPIX_Allreduce_init(&x, &y, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD, MPI_INFO_NULL, &req));
    CONF_CHECK(t, req == MPI_REQUEST_NULL, "a refused init returned a request");
    /* An info object with hints is accepted (hints may be ignored). */
    MPI_Info_create(&info);
    MPI_Info_set(info, "mpi_assert_no_any_source", "true");
    CONF_CALL(t, MPIX_Barrier_init(MPI_COMM_WORLD, info, &req));
    MPI_Info_free(&info);
    CONF_CALL(t, MPI_Start(&req));
    CONF_CALL(t, MPI_Wait(&req, MPI_STATUS_IGNORE));
    CONF_CALL(t, MPI_Request_free(&req));
    (void)rank;
}

int main(int argc, char** argv) {
    conf_t t;
    call_t c;
    MPI_Comm split, ring;
    MPI_Info info;
    int dims[1], periods[1];
    MPI_Init(&argc, &argv);
    conf_init(&t, "coll_persistent");
    MPI_Info_create(&info);
    MPI_Info_set(info, "xsim_test_hint", "ignored");

    setup(&c, MPI_COMM_WORLD, 5, 3);
    each(&t, &c, BARRIER, NB_ALLGATHER, "world", info);
    teardown(&c);

    MPI_Comm_split(MPI_COMM_WORLD, t.rank % 2, t.size - t.rank, &split);
    setup(&c, split, 300, 40); /* longer messages */
    each(&t, &c, BARRIER, NB_ALLGATHER, "split", info);
    teardown(&c);

    /* Periodic from 3 ranks: below, a rank would be both neighbors of another, and Open MPI
     * 4.1's blocking and persistent neighbor all-to-alls then disagree natively. */
    dims[0] = t.size;
    periods[0] = t.size >= 3;
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
    setup(&c, ring, 5, 3);
    each(&t, &c, NB_ALLGATHER, NCOLL, "ring", info);
    teardown(&c);

    startall(&t, MPI_COMM_WORLD);
    startall(&t, split);
    freed_type(&t);
    intercomm(&t);
    errors(&t);

    MPI_Comm_free(&ring);
    MPI_Comm_free(&split);
    MPI_Info_free(&info);
    return conf_finish(&t);
}
#endif
