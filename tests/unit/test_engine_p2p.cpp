// The engine's point-to-point semantics in virtual time, against hand-computed values on
// the default (xSim seed) machine: on-node 12 us / 1834e6 B/s / eager <= 4 KiB;
// same switch 13 us / 2547e6 B/s; other switch 14 us / 2546e6 B/s; 16 ranks per node,
// 18 nodes per switch.
#include <gtest/gtest.h>

#include <vector>

#include "engine_harness.hpp"

using namespace xsim;
using namespace xsim::testing;

namespace {

SimTime ping_pong_half_round_trip(int ranks, int peer, std::uint64_t bytes) {
    std::vector<char> buffer0(bytes + 1), buffer1(bytes + 1);
    auto result = run_ranks(ranks, [&](Engine& e, Rank& me) {
        if (me.world == 0) {
            send_bytes(e, me, buffer0.data(), bytes, peer, 1);
            wait(e, me, post_recv(e, me, buffer0.data(), bytes, peer, 1));
        } else if (me.world == peer) {
            wait(e, me, post_recv(e, me, buffer1.data(), bytes, 0, 1));
            send_bytes(e, me, buffer1.data(), bytes, 0, 1);
        }
    });
    EXPECT_EQ(result.unfinished, 0);
    return result.final_clocks[0] / 2;
}

}  // namespace

TEST(EngineP2P, EmptyMessageCostsTheLevelLatency) {
    EXPECT_EQ(ping_pong_half_round_trip(2, 1, 0), us(12));
    EXPECT_EQ(ping_pong_half_round_trip(17, 16, 0), us(13));
    EXPECT_EQ(ping_pong_half_round_trip(289, 288, 0), us(14));
}

TEST(EngineP2P, EagerMessageAddsItsTransferTime) {
    EXPECT_EQ(ping_pong_half_round_trip(2, 1, 4096), us(12) + transfer_time(4096, 1834e6));
}

TEST(EngineP2P, RendezvousMessagePaysTheHandshake) {
    const std::uint64_t mib = 1 << 20;
    // request-to-send, clear-to-send, then the data: three latencies and one transfer.
    EXPECT_EQ(ping_pong_half_round_trip(2, 1, mib), 3 * us(12) + transfer_time(mib, 1834e6));
    EXPECT_EQ(ping_pong_half_round_trip(17, 16, mib), 3 * us(13) + transfer_time(mib, 2547e6));
    EXPECT_EQ(ping_pong_half_round_trip(289, 288, mib), 3 * us(14) + transfer_time(mib, 2546e6));
}

TEST(EngineP2P, ReceiveCompletesAtTheLaterOfPostAndArrival) {
    int value = 7, got = 0;
    auto result = run_ranks(2, [&](Engine& e, Rank& me) {
        if (me.world == 0) {
            send_bytes(e, me, &value, sizeof value, 1, 0);
        } else {
            me.clock += us(100);  // posts long after the message arrived at 12 us
            wait(e, me, post_recv(e, me, &got, sizeof got, 0, 0));
        }
    });
    EXPECT_EQ(got, 7);
    EXPECT_EQ(result.final_clocks[0], 0);  // an eager send completes locally
    EXPECT_EQ(result.final_clocks[1], us(100));
}

TEST(EngineP2P, AnySourceMatchesInVirtualArrivalOrderNotHostOrder) {
    const int n = 16;  // one node: every message has the same 12 us latency
    std::vector<int> order;
    auto delay = [](int r) { return us(static_cast<double>((r * 37) % 11)); };
    auto result = run_ranks(n, [&](Engine& e, Rank& me) {
        if (me.world == 0) {
            for (int i = 1; i < n; ++i) {
                int source = -1;
                Request* r = post_recv(e, me, &source, sizeof source, MPI_ANY_SOURCE, 0);
                wait(e, me, r);
                order.push_back(source);
                e.free_request(r);
            }
        } else {
            me.clock += delay(me.world);
            send_bytes(e, me, &me.world, sizeof me.world, 0, 0);
        }
    });
    ASSERT_EQ(result.unfinished, 0);
    ASSERT_EQ(order.size(), static_cast<std::size_t>(n - 1));
    for (std::size_t i = 1; i < order.size(); ++i) {
        const auto a = order[i - 1], b = order[i];
        // Earlier arrival first; equal arrival times go to the lower source rank.
        EXPECT_TRUE(delay(a) < delay(b) || (delay(a) == delay(b) && a < b)) << a << " before " << b;
    }
}

TEST(EngineP2P, MessagesFromOneSourceDoNotOvertake) {
    std::vector<int> got;
    run_ranks(2, [&](Engine& e, Rank& me) {
        if (me.world == 0) {
            for (int i = 0; i < 5; ++i) send_bytes(e, me, &i, sizeof i, 1, 3);
        } else {
            me.clock += us(200);
            for (int i = 0; i < 5; ++i) {
                int v = -1;
                wait(e, me, post_recv(e, me, &v, sizeof v, 0, 3));
                got.push_back(v);
            }
        }
    });
    EXPECT_EQ(got, (std::vector<int>{0, 1, 2, 3, 4}));
}

TEST(EngineP2P, TagsSelectMessagesOutOfOrder) {
    int first = 0, second = 0;
    run_ranks(2, [&](Engine& e, Rank& me) {
        if (me.world == 0) {
            int a = 1, b = 2;
            send_bytes(e, me, &a, sizeof a, 1, 1);
            send_bytes(e, me, &b, sizeof b, 1, 2);
        } else {
            wait(e, me, post_recv(e, me, &second, sizeof second, 0, 2));
            wait(e, me, post_recv(e, me, &first, sizeof first, 0, 1));
        }
    });
    EXPECT_EQ(first, 1);
    EXPECT_EQ(second, 2);
}

TEST(EngineP2P, TruncationIsReportedAndOnlyTheBufferIsWritten) {
    int error = MPI_SUCCESS;
    std::uint64_t received = 0;
    int buffer[3] = {0, 0, -1};
    run_ranks(2, [&](Engine& e, Rank& me) {
        if (me.world == 0) {
            int data[3] = {10, 20, 30};
            send_bytes(e, me, data, sizeof data, 1, 0);
        } else {
            Request* r = post_recv(e, me, buffer, 2 * sizeof(int), 0, 0);
            wait(e, me, r);
            error = r->status_error;
            received = r->status_bytes;
        }
    });
    EXPECT_EQ(error, MPI_ERR_TRUNCATE);
    EXPECT_EQ(received, 2 * sizeof(int));
    EXPECT_EQ(buffer[0], 10);
    EXPECT_EQ(buffer[1], 20);
    EXPECT_EQ(buffer[2], -1);
}

TEST(EngineP2P, SendsSerializeOnTheSendersNic) {
    std::vector<char> data(4000);
    auto result = run_ranks(3, [&](Engine& e, Rank& me) {
        if (me.world == 0) {
            send_bytes(e, me, data.data(), data.size(), 1, 0);
            send_bytes(e, me, data.data(), data.size(), 2, 0);
        } else {
            wait(e, me, post_recv(e, me, data.data(), data.size(), 0, 0));
        }
    });
    const SimTime wire = transfer_time(4000, 1834e6);
    EXPECT_EQ(result.final_clocks[1], us(12) + wire);
    EXPECT_EQ(result.final_clocks[2], wire + us(12) + wire);  // injected after the first
}

TEST(EngineP2P, SynchronousSendWaitsForTheMatchingReceive) {
    int v = 5;
    auto result = run_ranks(2, [&](Engine& e, Rank& me) {
        if (me.world == 0) {
            send_bytes(e, me, &v, sizeof v, 1, 0, /*synchronous=*/true);
        } else {
            me.clock += us(50);
            wait(e, me, post_recv(e, me, &v, sizeof v, 0, 0));
        }
    });
    EXPECT_EQ(result.final_clocks[0], us(50) + us(12));  // acknowledgement of the match
}

TEST(EngineP2P, MutualReceivesAreADeadlock) {
    auto result = run_ranks(3, [&](Engine& e, Rank& me) {
        int v = 0;
        if (me.world < 2) wait(e, me, post_recv(e, me, &v, sizeof v, 1 - me.world, 0));
    });
    EXPECT_EQ(result.unfinished, 2);
}

TEST(EngineP2P, SameProgramGivesIdenticalClocks) {
    auto body = [](Engine& e, Rank& me) {
        const int n = e.world_size();
        int token = me.world;
        for (int step = 0; step < 3; ++step) {
            me.clock += seconds_to_simtime(1e-6 * ((me.world * 13 + step) % 7));
            Request* r = post_recv(e, me, &token, sizeof token, MPI_ANY_SOURCE, step);
            send_bytes(e, me, &token, sizeof token, (me.world + 1 + step) % n, step);
            wait(e, me, r);
            e.free_request(r);
        }
    };
    const auto a = run_ranks(50, body), b = run_ranks(50, body);
    EXPECT_EQ(a.final_clocks, b.final_clocks);
    EXPECT_EQ(a.unfinished, 0);
}

TEST(EngineP2P, BlockingProbeWaitsForTheArrival) {
    SimTime seen_at = 0;
    run_ranks(2, [&](Engine& e, Rank& me) {
        int v = 9;
        if (me.world == 0) {
            me.clock += us(30);
            send_bytes(e, me, &v, sizeof v, 1, 4);
        } else {
            const Message* m = completion::wait_probe(e, me, MPI_ANY_SOURCE, 4, e.world_comm().context);
            EXPECT_EQ(m->bytes, sizeof v);
            seen_at = me.clock;
            wait(e, me, post_recv(e, me, &v, sizeof v, 0, 4));
        }
    });
    EXPECT_EQ(seen_at, us(42));
}

TEST(EngineP2P, LinkContentionMakesConcurrentTransfersTakeTurns) {
    // Ranks 0 and 1 (node 0) each send 60,000 bytes (eager off-node) to ranks 16 and 17
    // (node 1) at time 0: without contention both arrive together; with it they share the
    // node's port and one of them waits for the other.
    std::vector<char> data(60000);
    auto body = [&](Engine& e, Rank& me) {
        if (me.world == 0 || me.world == 1) send_bytes(e, me, data.data(), data.size(), me.world + 16, 0);
        if (me.world == 16 || me.world == 17) wait(e, me, post_recv(e, me, data.data(), data.size(), me.world - 16, 0));
    };
    const SimTime wire = transfer_time(60000, 2547e6);
    const auto free_flow = run_ranks(18, body);
    EXPECT_EQ(free_flow.final_clocks[16], us(13) + wire);
    EXPECT_EQ(free_flow.final_clocks[17], us(13) + wire);
    const auto shared = run_ranks(18, body, {}, {"network.contention=true"});
    const SimTime first = std::min(shared.final_clocks[16], shared.final_clocks[17]);
    const SimTime second = std::max(shared.final_clocks[16], shared.final_clocks[17]);
    EXPECT_EQ(first, us(13) + wire);
    EXPECT_GE(second, first + wire);
}

TEST(EngineP2P, RendezvousMessageDoesNotOvertakeEarlierEagerOnes) {
    // Eight eager sends occupy the sender's NIC; a rendezvous send after them must still
    // match after them (MPI non-overtaking), its request-to-send queued behind them.
    std::vector<std::uint64_t> sizes;
    run_ranks(2, [&](Engine& e, Rank& me) {
        std::vector<char> data(100000);
        if (me.world == 0) {
            for (int i = 0; i < 8; ++i) send_bytes(e, me, data.data(), 3000, 1, 0);
            send_bytes(e, me, data.data(), data.size(), 1, 0);
        } else {
            for (int i = 0; i < 9; ++i) {
                Request* r = post_recv(e, me, data.data(), data.size(), 0, 0);
                wait(e, me, r);
                sizes.push_back(r->status_bytes);
                e.free_request(r);
            }
        }
    });
    EXPECT_EQ(sizes, (std::vector<std::uint64_t>{3000, 3000, 3000, 3000, 3000, 3000, 3000, 3000, 100000}));
}
