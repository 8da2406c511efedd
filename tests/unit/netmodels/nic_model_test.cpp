// The NIC model: a message's Transfer is its path's latency and its serialization time;
// the send side and the receive side of a NIC each take messages one after the other;
// arrival() from a carried Transfer equals arrival() that asks path() itself.
#include <gtest/gtest.h>

#include "netmodels/nic_model.hpp"
#include "test_support.hpp"

namespace xsim::net::test {
namespace {

// Default machine, ranks 0 -> 16: switch level, 13 us, 2547e6 B/s.
// 1e6 B at 2547e6 B/s = 392618767.18 ps, rounded up.
constexpr std::uint64_t kNicBytes = 1'000'000;
constexpr SimTime kNicSwitchT = 392'618'768;
constexpr SimTime kNicSwitchLat = 13'000'000;

TEST(NicModel, TransferIsThePathLatencyAndTheSerializationOfItsBytes) {
    auto m = default_machine(1024);
    const Transfer t = NicModel::transfer(m->network->path(0, 16), kNicBytes);
    EXPECT_EQ(t.latency, kNicSwitchLat);
    EXPECT_EQ(t.serialization, kNicSwitchT);
    EXPECT_EQ(NicModel::transfer(m->network->path(0, 16), 0).serialization, 0);
}

TEST(NicModel, SendsLeaveOneAfterTheOther) {
    NicState nic;
    const Transfer t{kNicSwitchLat, kNicSwitchT};
    EXPECT_EQ(NicModel::inject(nic, 1000, t), 1000);
    EXPECT_EQ(nic.send_free, 1000 + kNicSwitchT);
    // A second send ready before the first has left waits for it.
    EXPECT_EQ(NicModel::send_start(nic, 2000), 1000 + kNicSwitchT);
    EXPECT_EQ(NicModel::inject(nic, 2000, t), 1000 + kNicSwitchT);
    EXPECT_EQ(nic.send_free, 1000 + 2 * kNicSwitchT);
    // One ready after the NIC is free starts when ready.
    const SimTime late = 10 * kNicSwitchT;
    EXPECT_EQ(NicModel::inject(nic, late, t), late);
    EXPECT_EQ(nic.recv_free, 0);  // the receive side is separate
}

TEST(NicModel, ReceivesTakeTheLaterOfArrivalAndTheMessagesBefore) {
    NicState nic;
    const Transfer t{kNicSwitchLat, kNicSwitchT};
    // Alone: in when its last byte has arrived.
    EXPECT_EQ(NicModel::receive(nic, 5 * kNicSwitchT, t), 5 * kNicSwitchT);
    // Two messages whose last bytes arrive together: the second is in one serialization later.
    EXPECT_EQ(NicModel::receive(nic, 5 * kNicSwitchT, t), 6 * kNicSwitchT);
    EXPECT_EQ(nic.recv_free, 6 * kNicSwitchT);
    EXPECT_EQ(nic.send_free, 0);
}

TEST(NicModel, ArrivalOfACarriedTransferEqualsArrivalThatAsksThePath) {
    for (const char* contention : {"network.contention=false", "network.contention=true"}) {
        auto asks = default_machine(1024, {contention});
        auto carried = default_machine(1024, {contention});
        for (int dst : {1, 16, 300, 16, 1}) {  // repeated pairs contend where contention is on
            const Transfer t = NicModel::transfer(carried->network->path(0, dst), kNicBytes);
            EXPECT_EQ(carried->network->arrival(0, dst, t, 1000), asks->network->arrival(0, dst, kNicBytes, 1000))
                << contention << " dst " << dst;
        }
    }
}

}  // namespace
}  // namespace xsim::net::test
