// The calibrated message cost keys of a star level: eager_bandwidth prices eager messages,
// rendezvous_overhead is added to a rendezvous message's serialization; both absent is the
// plain bytes / bandwidth; bad values are one error line naming the key.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "netmodels/nic_model.hpp"
#include "test_support.hpp"

namespace xsim::net::test {
namespace {

using ::testing::HasSubstr;

const char* kLevel = R"(
[mapping]
ranks_per_node = 2
[[network.level]]
name = "node"
ranks = 2
latency = 2e-7
bandwidth = 1e10
rendezvous = 4096
eager_bandwidth = 2.5e9
rendezvous_overhead = 1.5e-6
)";

TEST(MessageCost, EagerMessagesUseTheEagerBandwidth) {
    auto m = machine_from(kLevel, 2);
    const Path p = m->network->path(0, 1);
    EXPECT_DOUBLE_EQ(p.eager_bandwidth, 2.5e9);
    EXPECT_EQ(p.rendezvous_overhead, us(1.5));
    EXPECT_EQ(NicModel::transfer(p, 4096).serialization, transfer_time(4096, 2.5e9));
    EXPECT_EQ(NicModel::transfer(p, 4096).latency, us(0.2));
    EXPECT_EQ(NicModel::transfer(p, 0).serialization, 0);
}

TEST(MessageCost, RendezvousMessagesAddTheOverheadToTheirBytes) {
    auto m = machine_from(kLevel, 2);
    const Path p = m->network->path(0, 1);
    EXPECT_EQ(NicModel::transfer(p, 4097).serialization, us(1.5) + transfer_time(4097, 1e10));
    // The convenience arrival() prices the same way.
    EXPECT_EQ(m->network->arrival(0, 1, std::uint64_t{4097}, 0), us(0.2) + us(1.5) + transfer_time(4097, 1e10));
    EXPECT_EQ(m->network->arrival(0, 1, std::uint64_t{100}, 0), us(0.2) + transfer_time(100, 2.5e9));
}

TEST(MessageCost, WithoutTheKeysEverySizeUsesTheBandwidth) {
    auto m = default_machine(32);
    const Path p = m->network->path(0, 1);  // on-node: 1834e6 B/s, eager <= 4096
    EXPECT_EQ(p.eager_bandwidth, 0.0);
    EXPECT_EQ(p.rendezvous_overhead, 0);
    EXPECT_EQ(NicModel::transfer(p, 4096).serialization, transfer_time(4096, 1834e6));
    EXPECT_EQ(NicModel::transfer(p, 1 << 20).serialization, transfer_time(1 << 20, 1834e6));
}

TEST(MessageCost, OverridesSetTheKeysOfANamedLevel) {
    auto m = default_machine(32, {"network.level.node.eager_bandwidth=1e9",
                                  "network.level.node.rendezvous_overhead=1e-6"});
    const Path p = m->network->path(0, 1);
    EXPECT_EQ(NicModel::transfer(p, 1000).serialization, transfer_time(1000, 1e9));
    EXPECT_EQ(NicModel::transfer(p, 5000).serialization, us(1) + transfer_time(5000, 1834e6));
    EXPECT_EQ(m->network->path(0, 16).eager_bandwidth, 0.0);  // other levels keep the default
}

TEST(MessageCost, TheOverheadSaturatesInsteadOfWrapping) {
    Path p;
    p.bandwidth = 1e-300;  // an "infinite" transfer: transfer_time caps it at kTimeLimit
    p.rendezvous_overhead = us(1);
    EXPECT_EQ(transfer_on(p, 1).serialization, kTimeLimit);
}

TEST(MessageCost, BadValuesNameTheKey) {
    const std::string zero = config_error_from(std::string(kLevel) + "", 2, {"network.level.node.eager_bandwidth=0"});
    EXPECT_THAT(zero, HasSubstr("key 'network.level.node.eager_bandwidth'"));
    const std::string negative =
        config_error_from(std::string(kLevel), 2, {"network.level.node.rendezvous_overhead=-1e-6"});
    EXPECT_THAT(negative, HasSubstr("key 'network.level.node.rendezvous_overhead'"));
    const std::string text = config_error_from(std::string(kLevel), 2, {"network.level.node.eager_bandwidth=\"fast\""});
    EXPECT_THAT(text, HasSubstr("eager_bandwidth"));
    EXPECT_EQ(zero.find('\n'), std::string::npos);
}

}  // namespace
}  // namespace xsim::net::test
