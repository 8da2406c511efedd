#include "libxsim/mpi/topology.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <unordered_map>

#include "libxsim/mpi/process_objects.hpp"

namespace xsim {
namespace topo {
namespace {

int fail(int error_class, const std::string& what, std::string* why) {
    *why = what;
    return error_class;
}

// d^k >= m, without overflow.
bool power_reaches(std::int64_t d, int k, std::int64_t m) {
    std::int64_t p = 1;
    for (int i = 0; i < k; ++i) {
        if (p >= (m + d - 1) / d) return true;
        p *= d;
    }
    return p >= m;
}

// The lexicographically smallest non-increasing k-tuple of factors <= cap with product m
// (so the largest factor is as small as possible, then the next, ...); false if none.
// `divisors`: the sorted divisors of the original number, which include m's.
bool balanced_factors(std::int64_t m, int k, std::int64_t cap, const std::vector<std::int64_t>& divisors,
                      std::vector<int>* out) {
    if (k == 0) return m == 1;
    if (!power_reaches(cap, k, m)) return false;  // even k copies of cap are too small
    if (k == 1) {
        out->push_back(static_cast<int>(m));
        return true;
    }
    // The largest factor is at least the k-th root of m.
    for (std::int64_t d : divisors) {
        if (d > cap || d > m) break;
        if (m % d != 0 || !power_reaches(d, k, m)) continue;
        out->push_back(static_cast<int>(d));
        if (balanced_factors(m / d, k - 1, d, divisors, out)) return true;
        out->pop_back();
    }
    return false;
}

std::vector<std::int64_t> divisors_of(std::int64_t m) {
    std::vector<std::int64_t> small, large;
    for (std::int64_t d = 1; d * d <= m; ++d) {
        if (m % d) continue;
        small.push_back(d);
        if (d * d != m) large.push_back(m / d);
    }
    small.insert(small.end(), large.rbegin(), large.rend());
    return small;
}

// Per-process store of graphs (process_objects.hpp): ranks of one real process that create
// the same graph share one copy. Single-threaded (the scheduler's thread runs every rank).
std::shared_ptr<const GraphAdjacency> share_graph(GraphAdjacency g) {
    auto& store = process_objects().graphs;
    std::size_t h = std::hash<std::size_t>()(g.index.size());
    for (int v : g.index) h = h * 1000003u + static_cast<std::size_t>(v);
    for (int v : g.edges) h = h * 1000003u + static_cast<std::size_t>(v);
    auto range = store.equal_range(h);
    for (auto it = range.first; it != range.second;) {
        std::shared_ptr<const GraphAdjacency> held = it->second.lock();
        if (!held) {
            it = store.erase(it);
            continue;
        }
        if (*held == g) return held;
        ++it;
    }
    auto shared = std::make_shared<const GraphAdjacency>(std::move(g));
    store.emplace(h, shared);
    return shared;
}

// Keys of repeated neighbors: the k-th occurrence of a peer in `ranks` gets key k.
std::vector<NeighborMessage> ordinal_messages(const int* ranks, int n) {
    std::vector<NeighborMessage> out;
    out.reserve(static_cast<std::size_t>(n));
    std::unordered_map<int, int> seen;
    for (int i = 0; i < n; ++i) {
        if (ranks[i] == MPI_PROC_NULL) continue;
        out.push_back({ranks[i], i, seen[ranks[i]]++});
    }
    return out;
}

}  // namespace

// ---- validation ----

int check_cartesian(int comm_size, int ndims, const int* dims, std::string* why) {
    if (ndims < 0) return fail(MPI_ERR_DIMS, "negative ndims " + std::to_string(ndims), why);
    std::int64_t size = 1;
    for (int i = 0; i < ndims; ++i) {
        if (dims[i] <= 0)
            return fail(MPI_ERR_DIMS,
                        "dims[" + std::to_string(i) + "] = " + std::to_string(dims[i]) + " is not positive", why);
        if (size <= comm_size) size *= dims[i];
    }
    if (size > comm_size)
        return fail(MPI_ERR_TOPOLOGY,
                    "the grid has more ranks than the communicator (size " + std::to_string(comm_size) + ")", why);
    return MPI_SUCCESS;
}

int check_graph(int comm_size, int nnodes, const int* index, const int* edges, std::string* why) {
    if (nnodes < 0 || nnodes > comm_size)
        return fail(MPI_ERR_ARG,
                    "nnodes " + std::to_string(nnodes) + " is not in [0, communicator size " +
                        std::to_string(comm_size) + "]",
                    why);
    int previous = 0;
    for (int i = 0; i < nnodes; ++i) {
        if (index[i] < previous)
            return fail(MPI_ERR_ARG,
                        "index[" + std::to_string(i) + "] = " + std::to_string(index[i]) +
                            " is smaller than the previous entry (index holds cumulative degrees)",
                        why);
        previous = index[i];
    }
    for (int e = 0; e < previous; ++e)
        if (edges[e] < 0 || edges[e] >= nnodes)
            return fail(MPI_ERR_ARG,
                        "edges[" + std::to_string(e) + "] = " + std::to_string(edges[e]) + " is not a node in [0, " +
                            std::to_string(nnodes) + ")",
                        why);
    return MPI_SUCCESS;
}

int check_neighbor_list(int comm_size, int degree, const int* ranks, const int* weights, const char* what,
                        std::string* why) {
    if (degree < 0) return fail(MPI_ERR_ARG, std::string("negative ") + what + " degree", why);
    if (weights == MPI_WEIGHTS_EMPTY && degree > 0)
        return fail(MPI_ERR_ARG, std::string("MPI_WEIGHTS_EMPTY with a non-zero number of ") + what, why);
    const bool has_weights = weights != MPI_UNWEIGHTED && weights != MPI_WEIGHTS_EMPTY;
    for (int i = 0; i < degree; ++i) {
        if (ranks[i] < 0 || ranks[i] >= comm_size)
            return fail(MPI_ERR_ARG,
                        std::string(what) + "[" + std::to_string(i) + "] = " + std::to_string(ranks[i]) +
                            " is not a rank of the communicator (size " + std::to_string(comm_size) + ")",
                        why);
        if (has_weights && weights[i] < 0)
            return fail(MPI_ERR_ARG, std::string(what) + " weight " + std::to_string(i) + " is negative", why);
    }
    return MPI_SUCCESS;
}

int check_edge_list(int comm_size, int n, const int* sources, const int* degrees, const int* destinations,
                    const int* weights, std::string* why) {
    if (n < 0) return fail(MPI_ERR_ARG, "negative n " + std::to_string(n), why);
    std::int64_t edges = 0;
    for (int i = 0; i < n; ++i) {
        if (sources[i] < 0 || sources[i] >= comm_size)
            return fail(MPI_ERR_ARG,
                        "sources[" + std::to_string(i) + "] = " + std::to_string(sources[i]) +
                            " is not a rank of the communicator (size " + std::to_string(comm_size) + ")",
                        why);
        if (degrees[i] < 0) return fail(MPI_ERR_ARG, "degrees[" + std::to_string(i) + "] is negative", why);
        edges += degrees[i];
    }
    if (edges > 0x7fffffff) return fail(MPI_ERR_ARG, "more than INT_MAX edges", why);
    return check_neighbor_list(comm_size, static_cast<int>(edges), destinations, weights, "destinations", why);
}

// ---- MPI_Dims_create ----

int dims_create(int nnodes, int ndims, int* dims, std::string* why) {
    if (ndims < 0) return fail(MPI_ERR_DIMS, "negative ndims " + std::to_string(ndims), why);
    if (nnodes < 1) return fail(MPI_ERR_ARG, "nnodes " + std::to_string(nnodes) + " is not positive", why);
    std::int64_t fixed = 1;
    int free_dims = 0;
    for (int i = 0; i < ndims; ++i) {
        if (dims[i] < 0)
            return fail(MPI_ERR_DIMS, "dims[" + std::to_string(i) + "] = " + std::to_string(dims[i]) + " is negative",
                        why);
        if (dims[i] == 0) ++free_dims;
        else if (fixed <= nnodes) fixed *= dims[i];
    }
    if (nnodes % fixed != 0 || (free_dims == 0 && fixed != nnodes))
        return fail(MPI_ERR_DIMS,
                    std::to_string(nnodes) + " nodes cannot be divided into the given dimensions (product of the "
                    "fixed ones: " + std::to_string(fixed) + ")",
                    why);
    std::vector<int> factors;
    const std::int64_t rest = nnodes / fixed;
    // Always succeeds: (rest, 1, ..., 1) is a factorization.
    balanced_factors(rest, free_dims, rest, divisors_of(rest), &factors);
    std::size_t next = 0;
    for (int i = 0; i < ndims; ++i)
        if (dims[i] == 0) dims[i] = factors[next++];
    return MPI_SUCCESS;
}

// ---- Cartesian ----

Topology make_cartesian(int ndims, const int* dims, const int* periods) {
    Topology t;
    t.kind = TopologyKind::Cartesian;
    t.dims.assign(dims, dims + ndims);
    t.periods.resize(static_cast<std::size_t>(ndims));
    for (int i = 0; i < ndims; ++i) t.periods[static_cast<std::size_t>(i)] = periods[i] ? 1 : 0;
    return t;
}

std::int64_t grid_size(const std::vector<int>& dims) {
    std::int64_t n = 1;
    for (int d : dims) n *= d;
    return n;
}

int cart_rank(const Topology& t, const int* coords, int* rank, std::string* why) {
    std::int64_t r = 0;
    for (int i = 0; i < t.ndims(); ++i) {
        const std::int64_t d = t.dims[static_cast<std::size_t>(i)];
        std::int64_t c = coords[i];
        if (t.periods[static_cast<std::size_t>(i)]) c = ((c % d) + d) % d;
        else if (c < 0 || c >= d)
            return fail(MPI_ERR_ARG,
                        "coords[" + std::to_string(i) + "] = " + std::to_string(coords[i]) +
                            " is outside the non-periodic dimension of size " + std::to_string(d),
                        why);
        r = r * d + c;
    }
    *rank = static_cast<int>(r);
    return MPI_SUCCESS;
}

void cart_coords(const Topology& t, int rank, int* coords) {
    for (int i = t.ndims() - 1; i >= 0; --i) {
        const int d = t.dims[static_cast<std::size_t>(i)];
        coords[i] = rank % d;
        rank /= d;
    }
}

void cart_shift(const Topology& t, int rank, int direction, int disp, int* source, int* dest) {
    // The stride of `direction` in row-major order, and the coordinate along it.
    std::int64_t stride = 1;
    for (int i = t.ndims() - 1; i > direction; --i) stride *= t.dims[static_cast<std::size_t>(i)];
    const std::int64_t d = t.dims[static_cast<std::size_t>(direction)];
    const std::int64_t c = (rank / stride) % d;
    const bool periodic = t.periods[static_cast<std::size_t>(direction)] != 0;
    auto moved = [&](std::int64_t by) {
        std::int64_t to = c + by;
        if (periodic) to = ((to % d) + d) % d;
        else if (to < 0 || to >= d) return static_cast<int>(MPI_PROC_NULL);
        return static_cast<int>(rank + (to - c) * stride);
    };
    *dest = moved(disp);
    *source = moved(-static_cast<std::int64_t>(disp));
}

CartSub cart_sub(const Topology& t, int rank, const int* remain_dims) {
    CartSub s;
    s.topology.kind = TopologyKind::Cartesian;
    std::vector<int> coords(static_cast<std::size_t>(t.ndims()));
    cart_coords(t, rank, coords.data());
    std::int64_t color = 0, key = 0;
    for (int i = 0; i < t.ndims(); ++i) {
        const std::size_t u = static_cast<std::size_t>(i);
        if (remain_dims[i]) {
            key = key * t.dims[u] + coords[u];
            s.topology.dims.push_back(t.dims[u]);
            s.topology.periods.push_back(t.periods[u]);
        } else {
            color = color * t.dims[u] + coords[u];
        }
    }
    s.color = static_cast<int>(color);
    s.key = static_cast<int>(key);
    return s;
}

// ---- graphs ----

Topology make_graph(int nnodes, const int* index, const int* edges) {
    GraphAdjacency g;
    g.index.assign(index, index + nnodes);
    const int nedges = nnodes > 0 ? index[nnodes - 1] : 0;
    g.edges.assign(edges, edges + nedges);
    Topology t;
    t.kind = TopologyKind::Graph;
    t.graph = share_graph(std::move(g));
    return t;
}

Topology make_dist_graph(int indegree, const int* sources, const int* sourceweights, int outdegree,
                         const int* destinations, const int* destweights) {
    Topology t;
    t.kind = TopologyKind::DistGraph;
    DistGraphAdjacency& a = t.dist;
    a.sources.assign(sources, sources + indegree);
    a.destinations.assign(destinations, destinations + outdegree);
    a.weighted = sourceweights != MPI_UNWEIGHTED && destweights != MPI_UNWEIGHTED;
    if (a.weighted) {
        if (sourceweights != MPI_WEIGHTS_EMPTY) a.source_weights.assign(sourceweights, sourceweights + indegree);
        if (destweights != MPI_WEIGHTS_EMPTY) a.destination_weights.assign(destweights, destweights + outdegree);
    }
    return t;
}

// ---- neighbor collectives ----

int indegree(const Topology& t, int rank) {
    switch (t.kind) {
        case TopologyKind::Cartesian: return 2 * t.ndims();
        case TopologyKind::Graph: return t.graph->degree(rank);
        case TopologyKind::DistGraph: return static_cast<int>(t.dist.sources.size());
    }
    return 0;
}

int outdegree(const Topology& t, int rank) {
    return t.kind == TopologyKind::DistGraph ? static_cast<int>(t.dist.destinations.size()) : indegree(t, rank);
}

NeighborPlan neighbor_plan(const Topology& t, int rank) {
    NeighborPlan p;
    p.indegree = indegree(t, rank);
    p.outdegree = outdegree(t, rank);
    switch (t.kind) {
        case TopologyKind::Cartesian:
            // Blocks 2i and 2i+1: the -1 and +1 neighbors along dimension i. What goes to the
            // -1 neighbor fills its +1 block (key 2i+1) and vice versa. Sends and receives
            // both take, per dimension, the "+1 block" message first: when one peer is both
            // neighbors (periodic, size 1 or 2) the keys then come in the same order.
            for (int i = 0; i < t.ndims(); ++i) {
                int minus = 0, plus = 0;
                cart_shift(t, rank, i, 1, &minus, &plus);
                if (minus != MPI_PROC_NULL) p.sends.push_back({minus, 2 * i, 2 * i + 1});
                if (plus != MPI_PROC_NULL) p.sends.push_back({plus, 2 * i + 1, 2 * i});
                if (plus != MPI_PROC_NULL) p.receives.push_back({plus, 2 * i + 1, 2 * i + 1});
                if (minus != MPI_PROC_NULL) p.receives.push_back({minus, 2 * i, 2 * i});
            }
            break;
        case TopologyKind::Graph:
            p.sends = ordinal_messages(t.graph->neighbors(rank), p.outdegree);
            p.receives = p.sends;
            break;
        case TopologyKind::DistGraph:
            p.sends = ordinal_messages(t.dist.destinations.data(), p.outdegree);
            p.receives = ordinal_messages(t.dist.sources.data(), p.indegree);
            break;
    }
    return p;
}

}  // namespace topo
}  // namespace xsim
