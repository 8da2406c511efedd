// A message between simulated ranks, as an event on the wire. One struct serves the
// eager protocol (envelope + payload), rendezvous (request-to-send, clear-to-send, data)
// and synchronous sends; its `time` is when it reaches `dst`.
#pragma once
#include <mpi.h>

#include <cstdint>

#include "libxsim/engine/critical_path.hpp"
#include "netmodels/machine.hpp"
#include "pdes/sim_time.hpp"

namespace xsim {

enum class MessageKind : std::uint8_t {
    Eager,          // envelope and payload; the send completed locally
    RequestToSend,  // rendezvous envelope: the sender waits for a matching receive
    ClearToSend,    // receiver -> sender: the receive matched, send the data
    Data,           // rendezvous payload
    CollectiveData, // analytic collectives' data for another real process (colls/spanning_exchange)
    Rma,            // a one-sided operation, its completion, or a lock's traffic (rma/operations)
    FilePointer,    // a shared file pointer's fetch-and-add at its home, or the answer (io/shared_pointer)
};

// Line-aligned (its pool's slots are too), so that it spans three cache lines, not four, and
// the engine's prefetch of a message's lines covers it.
struct alignas(64) Message {
    Message* next = nullptr;        // unexpected-queue link
    SimTime time = 0;               // arrival at dst (first byte)
    SimTime data_done = 0;          // eager, data: last byte through the network; then into the receiver
    CriticalPath path;              // the sender's path when this event left it (before its own terms)
    SimTime receive_wait = 0;       // eager: waited for the receiver's NIC (set at arrival; critical path)
    net::Transfer transfer;         // the user message's cost on its path (sender -> receiver), asked
                                    // of the network once at the send and carried through rendezvous
    std::int32_t src = 0;           // world rank that sent this event
    std::int32_t dst = 0;           // world rank it goes to
    std::int32_t src_comm_rank = 0; // sender's rank in the communicator (what status reports)
    std::int32_t tag = 0;
    std::uint32_t context = 0;      // communicator context id
    std::uint32_t seq = 0;          // per-sender sequence number: the deterministic tie-break
    std::uint64_t bytes = 0;        // payload size of the user message
    std::uint64_t send_request = 0; // sender's request (valid in the sender's process)
    std::uint64_t recv_request = 0; // receiver's request (ClearToSend, Data)
    MessageKind kind = MessageKind::Eager;
    bool has_payload = false;       // payload bytes travel with this event
    std::uint32_t signature = 0;    // collectives: which collective and root sent it (checked on receipt)
    char* payload = nullptr;        // owned copy of the packed data (inline_payload when it fits), or null
    // Wait states (wait_states.hpp): user messages, the send's start and its sender; a
    // clear-to-send or acknowledgement, the matching receive's posting and its rank;
    // collective messages, the latest entry into the call the sender knows and its rank.
    SimTime stamp_time = 0;
    std::int32_t stamp_rank = -1;
    // Small payloads (a reduction's double, a halo's few ints) travel in the message itself:
    // no block from the payload pool, whose free list hands out blocks in release order,
    // scattered over memory at scale (payload.cpp).
    static constexpr std::uint64_t kInlinePayload = 16;
    alignas(8) char inline_payload[kInlinePayload]{};
};

// True when the message would satisfy a receive (or probe) with this filter.
inline bool envelope_matches(const Message& m, int source, int tag, std::uint32_t context) {
    return m.context == context && (source == MPI_ANY_SOURCE || source == m.src_comm_rank) &&
           (tag == MPI_ANY_TAG || tag == m.tag);
}

}  // namespace xsim
