// -xsim-compute-clock thread|wall: which host clock measured compute reads (issue 13).
#include <gtest/gtest.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "libxsim/engine/host_clock.hpp"
#include "libxsim/engine/options.hpp"
#include "option_parsing.hpp"

using namespace xsim;

namespace {

Options parse_compute_clock(std::vector<std::string> words, const char* env = nullptr) {
    return option_test::parsed_options(std::move(words), env);
}
std::string compute_clock_refusal(std::vector<std::string> words) { return option_test::option_refusal(std::move(words)); }

}  // namespace

// The thread CPU clock (ThreadCpuClock) by default: host preemption is not charged.
TEST(ComputeClockOption, ThreadByDefault) {
    EXPECT_EQ(parse_compute_clock({"./app"}).compute_clock, ComputeClock::Thread);
}

TEST(ComputeClockOption, AcceptsWallAndThread) {
    EXPECT_EQ(parse_compute_clock({"./app", "-xsim-compute-clock", "thread"}).compute_clock, ComputeClock::Thread);
    EXPECT_EQ(parse_compute_clock({"./app", "-xsim-compute-clock=wall"}).compute_clock, ComputeClock::Wall);
    EXPECT_EQ(parse_compute_clock({"./app"}, "-xsim-compute-clock thread").compute_clock, ComputeClock::Thread);
    // The command line wins over XSIM_OPTIONS.
    EXPECT_EQ(parse_compute_clock({"./app", "-xsim-compute-clock", "wall"}, "-xsim-compute-clock thread").compute_clock,
              ComputeClock::Wall);
}

TEST(ComputeClockOption, BadValueIsOneLineNamingOptionAndValue) {
    const std::string message = compute_clock_refusal({"./app", "-xsim-compute-clock", "cpu"});
    EXPECT_EQ(message, "-xsim-compute-clock: expected 'thread' or 'wall', got 'cpu'");
    EXPECT_EQ(message.find('\n'), std::string::npos);
    EXPECT_NE(compute_clock_refusal({"./app", "-xsim-compute-clock"}).find("-xsim-compute-clock"), std::string::npos);
}

TEST(ComputeClockOption, HelpListsIt) {
    EXPECT_NE(options_help().find("-xsim-compute-clock"), std::string::npos);
}

// The thread clock stops while the thread sleeps; the wall clock does not.
TEST(ComputeClockOption, ThreadClockLeavesSleepOut) {
    const std::int64_t wall0 = host_clock_ns(), cpu0 = thread_cpu_ns();
    struct timespec nap = {0, 50'000'000};
    syscall(SYS_nanosleep, &nap, nullptr);  // the raw call: never a virtualized sleep
    const std::int64_t wall = host_clock_ns() - wall0, cpu = thread_cpu_ns() - cpu0;
    EXPECT_GE(wall, 50'000'000);
    EXPECT_LT(cpu, 10'000'000);
    EXPECT_GE(cpu, 0);
}
