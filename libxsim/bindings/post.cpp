#include "libxsim/bindings/post.hpp"

#include "libxsim/bindings/checks.hpp"
#include "libxsim/bindings/requests.hpp"
#include "libxsim/completion.hpp"

namespace xsim::post {

int send(CallScope& s, const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm handle,
         SendMode mode, Request** out) {
    *out = nullptr;
    const Comm* c = nullptr;
    p2p::Buffer data;
    if (int e = checks::comm(s, handle, &c)) return e;
    if (int e = checks::buffer(s, c, buf, count, type, &data)) return e;
    if (int e = checks::peer(s, c, dest, false)) return e;
    if (int e = checks::tag(s, c, tag, false)) return e;
    if (dest == MPI_PROC_NULL) {
        *out = p2p::null_peer_request(s.engine, s.rank, RequestKind::Send);
        return MPI_SUCCESS;
    }
    auto& stats = s.engine.stats();
    ++stats.messages;
    stats.bytes += data.bytes;
    // Ready mode needs a posted receive, which a correct program guarantees; it then costs
    // what a standard send costs.
    *out = p2p::start_send(s.engine, s.rank, data, *c, dest, c->world_rank(dest, s.rank), tag, c->context,
                           mode == SendMode::Synchronous);
    return MPI_SUCCESS;
}

int recv(CallScope& s, void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm handle,
         Request** out) {
    *out = nullptr;
    const Comm* c = nullptr;
    p2p::Buffer data;
    if (int e = checks::comm(s, handle, &c)) return e;
    if (int e = checks::buffer(s, c, buf, count, type, &data)) return e;
    if (int e = checks::peer(s, c, source, true)) return e;
    if (int e = checks::tag(s, c, tag, true)) return e;
    if (source == MPI_PROC_NULL) {
        *out = p2p::null_peer_request(s.engine, s.rank, RequestKind::Recv);
        return MPI_SUCCESS;
    }
    *out = p2p::start_recv(s.engine, s.rank, data, *c, source, tag, c->context);
    return MPI_SUCCESS;
}

int finish(CallScope& s, Request* r, MPI_Status* status) {
    completion::wait_all(s.engine, s.rank, &r, 1);
    requests::fill_status(status, r);
    const int error = r->status_error;
    const Comm* c = r->comm;
    s.engine.free_request(r);
    return error == MPI_SUCCESS ? MPI_SUCCESS
                                : s.fail(c, error, "message longer than the receive buffer (truncated)");
}

}  // namespace xsim::post
