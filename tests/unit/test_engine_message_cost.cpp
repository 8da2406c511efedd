// The per-level message cost terms a calibrated machine uses (network.level[].eager_bandwidth
// and rendezvous_overhead) in a ping-pong through the engine, against the closed form
// eager: L + s / eager_bandwidth; rendezvous: 3 L + overhead + s / bandwidth; and the same
// ping-pong without the keys is today's L + s / bandwidth and 3 L + s / bandwidth.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine_harness.hpp"

using namespace xsim;
using namespace xsim::testing;

namespace {

// Default machine, on-node level (ranks 0 and 1): 12 us, 1834e6 B/s, eager <= 4096 bytes.
SimTime half_round_trip(std::uint64_t bytes, const std::vector<std::string>& overrides) {
    std::vector<char> buffer0(bytes + 1), buffer1(bytes + 1);
    auto result = run_ranks(
        2,
        [&](Engine& e, Rank& me) {
            if (me.world == 0) {
                send_bytes(e, me, buffer0.data(), bytes, 1, 1);
                wait(e, me, post_recv(e, me, buffer0.data(), bytes, 1, 1));
            } else {
                wait(e, me, post_recv(e, me, buffer1.data(), bytes, 0, 1));
                send_bytes(e, me, buffer1.data(), bytes, 0, 1);
            }
        },
        {}, overrides);
    EXPECT_EQ(result.unfinished, 0);
    return result.final_clocks[0] / 2;
}

const std::vector<std::string> kCalibrated = {"network.level.node.eager_bandwidth=250e6",
                                              "network.level.node.rendezvous_overhead=2e-6"};

}  // namespace

TEST(MessageCost, EagerMessagesMoveAtTheEagerBandwidth) {
    EXPECT_EQ(half_round_trip(4096, kCalibrated), us(12) + transfer_time(4096, 250e6));
    EXPECT_EQ(half_round_trip(0, kCalibrated), us(12));  // an empty message: the latency alone
}

TEST(MessageCost, RendezvousMessagesPayTheOverheadOnTopOfTheHandshake) {
    EXPECT_EQ(half_round_trip(4097, kCalibrated), 3 * us(12) + us(2) + transfer_time(4097, 1834e6));
    EXPECT_EQ(half_round_trip(1 << 20, kCalibrated), 3 * us(12) + us(2) + transfer_time(1 << 20, 1834e6));
}

TEST(MessageCost, WithoutTheKeysEveryMessageMovesAtTheBandwidth) {
    EXPECT_EQ(half_round_trip(4096, {}), us(12) + transfer_time(4096, 1834e6));
    EXPECT_EQ(half_round_trip(4097, {}), 3 * us(12) + transfer_time(4097, 1834e6));
}

TEST(MessageCost, ARendezvousSendCompletesWhenItsOverheadAndBytesAreOut) {
    // The overhead is part of the transfer on the sender's NIC: a blocking rendezvous send
    // returns when the clear-to-send is back (2 L) and the overhead and bytes are out.
    const std::uint64_t bytes = 8192;
    std::vector<char> a(bytes), b(bytes);
    auto result = run_ranks(
        2,
        [&](Engine& e, Rank& me) {
            if (me.world == 0) send_bytes(e, me, a.data(), bytes, 1, 1);
            else wait(e, me, post_recv(e, me, b.data(), bytes, 0, 1));
        },
        {}, kCalibrated);
    ASSERT_EQ(result.unfinished, 0);
    const SimTime transfer = us(2) + transfer_time(bytes, 1834e6);
    EXPECT_EQ(result.final_clocks[0], 2 * us(12) + transfer);
    EXPECT_EQ(result.final_clocks[1], 3 * us(12) + transfer);
}
