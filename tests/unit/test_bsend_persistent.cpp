// Buffered-send accounting and persistent requests on the engine, against hand-computed
// virtual times on the default machine (on-node: 12 us, 1834e6 B/s, eager <= 4 KiB).
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "engine_harness.hpp"
#include "libxsim/p2p/bsend_buffer.hpp"

using namespace xsim;
using namespace xsim::testing;

namespace {

constexpr std::uint64_t kLong = 100000;  // rendezvous on every level

// Buffers one message of `bytes` from `me` to rank `dest` the way MPI_Bsend does.
int buffered_send(Engine& e, Rank& me, const void* data, std::uint64_t bytes, int dest, int tag) {
    char* storage = nullptr;
    std::string why;
    if (int rc = bsend::reserve(e, me, bytes, &storage, &why)) return rc;
    if (storage) std::memcpy(storage, data, bytes);
    const p2p::Buffer packed{storage, static_cast<int>(bytes), MPI_BYTE, bytes};
    bsend::track(e, me, p2p::start_send(e, me, packed, e.world_comm(), dest, dest, tag, e.world_comm().context, false,
                                        me.clock, me.path));
    return MPI_SUCCESS;
}

}  // namespace

TEST(BufferedSend, PendingMessagesAreChargedTheirSizePlusOverheadUntilSent) {
    std::vector<char> attached(2 * (kLong + MPI_BSEND_OVERHEAD));
    std::vector<char> source(kLong, 'a'), sink(2 * kLong, 0);
    int third = -1, after_detach = -1, reattached = -1;
    SimTime detached_at = 0;
    auto result = run_ranks(2, [&](Engine& e, Rank& me) {
        if (me.world == 0) {
            ASSERT_EQ(bsend::attach(e, me, attached.data(), attached.size()), MPI_SUCCESS);
            EXPECT_EQ(bsend::attach(e, me, attached.data(), attached.size()), MPI_ERR_BUFFER);
            EXPECT_EQ(buffered_send(e, me, source.data(), kLong, 1, 1), MPI_SUCCESS);
            std::memset(source.data(), 'b', kLong);  // the buffered copy is what is sent
            EXPECT_EQ(buffered_send(e, me, source.data(), kLong, 1, 2), MPI_SUCCESS);
            third = buffered_send(e, me, source.data(), 1, 1, 3);  // nothing has left yet
            void* base = nullptr;
            std::uint64_t size = 0;
            EXPECT_TRUE(bsend::detach(e, me, &base, &size));
            EXPECT_EQ(base, attached.data());
            EXPECT_EQ(size, attached.size());
            detached_at = me.clock;
            after_detach = buffered_send(e, me, source.data(), 1, 1, 3);
            // Everything sent: the whole buffer is free again.
            ASSERT_EQ(bsend::attach(e, me, attached.data(), attached.size()), MPI_SUCCESS);
            reattached = buffered_send(e, me, source.data(), kLong, 1, 4) |
                         buffered_send(e, me, source.data(), kLong, 1, 5);
            EXPECT_TRUE(bsend::detach(e, me, &base, &size));
        } else {
            me.clock += us(100);  // the receives are posted at 100 us
            Request* a = post_recv(e, me, sink.data(), kLong, 0, 1);
            Request* b = post_recv(e, me, sink.data() + kLong, kLong, 0, 2);
            wait(e, me, a);
            wait(e, me, b);
            std::vector<char> spare(kLong);
            wait(e, me, post_recv(e, me, spare.data(), kLong, 0, 4));
            wait(e, me, post_recv(e, me, spare.data(), kLong, 0, 5));
        }
    });
    EXPECT_EQ(result.unfinished, 0);
    EXPECT_EQ(third, MPI_ERR_BUFFER);
    EXPECT_EQ(after_detach, MPI_ERR_BUFFER);  // no buffer attached
    EXPECT_EQ(reattached, MPI_SUCCESS);
    EXPECT_EQ(sink[0], 'a');
    EXPECT_EQ(sink[kLong], 'b');
    // Both clear-to-sends reach rank 0 at 100 + 12 us; its NIC sends the two messages back to back.
    EXPECT_EQ(detached_at, us(112) + 2 * transfer_time(kLong, 1834e6));
}

TEST(PersistentRequest, EachStartReusesTheRequestAndCostsWhatAFreshOneCosts) {
    int out = 0, in = -1;
    std::vector<int> received;
    std::vector<SimTime> receive_times;
    auto result = run_ranks(2, [&](Engine& e, Rank& me) {
        const Comm& world = e.world_comm();
        if (me.world == 0) {
            const p2p::Buffer data{&out, 4, MPI_BYTE, 4};
            Request* r = p2p::persistent_request(e, me, RequestKind::Send, data, world, 1, 7, world.context);
            for (int round = 0; round < 3; ++round) {
                out = 10 + round;
                EXPECT_EQ(p2p::start_send(e, me, data, world, 1, 1, 7, world.context, false, me.clock, me.path, r), r);
                wait(e, me, r);
                me.clock += us(50);
            }
            e.free_request(r);
        } else {
            const p2p::Buffer data{&in, 4, MPI_BYTE, 4};
            Request* r = p2p::persistent_request(e, me, RequestKind::Recv, data, world, 0, 7, world.context);
            for (int round = 0; round < 3; ++round) {
                EXPECT_EQ(p2p::start_recv(e, me, data, world, 0, 7, world.context, me.clock, me.path, r), r);
                wait(e, me, r);
                received.push_back(in);
                receive_times.push_back(me.clock);
            }
            e.free_request(r);
        }
    });
    EXPECT_EQ(result.unfinished, 0);
    EXPECT_EQ(received, (std::vector<int>{10, 11, 12}));
    // Round k leaves at k * 50 us and arrives 12 us + 4 bytes later.
    for (int k = 0; k < 3; ++k) EXPECT_EQ(receive_times[k], us(50.0 * k + 12) + transfer_time(4, 1834e6));
}
