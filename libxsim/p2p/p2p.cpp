#include "libxsim/p2p/p2p.hpp"

#include <algorithm>

#include "libxsim/p2p/completion.hpp"
#include "libxsim/mpi/datatype.hpp"
#include "libxsim/engine/payload.hpp"
#include "libxsim/engine/rank_buffer.hpp"
#include "netmodels/nic_model.hpp"

namespace xsim::p2p {
namespace {

using net::NicModel;

// A message waiting `delay` on a NIC behind the messages before it waits for their bytes to
// go through: on its critical path a bandwidth term, its bytes counted at this message's rate.
void queued(CriticalPath& path, SimTime delay, const net::Transfer& t, std::uint64_t bytes) {
    if (delay <= 0) return;
    const double rate = t.serialization > 0 ? static_cast<double>(bytes) / static_cast<double>(t.serialization) : 0.0;
    path.add_bandwidth(delay, static_cast<std::uint64_t>(static_cast<double>(delay) * rate + 0.5));
}

void decide(Engine& engine, Request* r, SimTime done) {
    r->known = true;
    r->done_time = done;
    completion::decided(engine, r);
}

// The critical path to `when`, when receive `r` and message `m` met: the envelope's if it
// arrived after the receive was posted, else the receive's (written in place: see extend_path).
void met_path(CriticalPath& out, const Request* r, const Message* m, SimTime when) {
    if (m->time > r->posted_at) {
        out = m->path;
        out.add_latency(m->transfer.latency);
    } else {
        out = r->path;
    }
    out.settle(when);
}

// What a receive `r` that matched `m` at `when` sends back to m's sender (a clear-to-send or an
// acknowledgement): it takes the latency of the reverse direction, and carries the match's
// wait-state stamp and critical path to its arrival at the sender.
inline Message* reply_to_sender(Engine& engine, Rank& receiver, const Request* r, const Message* m, SimTime when,
                                std::int32_t late_receiver) {
    Message* reply = engine.new_event(MessageKind::ClearToSend, receiver, m->src,
                                      when + engine.machine().network->latency(receiver.world, m->src));
    reply->send_request = m->send_request;
    reply->stamp_time = r->posted_at;
    reply->stamp_rank = late_receiver;
    met_path(reply->path, r, m, when);
    reply->path.add_latency(reply->time - when);
    return reply;
}

// A receive `r` matched request-to-send `m` at `when`: the clear-to-send goes back. Out of
// line, as acknowledge(): match() of an eager message then keeps fewer registers.
[[gnu::noinline]] void clear_to_send(Engine& engine, Rank& receiver, Request* r, Message* m, SimTime when,
                                     std::int32_t late_receiver) {
    Message* cts = reply_to_sender(engine, receiver, r, m, when, late_receiver);
    cts->recv_request = reinterpret_cast<std::uint64_t>(r);
    cts->bytes = m->bytes;
    cts->transfer = m->transfer;  // for the data, which takes the request-to-send's path
    engine.free_message(m);
    engine.emit(cts);
}

// The acknowledgement a synchronous eager send `m` waits for, once receive `r` matched it at `when`.
[[gnu::noinline]] void acknowledge(Engine& engine, Rank& receiver, const Request* r, const Message* m, SimTime when,
                                   std::int32_t late_receiver) {
    Message* ack = reply_to_sender(engine, receiver, r, m, when, late_receiver);
    ack->recv_request = 0;
    engine.emit(ack);
}

// A receive and a message (eager or request-to-send) meet at time `when`.
void match(Engine& engine, Rank& receiver, Request* r, Message* m, SimTime when) {
    r->matched = true;
    if (EventObserver* observer = engine.observer()) [[unlikely]]
        observer->on_match(receiver, *r, *m);
    r->status_source = m->src_comm_rank;
    r->status_tag = m->tag;
    r->status_bytes = std::min(m->bytes, r->bytes);
    r->status_error = m->bytes > r->bytes ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
    r->status_signature = m->signature;
    // Wait states: a user receive waits on a late sender; a collective's receive passes the
    // message's latest entry on to its call (colls/schedule.cpp, end_round).
    r->cause_time = m->stamp_time;
    r->cause_rank = m->stamp_rank;
    r->wait_kind = m->signature == 0 ? WaitKind::LateSender : WaitKind::None;
    // A user send waiting for this match waits on a late receiver: when the receive was posted.
    const std::int32_t late_receiver = m->signature == 0 ? receiver.world : -1;
    if (m->kind == MessageKind::RequestToSend) return clear_to_send(engine, receiver, r, m, when, late_receiver);
    if (m->has_payload && r->carries_data)
        unpack_data(m->payload, r->status_bytes, runtime::rank_buffer(engine, receiver, r->buf, r->count, r->type),
                    r->count, r->type);
    if (m->send_request != 0)  // a synchronous eager send waits for this acknowledgement
        acknowledge(engine, receiver, r, m, when, late_receiver);
    const SimTime done = std::max(when, m->data_done);
    if (m->data_done > r->posted_at) {  // the message's last byte decided it, not the posting
        r->path = m->path;
        queued(r->path, m->receive_wait, m->transfer, m->bytes);
        extend_path(r->path, m->transfer.latency, m->transfer.serialization, m->bytes, done);
    }
    engine.free_message(m);
    decide(engine, r, done);
}

void arrive_envelope(Engine& engine, Message* m) {
    Rank& receiver = engine.local(m->dst);
    if (m->kind == MessageKind::Eager) {
        const SimTime through = m->data_done;
        m->data_done = NicModel::receive(receiver.nic, m->data_done, m->transfer);
        m->receive_wait = m->data_done - through;
    }
    Request* r = receiver.posted.take_first([m](const Request& q) {
        return envelope_matches(*m, q.peer, q.tag, q.context);
    });
    if (r) {
        match(engine, receiver, r, m, std::max(m->time, r->posted_at));
        return;
    }
    receiver.unexpected.push_back(m);
    const WaitSet& w = receiver.wait;
    if (receiver.state == RankState::Blocked && w.mode == WaitMode::Probe &&
        envelope_matches(*m, w.probe_source, w.probe_tag, w.probe_context))
        engine.schedule_run(receiver, m->time);
}

// At the sender: a receive matched (rendezvous: send the data) or acknowledged (synchronous eager).
// Out of line, as arrive_data: handle_event's common case, an envelope, then needs no frame.
[[gnu::noinline]] void arrive_clear_to_send(Engine& engine, Message* cts) {
    auto* s = reinterpret_cast<Request*>(cts->send_request);
    if (cts->stamp_rank >= 0) {  // a user send: the receive's posting may have kept it waiting
        s->wait_kind = WaitKind::LateReceiver;
        s->cause_time = cts->stamp_time;
        s->cause_rank = cts->stamp_rank;
    }
    if (cts->recv_request == 0) {  // acknowledgement of a synchronous eager send
        s->path = cts->path;
        engine.free_message(cts);
        decide(engine, s, cts->time);
        return;
    }
    Rank& sender = *s->owner;
    const SimTime start = NicModel::inject(sender.nic, cts->time, cts->transfer);
    Message* data = engine.new_event(MessageKind::Data, sender, cts->src, start + cts->transfer.latency);
    data->bytes = s->bytes;
    data->transfer = cts->transfer;
    data->data_done = engine.machine().network->arrival(sender.world, cts->src, cts->transfer, start);
    data->recv_request = cts->recv_request;
    data->path = cts->path;  // the clear-to-send's path to its arrival
    queued(data->path, start - cts->time, cts->transfer, s->bytes);
    if (s->carries_data) {
        if (engine.is_local(cts->src)) {
            // Same process: straight into the receive buffer, which nobody may touch until
            // the receive completes (after this data event).
            auto* r = reinterpret_cast<Request*>(cts->recv_request);
            if (r->carries_data)
                copy_data(runtime::rank_buffer(engine, sender, s->buf, s->count, s->type), s->count, s->type,
                          r->status_bytes, runtime::rank_buffer(engine, *r->owner, r->buf, r->count, r->type),
                          r->count, r->type);
        } else {
            acquire_payload(data);
            pack_data(runtime::rank_buffer(engine, sender, s->buf, s->count, s->type), s->count, s->type,
                      data->payload, data->bytes);
        }
    }
    engine.free_message(cts);
    s->path = data->path;  // the send completes when its bytes are out
    s->path.add_bandwidth(data->transfer.serialization, data->bytes);
    s->path.settle(sender.nic.send_free);
    engine.emit(data);
    decide(engine, s, sender.nic.send_free);
}

[[gnu::noinline]] void arrive_data(Engine& engine, Message* data) {
    auto* r = reinterpret_cast<Request*>(data->recv_request);
    Rank& receiver = *r->owner;
    const SimTime done = NicModel::receive(receiver.nic, data->data_done, data->transfer);
    queued(data->path, done - data->data_done, data->transfer, data->bytes);
    r->path = data->path;
    extend_path(r->path, data->transfer.latency, data->transfer.serialization, data->bytes, done);
    if (data->has_payload && r->carries_data)
        unpack_data(data->payload, r->status_bytes, runtime::rank_buffer(engine, receiver, r->buf, r->count, r->type),
                    r->count, r->type);
    engine.free_message(data);
    decide(engine, r, done);
}

// Clears what one run of a persistent request decided, before it starts again.
void reset_for_start(Request* r) {
    r->known = false;
    r->matched = false;
    r->cancelled = false;
    r->in_wait = false;
    r->active = true;
    r->next = nullptr;
    r->done_time = 0;
    r->status_source = MPI_ANY_SOURCE;
    r->status_tag = MPI_ANY_TAG;
    r->status_error = MPI_SUCCESS;
    r->status_bytes = 0;
    r->wait_kind = WaitKind::None;
}

// What a posted request says about its operation: the buffer, the envelope, when it was posted
// and the critical path that reached it (decided at posting unless a message decides it later).
// A send decides carries_data again in start_send.
inline void describe_posting(Request* r, const Buffer& data, int peer, int tag, std::uint32_t context, SimTime now,
                             const CriticalPath& from) {
    r->carries_data = data.carry != Carry::Never;
    r->buf = const_cast<void*>(data.buf);
    r->count = data.count;
    r->type = data.type;
    r->bytes = data.bytes;
    r->peer = peer;
    r->tag = tag;
    r->context = context;
    r->posted_at = now;
    r->path = from;
    r->path.settle(now);
}

Request* new_request(Engine& engine, Rank& me, RequestKind kind, const Buffer& data, const Comm& comm,
                     int peer, int tag, std::uint32_t context, SimTime now, const CriticalPath& from,
                     Request* into) {
    if (into) {  // a persistent request keeps its arguments (and its retained datatype)
        reset_for_start(into);
        into->posted_at = now;
        into->path = from;
        into->path.settle(now);
        return into;
    }
    // Fields first, the communicator's count after: its increment may alias the int fields,
    // and would keep the compiler from dropping the pool's default initialization of them.
    Request* r = engine.new_request();
    r->kind = kind;
    r->owner = &me;
    describe_posting(r, data, peer, tag, context, now, from);
    engine.attach_comm(r, comm);
    if (data.derived) {
        retain_type(data.type);
        r->holds_type = true;
    }
    return r;
}

}  // namespace

namespace {

// What every send counts: the bytes of the call sending it (profiles) and the matrix.
void count_send(Engine& engine, Rank& me, int dest_world, std::uint64_t bytes) {
    me.split.call_bytes += bytes;
    if (CommCounts* matrix = engine.comm_matrix()) [[unlikely]]
        matrix->count(me.world, dest_world, bytes);
}

bool send_carries_data(Engine& engine, const Buffer& data) {
    return data.carry == Carry::BySize ? engine.options().payload.carries(data.bytes) : data.carry == Carry::Always;
}

// The message a send puts on the wire when it leaves `me` at `now` along network path `path`,
// `from` being the critical path of `now`: the envelope with the payload (eager) or a
// request-to-send.
Message* send_message(Engine& engine, Rank& me, const Buffer& data, const Comm& comm, int dest_world, int tag,
                      std::uint32_t context, SimTime now, const CriticalPath& from, const net::Path& path, bool eager,
                      bool carries_data, std::uint32_t signature, const WaitStamp* stamp) {
    const net::Transfer transfer = NicModel::transfer(path, data.bytes);
    SimTime start, data_done = 0;
    if (eager) {
        start = NicModel::inject(me.nic, now, transfer);
        data_done = engine.machine().network->arrival_of(me.world, dest_world, transfer, start);
    } else {
        // The request-to-send queues behind earlier sends on the NIC like any message, so a
        // long message never overtakes shorter ones sent before it (MPI non-overtaking).
        start = NicModel::send_start(me.nic, now);
    }
    // Every field is stored before any call: then the compiler drops the pool's default
    // initialization of the fields stored again here.
    Message* m = engine.new_event(eager ? MessageKind::Eager : MessageKind::RequestToSend, me, dest_world,
                                  start + transfer.latency);
    m->data_done = data_done;
    m->transfer = transfer;
    m->bytes = data.bytes;
    m->src_comm_rank = comm.rank_of(me);
    m->tag = tag;
    m->context = context;
    m->signature = signature;
    m->stamp_time = stamp ? stamp->time : now;
    m->stamp_rank = stamp ? stamp->rank : me.world;
    m->path = from;  // the sender's at `now` (what its request holds), then waiting for its NIC
    m->path.settle(now);
    queued(m->path, start - now, transfer, data.bytes);
    if (eager && carries_data) {
        acquire_payload(m);
        pack_data(runtime::rank_buffer(engine, me, data.buf, data.count, data.type), data.count, data.type, m->payload,
                  data.bytes);
    }
    return m;
}

// start_send, with the network's answer for this pair already asked.
Request* start_send_along(Engine& engine, Rank& me, const Buffer& data, const Comm& comm, int dest, int dest_world,
                          int tag, std::uint32_t context, bool synchronous, SimTime now, const CriticalPath& from,
                          Request* into, std::uint32_t signature, const WaitStamp* stamp, const net::Path& path) {
    Request* s = new_request(engine, me, RequestKind::Send, data, comm, dest, tag, context, now, from, into);
    s->synchronous = synchronous;
    count_send(engine, me, dest_world, data.bytes);
    s->carries_data = send_carries_data(engine, data);
    const bool eager = data.bytes <= path.eager_limit;
    Message* m = send_message(engine, me, data, comm, dest_world, tag, context, now, from, path, eager, s->carries_data,
                              signature, stamp);
    // Eager sends complete now unless synchronous; the others learn their completion from
    // the receiver (clear-to-send or acknowledgement), which finds them by this address.
    if (!eager || synchronous) m->send_request = reinterpret_cast<std::uint64_t>(s);
    if (EventObserver* observer = engine.observer()) [[unlikely]]
        observer->on_send(me, *s, *m);
    engine.emit(m);
    if (eager && !synchronous) decide(engine, s, now);
    return s;
}

}  // namespace

Request* start_send(Engine& engine, Rank& me, const Buffer& data, const Comm& comm, int dest,
                    int dest_world, int tag, std::uint32_t context, bool synchronous, SimTime now,
                    const CriticalPath& from, Request* into, std::uint32_t signature, const WaitStamp* stamp) {
    // The one question to the network for this message; its answer travels with it.
    const net::Path path = engine.machine().network->path(me.world, dest_world);
    return start_send_along(engine, me, data, comm, dest, dest_world, tag, context, synchronous, now, from, into,
                            signature, stamp, path);
}

Request* start_send_unless_eager(Engine& engine, Rank& me, const Buffer& data, const Comm& comm, int dest,
                                 int dest_world, int tag, std::uint32_t context, SimTime now,
                                 const CriticalPath& from, std::uint32_t signature, const WaitStamp* stamp) {
    const net::Path path = engine.machine().network->path(me.world, dest_world);
    // A trace sees every send with its request (EventObserver::on_send).
    if (data.bytes > path.eager_limit || engine.observer())
        return start_send_along(engine, me, data, comm, dest, dest_world, tag, context, false, now, from, nullptr,
                                signature, stamp, path);
    count_send(engine, me, dest_world, data.bytes);
    engine.emit(send_message(engine, me, data, comm, dest_world, tag, context, now, from, path, true,
                             send_carries_data(engine, data), signature, stamp));
    return nullptr;
}

Message* take_unexpected(Rank& me, int source, int tag, std::uint32_t context) {
    return me.unexpected.take_first([&](const Message& q) { return envelope_matches(q, source, tag, context); });
}

namespace {

// A receive request, described, meets the first unexpected message it matches, or waits in the
// rank's posted queue.
inline void post_receive(Engine& engine, Rank& me, Request* r, int source, int tag, std::uint32_t context,
                         SimTime now) {
    if (EventObserver* observer = engine.observer()) [[unlikely]]
        observer->on_receive_posted(me, *r);
    Message* m = take_unexpected(me, source, tag, context);
    if (m) match(engine, me, r, m, now);
    else me.posted.push_back(r);
}

}  // namespace

Request* start_recv(Engine& engine, Rank& me, const Buffer& data, const Comm& comm, int source,
                    int tag, std::uint32_t context, SimTime now, const CriticalPath& from, Request* into) {
    Request* r = new_request(engine, me, RequestKind::Recv, data, comm, source, tag, context, now, from, into);
    post_receive(engine, me, r, source, tag, context, now);
    return r;
}

Request* start_driven_recv(Engine& engine, Rank& me, const Buffer& data, const Comm& comm, int source, int tag,
                           std::uint32_t context, SimTime now, const CriticalPath& from, Request* spare) {
    Request* r = spare;
    if (r) {  // decided, matched, out of every queue: what a new request has, it keeps
        r->known = false;
        r->matched = false;
    } else {
        r = engine.new_request();
        r->kind = RequestKind::Recv;
        r->owner = &me;
    }
    r->comm = &comm;  // not attach_comm: the call holds it (an intercommunicator's call has two lanes)
    describe_posting(r, data, source, tag, context, now, from);
    post_receive(engine, me, r, source, tag, context, now);
    return r;
}

Request* null_peer_request(Engine& engine, Rank& me, RequestKind kind, Request* into) {
    Request* r = into;
    if (r) {
        reset_for_start(r);
    } else {
        r = engine.new_request();
        r->kind = kind;
        r->owner = &me;
    }
    r->status_source = MPI_PROC_NULL;
    r->status_tag = MPI_ANY_TAG;
    r->status_bytes = 0;
    r->known = true;
    r->done_time = me.clock;
    r->path = me.path;
    r->path.settle(me.clock);
    return r;
}

Request* persistent_request(Engine& engine, Rank& me, RequestKind kind, const Buffer& data, const Comm& comm,
                            int peer, int tag, std::uint32_t context) {
    Request* r = new_request(engine, me, kind, data, comm, peer, tag, context, me.clock, me.path, nullptr);
    r->persistent = true;
    r->active = false;
    return r;
}

Request* start_recv_of(Engine& engine, Rank& me, const Buffer& data, const Comm& comm, Message* m, SimTime now) {
    Request* r = new_request(engine, me, RequestKind::Recv, data, comm, m->src_comm_rank, m->tag, m->context, now,
                             me.path, nullptr);
    if (EventObserver* observer = engine.observer()) [[unlikely]]
        observer->on_receive_posted(me, *r);
    match(engine, me, r, m, now);
    return r;
}

bool cancel_recv(Rank& owner, Request* request) {
    return !request->matched && owner.posted.remove(request);
}

void handle_event(Engine& engine, Message* message) {
    switch (message->kind) {
        case MessageKind::Eager:
        case MessageKind::RequestToSend: arrive_envelope(engine, message); break;
        case MessageKind::ClearToSend: arrive_clear_to_send(engine, message); break;
        case MessageKind::Data: arrive_data(engine, message); break;
        case MessageKind::CollectiveData:
        case MessageKind::Rma:
        case MessageKind::FilePointer: engine.layer_handler(message->kind)(engine, message); break;
    }
}

char* direct_destination(Engine& engine, const Message& data) {
    if (data.kind != MessageKind::Data) return nullptr;
    const auto* r = reinterpret_cast<const Request*>(data.recv_request);
    if (!r->carries_data || r->status_bytes != data.bytes) return nullptr;  // truncated: as arrive_data
    TypeLayout layout;
    if (!type_layout(r->type, &layout) || !layout.contiguous) return nullptr;
    return static_cast<char*>(runtime::rank_buffer(engine, *r->owner, r->buf, r->count, r->type)) + layout.true_lb;
}

}  // namespace xsim::p2p
