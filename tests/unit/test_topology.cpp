// The topology math of libxsim/mpi/topology.hpp: MPI_Dims_create's rules, Cartesian
// rank <-> coordinates, shifts and sub-grids, graph storage and validation, and the
// neighbor-collective plans (which block each message fills, and that sender and
// receiver agree on it when a peer is a neighbor several times).
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "libxsim/mpi/process_objects.hpp"
#include "libxsim/mpi/topology.hpp"

using namespace xsim;
using namespace xsim::topo;

namespace {

std::vector<int> dims_of(int nnodes, std::vector<int> dims, int* rc = nullptr) {
    std::string why;
    const int r = dims_create(nnodes, static_cast<int>(dims.size()), dims.data(), &why);
    if (rc) *rc = r;
    else EXPECT_EQ(r, MPI_SUCCESS) << why;
    return dims;
}

// The reference: among all non-increasing k-tuples with product n, the lexicographically
// smallest (smallest largest factor, then the next...), by exhaustive enumeration.
void enumerate(int n, int k, int cap, std::vector<int>& cur, std::vector<int>& best) {
    if (k == 0) {
        if (n == 1 && (best.empty() || cur < best)) best = cur;
        return;
    }
    for (int d = 1; d <= std::min(n, cap); ++d) {
        if (n % d) continue;
        cur.push_back(d);
        enumerate(n / d, k - 1, d, cur, best);
        cur.pop_back();
    }
}

Topology cart(std::vector<int> dims, std::vector<int> periods) {
    return make_cartesian(static_cast<int>(dims.size()), dims.data(), periods.data());
}

// Delivers every rank's plan: for each (sender, receiver) pair, the k-th send is matched
// with the k-th receive (MPI's non-overtaking order), and its key must be the receive's
// key. Returns, per rank and receive block, "sender:send block" (or "" if never filled).
std::vector<std::vector<std::string>> deliver(const Topology& t, int size,
                                              const std::function<Topology(int)>& topology_of = nullptr) {
    std::vector<NeighborPlan> plans;
    for (int r = 0; r < size; ++r) plans.push_back(neighbor_plan(topology_of ? topology_of(r) : t, r));
    std::map<std::pair<int, int>, std::vector<NeighborMessage>> in_flight;  // (from, to) -> sends in order
    for (int r = 0; r < size; ++r)
        for (const NeighborMessage& m : plans[static_cast<std::size_t>(r)].sends) in_flight[{r, m.peer}].push_back(m);
    std::vector<std::vector<std::string>> got(static_cast<std::size_t>(size));
    for (int r = 0; r < size; ++r) {
        const NeighborPlan& p = plans[static_cast<std::size_t>(r)];
        got[static_cast<std::size_t>(r)].assign(static_cast<std::size_t>(p.indegree), "");
        std::map<int, std::size_t> next;  // per source, the next message to match
        for (const NeighborMessage& m : p.receives) {
            auto& queue = in_flight[{m.peer, r}];
            std::size_t& i = next[m.peer];
            EXPECT_LT(i, queue.size()) << "rank " << r << " waits for a message " << m.peer << " never sends";
            if (i >= queue.size()) continue;
            EXPECT_EQ(queue[i].key, m.key) << "rank " << r << " from " << m.peer << " receive " << i;
            got[static_cast<std::size_t>(r)][static_cast<std::size_t>(m.slot)] =
                std::to_string(m.peer) + ":" + std::to_string(queue[i].slot);
            ++i;
        }
        for (auto& [source, count] : next) EXPECT_EQ(count, (in_flight[{source, r}].size()));
    }
    for (auto& [pair, queue] : in_flight) {
        std::size_t received = 0;
        for (const NeighborMessage& m : plans[static_cast<std::size_t>(pair.second)].receives)
            received += m.peer == pair.first;
        EXPECT_EQ(received, queue.size()) << pair.first << " sends " << queue.size() << " to " << pair.second;
    }
    return got;
}

}  // namespace

TEST(DimsCreate, StandardExamples) {
    EXPECT_EQ(dims_of(6, {0, 0}), (std::vector<int>{3, 2}));
    EXPECT_EQ(dims_of(7, {0, 0}), (std::vector<int>{7, 1}));
    EXPECT_EQ(dims_of(6, {0, 3, 0}), (std::vector<int>{2, 3, 1}));
    int rc = 0;
    dims_of(7, {0, 3, 0}, &rc);
    EXPECT_EQ(rc, MPI_ERR_DIMS);
}

TEST(DimsCreate, BalancedNonIncreasing) {
    EXPECT_EQ(dims_of(16, {0, 0, 0}), (std::vector<int>{4, 2, 2}));
    EXPECT_EQ(dims_of(12, {0, 0, 0}), (std::vector<int>{3, 2, 2}));
    EXPECT_EQ(dims_of(1000, {0, 0, 0}), (std::vector<int>{10, 10, 10}));
    EXPECT_EQ(dims_of(1024, {0, 0}), (std::vector<int>{32, 32}));
    EXPECT_EQ(dims_of(1 << 20, {0, 0, 0}), (std::vector<int>{128, 128, 64}));
    EXPECT_EQ(dims_of(30, {0, 0, 0, 0}), (std::vector<int>{5, 3, 2, 1}));
    EXPECT_EQ(dims_of(1009, {0, 0}), (std::vector<int>{1009, 1}));
    EXPECT_EQ(dims_of(2147483647, {0, 0, 0}), (std::vector<int>{2147483647, 1, 1}));
    EXPECT_EQ(dims_of(1, {0, 0, 0}), (std::vector<int>{1, 1, 1}));
    EXPECT_EQ(dims_of(1, {}), (std::vector<int>{}));
    // Fixed entries stay; the free ones are non-increasing among themselves.
    EXPECT_EQ(dims_of(24, {0, 1, 0, 2}), (std::vector<int>{4, 1, 3, 2}));
    EXPECT_EQ(dims_of(8, {2, 2, 2}), (std::vector<int>{2, 2, 2}));
}

TEST(DimsCreate, MatchesExhaustiveSearch) {
    for (int n = 1; n <= 400; ++n) {
        for (int k = 1; k <= 4; ++k) {
            std::vector<int> cur, best;
            enumerate(n, k, n, cur, best);
            EXPECT_EQ(dims_of(n, std::vector<int>(static_cast<std::size_t>(k), 0)), best) << n << " into " << k;
        }
    }
}

TEST(DimsCreate, Errors) {
    int rc = 0;
    dims_of(2, {}, &rc);
    EXPECT_EQ(rc, MPI_ERR_DIMS);   // no dimension to hold 2 nodes
    dims_of(12, {5, 0}, &rc);
    EXPECT_EQ(rc, MPI_ERR_DIMS);   // 12 is not a multiple of 5
    dims_of(12, {2, 3}, &rc);
    EXPECT_EQ(rc, MPI_ERR_DIMS);   // all fixed, product 6 != 12
    dims_of(12, {-1, 0}, &rc);
    EXPECT_EQ(rc, MPI_ERR_DIMS);
    dims_of(0, {0}, &rc);
    EXPECT_EQ(rc, MPI_ERR_ARG);
    std::string why;
    EXPECT_EQ(dims_create(4, -1, nullptr, &why), MPI_ERR_DIMS);
}

TEST(Cartesian, ValidationClasses) {
    std::string why;
    const int dims[] = {2, 3, 0};
    EXPECT_EQ(check_cartesian(6, 2, dims, &why), MPI_SUCCESS);
    EXPECT_EQ(check_cartesian(5, 2, dims, &why), MPI_ERR_TOPOLOGY);
    EXPECT_EQ(check_cartesian(100, 3, dims, &why), MPI_ERR_DIMS);
    EXPECT_EQ(check_cartesian(100, -1, dims, &why), MPI_ERR_DIMS);
    EXPECT_EQ(check_cartesian(1, 0, dims, &why), MPI_SUCCESS);
    const int huge[] = {65536, 65536, 65536};  // product overflows 32 bits
    EXPECT_EQ(check_cartesian(1 << 20, 3, huge, &why), MPI_ERR_TOPOLOGY);
}

TEST(Cartesian, RankCoordsRoundTripRowMajor) {
    const Topology t = cart({3, 4, 5}, {0, 1, 0});
    EXPECT_EQ(grid_size(t.dims), 60);
    for (int r = 0; r < 60; ++r) {
        int c[3], back = -1;
        std::string why;
        cart_coords(t, r, c);
        EXPECT_EQ(c[0], r / 20);
        EXPECT_EQ(c[1], r / 5 % 4);
        EXPECT_EQ(c[2], r % 5);
        EXPECT_EQ(cart_rank(t, c, &back, &why), MPI_SUCCESS);
        EXPECT_EQ(back, r);
    }
}

TEST(Cartesian, RankWrapsPeriodicAndRejectsOutsideOthers) {
    const Topology t = cart({3, 4}, {0, 1});
    std::string why;
    int r = -1;
    const int wrapped[] = {1, -1};
    EXPECT_EQ(cart_rank(t, wrapped, &r, &why), MPI_SUCCESS);
    EXPECT_EQ(r, 1 * 4 + 3);
    const int far[] = {2, 4 * 1000 + 2};
    EXPECT_EQ(cart_rank(t, far, &r, &why), MPI_SUCCESS);
    EXPECT_EQ(r, 2 * 4 + 2);
    const int outside[] = {3, 0};
    EXPECT_EQ(cart_rank(t, outside, &r, &why), MPI_ERR_ARG);
    EXPECT_NE(why.find("non-periodic"), std::string::npos);
    const int negative[] = {-1, 0};
    EXPECT_EQ(cart_rank(t, negative, &r, &why), MPI_ERR_ARG);
}

TEST(Cartesian, ShiftPeriodicAndNot) {
    const Topology t = cart({4, 3}, {1, 0});  // rank = 3 * c0 + c1
    int src = 0, dst = 0;
    cart_shift(t, 0, 0, 1, &src, &dst);   // (0,0): up/down the periodic dimension
    EXPECT_EQ(src, 9);
    EXPECT_EQ(dst, 3);
    cart_shift(t, 0, 0, -5, &src, &dst);  // -5 = -1 mod 4
    EXPECT_EQ(src, 3);
    EXPECT_EQ(dst, 9);
    cart_shift(t, 0, 1, 1, &src, &dst);   // non-periodic: nothing before (0,0)
    EXPECT_EQ(src, MPI_PROC_NULL);
    EXPECT_EQ(dst, 1);
    cart_shift(t, 5, 1, 1, &src, &dst);   // (1,2): nothing after it
    EXPECT_EQ(src, 4);
    EXPECT_EQ(dst, MPI_PROC_NULL);
    cart_shift(t, 5, 1, 3, &src, &dst);
    EXPECT_EQ(src, MPI_PROC_NULL);
    EXPECT_EQ(dst, MPI_PROC_NULL);
    cart_shift(t, 4, 1, 0, &src, &dst);   // no displacement: itself
    EXPECT_EQ(src, 4);
    EXPECT_EQ(dst, 4);
    const Topology ring1 = cart({1}, {1});
    cart_shift(ring1, 0, 0, 1, &src, &dst);
    EXPECT_EQ(src, 0);
    EXPECT_EQ(dst, 0);
}

TEST(Cartesian, SubGridsByDroppedCoordinates) {
    const Topology t = cart({2, 3, 4}, {1, 0, 1});
    const int keep_last[] = {0, 0, 1};
    const int keep_outer[] = {1, 0, 1};
    const int keep_none[] = {0, 0, 0};
    for (int r = 0; r < 24; ++r) {
        int c[3];
        cart_coords(t, r, c);
        const CartSub rows = cart_sub(t, r, keep_last);
        EXPECT_EQ(rows.color, c[0] * 3 + c[1]);
        EXPECT_EQ(rows.key, c[2]);
        EXPECT_EQ(rows.topology.dims, (std::vector<int>{4}));
        EXPECT_EQ(rows.topology.periods, (std::vector<char>{1}));
        const CartSub planes = cart_sub(t, r, keep_outer);
        EXPECT_EQ(planes.color, c[1]);
        EXPECT_EQ(planes.key, c[0] * 4 + c[2]);
        EXPECT_EQ(planes.topology.dims, (std::vector<int>{2, 4}));
        EXPECT_EQ(planes.topology.periods, (std::vector<char>{1, 1}));
        const CartSub none = cart_sub(t, r, keep_none);
        EXPECT_EQ(none.color, r);
        EXPECT_EQ(none.key, 0);
        EXPECT_EQ(none.topology.ndims(), 0);
    }
}

TEST(Cartesian, NeighborOrderAndPlacement) {
    // For each dimension the -1 then the +1 neighbor, in and out; what a rank sends to its
    // -1 neighbor lands in that neighbor's +1 block.
    for (auto [dims, periods] : std::vector<std::pair<std::vector<int>, std::vector<int>>>{
             {{5}, {1}}, {{5}, {0}}, {{1}, {1}}, {{2}, {1}}, {{2}, {0}}, {{1}, {0}},
             {{2, 2}, {1, 1}}, {{1, 2, 3}, {1, 1, 1}}, {{3, 1, 2}, {0, 1, 1}}, {{4, 3, 2}, {1, 0, 1}}}) {
        const Topology t = cart(dims, periods);
        const int size = static_cast<int>(grid_size(dims));
        const auto got = deliver(t, size);
        for (int r = 0; r < size; ++r) {
            const NeighborPlan p = neighbor_plan(t, r);
            EXPECT_EQ(p.indegree, 2 * t.ndims());
            EXPECT_EQ(p.outdegree, 2 * t.ndims());
            for (int i = 0; i < t.ndims(); ++i) {
                int minus = 0, plus = 0;
                cart_shift(t, r, i, 1, &minus, &plus);
                const std::string& from_minus = got[static_cast<std::size_t>(r)][static_cast<std::size_t>(2 * i)];
                const std::string& from_plus = got[static_cast<std::size_t>(r)][static_cast<std::size_t>(2 * i + 1)];
                // The -1 neighbor sent toward +1 (its block 2i+1), the +1 neighbor toward -1.
                const std::string minus_sent = std::to_string(minus) + ":" + std::to_string(2 * i + 1);
                EXPECT_EQ(from_minus, minus == MPI_PROC_NULL ? "" : minus_sent)
                    << "dims " << dims.size() << " rank " << r << " dim " << i;
                EXPECT_EQ(from_plus, plus == MPI_PROC_NULL ? "" : std::to_string(plus) + ":" + std::to_string(2 * i))
                    << "dims " << dims.size() << " rank " << r << " dim " << i;
            }
        }
    }
}

TEST(Cartesian, HugeGridIsSmallPerRank) {
    const Topology t = cart({128, 128, 64}, {1, 1, 1});
    EXPECT_EQ(grid_size(t.dims), 1 << 20);
    const NeighborPlan p = neighbor_plan(t, (1 << 20) - 1);
    EXPECT_EQ(p.sends.size(), 6u);
    int c[3];
    cart_coords(t, (1 << 20) - 1, c);
    EXPECT_EQ(c[0], 127);
    EXPECT_EQ(c[2], 63);
}

TEST(Graph, ValidationAndNeighbors) {
    ProcessObjects objects;  // where a process shares its graphs (an engine owns them in a run)
    CurrentObjects current(objects);
    // The example of the standard: 4 nodes, 0-1, 0-3, 1-0, 2-3, 3-0, 3-2.
    const int index[] = {2, 3, 4, 6};
    const int edges[] = {1, 3, 0, 3, 0, 2};
    std::string why;
    EXPECT_EQ(check_graph(4, 4, index, edges, &why), MPI_SUCCESS);
    EXPECT_EQ(check_graph(3, 4, index, edges, &why), MPI_ERR_ARG);   // more nodes than ranks
    EXPECT_EQ(check_graph(4, -1, index, edges, &why), MPI_ERR_ARG);
    const int bad_index[] = {2, 1, 4, 6};
    EXPECT_EQ(check_graph(4, 4, bad_index, edges, &why), MPI_ERR_ARG);
    const int bad_edges[] = {1, 3, 0, 4, 0, 2};
    EXPECT_EQ(check_graph(4, 4, index, bad_edges, &why), MPI_ERR_ARG);
    EXPECT_NE(why.find("edges[3] = 4"), std::string::npos);

    const Topology t = make_graph(4, index, edges);
    EXPECT_EQ(t.graph->nnodes(), 4);
    EXPECT_EQ(t.graph->degree(0), 2);
    EXPECT_EQ(t.graph->degree(3), 2);
    EXPECT_EQ(t.graph->neighbors(3)[1], 2);
    // Every rank of a process that creates the same graph shares one copy.
    const Topology again = make_graph(4, index, edges);
    EXPECT_EQ(t.graph.get(), again.graph.get());
    const int other_edges[] = {1, 3, 0, 3, 2, 0};
    EXPECT_NE(make_graph(4, index, other_edges).graph.get(), t.graph.get());

    const auto got = deliver(t, 4);
    EXPECT_EQ(got[0], (std::vector<std::string>{"1:0", "3:0"}));
    EXPECT_EQ(got[3], (std::vector<std::string>{"0:1", "2:0"}));
}

TEST(Graph, RepeatedNeighborsPairInOrder) {
    ProcessObjects objects;
    CurrentObjects current(objects);
    // 0 and 1 connected twice (and 1 to itself twice): the k-th edge pairs with the k-th.
    const int index[] = {2, 6};
    const int edges[] = {1, 1, 0, 1, 1, 0};
    const Topology t = make_graph(2, index, edges);
    const auto got = deliver(t, 2);
    EXPECT_EQ(got[0], (std::vector<std::string>{"1:0", "1:3"}));
    EXPECT_EQ(got[1], (std::vector<std::string>{"0:0", "1:1", "1:2", "0:1"}));
}

TEST(DistGraph, ValidationAndWeights) {
    std::string why;
    const int ranks[] = {0, 2, 1};
    const int weights[] = {1, 0, 5};
    const int negative[] = {1, -1, 5};
    EXPECT_EQ(check_neighbor_list(3, 3, ranks, weights, "sources", &why), MPI_SUCCESS);
    EXPECT_EQ(check_neighbor_list(3, 3, ranks, MPI_UNWEIGHTED, "sources", &why), MPI_SUCCESS);
    EXPECT_EQ(check_neighbor_list(2, 3, ranks, weights, "sources", &why), MPI_ERR_ARG);
    EXPECT_EQ(check_neighbor_list(3, 3, ranks, negative, "sources", &why), MPI_ERR_ARG);
    EXPECT_EQ(check_neighbor_list(3, -1, ranks, weights, "sources", &why), MPI_ERR_ARG);
    EXPECT_EQ(check_neighbor_list(3, 0, ranks, MPI_WEIGHTS_EMPTY, "sources", &why), MPI_SUCCESS);
    EXPECT_EQ(check_neighbor_list(3, 2, ranks, MPI_WEIGHTS_EMPTY, "sources", &why), MPI_ERR_ARG);
    const int sources[] = {0, 1};
    const int degrees[] = {2, 1};
    const int dests[] = {1, 2, 0};
    EXPECT_EQ(check_edge_list(3, 2, sources, degrees, dests, MPI_UNWEIGHTED, &why), MPI_SUCCESS);
    const int bad_degrees[] = {2, -1};
    EXPECT_EQ(check_edge_list(3, 2, sources, bad_degrees, dests, MPI_UNWEIGHTED, &why), MPI_ERR_ARG);
    const int bad_sources[] = {0, 3};
    EXPECT_EQ(check_edge_list(3, 2, bad_sources, degrees, dests, MPI_UNWEIGHTED, &why), MPI_ERR_ARG);

    const Topology weighted = make_dist_graph(3, ranks, weights, 1, ranks, weights);
    EXPECT_TRUE(weighted.dist.weighted);
    EXPECT_EQ(weighted.dist.source_weights, (std::vector<int>{1, 0, 5}));
    EXPECT_EQ(weighted.dist.destination_weights, (std::vector<int>{1}));
    const Topology plain = make_dist_graph(3, ranks, MPI_UNWEIGHTED, 1, ranks, MPI_UNWEIGHTED);
    EXPECT_FALSE(plain.dist.weighted);
    EXPECT_TRUE(plain.dist.source_weights.empty());
    const Topology empty = make_dist_graph(0, nullptr, MPI_WEIGHTS_EMPTY, 0, nullptr, MPI_WEIGHTS_EMPTY);
    EXPECT_TRUE(empty.dist.weighted);
    EXPECT_EQ(indegree(empty, 0), 0);
}

TEST(DistGraph, DirectedEdgesWithMultiplicity) {
    // A directed ring 0 -> 1 -> 2 -> 0, plus a double edge 0 -> 2 and a self loop at 1.
    std::vector<Topology> topologies;
    const std::vector<std::vector<int>> in = {{2}, {0, 1}, {1, 0, 0}}, out = {{1, 2, 2}, {2, 1}, {0}};
    for (int r = 0; r < 3; ++r)
        topologies.push_back(make_dist_graph(static_cast<int>(in[r].size()), in[r].data(), MPI_UNWEIGHTED,
                                             static_cast<int>(out[r].size()), out[r].data(), MPI_UNWEIGHTED));
    const auto got = deliver(topologies[0], 3, [&](int r) { return topologies[static_cast<std::size_t>(r)]; });
    EXPECT_EQ(got[0], (std::vector<std::string>{"2:0"}));
    EXPECT_EQ(got[1], (std::vector<std::string>{"0:0", "1:1"}));
    EXPECT_EQ(got[2], (std::vector<std::string>{"1:0", "0:1", "0:2"}));
}
