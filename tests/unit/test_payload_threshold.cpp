// -xsim-payload thresholds on the engine: point-to-point messages and collective calls carry
// their data up to the threshold and are envelopes beyond it, and every clock is the same as
// with the payload on.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine_harness.hpp"
#include "libxsim/colls/collective_call.hpp"

using namespace xsim;
using namespace xsim::testing;

namespace {

constexpr std::uint64_t kThreshold = 4096;

Options with_payload(PayloadPolicy policy) {
    Options o;
    o.compute = ComputeMode::None;
    o.payload = policy;
    return o;
}

// Rank 0 sends messages of each size (filled with 0x40 + index) to rank 1, which receives
// them into buffers filled with 0x11. Returns what rank 1 got, and the final clocks.
struct P2PRun {
    std::vector<std::vector<unsigned char>> received;
    std::vector<SimTime> clocks;
};

P2PRun p2p_sizes(PayloadPolicy policy, const std::vector<std::uint64_t>& sizes) {
    P2PRun out;
    out.received.resize(sizes.size());
    auto result = run_ranks(2, [&](Engine& e, Rank& me) {
        for (std::size_t i = 0; i < sizes.size(); ++i) {
            if (me.world == 0) {
                std::vector<unsigned char> data(sizes[i], static_cast<unsigned char>(0x40 + i));
                send_bytes(e, me, data.data(), sizes[i], 1, static_cast<int>(i));
            } else {
                out.received[i].assign(sizes[i], 0x11);
                wait(e, me, post_recv(e, me, out.received[i].data(), sizes[i], 0, static_cast<int>(i)));
            }
        }
    }, with_payload(policy));
    EXPECT_EQ(result.unfinished, 0);
    out.clocks = result.final_clocks;
    return out;
}

bool all_equal(const std::vector<unsigned char>& v, unsigned char value) {
    for (unsigned char c : v)
        if (c != value) return false;
    return true;
}

}  // namespace

TEST(PayloadThreshold, PointToPointMessagesCarryTheirDataUpToTheThreshold) {
    // Eager and rendezvous sizes on both sides of the threshold.
    const std::vector<std::uint64_t> sizes{8, kThreshold, kThreshold + 1, 100000};
    const P2PRun on = p2p_sizes(PayloadPolicy::on(), sizes);
    const P2PRun cut = p2p_sizes(PayloadPolicy::threshold(kThreshold), sizes);
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        EXPECT_TRUE(all_equal(on.received[i], static_cast<unsigned char>(0x40 + i))) << sizes[i];
        const bool kept = sizes[i] <= kThreshold;
        EXPECT_TRUE(all_equal(cut.received[i], kept ? static_cast<unsigned char>(0x40 + i) : 0x11)) << sizes[i];
    }
    EXPECT_EQ(cut.clocks, on.clocks);
}

TEST(PayloadThreshold, CollectivesDecideForTheWholeCallOrPerBlock) {
    constexpr int kRanks = 5;
    struct Got {
        std::vector<std::vector<int>> small, large, v;
        std::vector<SimTime> clocks;
    };
    auto run = [&](PayloadPolicy policy) {
        Got g;
        g.small.assign(kRanks, std::vector<int>(kThreshold / 4, -1));   // 4096 bytes: kept
        g.large.assign(kRanks, std::vector<int>(kThreshold / 4 + 1, -1));  // 4100 bytes: dropped
        // Alltoallv: block j of rank r has 1 int when r + j is even, else 2000 ints.
        g.v.assign(kRanks, std::vector<int>());
        auto result = run_ranks(kRanks, [&](Engine& e, Rank& me) {
            const int r = me.world;
            std::string why;
            if (r == 2) {
                std::fill(g.small[r].begin(), g.small[r].end(), 7);
                std::fill(g.large[r].begin(), g.large[r].end(), 9);
            }
            colls::BcastArgs small{colls::Block{g.small[r].data(), static_cast<int>(g.small[r].size()), MPI_INT,
                                                4 * g.small[r].size()}, 2};
            colls::BcastArgs large{colls::Block{g.large[r].data(), static_cast<int>(g.large[r].size()), MPI_INT,
                                                4 * g.large[r].size()}, 2};
            ASSERT_EQ(colls::run(colls::bcast_table(), e, me, e.world_comm(), 2, small, &why), MPI_SUCCESS) << why;
            ASSERT_EQ(colls::run(colls::bcast_table(), e, me, e.world_comm(), 2, large, &why), MPI_SUCCESS) << why;
            std::vector<int> scounts(kRanks), sdispls(kRanks), rcounts(kRanks), rdispls(kRanks);
            int stotal = 0, rtotal = 0;
            for (int j = 0; j < kRanks; ++j) {
                scounts[j] = (r + j) % 2 == 0 ? 1 : 2000;
                rcounts[j] = scounts[j];  // symmetric in r and j
                sdispls[j] = stotal;
                rdispls[j] = rtotal;
                stotal += scounts[j];
                rtotal += rcounts[j];
            }
            std::vector<int> send(static_cast<std::size_t>(stotal));
            for (int j = 0; j < kRanks; ++j)
                for (int i = 0; i < scounts[j]; ++i) send[static_cast<std::size_t>(sdispls[j] + i)] = 1000 * r + j;
            g.v[r].assign(static_cast<std::size_t>(rtotal), -1);
            colls::AlltoallArgs a{colls::varying_blocks(send.data(), scounts.data(), sdispls.data(), MPI_INT),
                                  colls::varying_blocks(g.v[r].data(), rcounts.data(), rdispls.data(), MPI_INT)};
            ASSERT_EQ(colls::run(colls::alltoallv_table(), e, me, e.world_comm(), 0, a, &why), MPI_SUCCESS) << why;
            // Only the first element of each block is kept for the check below.
            std::vector<int> firsts(kRanks);
            for (int j = 0; j < kRanks; ++j) firsts[j] = g.v[r][static_cast<std::size_t>(rdispls[j])];
            g.v[r] = firsts;
        }, with_payload(policy));
        EXPECT_EQ(result.unfinished, 0);
        g.clocks = result.final_clocks;
        return g;
    };
    const Got on = run(PayloadPolicy::on());
    const Got cut = run(PayloadPolicy::threshold(kThreshold));
    for (int r = 0; r < kRanks; ++r) {
        EXPECT_EQ(on.small[r], std::vector<int>(kThreshold / 4, 7)) << r;
        EXPECT_EQ(on.large[r], std::vector<int>(kThreshold / 4 + 1, 9)) << r;
        EXPECT_EQ(cut.small[r], std::vector<int>(kThreshold / 4, 7)) << r;  // 4096 bytes: at the threshold
        EXPECT_EQ(cut.large[r], std::vector<int>(kThreshold / 4 + 1, r == 2 ? 9 : -1)) << r;  // one int over
        for (int j = 0; j < kRanks; ++j) {
            EXPECT_EQ(on.v[r][j], 1000 * j + r) << r << " from " << j;
            const bool small_block = (r + j) % 2 == 0;  // 4 bytes kept, 8000 bytes dropped
            EXPECT_EQ(cut.v[r][j], small_block ? 1000 * j + r : -1) << r << " from " << j;
        }
    }
    EXPECT_EQ(cut.clocks, on.clocks);
}
