// The arithmetic of wait-state classification (engine/wait_states.hpp) and of its report
// (report/wait_state_report.hpp): amounts, the collective entry stamp, blame ranking and
// the summary's sentence.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "libxsim/engine/wait_states.hpp"
#include "libxsim/report/wait_state_report.hpp"

namespace xsim {
namespace {

TEST(WaitStateAmount, LateSenderIsSendStartMinusReceiveStart) {
    // Recv posted at 100, the send started at 250, the receive waited 300 (transfer included).
    EXPECT_EQ(wait_state_amount(250, 100, 100, 300), 150);
}

TEST(WaitStateAmount, NothingWhenTheCauseCameFirst) {
    EXPECT_EQ(wait_state_amount(100, 100, 100, 50), 0);
    EXPECT_EQ(wait_state_amount(90, 100, 100, 50), 0);
}

TEST(WaitStateAmount, AWaitOnAnIrecvWaitsFromItsOwnEntry) {
    // Irecv at 100, Wait entered at 200, send started at 250: 50 of late sender, not 150.
    EXPECT_EQ(wait_state_amount(250, 100, 200, 1000), 50);
    // Wait entered after the send started: no late sender.
    EXPECT_EQ(wait_state_amount(250, 100, 300, 1000), 0);
}

TEST(WaitStateAmount, NeverMoreThanTheClockJump) {
    EXPECT_EQ(wait_state_amount(1000, 0, 0, 400), 400);
    EXPECT_EQ(wait_state_amount(1000, 0, 0, 0), 0);
}

TEST(WaitStamp, LatestEntryWinsTiesGoToTheLowerRankInAnyOrder) {
    const std::vector<std::pair<SimTime, int>> entries = {{5, 3}, {9, 6}, {9, 2}, {1, 0}, {9, 4}};
    std::vector<int> order = {0, 1, 2, 3, 4};
    do {
        WaitStamp s;
        for (int i : order) s.merge(entries[i].first, entries[i].second);
        EXPECT_EQ(s.time, 9);
        EXPECT_EQ(s.rank, 2);
    } while (std::next_permutation(order.begin(), order.end()));
}

TEST(WaitStamp, AnEmptyStampChangesNothing) {
    WaitStamp s;
    s.merge(7, 1);
    s.merge(100, -1);  // a message that carried no entry (a 1 x N non-root)
    EXPECT_EQ(s.time, 7);
    EXPECT_EQ(s.rank, 1);
}

TEST(WaitStateLog, SumsByCallAndKind) {
    static const char* const recv = "MPI_Recv";
    static const char* const wait = "MPI_Wait";
    WaitStateLog log;
    log.add(recv, WaitKind::LateSender, 10);
    log.add(wait, WaitKind::LateSender, 5);
    log.add(recv, WaitKind::LateSender, 7);
    log.add(recv, WaitKind::WaitNxN, 1);
    ASSERT_EQ(log.rows().size(), 2u);
    EXPECT_EQ(log.rows()[0].time[static_cast<int>(WaitKind::LateSender)], 17);
    EXPECT_EQ(log.rows()[0].count[static_cast<int>(WaitKind::LateSender)], 2u);
    EXPECT_EQ(log.rows()[0].time[static_cast<int>(WaitKind::WaitNxN)], 1);
    EXPECT_EQ(log.rows()[1].time[static_cast<int>(WaitKind::LateSender)], 5);
}

TEST(WaitStateLog, RemoteBlameSumsPerRankAndKindThroughGrowth) {
    WaitStateLog log;
    for (int round = 0; round < 3; ++round)
        for (int r = 0; r < 5000; ++r) log.blame_remote(1000000 + r, r % 2 ? WaitKind::LateRoot : WaitKind::WaitNxN, r + 1);
    std::size_t entries = 0;
    bool right = true;
    log.for_each_remote([&](std::uint64_t key, SimTime time) {
        ++entries;
        const int r = static_cast<int>(key >> 3) - 1000000;
        const auto kind = static_cast<WaitKind>(key & 7);
        right &= time == 3 * static_cast<SimTime>(r + 1) && kind == (r % 2 ? WaitKind::LateRoot : WaitKind::WaitNxN);
    });
    EXPECT_EQ(entries, 5000u);
    EXPECT_TRUE(right);
}

TEST(WaitStateReport, TopBlamedKeepsTheLargestTiesByRank) {
    std::vector<WaitStateTotals::Blamed> all;
    for (int r = 0; r < 40; ++r) all.push_back({r, static_cast<unsigned long long>(r % 4 == 1 ? 100 : r)});
    const auto top = top_blamed(all);
    ASSERT_EQ(top.size(), static_cast<std::size_t>(WaitStateTotals::kTopBlamed));
    EXPECT_EQ(top[0].rank, 1);  // 100, lowest rank first
    EXPECT_EQ(top[1].rank, 5);
    EXPECT_EQ(top[9].rank, 37);  // the ten 100s, then the largest others
    EXPECT_EQ(top[9].time, 100u);
    EXPECT_EQ(top[10].rank, 39);
}

TEST(WaitStateReport, DescribesRanksAsRanges) {
    EXPECT_EQ(describe_ranks({12, 7, 8, 9, 10, 11}), "ranks 7-12");
    EXPECT_EQ(describe_ranks({3}), "rank 3");
    EXPECT_EQ(describe_ranks({1, 3, 5, 7}), "ranks 1, 3, 5, 7");
    EXPECT_EQ(describe_ranks({1, 3, 5, 7, 9}, 2), "ranks 1, 3 and 3 more");
}

TEST(WaitStateReport, SentenceNamesTheDominantKindCallAndCulprits) {
    WaitStateTotals t;
    const int ls = static_cast<int>(WaitKind::LateSender), nxn = static_cast<int>(WaitKind::WaitNxN);
    t.total[ls] = 600;
    t.total[nxn] = 200;
    t.by_call[ls] = {{"MPI_Recv", 500, 5}, {"MPI_Wait", 100, 1}};
    t.blamed[ls] = {{9, 150}, {7, 140}, {8, 100}, {2, 20}};
    EXPECT_EQ(wait_state_sentence(t, 1000, 10000),
              "10.0% of rank time is waiting; most of it late-sender waiting in MPI_Recv (60.0% of the waiting), "
              "caused by ranks 7-9 (65% of it)");
    t.total[ls] = 400;
    t.total[nxn] = 350;
    EXPECT_EQ(wait_state_sentence(t, 1000, 10000).substr(0, 78),
              "10.0% of rank time is waiting; the largest part late-sender waiting in MPI_Rec");
    // Most of the waiting classified as no kind (messages in flight): said first.
    t.total[ls] = 300;
    t.total[nxn] = 200;
    t.blamed[ls] = {{4, 200}, {5, 100}};
    EXPECT_EQ(wait_state_sentence(t, 1000, 10000),
              "10.0% of rank time is waiting; 50.0% of it on no late peer (transfers and other); the largest part "
              "on a late peer: late-sender waiting in MPI_Recv (30.0% of the waiting), caused by ranks 4-5 (100% of "
              "it)");
    EXPECT_EQ(wait_state_sentence(WaitStateTotals{}, 50, 100),
              "50.0% of rank time is waiting; none of it on a late peer (transfers and other)");
    EXPECT_EQ(wait_state_sentence(WaitStateTotals{}, 0, 100), "0.0% of rank time is waiting");
}

}  // namespace
}  // namespace xsim
