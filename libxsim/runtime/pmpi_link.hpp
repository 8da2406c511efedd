// The ProcessLink between real processes over the real MPI library (PMPI): events for
// ranks of other processes are serialized into per-process outboxes during a window and
// exchanged between windows: one message to every other process, which also carries this
// process's part of the agreement on the next window. Only the scheduler calls PMPI, from
// one thread, so MPI_THREAD_SINGLE suffices.
#pragma once
#include <memory>
#include <vector>

#include "libxsim/engine/engine.hpp"
#include "libxsim/runtime/link_doorbells.hpp"
#include "pdes/process_link.hpp"

namespace xsim {

struct WireHeader;
struct WirePrefix;

class PmpiLink final : public ProcessLink, public OutboundEvents {
public:
    PmpiLink(Engine& engine, int processes);
    ~PmpiLink() override;
    int process_count() const override { return processes_; }
    Agreement exchange(SimTime local_next_time, std::int64_t local_live) override;
    void post(int process, Message& message) override;

private:
    Engine& engine_;
    int processes_;
    std::vector<std::vector<char>> outboxes_;
    int self_ = 0;                              // this process's rank in MPI_COMM_WORLD
    std::vector<std::vector<char>> inboxes_;   // one window's box from each other process
    // Large payloads posted this window, sent on their own by exchange() (pmpi_link.cpp).
    struct SeparatePayload {
        int process;
        std::uint64_t bytes;
        char* buffer;
    };
    std::vector<SeparatePayload> separate_out_;
    std::vector<Message*> received_;  // one window's messages, accepted once all their payloads are in
    std::unique_ptr<WireHeader> scratch_;  // post()'s header, off the rank's stack
    SimTime outbound_next_ = kNever;       // the earliest event posted since the last exchange
    runtime::LinkDoorbells doorbells_;     // how a waiting process sleeps (link_doorbells.hpp)
};

}  // namespace xsim
