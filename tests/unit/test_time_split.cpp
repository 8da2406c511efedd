// The per-rank time split (engine/time_split.hpp), the call classification behind it, the
// per-call profile table (engine/call_profile.hpp) and their options.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "libxsim/engine/call_profile.hpp"
#include "libxsim/engine/options.hpp"
#include "libxsim/engine/time_split.hpp"

using namespace xsim;

TEST(TimeSplit, ClassifiesCallsByName) {
    EXPECT_EQ(call_kind("MPI_Send"), CallKind::PointToPoint);
    EXPECT_EQ(call_kind("MPI_Isend"), CallKind::PointToPoint);
    EXPECT_EQ(call_kind("MPI_Irecv"), CallKind::PointToPoint);
    EXPECT_EQ(call_kind("MPI_Waitall"), CallKind::PointToPoint);
    EXPECT_EQ(call_kind("MPI_Allreduce"), CallKind::Collective);
    EXPECT_EQ(call_kind("MPI_Iallreduce"), CallKind::Collective);
    EXPECT_EQ(call_kind("MPI_Ibarrier"), CallKind::Collective);
    EXPECT_EQ(call_kind("MPI_Iscan"), CallKind::Collective);
    EXPECT_EQ(call_kind("MPI_Reduce_scatter_block"), CallKind::Collective);
    EXPECT_EQ(call_kind("MPI_Neighbor_alltoall"), CallKind::Collective);
    EXPECT_EQ(call_kind("MPI_Comm_split"), CallKind::Collective);
    EXPECT_EQ(call_kind("MPI_Finalize"), CallKind::Collective);
    EXPECT_EQ(call_kind("xsim_compute"), CallKind::Compute);
    EXPECT_EQ(call_kind(nullptr), CallKind::Compute);
    // The same name at another address is classified the same (the cache is by address).
    const std::string copy = "MPI_Bcast";
    EXPECT_EQ(call_kind(copy.c_str()), CallKind::Collective);
}

TEST(TimeSplit, WaitingIsTakenOutOfTheCallsTime) {
    TimeSplit s;
    split_enter(s, 100, "MPI_Recv");
    split_waited(s, 100, 400);  // blocked 300
    split_leave(s, 450);        // 50 more: receiving
    EXPECT_EQ(s.waiting, 300);
    EXPECT_EQ(s.p2p, 50);
    EXPECT_EQ(s.collective, 0);
    split_enter(s, 1000, "MPI_Allreduce");
    split_leave(s, 1200);
    EXPECT_EQ(s.collective, 200);
    // Compute is the rest of the clock: 100 before the receive, 550 between the calls.
    EXPECT_EQ(s.compute(1200), 650);
}

TEST(TimeSplit, NestedCallsBelongToTheOutermost) {
    TimeSplit s;
    split_enter(s, 0, "MPI_Allreduce");
    split_enter(s, 10, "MPI_Wtime");  // from a user reduction operator
    split_leave(s, 10);
    split_leave(s, 30);
    EXPECT_EQ(s.collective, 30);
    EXPECT_EQ(s.p2p, 0);
}

TEST(TimeSplit, XsimComputeIsCompute) {
    TimeSplit s;
    split_enter(s, 0, "xsim_compute");
    split_leave(s, 5000);
    EXPECT_EQ(s.p2p + s.collective + s.waiting, 0);
    EXPECT_EQ(s.compute(5000), 5000);
}

TEST(CallProfile, InternsNamesOncePerProcessAndCountsPerRank) {
    CallProfile p(3);
    const std::string other_copy = "MPI_Send";
    p.record(0, "MPI_Send", 10, 0, 8);
    p.record(2, other_copy.c_str(), 30, 5, 16);
    p.record(2, "MPI_Recv", 7, 7, 0);
    ASSERT_EQ(p.calls(), 2u);
    EXPECT_EQ(p.name(0), "MPI_Send");
    const CallCounters* send = p.rows(0);
    EXPECT_EQ(send[0].calls, 1u);
    EXPECT_EQ(send[0].time, 10);
    EXPECT_EQ(send[1].calls, 0u);
    EXPECT_EQ(send[2].time, 30);
    EXPECT_EQ(send[2].waiting, 5);
    EXPECT_EQ(send[2].bytes, 16u);
    EXPECT_EQ(p.rows(1)[2].waiting, 7);
}

namespace {

CommandLine parse_time_split(std::vector<std::string> words) {
    static std::vector<std::string> storage;
    storage = std::move(words);
    static std::vector<char*> argv;
    argv.clear();
    for (auto& w : storage) argv.push_back(w.data());
    return parse_command_line(static_cast<int>(argv.size()), argv.data(), nullptr);
}

}  // namespace

TEST(TimeSplitOptions, SummaryAndProfile) {
    EXPECT_EQ(parse_time_split({"./app"}).options.summary, ProgressMode::Auto);
    EXPECT_EQ(parse_time_split({"./app", "-xsim-summary", "on"}).options.summary, ProgressMode::On);
    EXPECT_EQ(parse_time_split({"./app", "-xsim-quiet"}).options.summary, ProgressMode::Off);
    EXPECT_EQ(parse_time_split({"./app", "-xsim-profile", "p.json"}).options.profile_path, "p.json");
    EXPECT_THROW(parse_time_split({"./app", "-xsim-summary", "yes"}), OptionError);
    try {
        parse_time_split({"./app", "-xsim-profile", "p.txt"});
        FAIL() << "a profile name without .csv or .json was accepted";
    } catch (const OptionError& e) {
        EXPECT_NE(std::string(e.what()).find(".csv or .json"), std::string::npos);
    }
}
