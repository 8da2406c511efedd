// An operation in progress; MPI_Request handles point to these. Point-to-point requests
// and nonblocking collectives (whose algorithm posts point-to-point child requests that
// point back to it through a CompletionTarget, see colls/collective_call.hpp). The operation's completion time becomes
// known when the events that decide it have been processed; the owner sees it complete
// once its clock reaches that time.
#pragma once
#include <mpi.h>

#include <cstdint>

#include "libxsim/engine/completion_target.hpp"
#include "libxsim/engine/critical_path.hpp"
#include "libxsim/engine/wait_states.hpp"
#include "pdes/sim_time.hpp"

namespace xsim {

struct Rank;
struct Comm;

// Generalized: MPI_Grequest_start; its CompletionTarget (`collective`) holds the callbacks.
enum class RequestKind : std::uint8_t { Send, Recv, Collective, Generalized };

// Line-aligned and 192 bytes (the flags are bits): three cache lines, where 208 bytes at
// any offset spanned four or five. The scheduler prefetches a message's receive and reads
// it at every match (bench/RESULTS.md, "Session 13").
struct alignas(64) Request {
    static constexpr std::uint32_t kMagic = 0x78726571;  // "xreq"
    std::uint32_t magic = kMagic;
    RequestKind kind = RequestKind::Send;
    WaitKind wait_kind = WaitKind::None;  // wait states: see cause_time
    bool known : 1 = false;         // done_time is decided
    bool matched : 1 = false;       // receive: a message was matched to it
    bool persistent : 1 = false;
    bool active : 1 = true;         // persistent requests are inactive between Start and completion
    bool freed : 1 = false;         // MPI_Request_free: release when it completes
    bool cancelled : 1 = false;
    bool in_wait : 1 = false;       // part of the owner's current blocking wait set
    bool synchronous : 1 = false;   // MPI_Ssend / MPI_Issend
    bool carries_data : 1 = false;  // send: moves its data (-xsim-payload, decided when it starts);
                                    // receive: its buffer takes data (false: null, see p2p::Carry)
    bool holds_comm : 1 = false;    // holds a reference to `comm` (Engine::attach_comm)
    bool buffered : 1 = false;      // persistent MPI_Bsend_init: each start is a buffered send
    bool holds_type : 1 = false;    // retains its derived datatype (released when freed)
    bool nonblocking_collective : 1 = false;  // a nonblocking collective's request: `tag` holds its signature
    int count = 0;                  // of the user buffer (below), here where it fills a hole
    Request* next = nullptr;    // posted-receive queue link
    Rank* owner = nullptr;
    const Comm* comm = nullptr;
    SimTime done_time = 0;
    CriticalPath path;          // what done_time is made of: the owner's at posting, or the message's that decided it
    // When the owner posted it. A rank may run ahead of events still to be processed, so a
    // receive can sit in the posted queue before messages that arrived earlier in virtual
    // time are delivered: it matches them at this time, not at their arrival.
    SimTime posted_at = 0;
    // The user buffer.
    void* buf = nullptr;
    MPI_Datatype type = MPI_DATATYPE_NULL;
    std::uint64_t bytes = 0;    // send: message size; receive: buffer capacity
    // Matching: peer is a communicator rank or MPI_ANY_SOURCE (receive), destination (send).
    int peer = 0;
    int tag = 0;
    std::uint32_t context = 0;
    // Filled on completion of a receive.
    int status_source = MPI_ANY_SOURCE;
    int status_tag = MPI_ANY_TAG;
    int status_error = MPI_SUCCESS;
    std::uint64_t status_bytes = 0;
    std::uint32_t status_signature = 0;  // collective messages: the sender's collective and root
    // Wait states (wait_states.hpp), set when it is decided: what kind of waiting its late
    // peer causes, when that peer started (send start, receive post, latest entry) and who.
    std::int32_t cause_rank = -1;
    SimTime cause_time = 0;
    // A message of a collective driven by its messages (colls/collective_call.hpp): the call,
    // told when this one is decided.
    CompletionTarget* parent_call = nullptr;
    // RequestKind::Collective: the running collective (released with the request).
    CompletionTarget* collective = nullptr;
};

}  // namespace xsim
