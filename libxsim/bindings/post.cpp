#include "libxsim/bindings/post.hpp"

#include "libxsim/bindings/checks.hpp"
#include "libxsim/bindings/requests.hpp"
#include "libxsim/p2p/bsend_buffer.hpp"
#include "libxsim/p2p/completion.hpp"

namespace xsim::post {

int check_send(CallScope& s, const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm handle,
               Operation* out) {
    if (int e = checks::comm(s, handle, &out->comm)) return e;
    if (int e = checks::buffer(s, out->comm, buf, count, type, &out->data)) return e;
    if (int e = checks::peer(s, out->comm, dest, false)) return e;
    if (int e = checks::tag(s, out->comm, tag, false)) return e;
    out->peer = dest;
    out->tag = tag;
    return MPI_SUCCESS;
}

int check_recv(CallScope& s, void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm handle,
               Operation* out) {
    if (int e = checks::comm(s, handle, &out->comm)) return e;
    if (int e = checks::buffer(s, out->comm, buf, count, type, &out->data)) return e;
    if (int e = checks::peer(s, out->comm, source, true)) return e;
    if (int e = checks::tag(s, out->comm, tag, true)) return e;
    out->peer = source;
    out->tag = tag;
    return MPI_SUCCESS;
}

namespace {

// A buffered send packs the message into the rank's attached buffer and sends it from
// there; the caller's request is complete at once (its data is buffered).
int start_buffered(CallScope& s, const Operation& op, Request** out, Request* into) {
    const Comm& c = *op.comm;
    char* storage = nullptr;
    std::string why;
    if (int e = bsend::reserve(s.engine, s.rank, op.data.bytes, &storage, &why)) return s.fail(&c, e, why);
    if (storage) pack_data(op.data.buf, op.data.count, op.data.type, storage, op.data.bytes);
    const p2p::Buffer packed{storage, static_cast<int>(op.data.bytes), MPI_BYTE, op.data.bytes};
    Request* send = p2p::start_send(s.engine, s.rank, packed, c, op.peer, c.world_rank(op.peer, s.rank), op.tag,
                                    c.context, false, s.rank.clock, s.rank.path);
    bsend::track(s.engine, s.rank, send);
    *out = p2p::null_peer_request(s.engine, s.rank, RequestKind::Send, into);
    return MPI_SUCCESS;
}

}  // namespace

int start_send(CallScope& s, const Operation& op, SendMode mode, Request** out, Request* into) {
    *out = nullptr;
    if (op.peer == MPI_PROC_NULL) {
        *out = p2p::null_peer_request(s.engine, s.rank, RequestKind::Send, into);
        return MPI_SUCCESS;
    }
    auto& stats = s.engine.stats();
    ++stats.messages;
    stats.bytes += op.data.bytes;
    if (mode == SendMode::Buffered) return start_buffered(s, op, out, into);
    // Ready mode needs a posted receive, which a correct program guarantees; it then costs
    // what a standard send costs.
    const Comm& c = *op.comm;
    *out = p2p::start_send(s.engine, s.rank, op.data, c, op.peer, c.world_rank(op.peer, s.rank), op.tag, c.context,
                           mode == SendMode::Synchronous, s.rank.clock, s.rank.path, into);
    return MPI_SUCCESS;
}

Request* start_recv(CallScope& s, const Operation& op, Request* into) {
    if (op.peer == MPI_PROC_NULL) return p2p::null_peer_request(s.engine, s.rank, RequestKind::Recv, into);
    return p2p::start_recv(s.engine, s.rank, op.data, *op.comm, op.peer, op.tag, op.comm->context, s.rank.clock,
                           s.rank.path, into);
}

int send(CallScope& s, const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm handle,
         SendMode mode, Request** out) {
    *out = nullptr;
    Operation op;
    if (int e = check_send(s, buf, count, type, dest, tag, handle, &op)) return e;
    return start_send(s, op, mode, out);
}

int recv(CallScope& s, void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm handle,
         Request** out) {
    *out = nullptr;
    Operation op;
    if (int e = check_recv(s, buf, count, type, source, tag, handle, &op)) return e;
    *out = start_recv(s, op);
    return MPI_SUCCESS;
}

int finish(CallScope& s, Request* r, MPI_Status* status) {
    completion::wait_all(s.engine, s.rank, &r, 1);
    if (EventObserver* observer = s.engine.observer()) [[unlikely]]
        observer->on_complete(s.rank, *r);
    requests::fill_status(status, r);
    const int error = r->status_error;
    const Comm* c = r->comm;
    s.engine.free_request(r);
    return error == MPI_SUCCESS ? MPI_SUCCESS
                                : s.fail(c, error, "message longer than the receive buffer (truncated)");
}

}  // namespace xsim::post
