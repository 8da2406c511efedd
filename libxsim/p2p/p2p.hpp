// The point-to-point protocols on the simulated network.
//  - eager (size <= the path's eager limit): the send completes locally; the message's
//    first byte arrives after the path latency, the receiver's NIC takes size/bandwidth;
//  - rendezvous (larger): request-to-send, clear-to-send once a receive matched, then
//    the data; the send completes when the data left the sender's NIC;
//  - synchronous sends of eager size carry the data and wait for an acknowledgement.
// Each rank's sends serialize on its NIC, and so do its receives.
#pragma once
#include <mpi.h>

#include <cstdint>

#include "libxsim/engine/engine.hpp"

namespace xsim::p2p {

// Whether a send moves its data (-xsim-payload, payload_policy.hpp): BySize lets the
// policy decide by the message's size (user point-to-point); a collective call decides
// for all its ranks (colls/call_payload.hpp) and says Always or Never. xsim's own data
// (communicator construction) is Always. A receive says Never when its buffer is null
// (accepted because data of its size does not move): a shorter message's data is dropped.
enum class Carry : std::uint8_t { BySize, Always, Never };

struct Buffer {
    const void* buf = nullptr;
    int count = 0;
    MPI_Datatype type = MPI_DATATYPE_NULL;
    std::uint64_t bytes = 0;   // count x type size
    Carry carry = Carry::BySize;
    bool derived = false;      // a derived datatype: the request retains it
};

// Starts a send from rank `me` to communicator rank `dest` (world rank `dest_world`) on
// `context` at virtual time `now` (the rank's clock, or a collective call's own progress),
// whose critical path is `from` (the rank's, or the call's). Returns the request (complete
// for eager sends). `into`: an inactive persistent request to start instead of allocating a
// new one. `signature` travels with the message (collectives check it on receipt). `stamp`:
// a collective's latest entry so far, carried for wait states (wait_states.hpp); null for
// user sends (the send's start).
Request* start_send(Engine& engine, Rank& me, const Buffer& data, const Comm& comm, int dest,
                    int dest_world, int tag, std::uint32_t context, bool synchronous, SimTime now,
                    const CriticalPath& from, Request* into = nullptr, std::uint32_t signature = 0,
                    const WaitStamp* stamp = nullptr);

// start_send for a sender that is told of each send's completion, not waiting on it (a
// collective call driven by its messages): an eager send completes at `now`, so it makes
// no request and returns null; a rendezvous one (or any send while a trace records the
// run) returns its request as start_send does. Never synchronous, never persistent.
Request* start_send_unless_eager(Engine& engine, Rank& me, const Buffer& data, const Comm& comm, int dest,
                                 int dest_world, int tag, std::uint32_t context, SimTime now,
                                 const CriticalPath& from, std::uint32_t signature, const WaitStamp* stamp);

// Starts a receive into `data` from communicator rank `source` (or MPI_ANY_SOURCE), posted
// at virtual time `now` along critical path `from` (as start_send).
Request* start_recv(Engine& engine, Rank& me, const Buffer& data, const Comm& comm, int source,
                    int tag, std::uint32_t context, SimTime now, const CriticalPath& from, Request* into = nullptr);

// start_recv for a collective call driven by its messages (colls/collective_call.hpp): the
// call holds `comm` for its whole life, so the request holds no reference to it, and
// `spare`, when not null, is a receive request of the same call that an earlier round
// completed (and nothing refers to any more), posted again instead of a new one: a round's
// receive then costs neither the pool nor the request's initialization, nor its release.
Request* start_driven_recv(Engine& engine, Rank& me, const Buffer& data, const Comm& comm, int source, int tag,
                           std::uint32_t context, SimTime now, const CriticalPath& from, Request* spare);

// MPI_Mprobe / MPI_Improbe: removes and returns the first message of `me`'s unexpected
// queue that a receive (source, tag, context) would match, or null. Only a receive of that
// message (start_recv_of) can then take it.
Message* take_unexpected(Rank& me, int source, int tag, std::uint32_t context);
// MPI_Mrecv / MPI_Imrecv: a receive into `data` of the message `m` taken by take_unexpected,
// posted at `now` (what start_recv does once it has found its message).
Request* start_recv_of(Engine& engine, Rank& me, const Buffer& data, const Comm& comm, Message* m, SimTime now);

// A request for MPI_PROC_NULL (or a buffered send, done once its data is buffered):
// complete at the caller's clock, empty status.
Request* null_peer_request(Engine& engine, Rank& me, RequestKind kind, Request* into = nullptr);

// An inactive persistent request (MPI_Send_init, MPI_Recv_init, ...) holding the
// arguments that every MPI_Start uses.
Request* persistent_request(Engine& engine, Rank& me, RequestKind kind, const Buffer& data, const Comm& comm,
                            int peer, int tag, std::uint32_t context);

// Processes a message event at its destination (the scheduler's Message events).
void handle_event(Engine& engine, Message* message);

// Where the bytes of `data`, a rendezvous message's data coming from another real process
// (not yet accepted), may be received straight away: the matched receive's own buffer, when
// it takes all of them as one block. Null: they go to a payload, unpacked on arrival. The
// receive cannot complete before the data's event, and MPI lets nobody read its buffer
// until then, so writing it early changes nothing the program may see (as real MPI's
// transfers do); it saves a copy and a staging buffer as large as the message, touched new.
char* direct_destination(Engine& engine, const Message& data);

// Removes an unmatched receive from its rank's posted queue; false if it already matched.
bool cancel_recv(Rank& owner, Request* request);

}  // namespace xsim::p2p
