/* Distributed graph topologies: MPI_Dist_graph_create_adjacent (weighted and not: the
 * lists come back exactly as given) and MPI_Dist_graph_create (edges named by ranks other
 * than their ends: every rank must learn its own, in some order, with their weights),
 * Dist_graph_neighbors_count, Dist_graph_neighbors, Topo_test, neighbor exchanges over
 * the general form, and the error classes of bad arguments. */
#include "conformance.h"

/* MPI_UNWEIGHTED and MPI_WEIGHTS_EMPTY are special pointer constants; GCC warns that the
 * weight arrays they stand for are too small to read. The library never reads them. */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 11
#pragma GCC diagnostic ignored "-Wstringop-overread"
#endif

static int error_class(int rc) {
    int cls = rc;
    if (rc != MPI_SUCCESS) MPI_Error_class(rc, &cls);
    return cls;
}

static int mod(long a, int n) { return (int)(((a % n) + n) % n); }

/* Adjacent form: r receives from r-1 and r+2, sends to r+1 and r-2, weights 10r+k. */
static void check_adjacent(conf_t* t, int weighted) {
    const int r = t->rank, n = t->size;
    int src[2], dst[2], sw[2], dw[2], gs[4], gd[4], gsw[4] = {-1, -1, -1, -1}, gdw[4] = {-1, -1, -1, -1};
    int indeg, outdeg, w, status, k;
    MPI_Comm g;
    src[0] = mod(r - 1, n);
    src[1] = mod(r + 2, n);
    dst[0] = mod(r + 1, n);
    dst[1] = mod(r - 2, n);
    for (k = 0; k < 2; k++) {
        sw[k] = 10 * r + k;
        dw[k] = 10 * r + 5 + k;
    }
    CONF_CALL(t, MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, src, weighted ? sw : MPI_UNWEIGHTED, 2, dst,
                                                weighted ? dw : MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &g));
    if (g == MPI_COMM_NULL) {
        conf_fail(t, "Dist_graph_create_adjacent gave MPI_COMM_NULL");
        return;
    }
    CONF_CALL(t, MPI_Topo_test(g, &status));
    CONF_CHECK(t, status == MPI_DIST_GRAPH, "Topo_test %d", status);
    CONF_CALL(t, MPI_Dist_graph_neighbors_count(g, &indeg, &outdeg, &w));
    CONF_CHECK(t, indeg == 2 && outdeg == 2 && !w == !weighted, "neighbors_count %d %d %d", indeg, outdeg, w);
    CONF_CALL(
        t, MPI_Dist_graph_neighbors(g, 4, gs, weighted ? gsw : MPI_UNWEIGHTED, 4, gd, weighted ? gdw : MPI_UNWEIGHTED));
    for (k = 0; k < 2; k++) {
        CONF_CHECK(t, gs[k] == src[k] && gd[k] == dst[k], "adjacent lists differ at %d", k);
        if (weighted) CONF_CHECK(t, gsw[k] == sw[k] && gdw[k] == dw[k], "adjacent weights differ at %d", k);
    }
    /* Rank and size are those of the old communicator (no reordering). */
    {
        int me, size;
        MPI_Comm_rank(g, &me);
        MPI_Comm_size(g, &size);
        CONF_CHECK(t, me == r && size == n, "rank %d size %d", me, size);
    }
    MPI_Comm_free(&g);
}

/* General form: rank r names, for source (r+1), the edges to (r+3) and (r+5) with weights
 * r and r+1000; and, if r is odd, for source r the edge r -> r (self loop, weight 7).
 * So x has out-edges to x+2 (weight x-1) and x+4 (weight x+999), plus x -> x if x is odd;
 * in-edges from x-2 (weight x-3) and x-4 (weight x+995), plus x <- x if x is odd (all mod n). */
static int expected(int x, int n, int incoming, int* peers, int* weights) {
    int m = 0;
    peers[m] = mod(incoming ? x - 2 : x + 2, n);
    weights[m++] = incoming ? mod(x - 3, n) : mod(x - 1, n);
    peers[m] = mod(incoming ? x - 4 : x + 4, n);
    weights[m++] = (incoming ? mod(x - 5, n) : mod(x - 1, n)) + 1000;
    if (x % 2 == 1) {
        peers[m] = x;
        weights[m++] = 7;
    }
    return m;
}

/* The edges x got, as (peer, weight) pairs, must be the expected multiset. */
static void compare(conf_t* t, const char* what, int m, const int* peers, const int* weights, int got_m,
                    const int* got_peers, const int* got_weights, int weighted) {
    int used[8] = {0}, i, j;
    CONF_CHECK(t, got_m == m, "%s: degree %d, expected %d", what, got_m, m);
    if (got_m != m) return;
    for (i = 0; i < m; i++) {
        int found = 0;
        for (j = 0; j < m && !found; j++)
            if (!used[j] && got_peers[j] == peers[i] && (!weighted || got_weights[j] == weights[i]))
                found = used[j] = 1;
        CONF_CHECK(t, found, "%s: edge with %d (weight %d) missing", what, peers[i], weights[i]);
    }
}

static void check_general(conf_t* t, int weighted) {
    const int r = t->rank, n = t->size;
    int sources[2], degrees[2], dests[3], weights[3], nsrc = 1;
    int in_p[8], in_w[8], out_p[8], out_w[8], got_in[8], got_inw[8], got_out[8], got_outw[8];
    int indeg, outdeg, w, m_in, m_out;
    MPI_Comm g;
    sources[0] = mod(r + 1, n);
    degrees[0] = 2;
    dests[0] = mod(r + 3, n);
    dests[1] = mod(r + 5, n);
    weights[0] = r;
    weights[1] = r + 1000;
    if (r % 2 == 1) {
        sources[1] = r;
        degrees[1] = 1;
        dests[2] = r;
        weights[2] = 7;
        nsrc = 2;
    }
    CONF_CALL(t, MPI_Dist_graph_create(MPI_COMM_WORLD, nsrc, sources, degrees, dests,
                                       weighted ? weights : MPI_UNWEIGHTED, MPI_INFO_NULL, 1, &g));
    if (g == MPI_COMM_NULL) {
        conf_fail(t, "Dist_graph_create gave MPI_COMM_NULL");
        return;
    }
    CONF_CALL(t, MPI_Dist_graph_neighbors_count(g, &indeg, &outdeg, &w));
    CONF_CHECK(t, !w == !weighted, "weighted %d", w);
    m_in = expected(r, n, 1, in_p, in_w);
    m_out = expected(r, n, 0, out_p, out_w);
    if (indeg <= 8 && outdeg <= 8) {
        CONF_CALL(t, MPI_Dist_graph_neighbors(g, 8, got_in, weighted ? got_inw : MPI_UNWEIGHTED, 8, got_out,
                                              weighted ? got_outw : MPI_UNWEIGHTED));
        compare(t, "in-edges", m_in, in_p, in_w, indeg, got_in, got_inw, weighted);
        compare(t, "out-edges", m_out, out_p, out_w, outdeg, got_out, got_outw, weighted);
        /* A neighbor exchange over the learned edges: each out-edge carries (me, peer). As edges
         * between one pair may repeat only with equal content here, the multiset must match. */
        {
            int sendbuf[16], recvbuf[16], k;
            for (k = 0; k < outdeg; k++) {
                sendbuf[2 * k] = r;
                sendbuf[2 * k + 1] = got_out[k];
            }
            for (k = 0; k < 16; k++) recvbuf[k] = -1;
            CONF_CALL(t, MPI_Neighbor_alltoall(sendbuf, 2, MPI_INT, recvbuf, 2, MPI_INT, g));
            for (k = 0; k < indeg; k++) {
                CONF_CHECK(t, recvbuf[2 * k] == got_in[k] && recvbuf[2 * k + 1] == r, "block %d from %d: (%d, %d)", k,
                           got_in[k], recvbuf[2 * k], recvbuf[2 * k + 1]);
            }
        }
    }
    MPI_Comm_free(&g);
}

int main(int argc, char** argv) {
    conf_t t;
    int one = 0, bad = -1, w = 0, a, b, c;
    MPI_Comm g = MPI_COMM_NULL;
    MPI_Init(&argc, &argv);
    conf_init(&t, "topo_dist_graph");
    check_adjacent(&t, 0);
    check_adjacent(&t, 1);
    check_general(&t, 0);
    check_general(&t, 1);
    /* A rank naming no edges at all (MPI_WEIGHTS_EMPTY). */
    CONF_CALL(&t, MPI_Dist_graph_create(MPI_COMM_WORLD, 0, &one, &one, &one, MPI_WEIGHTS_EMPTY, MPI_INFO_NULL, 0, &g));
    if (g != MPI_COMM_NULL) {
        CONF_CALL(&t, MPI_Dist_graph_neighbors_count(g, &a, &b, &c));
        CONF_CHECK(&t, a == 0 && b == 0, "empty graph: degrees %d %d", a, b);
        MPI_Comm_free(&g);
    }

    CONF_CHECK(&t, error_class(MPI_Dist_graph_neighbors_count(MPI_COMM_WORLD, &a, &b, &c)) == MPI_ERR_TOPOLOGY,
               "Dist_graph_neighbors_count on MPI_COMM_WORLD");
    CONF_CHECK(&t,
               error_class(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &bad, MPI_UNWEIGHTED, 0, &one,
                                                          MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &g)) == MPI_ERR_ARG,
               "Dist_graph_create_adjacent with a negative source");
    a = t.size;
    CONF_CHECK(&t,
               error_class(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 0, &one, MPI_UNWEIGHTED, 1, &a,
                                                          MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &g)) == MPI_ERR_ARG,
               "Dist_graph_create_adjacent with a destination outside the communicator");
    CONF_CHECK(&t,
               error_class(MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &one, &bad, &one, MPI_UNWEIGHTED, MPI_INFO_NULL, 0,
                                                 &g)) == MPI_ERR_ARG,
               "Dist_graph_create with a negative degree");
    w = -3;
    b = 1;
    CONF_CHECK(
        &t,
        error_class(MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &one, &b, &one, &w, MPI_INFO_NULL, 0, &g)) == MPI_ERR_ARG,
        "Dist_graph_create with a negative weight");
    return conf_finish(&t);
}
