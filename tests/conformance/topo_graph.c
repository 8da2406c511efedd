/* Graph topologies: MPI_Graph_create (all ranks, and fewer nodes than ranks), Topo_test,
 * Graphdims_get, Graph_get, Graph_neighbors_count, Graph_neighbors, Graph_map, messages
 * between graph neighbors, and the error classes of bad arguments. */
#include "conformance.h"

/* Node i: i+1, i-1, i+2 (a ring with chords; repeats for tiny graphs). */
static int neighbor(int i, int n, int k) {
    if (k == 0) return (i + 1) % n;
    if (k == 1) return (i - 1 + n) % n;
    return (i + 2) % n;
}

static int error_class(int rc) {
    int cls = rc;
    if (rc != MPI_SUCCESS) MPI_Error_class(rc, &cls);
    return cls;
}

static void check_graph(conf_t* t, int nnodes) {
    int* index = (int*)conf_alloc(sizeof(int) * (size_t)(nnodes + 1));
    int* edges = (int*)conf_alloc(sizeof(int) * 3 * (size_t)(nnodes + 1));
    int* got_index = (int*)conf_alloc(sizeof(int) * (size_t)(nnodes + 1));
    int* got_edges = (int*)conf_alloc(sizeof(int) * 3 * (size_t)(nnodes + 1));
    int i, k, status, nn, ne, count, nb[3], r;
    MPI_Comm g;
    for (i = 0; i < nnodes; i++) {
        index[i] = 3 * (i + 1);
        for (k = 0; k < 3; k++) edges[3 * i + k] = neighbor(i, nnodes, k);
    }
    CONF_CALL(t, MPI_Graph_create(MPI_COMM_WORLD, nnodes, index, edges, 1, &g));
    CONF_CALL(t, MPI_Graph_map(MPI_COMM_WORLD, nnodes, index, edges, &r));
    CONF_CHECK(t, r == (t->rank < nnodes ? t->rank : MPI_UNDEFINED), "Graph_map %d", r);
    if (t->rank >= nnodes) {
        CONF_CHECK(t, g == MPI_COMM_NULL, "rank %d outside a %d-node graph got a communicator", t->rank, nnodes);
    } else if (g == MPI_COMM_NULL) {
        conf_fail(t, "rank %d inside a %d-node graph got MPI_COMM_NULL", t->rank, nnodes);
    } else {
        int me, size;
        MPI_Comm_set_errhandler(g, MPI_ERRORS_RETURN);
        CONF_CALL(t, MPI_Comm_rank(g, &me));
        CONF_CALL(t, MPI_Comm_size(g, &size));
        CONF_CHECK(t, me == t->rank && size == nnodes, "graph rank %d size %d", me, size);
        CONF_CALL(t, MPI_Topo_test(g, &status));
        CONF_CHECK(t, status == MPI_GRAPH, "Topo_test %d", status);
        CONF_CALL(t, MPI_Graphdims_get(g, &nn, &ne));
        CONF_CHECK(t, nn == nnodes && ne == 3 * nnodes, "Graphdims_get %d %d", nn, ne);
        CONF_CALL(t, MPI_Graph_get(g, nnodes, 3 * nnodes, got_index, got_edges));
        for (i = 0; i < nnodes; i++) CONF_CHECK(t, got_index[i] == index[i], "Graph_get index[%d]", i);
        for (i = 0; i < 3 * nnodes; i++) CONF_CHECK(t, got_edges[i] == edges[i], "Graph_get edges[%d]", i);
        /* A shorter array gets the first entries only. */
        got_edges[1] = -5;
        CONF_CALL(t, MPI_Graph_get(g, 1, 1, got_index, got_edges));
        CONF_CHECK(t, got_edges[0] == edges[0] && got_edges[1] == -5, "Graph_get with maxedges 1");
        for (i = 0; i < 2; i++) {
            const int who = i == 0 ? me : (me * 31 + 7) % nnodes;
            CONF_CALL(t, MPI_Graph_neighbors_count(g, who, &count));
            CONF_CHECK(t, count == 3, "Graph_neighbors_count(%d) = %d", who, count);
            CONF_CALL(t, MPI_Graph_neighbors(g, who, 3, nb));
            for (k = 0; k < 3; k++)
                CONF_CHECK(t, nb[k] == neighbor(who, nnodes, k), "Graph_neighbors(%d)[%d] = %d", who, k, nb[k]);
        }
        /* Messages along the edges: send my rank to each neighbor, receive from each. */
        {
            int sent[3], got[3] = {-1, -1, -1}, from[3], j;
            MPI_Request req[6];
            for (k = 0; k < 3; k++) {
                sent[k] = me;
                from[k] = neighbor(me, nnodes, k);
            }
            /* Neighbors of i are i+1, i-1, i+2; i receives from i-1 (its k=0 edge), i+1 (k=1), i-2 (k=2). */
            from[0] = (me - 1 + nnodes) % nnodes;
            from[1] = (me + 1) % nnodes;
            from[2] = (me - 2 + 2 * nnodes) % nnodes;
            for (k = 0; k < 3; k++) MPI_Irecv(&got[k], 1, MPI_INT, from[k], 100 + k, g, &req[k]);
            for (k = 0; k < 3; k++) MPI_Isend(&sent[k], 1, MPI_INT, neighbor(me, nnodes, k), 100 + k, g, &req[3 + k]);
            CONF_CALL(t, MPI_Waitall(6, req, MPI_STATUSES_IGNORE));
            for (j = 0; j < 3; j++) CONF_CHECK(t, got[j] == from[j], "message %d from %d: %d", j, from[j], got[j]);
        }
        CONF_CHECK(t, error_class(MPI_Graph_neighbors_count(g, nnodes, &count)) == MPI_ERR_RANK,
                   "Graph_neighbors_count of a rank outside the graph");
        CONF_CHECK(t, error_class(MPI_Cartdim_get(g, &count)) == MPI_ERR_TOPOLOGY, "Cartdim_get on a graph");
        CONF_CHECK(t, error_class(MPI_Dist_graph_neighbors_count(g, &count, &nn, &ne)) == MPI_ERR_TOPOLOGY,
                   "Dist_graph_neighbors_count on a graph");
        MPI_Comm_free(&g);
    }
    free(index);
    free(edges);
    free(got_index);
    free(got_edges);
}

int main(int argc, char** argv) {
    conf_t t;
    int index[2] = {1, 2}, edges[2] = {1, 0}, status, count;
    MPI_Comm g = MPI_COMM_NULL;
    MPI_Init(&argc, &argv);
    conf_init(&t, "topo_graph");
    check_graph(&t, t.size);
    if (t.size > 2) check_graph(&t, t.size - 2);

    CONF_CALL(&t, MPI_Topo_test(MPI_COMM_WORLD, &status));
    CONF_CHECK(&t, status == MPI_UNDEFINED, "Topo_test(MPI_COMM_WORLD) = %d", status);
    CONF_CHECK(&t, error_class(MPI_Graph_neighbors_count(MPI_COMM_WORLD, 0, &count)) == MPI_ERR_TOPOLOGY,
               "Graph_neighbors_count on MPI_COMM_WORLD");
    if (t.size >= 2) {
        edges[1] = 5 + t.size;  /* not a node */
        CONF_CHECK(&t, error_class(MPI_Graph_create(MPI_COMM_WORLD, 2, index, edges, 0, &g)) == MPI_ERR_ARG,
                   "Graph_create with an edge to a missing node");
        edges[1] = 0;
        index[1] = 0;  /* decreasing */
        CONF_CHECK(&t, error_class(MPI_Graph_create(MPI_COMM_WORLD, 2, index, edges, 0, &g)) == MPI_ERR_ARG,
                   "Graph_create with a decreasing index");
    }
    CONF_CHECK(&t, error_class(MPI_Graph_create(MPI_COMM_WORLD, t.size + 1, index, edges, 0, &g)) == MPI_ERR_ARG,
               "Graph_create with more nodes than ranks");
    return conf_finish(&t);
}
