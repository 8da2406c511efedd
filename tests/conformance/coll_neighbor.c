/* Neighbor collectives: MPI_(I)neighbor_allgather(v) and MPI_(I)neighbor_alltoall(v, w) on
 * Cartesian grids (periodic and not, with dimensions of size 1 and 2 where one peer is
 * both neighbors), a symmetric graph with repeated and self edges, and a distributed graph
 * with multi-edges and self loops. Every received element is checked exactly against who
 * must have sent it, computed here from the standard's rules: Cartesian blocks are the -1
 * then the +1 neighbor of each dimension, and what a rank sends toward -1 arrives in its
 * neighbor's +1 block (MPI-4); MPI_PROC_NULL blocks are left untouched; a peer that is a
 * neighbor k times pairs its k-th send with the k-th receive. Each call also runs in its
 * nonblocking form (MPI_Ineighbor_* + MPI_Wait), and two of those overlap on one ring. */
#include "conformance.h"

#define MAXDEG 8
#define E 2 /* elements per block */

enum { CART, GRAPH, DIST };

typedef struct {
    const char* name;
    int kind;
    int nonblocking; /* 1: MPI_Ineighbor_* followed by MPI_Wait */
    int ndims, dims[3], periods[3];
    MPI_Comm comm;
} topo_t;

static void coords_of(const topo_t* tp, int r, int* c) {
    int i;
    for (i = tp->ndims - 1; i >= 0; i--) {
        c[i] = r % tp->dims[i];
        r /= tp->dims[i];
    }
}

static int cart_neighbor(const topo_t* tp, int r, int dim, int step) {
    int c[3], i, out = 0;
    coords_of(tp, r, c);
    c[dim] += step;
    if (tp->periods[dim])
        c[dim] = (c[dim] + tp->dims[dim]) % tp->dims[dim];
    else if (c[dim] < 0 || c[dim] >= tp->dims[dim])
        return MPI_PROC_NULL;
    for (i = 0; i < tp->ndims; i++) out = out * tp->dims[i] + c[i];
    return out;
}

/* Graph: i is connected to i+1, i-1 and its mirror n-1-i (symmetric, with repeats for
 * n <= 2 and a self loop at the middle of an odd ring). */
static int graph_list(int r, int n, int* out) {
    out[0] = (r + 1) % n;
    out[1] = (r - 1 + n) % n;
    out[2] = n - 1 - r;
    return 3;
}

/* Distributed graph: r sends to r+1 twice and to itself; receives from r-1 twice and itself. */
static int dist_out(int r, int n, int* out) {
    out[0] = (r + 1) % n;
    out[1] = r;
    out[2] = (r + 1) % n;
    return 3;
}
static int dist_in(int r, int n, int* out) {
    out[0] = (r - 1 + n) % n;
    out[1] = (r - 1 + n) % n;
    out[2] = r;
    return 3;
}

static int in_list(const topo_t* tp, int r, int n, int* out) {
    int i;
    if (tp->kind == GRAPH) return graph_list(r, n, out);
    if (tp->kind == DIST) return dist_in(r, n, out);
    for (i = 0; i < tp->ndims; i++) {
        out[2 * i] = cart_neighbor(tp, r, i, -1);
        out[2 * i + 1] = cart_neighbor(tp, r, i, +1);
    }
    return 2 * tp->ndims;
}
static int out_list(const topo_t* tp, int r, int n, int* out) {
    return tp->kind == DIST ? dist_out(r, n, out) : in_list(tp, r, n, out);
}

/* Which rank fills receive block `slot` of rank r, and from which of its send blocks;
 * returns MPI_PROC_NULL when nobody does. */
static int source_of(const topo_t* tp, int r, int n, int slot, int* sender_slot) {
    int in[MAXDEG], out[MAXDEG], k, nth = 0, seen = 0, peer;
    in_list(tp, r, n, in);
    peer = in[slot];
    if (peer == MPI_PROC_NULL) return MPI_PROC_NULL;
    if (tp->kind == CART) {
        *sender_slot = slot % 2 == 0 ? slot + 1 : slot - 1;
        return peer;
    }
    for (k = 0; k < slot; k++) nth += in[k] == peer;
    for (k = 0; k < out_list(tp, peer, n, out); k++)
        if (out[k] == r && seen++ == nth) {
            *sender_slot = k;
            return peer;
        }
    return MPI_PROC_NULL; /* unreachable for the symmetric topologies above */
}

/* The blocking call, or (tp->nonblocking) its nonblocking form followed by MPI_Wait. */
static int waited(int rc, MPI_Request* r) { return rc != MPI_SUCCESS ? rc : MPI_Wait(r, MPI_STATUS_IGNORE); }
static int n_allgather(const topo_t* tp, const void* sb, int sc, MPI_Datatype st, void* rb, int rcount,
                       MPI_Datatype rt) {
    MPI_Request r;
    if (!tp->nonblocking) return MPI_Neighbor_allgather(sb, sc, st, rb, rcount, rt, tp->comm);
    return waited(MPI_Ineighbor_allgather(sb, sc, st, rb, rcount, rt, tp->comm, &r), &r);
}
static int n_allgatherv(const topo_t* tp, const void* sb, int sc, MPI_Datatype st, void* rb, const int* rcounts,
                        const int* displs, MPI_Datatype rt) {
    MPI_Request r;
    if (!tp->nonblocking) return MPI_Neighbor_allgatherv(sb, sc, st, rb, rcounts, displs, rt, tp->comm);
    return waited(MPI_Ineighbor_allgatherv(sb, sc, st, rb, rcounts, displs, rt, tp->comm, &r), &r);
}
static int n_alltoall(const topo_t* tp, const void* sb, int sc, MPI_Datatype st, void* rb, int rcount,
                      MPI_Datatype rt) {
    MPI_Request r;
    if (!tp->nonblocking) return MPI_Neighbor_alltoall(sb, sc, st, rb, rcount, rt, tp->comm);
    return waited(MPI_Ineighbor_alltoall(sb, sc, st, rb, rcount, rt, tp->comm, &r), &r);
}
static int n_alltoallv(const topo_t* tp, const void* sb, const int* sc, const int* sd, MPI_Datatype st, void* rb,
                       const int* rcounts, const int* rd, MPI_Datatype rt) {
    MPI_Request r;
    if (!tp->nonblocking) return MPI_Neighbor_alltoallv(sb, sc, sd, st, rb, rcounts, rd, rt, tp->comm);
    return waited(MPI_Ineighbor_alltoallv(sb, sc, sd, st, rb, rcounts, rd, rt, tp->comm, &r), &r);
}
static int n_alltoallw(const topo_t* tp, const void* sb, const int* sc, const MPI_Aint* sd, const MPI_Datatype* st,
                       void* rb, const int* rcounts, const MPI_Aint* rd, const MPI_Datatype* rt) {
    MPI_Request r;
    if (!tp->nonblocking) return MPI_Neighbor_alltoallw(sb, sc, sd, st, rb, rcounts, rd, rt, tp->comm);
    return waited(MPI_Ineighbor_alltoallw(sb, sc, sd, st, rb, rcounts, rd, rt, tp->comm, &r), &r);
}

static int value(int sender, int slot, int e) { return sender * 1000 + slot * 10 + e; }
/* Counts and types per edge for the v and w variants, known to both ends. */
static int edge_count(int sender, int slot) { return 1 + (sender + slot) % 3; }
static int edge_is_double(int sender, int slot) { return (sender + slot) % 2; }

static void check_form(conf_t* t, const topo_t* tp) {
    const int me = t->rank, n = t->size;
    int in[MAXDEG], out[MAXDEG], indeg, outdeg, k, e, rc;
    int sendbuf[MAXDEG * 3], recvbuf[MAXDEG * E + 4 * MAXDEG], mine[E];
    int counts_s[MAXDEG], displs_s[MAXDEG], counts_r[MAXDEG], displs_r[MAXDEG];
    MPI_Aint wdispl_s[MAXDEG], wdispl_r[MAXDEG];
    MPI_Datatype types_s[MAXDEG], types_r[MAXDEG];
    char wsend[MAXDEG * 3 * sizeof(double)], wrecv[MAXDEG * 4 * sizeof(double)];
    MPI_Datatype gappy = conf_gappy_type();
    int gap[MAXDEG * CONF_GAPPY_INTS];
    indeg = in_list(tp, me, n, in);
    outdeg = out_list(tp, me, n, out);

    /* Neighbor_allgather: my E ints to every out-neighbor. */
    for (e = 0; e < E; e++) mine[e] = value(me, 0, e);
    memset(recvbuf, 0x5b, sizeof recvbuf);
    CONF_CALL(t, n_allgather(tp, mine, E, MPI_INT, recvbuf, E, MPI_INT));
    for (k = 0; k < indeg; k++) {
        int ss = 0, from = source_of(tp, me, n, k, &ss);
        for (e = 0; e < E; e++) {
            const int got = recvbuf[k * E + e];
            if (from == MPI_PROC_NULL)
                CONF_CHECK(t, conf_is_poison(CONF_INT, recvbuf, k * E + e), "%s allgather: PROC_NULL block %d written",
                           tp->name, k);
            else
                CONF_CHECK(t, got == value(from, 0, e), "%s allgather block %d[%d] = %d, expected %d", tp->name, k, e,
                           got, value(from, 0, e));
        }
    }

    /* Neighbor_allgatherv: blocks in reverse order, one int of gap between them. */
    for (k = 0; k < indeg; k++) {
        counts_r[k] = E;
        displs_r[k] = (indeg - 1 - k) * (E + 1);
    }
    memset(recvbuf, 0x5b, sizeof recvbuf);
    CONF_CALL(t, n_allgatherv(tp, mine, E, MPI_INT, recvbuf, counts_r, displs_r, MPI_INT));
    for (k = 0; k < indeg; k++) {
        int ss = 0, from = source_of(tp, me, n, k, &ss);
        for (e = 0; e < E; e++) {
            const int at = displs_r[k] + e;
            if (from == MPI_PROC_NULL)
                CONF_CHECK(t, conf_is_poison(CONF_INT, recvbuf, at), "%s allgatherv: PROC_NULL block %d written",
                           tp->name, k);
            else
                CONF_CHECK(t, recvbuf[at] == value(from, 0, e), "%s allgatherv block %d[%d] = %d", tp->name, k, e,
                           recvbuf[at]);
        }
        CONF_CHECK(t, conf_is_poison(CONF_INT, recvbuf, displs_r[k] + E), "%s allgatherv: gap after block %d written",
                   tp->name, k);
    }

    /* Neighbor_alltoall: E ints per block, received as one vector of the gappy type. */
    for (k = 0; k < outdeg; k++)
        for (e = 0; e < E; e++) sendbuf[k * E + e] = value(me, k, e);
    conf_poison(CONF_GAPPY, gap, indeg);
    CONF_CALL(t, n_alltoall(tp, sendbuf, E, MPI_INT, gap, 1, gappy));
    for (k = 0; k < indeg; k++) {
        int ss = 0, from = source_of(tp, me, n, k, &ss);
        const int* g = gap + k * CONF_GAPPY_INTS;
        if (from == MPI_PROC_NULL)
            CONF_CHECK(t, g[0] == -7 && g[3] == -7, "%s alltoall: PROC_NULL block %d written", tp->name, k);
        else
            CONF_CHECK(t, g[0] == value(from, ss, 0) && g[3] == value(from, ss, 1) && g[1] == -7 && g[2] == -7,
                       "%s alltoall block %d = (%d, %d), expected (%d, %d) from %d", tp->name, k, g[0], g[3],
                       value(from, ss, 0), value(from, ss, 1), from);
    }

    /* Neighbor_alltoallv: counts per edge, blocks packed in reverse on the send side. */
    {
        int at = 0;
        for (k = outdeg - 1; k >= 0; k--) {
            counts_s[k] = edge_count(me, k);
            displs_s[k] = at;
            for (e = 0; e < counts_s[k]; e++) sendbuf[at + e] = value(me, k, e);
            at += counts_s[k];
        }
        at = 0;
        for (k = 0; k < indeg; k++) {
            int ss = 0, from = source_of(tp, me, n, k, &ss);
            counts_r[k] = from == MPI_PROC_NULL ? 1 : edge_count(from, ss);
            displs_r[k] = at;
            at += counts_r[k] + 1;
        }
    }
    memset(recvbuf, 0x5b, sizeof recvbuf);
    CONF_CALL(t, n_alltoallv(tp, sendbuf, counts_s, displs_s, MPI_INT, recvbuf, counts_r, displs_r, MPI_INT));
    for (k = 0; k < indeg; k++) {
        int ss = 0, from = source_of(tp, me, n, k, &ss);
        for (e = 0; e < counts_r[k]; e++) {
            const int at = displs_r[k] + e;
            if (from == MPI_PROC_NULL)
                CONF_CHECK(t, conf_is_poison(CONF_INT, recvbuf, at), "%s alltoallv: PROC_NULL block %d written",
                           tp->name, k);
            else
                CONF_CHECK(t, recvbuf[at] == value(from, ss, e), "%s alltoallv block %d[%d] = %d, expected %d",
                           tp->name, k, e, recvbuf[at], value(from, ss, e));
        }
        CONF_CHECK(t, conf_is_poison(CONF_INT, recvbuf, displs_r[k] + counts_r[k]),
                   "%s alltoallv: gap after block %d written", tp->name, k);
    }

    /* Neighbor_alltoallw: per edge int or double blocks, byte displacements. */
    {
        MPI_Aint at = 0;
        for (k = 0; k < outdeg; k++) {
            counts_s[k] = edge_count(me, k);
            types_s[k] = edge_is_double(me, k) ? MPI_DOUBLE : MPI_INT;
            wdispl_s[k] = at;
            for (e = 0; e < counts_s[k]; e++) {
                if (types_s[k] == MPI_DOUBLE)
                    ((double*)(wsend + at))[e] = value(me, k, e) + 0.5;
                else
                    ((int*)(wsend + at))[e] = value(me, k, e);
            }
            at += 3 * (MPI_Aint)sizeof(double);
        }
        at = 0;
        for (k = 0; k < indeg; k++) {
            int ss = 0, from = source_of(tp, me, n, k, &ss);
            counts_r[k] = from == MPI_PROC_NULL ? 1 : edge_count(from, ss);
            types_r[k] = from != MPI_PROC_NULL && edge_is_double(from, ss) ? MPI_DOUBLE : MPI_INT;
            wdispl_r[k] = (MPI_Aint)(indeg - 1 - k) * 4 * (MPI_Aint)sizeof(double);
        }
    }
    memset(wrecv, 0x5b, sizeof wrecv);
    CONF_CALL(t,
              n_alltoallw(tp, wsend, counts_s, wdispl_s, types_s, wrecv, counts_r, wdispl_r, types_r));
    for (k = 0; k < indeg; k++) {
        int ss = 0, from = source_of(tp, me, n, k, &ss);
        const char* b = wrecv + wdispl_r[k];
        if (from == MPI_PROC_NULL) {
            CONF_CHECK(t, (unsigned char)b[0] == 0x5b, "%s alltoallw: PROC_NULL block %d written", tp->name, k);
            continue;
        }
        for (e = 0; e < counts_r[k]; e++) {
            if (types_r[k] == MPI_DOUBLE)
                CONF_CHECK(t, ((const double*)b)[e] == value(from, ss, e) + 0.5, "%s alltoallw double block %d[%d]",
                           tp->name, k, e);
            else
                CONF_CHECK(t, ((const int*)b)[e] == value(from, ss, e), "%s alltoallw int block %d[%d] = %d", tp->name,
                           k, e, ((const int*)b)[e]);
        }
    }

    /* MPI_IN_PLACE is not allowed. */
    MPI_Comm_set_errhandler(tp->comm, MPI_ERRORS_RETURN);
    rc = MPI_Neighbor_allgather(MPI_IN_PLACE, E, MPI_INT, recvbuf, E, MPI_INT, tp->comm);
    CONF_CHECK(t, rc != MPI_SUCCESS, "%s: MPI_IN_PLACE accepted", tp->name);
    MPI_Type_free(&gappy);
}

/* Every neighbor collective, blocking and nonblocking. */
static void check_topology(conf_t* t, const topo_t* tp) {
    topo_t form = *tp;
    for (form.nonblocking = 0; form.nonblocking < 2; form.nonblocking++) check_form(t, &form);
}

/* Two nonblocking neighbor collectives in flight at once on one communicator (a ring):
 * each must get its own messages. */
static void check_overlap(conf_t* t) {
    const int n = t->size, me = t->rank;
    int dims[1], periods[1] = {1}, ga[2] = {-1, -1}, gb[2] = {-1, -1}, sb[2], mine = 500 + me;
    MPI_Request r[2];
    MPI_Comm ring;
    dims[0] = n;
    CONF_CALL(t, MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring));
    sb[0] = 10 * me;     /* to the -1 neighbor */
    sb[1] = 10 * me + 1; /* to the +1 neighbor */
    CONF_CALL(t, MPI_Ineighbor_alltoall(sb, 1, MPI_INT, ga, 1, MPI_INT, ring, &r[0]));
    CONF_CALL(t, MPI_Ineighbor_allgather(&mine, 1, MPI_INT, gb, 1, MPI_INT, ring, &r[1]));
    CONF_CALL(t, MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
    CONF_CHECK(t, ga[0] == 10 * ((me - 1 + n) % n) + 1 && ga[1] == 10 * ((me + 1) % n),
               "overlapped alltoall got %d %d", ga[0], ga[1]);
    CONF_CHECK(t, gb[0] == 500 + (me - 1 + n) % n && gb[1] == 500 + (me + 1) % n, "overlapped allgather got %d %d",
               gb[0], gb[1]);
    MPI_Comm_free(&ring);
}

static void with_cart(conf_t* t, const char* name, int ndims, int d0, int d1, int d2, int p0, int p1, int p2) {
    topo_t tp;
    tp.name = name;
    tp.kind = CART;
    tp.ndims = ndims;
    tp.dims[0] = d0;
    tp.dims[1] = d1;
    tp.dims[2] = d2;
    tp.periods[0] = p0;
    tp.periods[1] = p1;
    tp.periods[2] = p2;
    if (d0 == 0) {
        int i;
        for (i = 0; i < ndims; i++) tp.dims[i] = 0;
        MPI_Dims_create(t->size, ndims, tp.dims);
    }
    CONF_CALL(t, MPI_Cart_create(MPI_COMM_WORLD, ndims, tp.dims, tp.periods, 0, &tp.comm));
    if (tp.comm == MPI_COMM_NULL) {
        conf_fail(t, "%s: no communicator", name);
        return;
    }
    check_topology(t, &tp);
    MPI_Comm_free(&tp.comm);
}

int main(int argc, char** argv) {
    conf_t t;
    topo_t tp;
    int k, n, *index, *edges, in[MAXDEG], out[MAXDEG], deg;
    MPI_Init(&argc, &argv);
    conf_init(&t, "coll_neighbor");
    n = t.size;

    with_cart(&t, "ring", 1, n, 0, 0, 1, 0, 0);
    with_cart(&t, "line", 1, n, 0, 0, 0, 0, 0);
    with_cart(&t, "torus2d", 2, 0, 0, 0, 1, 1, 0);
    with_cart(&t, "mesh3d", 3, 0, 0, 0, 0, 1, 0);
    with_cart(&t, "size1x", 2, 1, n, 0, 1, 1, 0);                     /* a periodic dimension of size 1 */
    if (n % 2 == 0) with_cart(&t, "size2x", 2, 2, n / 2, 0, 1, 0, 0); /* periodic, size 2 */

    /* The whole graph on every rank (MPI_Graph_create needs it). */
    index = (int*)conf_alloc(sizeof(int) * (size_t)n);
    edges = (int*)conf_alloc(sizeof(int) * 3 * (size_t)n);
    for (k = 0; k < n; k++) {
        index[k] = 3 * (k + 1);
        graph_list(k, n, edges + 3 * k);
    }
    tp.name = "graph";
    tp.kind = GRAPH;
    CONF_CALL(&t, MPI_Graph_create(MPI_COMM_WORLD, n, index, edges, 0, &tp.comm));
    free(index);
    free(edges);
    if (tp.comm != MPI_COMM_NULL) {
        check_topology(&t, &tp);
        MPI_Comm_free(&tp.comm);
    }

    tp.name = "dist_graph";
    tp.kind = DIST;
    dist_in(t.rank, n, in);
    deg = dist_out(t.rank, n, out);
    {
        /* Weights do not change neighbor collectives. */
        const int weights[3] = {1, 2, 3};
        CONF_CALL(&t, MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, deg, in, weights, deg, out, weights,
                                                     MPI_INFO_NULL, 0, &tp.comm));
    }
    if (tp.comm != MPI_COMM_NULL) {
        check_topology(&t, &tp);
        MPI_Comm_free(&tp.comm);
    }

    check_overlap(&t);

    /* Without a topology: MPI_ERR_TOPOLOGY. */
    {
        int a = 0, b = 0, cls = MPI_SUCCESS;
        const int rc = MPI_Neighbor_allgather(&a, 1, MPI_INT, &b, 1, MPI_INT, MPI_COMM_WORLD);
        if (rc != MPI_SUCCESS) MPI_Error_class(rc, &cls);
        CONF_CHECK(&t, cls == MPI_ERR_TOPOLOGY, "Neighbor_allgather on MPI_COMM_WORLD: class %d", cls);
    }
    /* Nonblocking forms: MPI_ERR_TOPOLOGY without a topology, MPI_ERR_ARG without a place
     * for the request; neither starts anything. */
    {
        int a[2] = {0, 0}, b[2] = {0, 0}, cls = MPI_SUCCESS, dims[1] = {t.size}, periods[1] = {1}, rc;
        MPI_Request r = MPI_REQUEST_NULL;
        MPI_Comm ring;
        rc = MPI_Ineighbor_alltoall(a, 1, MPI_INT, b, 1, MPI_INT, MPI_COMM_WORLD, &r);
        if (rc != MPI_SUCCESS) MPI_Error_class(rc, &cls);
        CONF_CHECK(&t, cls == MPI_ERR_TOPOLOGY && r == MPI_REQUEST_NULL, "Ineighbor_alltoall on MPI_COMM_WORLD: class %d",
                   cls);
        CONF_CALL(&t, MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring));
        cls = MPI_SUCCESS;
        rc = MPI_Ineighbor_allgather(a, 1, MPI_INT, b, 1, MPI_INT, ring, NULL);
        if (rc != MPI_SUCCESS) MPI_Error_class(rc, &cls);
        CONF_CHECK(&t, cls == MPI_ERR_ARG, "Ineighbor_allgather without a request: class %d", cls);
        /* The failed calls started no collective: the next one on the ring still matches. */
        CONF_CALL(&t, MPI_Neighbor_allgather(&t.rank, 1, MPI_INT, b, 1, MPI_INT, ring));
        CONF_CHECK(&t, b[0] == (t.rank - 1 + t.size) % t.size && b[1] == (t.rank + 1) % t.size,
                   "allgather after failed calls got %d %d", b[0], b[1]);
        MPI_Comm_free(&ring);
    }
    return conf_finish(&t);
}
