// The ProcessLink between real processes over the real MPI library (PMPI): events for
// ranks of other processes are serialized into per-process outboxes during a window and
// exchanged between windows (an all-to-all of sizes, then the non-empty pairs). Only the scheduler calls PMPI, from
// one thread, so MPI_THREAD_SINGLE suffices.
#pragma once
#include <memory>
#include <vector>

#include "libxsim/engine/engine.hpp"
#include "pdes/process_link.hpp"

namespace xsim {

struct WireHeader;

class PmpiLink final : public ProcessLink, public OutboundEvents {
public:
    PmpiLink(Engine& engine, int processes);
    ~PmpiLink() override;
    int process_count() const override { return processes_; }
    void exchange() override;
    Agreement agree(SimTime local_next_time, std::int64_t local_live) override;
    void post(int process, Message& message) override;

private:
    Engine& engine_;
    int processes_;
    std::vector<std::vector<char>> outboxes_;
    std::vector<char> recv_buffer_;
    // Large payloads posted this window, sent on their own by exchange() (pmpi_link.cpp).
    struct SeparatePayload {
        int process;
        std::uint64_t bytes;
        char* buffer;
    };
    std::vector<SeparatePayload> separate_out_;
    std::vector<Message*> received_;  // one window's messages, accepted once all their payloads are in
    std::unique_ptr<WireHeader> scratch_;  // post()'s header, off the rank's stack
};

}  // namespace xsim
