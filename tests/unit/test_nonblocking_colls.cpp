// Nonblocking collectives on the engine: the same completion times as the blocking
// algorithm, progress independent of the owner's compute, concurrent calls on one
// communicator kept apart by the per-call sequence number.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "engine_harness.hpp"
#include "libxsim/colls/collective_call.hpp"

using namespace xsim;
using namespace xsim::testing;

namespace {

constexpr int kRanks = 13;  // not a power of two: dissemination rounds of unequal partners

// Each rank's clock after a barrier started at time 0 (all ranks), blocking or not, with
// `compute` of the owner's own work between start and wait.
std::vector<SimTime> barrier_clocks(bool nonblocking, SimTime compute) {
    auto result = run_ranks(kRanks, [&](Engine& e, Rank& me) {
        if (!nonblocking) {
            std::string why;
            ASSERT_EQ(colls::run(colls::barrier_table(), e, me, e.world_comm(), 0, colls::BarrierArgs{}, &why),
                      MPI_SUCCESS);
            me.clock += compute;
            return;
        }
        Request* r = colls::start(colls::barrier_table(), e, me, e.world_comm(), 0, colls::BarrierArgs{});
        me.clock += compute;
        wait(e, me, r);
        EXPECT_EQ(r->status_error, MPI_SUCCESS);
        e.free_request(r);
    });
    EXPECT_EQ(result.unfinished, 0);
    return result.final_clocks;
}

}  // namespace

TEST(NonblockingCollectives, IbarrierPlusWaitTakesTheBlockingBarrierTime) {
    EXPECT_EQ(barrier_clocks(true, 0), barrier_clocks(false, 0));
}

TEST(NonblockingCollectives, ProgressOverlapsTheOwnersCompute) {
    const std::vector<SimTime> alone = barrier_clocks(false, 0);
    const SimTime longest = *std::max_element(alone.begin(), alone.end());
    // Computing longer than the barrier takes hides it completely...
    const std::vector<SimTime> hidden = barrier_clocks(true, 2 * longest);
    for (SimTime t : hidden) EXPECT_EQ(t, 2 * longest);
    // ...shorter compute is hidden by the barrier: max(barrier, compute) per rank.
    const std::vector<SimTime> partly = barrier_clocks(true, longest / 3);
    for (int r = 0; r < kRanks; ++r) EXPECT_EQ(partly[r], std::max(alone[r], longest / 3)) << "rank " << r;
}

TEST(NonblockingCollectives, ConcurrentCallsOnOneCommunicatorKeepTheirMessagesApart) {
    std::vector<std::vector<int>> first(kRanks, std::vector<int>(8, -1)), second(kRanks, std::vector<int>(8, -1));
    std::vector<std::uint32_t> calls(kRanks);
    auto result = run_ranks(kRanks, [&](Engine& e, Rank& me) {
        const int r = me.world;
        // Roots 0 and 5: the two trees send between the same pairs in different orders.
        if (r == 0) std::fill(first[r].begin(), first[r].end(), 100);
        if (r == 5) std::fill(second[r].begin(), second[r].end(), 500);
        colls::BcastArgs a{colls::Block{first[r].data(), 8, MPI_INT, 32}, 0};
        colls::BcastArgs b{colls::Block{second[r].data(), 8, MPI_INT, 32}, 5};
        Request* ra = colls::start(colls::bcast_table(), e, me, e.world_comm(), 0, a);
        Request* rb = colls::start(colls::bcast_table(), e, me, e.world_comm(), 5, b);
        // A blocking collective while both are outstanding.
        std::string why;
        EXPECT_EQ(colls::run(colls::barrier_table(), e, me, e.world_comm(), 0, colls::BarrierArgs{}, &why),
                  MPI_SUCCESS);
        Request* both[2] = {rb, ra};
        completion::wait_all(e, me, both, 2);
        EXPECT_EQ(ra->status_error, MPI_SUCCESS);
        EXPECT_EQ(rb->status_error, MPI_SUCCESS);
        e.free_request(ra);
        e.free_request(rb);
        calls[r] = collective_sequence(me, e.world_comm());
    });
    EXPECT_EQ(result.unfinished, 0);
    for (int r = 0; r < kRanks; ++r) {
        EXPECT_EQ(first[r], std::vector<int>(8, 100)) << "rank " << r;
        EXPECT_EQ(second[r], std::vector<int>(8, 500)) << "rank " << r;
        EXPECT_EQ(calls[r], 3u) << "rank " << r;  // two nonblocking, one blocking
    }
}

TEST(NonblockingCollectives, NamesOfTheNonblockingForms) {
    EXPECT_EQ(colls::nonblocking_name(colls::CollKind::Barrier), "MPI_Ibarrier");
    EXPECT_EQ(colls::nonblocking_name(colls::CollKind::ReduceScatterBlock), "MPI_Ireduce_scatter_block");
    EXPECT_EQ(colls::describe_signature(colls::collective_signature(colls::CollKind::Bcast, 3, true)),
              "MPI_Ibcast (root 3)");
    EXPECT_EQ(colls::describe_signature(colls::collective_signature(colls::CollKind::Allreduce, 0, false)),
              "MPI_Allreduce");
}
