// Named regions belong to the engine (a layer slot), not to the process: engines run one
// after another in one process (unit tests, tools) do not see each other's replay table or
// open regions.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <memory>
#include <string>

#include "engine_harness.hpp"
#include "libxsim/report/region_file.hpp"
#include "libxsim/report/regions.hpp"

using namespace xsim;

namespace {

// A regions file holding one region, "solve", whose recorded mean is `mean`.
std::string write_regions_file(SimTime mean) {
    char path[] = "/tmp/xsim_regions_XXXXXX";
    const int fd = mkstemp(path);
    EXPECT_GE(fd, 0);
    const std::string text = format_region_file({{"solve", RegionRecord{3, mean, mean, mean}}});
    EXPECT_EQ(write(fd, text.data(), text.size()), static_cast<ssize_t>(text.size()));
    close(fd);
    return path;
}

}  // namespace

TEST(RegionsPerEngine, AReplayEndsWithItsEngine) {
    const SimTime mean = 7 * kPicosPerSecond / 1000;  // 7 ms
    const std::string path = write_regions_file(mean);
    Options replay;
    replay.regions_in = path;
    bool first_replays = false;
    SimTime first_charge = -1;
    xsim::testing::run_ranks(1, [&](Engine& e, Rank& me) {
        regions::install(e, regions::load(replay));
        first_replays = regions::replaying(e);
        const SimTime before = me.clock;
        regions::begin(e, me, "solve");
        regions::end(e, me, "solve");
        first_charge = me.clock - before;
    });
    std::remove(path.c_str());
    EXPECT_TRUE(first_replays);
    EXPECT_EQ(first_charge, mean);  // the recorded mean (the default machine has no noise)

    // The next engine was given no regions: it only checks the calls, so a name the first
    // one's file lacks is no misuse (with one table per process it would end the run) and
    // nothing is charged.
    bool second_replays = true;
    SimTime second_charge = -1;
    xsim::testing::run_ranks(1, [&](Engine& e, Rank& me) {
        second_replays = regions::replaying(e);
        const SimTime before = me.clock;
        regions::begin(e, me, "setup");
        regions::end(e, me, "setup");
        second_charge = me.clock - before;
    });
    EXPECT_FALSE(second_replays);
    EXPECT_EQ(second_charge, 0);
}

TEST(RegionsPerEngine, ARegionLeftOpenEndsWithItsEngine) {
    // The first engine's rank leaves "solve" open (finish reports it); the second's opens
    // and ends it without a "still open" misuse. finish is collective over the real
    // processes: here one, through the real library the harness initialized.
    int first_code = -1;
    xsim::testing::run_ranks(1, [&](Engine& e, Rank& me) {
        regions::begin(e, me, "solve");
        first_code = regions::finish(e);
    });
    EXPECT_EQ(first_code, 1);

    int second_code = -1;
    xsim::testing::run_ranks(1, [&](Engine& e, Rank& me) {
        regions::begin(e, me, "solve");
        regions::end(e, me, "solve");
        second_code = regions::finish(e);
    });
    EXPECT_EQ(second_code, 0);
}
