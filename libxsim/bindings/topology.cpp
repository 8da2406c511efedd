// Process topologies: MPI_Dims_create, the Cartesian, graph and distributed-graph
// constructors and queries, MPI_Topo_test. Constructors are a collective split of the old
// communicator (split_comm; reorder is ignored, as the standard allows: ranks keep their
// order) plus the topology attached to the new communicator. The math is in
// libxsim/mpi/topology.cpp; here: validate -> trivial cases -> dispatch.
#include <mpi.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "libxsim/bindings/checks.hpp"
#include "libxsim/bindings/profiling_alias.hpp"
#include "libxsim/colls/edge_exchange.hpp"
#include "libxsim/colls/make_comm_split.hpp"
#include "libxsim/mpi/topology.hpp"

using namespace xsim;

namespace {

const char* kind_name(TopologyKind k) {
    switch (k) {
        case TopologyKind::Cartesian: return "a Cartesian";
        case TopologyKind::Graph: return "a graph";
        case TopologyKind::DistGraph: return "a distributed graph";
    }
    return "a";
}

// The communicator's topology, which must be of `kind` (MPI_ERR_TOPOLOGY otherwise).
int topology(CallScope& s, const Comm* c, TopologyKind kind, const Topology** out) {
    *out = c->topology.get();
    if (*out && (*out)->kind == kind) return MPI_SUCCESS;
    return s.fail(c, MPI_ERR_TOPOLOGY, std::string("the communicator does not have ") + kind_name(kind) + " topology");
}

// Topologies are defined on intracommunicators only (MPI_ERR_COMM otherwise).
int intracomm(CallScope& s, MPI_Comm handle, const Comm** out) {
    if (int e = checks::comm(s, handle, out)) return e;
    if (!(*out)->is_inter()) return MPI_SUCCESS;
    return s.fail(*out, MPI_ERR_COMM, "process topologies need an intracommunicator");
}

int check(CallScope& s, const Comm* c, int rc, const std::string& why) {
    return rc == MPI_SUCCESS ? MPI_SUCCESS : s.fail(c, rc, why);
}

int rank_in(CallScope& s, const Comm* c, int rank, int size) {
    if (rank >= 0 && rank < size) return MPI_SUCCESS;
    return s.fail(c, MPI_ERR_RANK, "invalid rank " + std::to_string(rank) + " (size " + std::to_string(size) + ")");
}

// Arrays of length n may be null when n is 0.
int array(CallScope& s, const Comm* c, const void* p, int n, const char* what) {
    return n > 0 ? checks::pointer(s, c, p, what) : MPI_SUCCESS;
}

// Splits `c` (color MPI_UNDEFINED: the caller gets MPI_COMM_NULL) and attaches `t`.
// split_comm reports its own errors through the error handler.
int create_topology_comm(CallScope& s, const Comm* c, int color, int key, std::shared_ptr<const Topology> t, MPI_Comm* out) {
    Comm* created = nullptr;
    if (int rc = split_comm(s, *c, color, key, &created)) return rc;
    if (created) created->topology = std::move(t);
    *out = created ? comm_handle(created) : MPI_COMM_NULL;
    return MPI_SUCCESS;
}

// Copies min(n, max) entries; MPI lets callers pass arrays shorter than the full list.
void copy_out(const std::vector<int>& from, int max, int* to) {
    std::copy_n(from.begin(), std::min<std::size_t>(from.size(), static_cast<std::size_t>(std::max(max, 0))), to);
}

}  // namespace

extern "C" {

XSIM_MPI_ALIAS(Dims_create)
int PMPI_Dims_create(int nnodes, int ndims, int dims[]) {
    XSIM_BEGIN_INITIALIZED("MPI_Dims_create");
    if (int e = array(scope, nullptr, dims, ndims, "dims")) return e;
    std::string why;
    return check(scope, nullptr, topo::dims_create(nnodes, ndims, dims, &why), why);
}

XSIM_MPI_ALIAS(Topo_test)
int PMPI_Topo_test(MPI_Comm comm, int* status) {
    XSIM_BEGIN_INITIALIZED("MPI_Topo_test");
    const Comm* c = nullptr;
    if (int e = checks::comm(scope, comm, &c)) return e;
    if (int e = checks::pointer(scope, c, status, "status")) return e;
    if (!c->topology) *status = MPI_UNDEFINED;
    else if (c->topology->kind == TopologyKind::Cartesian) *status = MPI_CART;
    else if (c->topology->kind == TopologyKind::Graph) *status = MPI_GRAPH;
    else *status = MPI_DIST_GRAPH;
    return MPI_SUCCESS;
}

// ---- Cartesian ----

XSIM_MPI_ALIAS(Cart_create)
int PMPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[], const int periods[], int reorder,
                     MPI_Comm* comm_cart) {
    (void)reorder;
    XSIM_BEGIN_INITIALIZED("MPI_Cart_create");
    const Comm* c = nullptr;
    if (int e = intracomm(scope, comm_old, &c)) return e;
    if (int e = checks::pointer(scope, c, comm_cart, "comm_cart")) return e;
    if (int e = array(scope, c, dims, ndims, "dims")) return e;
    if (int e = array(scope, c, periods, ndims, "periods")) return e;
    std::string why;
    if (int e = check(scope, c, topo::check_cartesian(c->size, ndims, dims, &why), why)) return e;
    const int rank = c->rank_of(scope.rank);
    auto t = std::make_shared<const Topology>(topo::make_cartesian(ndims, dims, periods));
    const int color = rank < topo::grid_size(t->dims) ? 0 : MPI_UNDEFINED;
    return create_topology_comm(scope, c, color, rank, std::move(t), comm_cart);
}

XSIM_MPI_ALIAS(Cart_sub)
int PMPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm* newcomm) {
    XSIM_BEGIN_INITIALIZED("MPI_Cart_sub");
    const Comm* c = nullptr;
    const Topology* t = nullptr;
    if (int e = checks::comm(scope, comm, &c)) return e;
    if (int e = topology(scope, c, TopologyKind::Cartesian, &t)) return e;
    if (int e = array(scope, c, remain_dims, t->ndims(), "remain_dims")) return e;
    if (int e = checks::pointer(scope, c, newcomm, "newcomm")) return e;
    topo::CartSub sub = topo::cart_sub(*t, c->rank_of(scope.rank), remain_dims);
    return create_topology_comm(scope, c, sub.color, sub.key, std::make_shared<const Topology>(std::move(sub.topology)), newcomm);
}

XSIM_MPI_ALIAS(Cartdim_get)
int PMPI_Cartdim_get(MPI_Comm comm, int* ndims) {
    XSIM_BEGIN_INITIALIZED("MPI_Cartdim_get");
    const Comm* c = nullptr;
    const Topology* t = nullptr;
    if (int e = checks::comm(scope, comm, &c)) return e;
    if (int e = topology(scope, c, TopologyKind::Cartesian, &t)) return e;
    if (int e = checks::pointer(scope, c, ndims, "ndims")) return e;
    *ndims = t->ndims();
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Cart_get)
int PMPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[]) {
    XSIM_BEGIN_INITIALIZED("MPI_Cart_get");
    const Comm* c = nullptr;
    const Topology* t = nullptr;
    if (int e = checks::comm(scope, comm, &c)) return e;
    if (int e = topology(scope, c, TopologyKind::Cartesian, &t)) return e;
    if (maxdims < t->ndims())
        return scope.fail(c, MPI_ERR_ARG, "maxdims " + std::to_string(maxdims) + " is smaller than ndims " +
                                              std::to_string(t->ndims()));
    const int n = t->ndims();
    if (int e = array(scope, c, dims, n, "dims")) return e;
    if (int e = array(scope, c, periods, n, "periods")) return e;
    if (int e = array(scope, c, coords, n, "coords")) return e;
    for (int i = 0; i < n; ++i) {
        dims[i] = t->dims[static_cast<std::size_t>(i)];
        periods[i] = t->periods[static_cast<std::size_t>(i)];
    }
    topo::cart_coords(*t, c->rank_of(scope.rank), coords);
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Cart_rank)
int PMPI_Cart_rank(MPI_Comm comm, const int coords[], int* rank) {
    XSIM_BEGIN_INITIALIZED("MPI_Cart_rank");
    const Comm* c = nullptr;
    const Topology* t = nullptr;
    if (int e = checks::comm(scope, comm, &c)) return e;
    if (int e = topology(scope, c, TopologyKind::Cartesian, &t)) return e;
    if (int e = array(scope, c, coords, t->ndims(), "coords")) return e;
    if (int e = checks::pointer(scope, c, rank, "rank")) return e;
    std::string why;
    return check(scope, c, topo::cart_rank(*t, coords, rank, &why), why);
}

XSIM_MPI_ALIAS(Cart_coords)
int PMPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[]) {
    XSIM_BEGIN_INITIALIZED("MPI_Cart_coords");
    const Comm* c = nullptr;
    const Topology* t = nullptr;
    if (int e = checks::comm(scope, comm, &c)) return e;
    if (int e = topology(scope, c, TopologyKind::Cartesian, &t)) return e;
    if (int e = rank_in(scope, c, rank, c->size)) return e;
    if (maxdims < t->ndims())
        return scope.fail(c, MPI_ERR_ARG, "maxdims " + std::to_string(maxdims) + " is smaller than ndims " +
                                              std::to_string(t->ndims()));
    if (int e = array(scope, c, coords, t->ndims(), "coords")) return e;
    topo::cart_coords(*t, rank, coords);
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Cart_shift)
int PMPI_Cart_shift(MPI_Comm comm, int direction, int disp, int* rank_source, int* rank_dest) {
    XSIM_BEGIN_INITIALIZED("MPI_Cart_shift");
    const Comm* c = nullptr;
    const Topology* t = nullptr;
    if (int e = checks::comm(scope, comm, &c)) return e;
    if (int e = topology(scope, c, TopologyKind::Cartesian, &t)) return e;
    if (direction < 0 || direction >= t->ndims())
        return scope.fail(c, MPI_ERR_DIMS, "direction " + std::to_string(direction) + " is not a dimension (ndims " +
                                               std::to_string(t->ndims()) + ")");
    if (int e = checks::pointer(scope, c, rank_source, "rank_source")) return e;
    if (int e = checks::pointer(scope, c, rank_dest, "rank_dest")) return e;
    topo::cart_shift(*t, c->rank_of(scope.rank), direction, disp, rank_source, rank_dest);
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Cart_map)
int PMPI_Cart_map(MPI_Comm comm, int ndims, const int dims[], const int periods[], int* newrank) {
    XSIM_BEGIN_INITIALIZED("MPI_Cart_map");
    const Comm* c = nullptr;
    if (int e = intracomm(scope, comm, &c)) return e;
    if (int e = array(scope, c, dims, ndims, "dims")) return e;
    if (int e = array(scope, c, periods, ndims, "periods")) return e;
    if (int e = checks::pointer(scope, c, newrank, "newrank")) return e;
    std::string why;
    if (int e = check(scope, c, topo::check_cartesian(c->size, ndims, dims, &why), why)) return e;
    // The identity mapping (what MPI_Cart_create does without reordering).
    const int rank = c->rank_of(scope.rank);
    *newrank = rank < topo::grid_size(std::vector<int>(dims, dims + ndims)) ? rank : MPI_UNDEFINED;
    return MPI_SUCCESS;
}

// ---- graph ----

XSIM_MPI_ALIAS(Graph_create)
int PMPI_Graph_create(MPI_Comm comm_old, int nnodes, const int index[], const int edges[], int reorder,
                      MPI_Comm* comm_graph) {
    (void)reorder;
    XSIM_BEGIN_INITIALIZED("MPI_Graph_create");
    const Comm* c = nullptr;
    if (int e = intracomm(scope, comm_old, &c)) return e;
    if (int e = checks::pointer(scope, c, comm_graph, "comm_graph")) return e;
    if (int e = array(scope, c, index, nnodes, "index")) return e;
    // The edge count is read only for a valid node count (check_graph reports the others).
    if (int e = array(scope, c, edges, nnodes > 0 && nnodes <= c->size ? index[nnodes - 1] : 0, "edges")) return e;
    std::string why;
    if (int e = check(scope, c, topo::check_graph(c->size, nnodes, index, edges, &why), why)) return e;
    const int rank = c->rank_of(scope.rank);
    auto t = std::make_shared<const Topology>(topo::make_graph(nnodes, index, edges));
    return create_topology_comm(scope, c, rank < nnodes ? 0 : MPI_UNDEFINED, rank, std::move(t), comm_graph);
}

XSIM_MPI_ALIAS(Graphdims_get)
int PMPI_Graphdims_get(MPI_Comm comm, int* nnodes, int* nedges) {
    XSIM_BEGIN_INITIALIZED("MPI_Graphdims_get");
    const Comm* c = nullptr;
    const Topology* t = nullptr;
    if (int e = checks::comm(scope, comm, &c)) return e;
    if (int e = topology(scope, c, TopologyKind::Graph, &t)) return e;
    if (int e = checks::pointer(scope, c, nnodes, "nnodes")) return e;
    if (int e = checks::pointer(scope, c, nedges, "nedges")) return e;
    *nnodes = t->graph->nnodes();
    *nedges = static_cast<int>(t->graph->edges.size());
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Graph_get)
int PMPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[]) {
    XSIM_BEGIN_INITIALIZED("MPI_Graph_get");
    const Comm* c = nullptr;
    const Topology* t = nullptr;
    if (int e = checks::comm(scope, comm, &c)) return e;
    if (int e = topology(scope, c, TopologyKind::Graph, &t)) return e;
    if (maxindex < 0 || maxedges < 0) return scope.fail(c, MPI_ERR_ARG, "negative maxindex or maxedges");
    if (int e = array(scope, c, index, std::min(maxindex, t->graph->nnodes()), "index")) return e;
    if (int e = array(scope, c, edges, std::min<int>(maxedges, static_cast<int>(t->graph->edges.size())), "edges"))
        return e;
    copy_out(t->graph->index, maxindex, index);
    copy_out(t->graph->edges, maxedges, edges);
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Graph_neighbors_count)
int PMPI_Graph_neighbors_count(MPI_Comm comm, int rank, int* nneighbors) {
    XSIM_BEGIN_INITIALIZED("MPI_Graph_neighbors_count");
    const Comm* c = nullptr;
    const Topology* t = nullptr;
    if (int e = checks::comm(scope, comm, &c)) return e;
    if (int e = topology(scope, c, TopologyKind::Graph, &t)) return e;
    if (int e = rank_in(scope, c, rank, t->graph->nnodes())) return e;
    if (int e = checks::pointer(scope, c, nneighbors, "nneighbors")) return e;
    *nneighbors = t->graph->degree(rank);
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Graph_neighbors)
int PMPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int neighbors[]) {
    XSIM_BEGIN_INITIALIZED("MPI_Graph_neighbors");
    const Comm* c = nullptr;
    const Topology* t = nullptr;
    if (int e = checks::comm(scope, comm, &c)) return e;
    if (int e = topology(scope, c, TopologyKind::Graph, &t)) return e;
    if (int e = rank_in(scope, c, rank, t->graph->nnodes())) return e;
    if (maxneighbors < 0) return scope.fail(c, MPI_ERR_ARG, "negative maxneighbors");
    const int n = std::min(maxneighbors, t->graph->degree(rank));
    if (int e = array(scope, c, neighbors, n, "neighbors")) return e;
    std::copy_n(t->graph->neighbors(rank), n, neighbors);
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Graph_map)
int PMPI_Graph_map(MPI_Comm comm, int nnodes, const int index[], const int edges[], int* newrank) {
    XSIM_BEGIN_INITIALIZED("MPI_Graph_map");
    const Comm* c = nullptr;
    if (int e = intracomm(scope, comm, &c)) return e;
    if (int e = array(scope, c, index, nnodes, "index")) return e;
    // The edge count is read only for a valid node count (check_graph reports the others).
    if (int e = array(scope, c, edges, nnodes > 0 && nnodes <= c->size ? index[nnodes - 1] : 0, "edges")) return e;
    if (int e = checks::pointer(scope, c, newrank, "newrank")) return e;
    std::string why;
    if (int e = check(scope, c, topo::check_graph(c->size, nnodes, index, edges, &why), why)) return e;
    const int rank = c->rank_of(scope.rank);
    *newrank = rank < nnodes ? rank : MPI_UNDEFINED;
    return MPI_SUCCESS;
}

// ---- distributed graph ----

XSIM_MPI_ALIAS(Dist_graph_create_adjacent)
int PMPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int sources[], const int sourceweights[],
                                    int outdegree, const int destinations[], const int destweights[], MPI_Info info,
                                    int reorder, MPI_Comm* comm_dist_graph) {
    (void)info;
    (void)reorder;
    XSIM_BEGIN_INITIALIZED("MPI_Dist_graph_create_adjacent");
    const Comm* c = nullptr;
    if (int e = intracomm(scope, comm_old, &c)) return e;
    if (int e = checks::pointer(scope, c, comm_dist_graph, "comm_dist_graph")) return e;
    if (int e = array(scope, c, sources, indegree, "sources")) return e;
    if (int e = array(scope, c, sourceweights, indegree, "sourceweights")) return e;
    if (int e = array(scope, c, destinations, outdegree, "destinations")) return e;
    if (int e = array(scope, c, destweights, outdegree, "destweights")) return e;
    std::string why;
    if (int e = check(scope, c, topo::check_neighbor_list(c->size, indegree, sources, sourceweights, "sources", &why),
                      why))
        return e;
    if (int e = check(scope, c,
                      topo::check_neighbor_list(c->size, outdegree, destinations, destweights, "destinations", &why),
                      why))
        return e;
    if ((sourceweights == MPI_UNWEIGHTED) != (destweights == MPI_UNWEIGHTED))
        return scope.fail(c, MPI_ERR_ARG, "MPI_UNWEIGHTED for only one of sourceweights and destweights");
    auto t = std::make_shared<const Topology>(
        topo::make_dist_graph(indegree, sources, sourceweights, outdegree, destinations, destweights));
    return create_topology_comm(scope, c, 0, c->rank_of(scope.rank), std::move(t), comm_dist_graph);
}

XSIM_MPI_ALIAS(Dist_graph_create)
int PMPI_Dist_graph_create(MPI_Comm comm_old, int n, const int sources[], const int degrees[], const int destinations[],
                           const int weights[], MPI_Info info, int reorder, MPI_Comm* comm_dist_graph) {
    (void)info;
    (void)reorder;
    XSIM_BEGIN_INITIALIZED("MPI_Dist_graph_create");
    const Comm* c = nullptr;
    if (int e = intracomm(scope, comm_old, &c)) return e;
    if (int e = checks::pointer(scope, c, comm_dist_graph, "comm_dist_graph")) return e;
    if (int e = array(scope, c, sources, n, "sources")) return e;
    if (int e = array(scope, c, degrees, n, "degrees")) return e;
    std::int64_t edges = 0;
    for (int i = 0; i < std::max(n, 0); ++i) edges += std::max(degrees[i], 0);
    if (int e = array(scope, c, destinations, static_cast<int>(std::min<std::int64_t>(edges, 1)), "destinations"))
        return e;
    if (int e = array(scope, c, weights, static_cast<int>(std::min<std::int64_t>(edges, 1)), "weights")) return e;
    std::string why;
    if (int e = check(scope, c, topo::check_edge_list(c->size, n, sources, degrees, destinations, weights, &why), why))
        return e;
    // Both ends of every edge named here must learn it.
    const bool weighted = weights != MPI_UNWEIGHTED;
    const int me = c->rank_of(scope.rank);
    std::vector<colls::EdgeNotice> notices;
    notices.reserve(static_cast<std::size_t>(2 * edges));
    for (int i = 0, e = 0; i < n; ++i) {
        for (int k = 0; k < degrees[i]; ++k, ++e) {
            const int w = weighted && weights != MPI_WEIGHTS_EMPTY ? weights[e] : 1;
            notices.push_back({sources[i], destinations[e], w, me, e, 0});
            notices.push_back({destinations[e], sources[i], w, me, e, 1});
        }
    }
    std::vector<colls::EdgeNotice> mine;
    if (int rc = colls::exchange_edges(scope.engine, scope.rank, *c, std::move(notices), &mine, &why))
        return scope.fail(c, rc, why);
    auto t = std::make_shared<Topology>();
    t->kind = TopologyKind::DistGraph;
    DistGraphAdjacency& a = t->dist;
    a.weighted = weighted;
    for (const colls::EdgeNotice& notice : mine) {
        (notice.incoming ? a.sources : a.destinations).push_back(notice.peer);
        if (weighted) (notice.incoming ? a.source_weights : a.destination_weights).push_back(notice.weight);
    }
    return create_topology_comm(scope, c, 0, me, std::move(t), comm_dist_graph);
}

XSIM_MPI_ALIAS(Dist_graph_neighbors_count)
int PMPI_Dist_graph_neighbors_count(MPI_Comm comm, int* indegree, int* outdegree, int* weighted) {
    XSIM_BEGIN_INITIALIZED("MPI_Dist_graph_neighbors_count");
    const Comm* c = nullptr;
    const Topology* t = nullptr;
    if (int e = checks::comm(scope, comm, &c)) return e;
    if (int e = topology(scope, c, TopologyKind::DistGraph, &t)) return e;
    if (int e = checks::pointer(scope, c, indegree, "indegree")) return e;
    if (int e = checks::pointer(scope, c, outdegree, "outdegree")) return e;
    if (int e = checks::pointer(scope, c, weighted, "weighted")) return e;
    *indegree = static_cast<int>(t->dist.sources.size());
    *outdegree = static_cast<int>(t->dist.destinations.size());
    *weighted = t->dist.weighted;
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Dist_graph_neighbors)
int PMPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[], int sourceweights[], int maxoutdegree,
                              int destinations[], int destweights[]) {
    XSIM_BEGIN_INITIALIZED("MPI_Dist_graph_neighbors");
    const Comm* c = nullptr;
    const Topology* t = nullptr;
    if (int e = checks::comm(scope, comm, &c)) return e;
    if (int e = topology(scope, c, TopologyKind::DistGraph, &t)) return e;
    const DistGraphAdjacency& a = t->dist;
    if (maxindegree < 0 || maxoutdegree < 0) return scope.fail(c, MPI_ERR_ARG, "negative maxindegree or maxoutdegree");
    const int in = std::min<int>(maxindegree, static_cast<int>(a.sources.size()));
    const int out = std::min<int>(maxoutdegree, static_cast<int>(a.destinations.size()));
    if (int e = array(scope, c, sources, in, "sources")) return e;
    if (int e = array(scope, c, destinations, out, "destinations")) return e;
    copy_out(a.sources, maxindegree, sources);
    copy_out(a.destinations, maxoutdegree, destinations);
    // Weights are written only for a weighted graph and only where the caller passed an array.
    if (a.weighted && sourceweights != MPI_UNWEIGHTED && sourceweights != MPI_WEIGHTS_EMPTY && sourceweights)
        copy_out(a.source_weights, maxindegree, sourceweights);
    if (a.weighted && destweights != MPI_UNWEIGHTED && destweights != MPI_WEIGHTS_EMPTY && destweights)
        copy_out(a.destination_weights, maxoutdegree, destweights);
    return MPI_SUCCESS;
}

}  // extern "C"
