// The neighbor collectives' schedule (colls/neighbor_linear.cpp) and the edge exchange of
// MPI_Dist_graph_create (colls/edge_exchange.cpp) on the engine, over MPI_COMM_WORLD's
// communicator with topologies built by libxsim/mpi/topology.hpp: every block lands where the
// standard says, including peers that are neighbors several times.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <tuple>
#include <vector>

#include "engine_harness.hpp"
#include "libxsim/colls/entry.hpp"
#include "libxsim/colls/edge_exchange.hpp"
#include "libxsim/colls/collective_call.hpp"
#include "libxsim/mpi/topology.hpp"

using namespace xsim;
using namespace xsim::colls;
using namespace xsim::testing;

namespace {

Topology neighbor_cart(std::vector<int> dims, std::vector<int> periods) {
    return topo::make_cartesian(static_cast<int>(dims.size()), dims.data(), periods.data());
}

int value(int rank, int slot) { return rank * 1000 + slot; }

// Runs Neighbor_alltoall (one int per block, block i = value(rank, i)) on every rank, or
// (nonblocking) starts it, drops the caller's plan and waits; returns each rank's receive
// buffer (-1 where nothing arrived) and, in *clocks, each rank's final clock.
std::vector<std::vector<int>> alltoall(int size, const std::function<Topology(int)>& topology_of,
                                       const Collective<NeighborArgs>& table = neighbor_alltoall_table(),
                                       bool nonblocking = false, std::vector<SimTime>* clocks = nullptr) {
    std::vector<std::vector<int>> received(static_cast<std::size_t>(size));
    auto result = run_ranks(size, [&](Engine& e, Rank& me) {
        const Topology t = topology_of(me.world);
        auto plan_ptr = std::make_shared<const topo::NeighborPlan>(topo::neighbor_plan(t, me.world));
        const topo::NeighborPlan& plan = *plan_ptr;
        std::vector<int> out(static_cast<std::size_t>(plan.outdegree));
        for (int i = 0; i < plan.outdegree; ++i) out[static_cast<std::size_t>(i)] = value(me.world, i);
        std::vector<int>& in = received[static_cast<std::size_t>(me.world)];
        in.assign(static_cast<std::size_t>(plan.indegree), -1);
        NeighborArgs a;
        a.plan = plan_ptr;
        a.send = uniform_blocks(out.data(), 1, MPI_INT);
        a.recv = uniform_blocks(in.data(), 1, MPI_INT);
        if (nonblocking) {
            Request* r = colls::start(table, e, me, e.world_comm(), 0, a);
            a = NeighborArgs{};  // the request's copy of the arguments keeps the plan alive
            plan_ptr.reset();
            wait(e, me, r);
            EXPECT_EQ(r->status_error, MPI_SUCCESS);
            e.free_request(r);
            return;
        }
        std::string why;
        EXPECT_EQ(colls::run(table, e, me, e.world_comm(), 0, a, &why), MPI_SUCCESS) << why;
    });
    EXPECT_EQ(result.unfinished, 0);
    if (clocks) *clocks = result.final_clocks;
    return received;
}

}  // namespace

TEST(NeighborCollectives, CartesianBlocksLandInTheOppositeDirection) {
    for (auto [dims, periods] : std::vector<std::pair<std::vector<int>, std::vector<int>>>{
             {{3, 4}, {1, 0}}, {{1, 2}, {1, 1}}, {{2, 2, 2}, {1, 0, 1}}, {{7}, {0}}, {{1}, {0}}, {{1, 1}, {1, 1}}}) {
        const Topology t = neighbor_cart(dims, periods);
        const int size = static_cast<int>(topo::grid_size(dims));
        const auto got = alltoall(size, [&](int) { return t; });
        for (int r = 0; r < size; ++r) {
            for (int i = 0; i < t.ndims(); ++i) {
                int minus = 0, plus = 0;
                topo::cart_shift(t, r, i, 1, &minus, &plus);
                // From the -1 neighbor: what it sent in the + direction (its block 2i+1).
                EXPECT_EQ(got[r][2 * i], minus == MPI_PROC_NULL ? -1 : value(minus, 2 * i + 1)) << r << " dim " << i;
                EXPECT_EQ(got[r][2 * i + 1], plus == MPI_PROC_NULL ? -1 : value(plus, 2 * i)) << r << " dim " << i;
            }
        }
    }
}

TEST(NeighborCollectives, NonblockingFormGetsTheSameBlocksAtTheSameTimes) {
    for (auto [dims, periods] : std::vector<std::pair<std::vector<int>, std::vector<int>>>{
             {{3, 4}, {1, 0}}, {{1, 2}, {1, 1}}, {{1}, {0}}}) {
        const Topology t = neighbor_cart(dims, periods);
        const int size = static_cast<int>(topo::grid_size(dims));
        std::vector<SimTime> blocking_clocks, nonblocking_clocks;
        const auto blocking = alltoall(size, [&](int) { return t; }, neighbor_alltoall_table(), false, &blocking_clocks);
        const auto nonblocking =
            alltoall(size, [&](int) { return t; }, neighbor_alltoall_table(), true, &nonblocking_clocks);
        EXPECT_EQ(nonblocking, blocking);
        EXPECT_EQ(nonblocking_clocks, blocking_clocks);
    }
}

TEST(NeighborCollectives, AllgatherSendsOneBlockToEveryNeighbor) {
    const Topology t = neighbor_cart({2, 3}, {1, 1});  // dimension 0: both neighbors are one rank
    std::vector<std::vector<int>> received(6);
    auto result = run_ranks(6, [&](Engine& e, Rank& me) {
        auto plan = std::make_shared<const topo::NeighborPlan>(topo::neighbor_plan(t, me.world));
        int mine = 100 + me.world;
        std::vector<int>& in = received[static_cast<std::size_t>(me.world)];
        in.assign(4, -1);
        NeighborArgs a;
        a.plan = plan;
        a.allgather = true;
        a.mine = make_block(&mine, 1, MPI_INT);
        a.recv = uniform_blocks(in.data(), 1, MPI_INT);
        std::string why;
        EXPECT_EQ(colls::run(neighbor_allgather_table(), e, me, e.world_comm(), 0, a, &why), MPI_SUCCESS) << why;
    });
    EXPECT_EQ(result.unfinished, 0);
    for (int r = 0; r < 6; ++r) {
        const int other_row = (r + 3) % 6, left = r / 3 * 3 + (r + 2) % 3, right = r / 3 * 3 + (r + 1) % 3;
        EXPECT_EQ(received[r], (std::vector<int>{100 + other_row, 100 + other_row, 100 + left, 100 + right}));
    }
}

TEST(NeighborCollectives, DistGraphMultiEdgesPairInOrder) {
    // 0 -> 1 twice, 1 -> 0, 1 -> 1 (self), 2 -> 0 three times, nothing into 2.
    const std::vector<std::vector<int>> in = {{1, 2, 2, 2}, {0, 1, 0}, {}}, out = {{1, 1}, {0, 1}, {0, 0, 0}};
    const auto got = alltoall(3, [&](int r) {
        return topo::make_dist_graph(static_cast<int>(in[r].size()), in[r].data(), MPI_UNWEIGHTED,
                                     static_cast<int>(out[r].size()), out[r].data(), MPI_UNWEIGHTED);
    });
    EXPECT_EQ(got[0], (std::vector<int>{value(1, 0), value(2, 0), value(2, 1), value(2, 2)}));
    EXPECT_EQ(got[1], (std::vector<int>{value(0, 0), value(1, 1), value(0, 1)}));
    EXPECT_TRUE(got[2].empty());
}

TEST(NeighborCollectives, DisagreeingNeighborListsAreReported) {
    // Rank 1 expects the block of 0's second edge to it (key 1), but 0 has one edge to 1
    // (key 0): the mismatch is reported, not silently stored in the wrong block.
    const std::vector<std::vector<int>> in = {{}, {0}}, out = {{1}, {}};
    int rc0 = -1, rc1 = -1;
    std::string why1;
    auto result = run_ranks(2, [&](Engine& e, Rank& me) {
        const int r = me.world;
        const Topology t = topo::make_dist_graph(static_cast<int>(in[r].size()), in[r].data(), MPI_UNWEIGHTED,
                                                 static_cast<int>(out[r].size()), out[r].data(), MPI_UNWEIGHTED);
        auto plan = std::make_shared<topo::NeighborPlan>(topo::neighbor_plan(t, r));
        if (r == 1) plan->receives[0].key = 1;  // as if 1 believed 0 had an earlier edge to it
        int buf[2] = {value(r, 0), -1};
        NeighborArgs a;
        a.plan = plan;
        a.send = uniform_blocks(buf, 1, MPI_INT);
        a.recv = uniform_blocks(buf + 1, 1, MPI_INT);
        std::string why;
        std::string* detail = r == 1 ? &why1 : &why;
        (r == 0 ? rc0 : rc1) = colls::run(neighbor_alltoall_table(), e, me, e.world_comm(), 0, a, detail);
    });
    EXPECT_EQ(result.unfinished, 0);
    EXPECT_EQ(rc0, MPI_SUCCESS);
    EXPECT_EQ(rc1, MPI_ERR_OTHER);
    EXPECT_NE(why1.find("neighbor lists disagree"), std::string::npos) << why1;
}

TEST(EdgeExchange, EveryEndLearnsItsEdges) {
    for (int size : {1, 2, 7, 16, 33}) {
        // Rank r names the edges r -> (r*r + k) % size for k < r % 4, with weight r + k,
        // and rank 0 also names (size-1) -> 0.
        std::vector<std::vector<EdgeNotice>> arrived(static_cast<std::size_t>(size));
        auto named = [size](int r) {
            std::vector<std::tuple<int, int, int>> edges;  // source, destination, weight
            for (int k = 0; k < r % 4; ++k) edges.emplace_back(r, (r * r + k) % size, r + k);
            if (r == 0) edges.emplace_back(size - 1, 0, 77);
            return edges;
        };
        auto result = run_ranks(size, [&](Engine& e, Rank& me) {
            std::vector<EdgeNotice> notices;
            const auto edges = named(me.world);
            for (int i = 0; i < static_cast<int>(edges.size()); ++i) {
                const auto [s, d, w] = edges[static_cast<std::size_t>(i)];
                notices.push_back({s, d, w, me.world, i, 0});
                notices.push_back({d, s, w, me.world, i, 1});
            }
            std::string why;
            std::vector<EdgeNotice>& mine = arrived[static_cast<std::size_t>(me.world)];
            EXPECT_EQ(exchange_edges(e, me, e.world_comm(), notices, &mine, &why), MPI_SUCCESS) << why;
        });
        ASSERT_EQ(result.unfinished, 0);
        std::vector<std::vector<EdgeNotice>> expected(static_cast<std::size_t>(size));
        for (int r = 0; r < size; ++r) {
            const auto edges = named(r);
            for (int i = 0; i < static_cast<int>(edges.size()); ++i) {
                const auto [s, d, w] = edges[static_cast<std::size_t>(i)];
                expected[static_cast<std::size_t>(s)].push_back({s, d, w, r, i, 0});
                expected[static_cast<std::size_t>(d)].push_back({d, s, w, r, i, 1});
            }
        }
        for (int r = 0; r < size; ++r) {
            auto& want = expected[static_cast<std::size_t>(r)];
            std::sort(want.begin(), want.end(), [](const EdgeNotice& a, const EdgeNotice& b) {
                return std::tie(a.origin, a.position, a.incoming) < std::tie(b.origin, b.position, b.incoming);
            });
            const auto& got = arrived[static_cast<std::size_t>(r)];
            ASSERT_EQ(got.size(), want.size()) << "size " << size << " rank " << r;
            for (std::size_t i = 0; i < got.size(); ++i) {
                EXPECT_EQ(std::tie(got[i].target, got[i].peer, got[i].weight, got[i].origin, got[i].position,
                                   got[i].incoming),
                          std::tie(want[i].target, want[i].peer, want[i].weight, want[i].origin, want[i].position,
                                   want[i].incoming))
                    << "size " << size << " rank " << r << " notice " << i;
            }
        }
    }
}
