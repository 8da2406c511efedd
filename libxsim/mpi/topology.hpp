// Process topologies (MPI "Virtual Topologies"): what a communicator created by
// MPI_Cart_create, MPI_Graph_create or MPI_Dist_graph_create(_adjacent) carries
// (Comm::topology), and the pure math on it: Cartesian rank <-> coordinates, shifts,
// sub-grids, MPI_Dims_create, graph neighbors, and the messages of a neighbor collective.
// No engine, no MPI calls: the bindings (bindings/topology.cpp) validate and dispatch here.
//
// Memory: a Cartesian topology is O(ndims) per rank, never O(size), so 2^20-rank grids
// cost nothing per rank beyond their dimensions. A graph (MPI_Graph_create passes the
// whole graph to every rank) is stored once per real process and shared. A distributed
// graph holds only the calling rank's own edges.
#pragma once
#include <mpi.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace xsim {

enum class TopologyKind : std::uint8_t { Cartesian, Graph, DistGraph };

// The whole graph of MPI_Graph_create: node i's neighbors are
// edges[index[i-1] .. index[i]) (index[-1] = 0).
struct GraphAdjacency {
    std::vector<int> index;
    std::vector<int> edges;

    int nnodes() const { return static_cast<int>(index.size()); }
    int first_edge(int node) const { return node == 0 ? 0 : index[static_cast<std::size_t>(node) - 1]; }
    int degree(int node) const { return index[static_cast<std::size_t>(node)] - first_edge(node); }
    const int* neighbors(int node) const { return edges.data() + first_edge(node); }
    bool operator==(const GraphAdjacency& o) const { return index == o.index && edges == o.edges; }
};

// One rank's edges of a distributed graph, in the order MPI_Dist_graph_neighbors returns
// them: in-neighbors (sources) and out-neighbors (destinations), with their weights
// (empty when the graph is unweighted).
struct DistGraphAdjacency {
    std::vector<int> sources, source_weights;
    std::vector<int> destinations, destination_weights;
    bool weighted = false;
};

struct Topology {
    TopologyKind kind = TopologyKind::Cartesian;
    // Cartesian: extent and periodicity per dimension (ndims = dims.size(), may be 0).
    std::vector<int> dims;
    std::vector<char> periods;
    // Graph: shared by every rank of the real process that holds the same graph.
    std::shared_ptr<const GraphAdjacency> graph;
    // Distributed graph: this rank's edges only.
    DistGraphAdjacency dist;

    int ndims() const { return static_cast<int>(dims.size()); }
};

namespace topo {

// ---- validation (MPI_SUCCESS, or an error class with *why set) ----

// ndims >= 0 and dims[i] > 0 (MPI_ERR_DIMS), the grid fits in the communicator
// (MPI_ERR_TOPOLOGY). For MPI_Cart_create and MPI_Cart_map.
int check_cartesian(int comm_size, int ndims, const int* dims, std::string* why);
// 0 <= nnodes <= comm_size, index non-decreasing from >= 0, edges in [0, nnodes)
// (MPI_ERR_ARG). For MPI_Graph_create and MPI_Graph_map.
int check_graph(int comm_size, int nnodes, const int* index, const int* edges, std::string* why);
// Degrees >= 0, neighbors in [0, comm_size), weights >= 0 (MPI_ERR_ARG). `weights` may be
// MPI_UNWEIGHTED or MPI_WEIGHTS_EMPTY. For MPI_Dist_graph_create_adjacent (one side).
int check_neighbor_list(int comm_size, int degree, const int* ranks, const int* weights, const char* what,
                        std::string* why);
// MPI_Dist_graph_create: n sources, each with degrees[i] destinations.
int check_edge_list(int comm_size, int n, const int* sources, const int* degrees, const int* destinations,
                    const int* weights, std::string* why);

// ---- MPI_Dims_create ----

// Fills the zero entries of dims[0..ndims) so that the product of all entries is nnodes,
// the filled entries are as close to each other as possible (the largest as small as
// possible, then the next, ...) and non-increasing. Positive entries are kept. Errors:
// ndims < 0 or a negative entry or nnodes not divisible as required (MPI_ERR_DIMS),
// nnodes < 1 (MPI_ERR_ARG).
int dims_create(int nnodes, int ndims, int* dims, std::string* why);

// ---- Cartesian ----

Topology make_cartesian(int ndims, const int* dims, const int* periods);
// Number of ranks in the grid (product of dims; 1 for ndims = 0).
std::int64_t grid_size(const std::vector<int>& dims);
// Row-major rank of `coords`; periodic dimensions wrap, others must be in range (MPI_ERR_ARG).
int cart_rank(const Topology& t, const int* coords, int* rank, std::string* why);
void cart_coords(const Topology& t, int rank, int* coords);
// MPI_Cart_shift: the ranks `disp` steps before and after `rank` along `direction`;
// MPI_PROC_NULL off the edge of a non-periodic dimension.
void cart_shift(const Topology& t, int rank, int direction, int disp, int* source, int* dest);

// MPI_Cart_sub: ranks with equal coordinates in the dropped dimensions form one sub-grid.
// color: row-major index of those coordinates; key: row-major index in the kept ones
// (the rank in the sub-grid); topology: the kept dimensions.
struct CartSub {
    int color = 0;
    int key = 0;
    Topology topology;
};
CartSub cart_sub(const Topology& t, int rank, const int* remain_dims);

// ---- graphs ----

Topology make_graph(int nnodes, const int* index, const int* edges);
// A topology of MPI_Dist_graph_create_adjacent: this rank's lists as given.
Topology make_dist_graph(int indegree, const int* sources, const int* sourceweights, int outdegree,
                         const int* destinations, const int* destweights);

// ---- neighbor collectives ----

// One message of a neighbor collective. `slot` is the block's index in the send buffer
// (sends) or the receive buffer (receives). `key` tells the receiver which of its blocks
// the message fills, so a peer that is a neighbor several times (multi-edges, or a
// periodic dimension of size 1 or 2) fills the right ones: the sender's key equals the
// receiver's key of that block, and it travels in the tag.
struct NeighborMessage {
    int peer;
    int slot;
    int key;
};

// The messages of one rank, MPI_PROC_NULL neighbors left out, in posting order. Per
// (sender, receiver) pair, the sender's sends and the receiver's receives come in the
// same key order, so receives that accept the next message from a peer match them.
struct NeighborPlan {
    int indegree = 0;    // receive blocks (MPI_PROC_NULL neighbors included)
    int outdegree = 0;   // send blocks
    std::vector<NeighborMessage> sends;
    std::vector<NeighborMessage> receives;
};

// Neighbor order (MPI-4 7.6/8.6): Cartesian, for each dimension the -1 then the +1
// neighbor, in and out alike, MPI_PROC_NULL ones included as blocks nobody fills; the
// block sent to the -1 neighbor arrives in that neighbor's "+1" block. Graph: the
// neighbors of MPI_Graph_neighbors, in and out. Distributed graph: sources in,
// destinations out. A repeated neighbor pairs its k-th send with the k-th receive.
NeighborPlan neighbor_plan(const Topology& t, int rank);
int indegree(const Topology& t, int rank);
int outdegree(const Topology& t, int rank);

}  // namespace topo
}  // namespace xsim
