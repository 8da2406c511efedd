// Persistent requests: MPI_Send_init and friends check their arguments once and create
// an inactive request; MPI_Start / MPI_Startall run it again and again (the same request
// object, so completion and freeing work as for any request); a completed persistent
// request becomes inactive, and waiting on it then returns an empty status at once. The
// persistent collectives (MPIX_<Coll>_init) start here too: persistent_collective.hpp.
#include <mpi.h>

#include <string>

#include "libxsim/bindings/checks.hpp"
#include "libxsim/bindings/persistent_collective.hpp"
#include "libxsim/bindings/post.hpp"
#include "libxsim/bindings/profiling_alias.hpp"

using namespace xsim;
using post::SendMode;

namespace {

int send_init(const char* call, const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
              SendMode mode, MPI_Request* request) {
    XSIM_BEGIN_INITIALIZED(call);
    if (int e = checks::pointer(scope, nullptr, request, "request")) return e;
    post::Operation op;
    if (int e = post::check_send(scope, buf, count, type, dest, tag, comm, &op)) return e;
    Request* r = p2p::persistent_request(scope.engine, scope.rank, RequestKind::Send, op.data, *op.comm, op.peer,
                                         op.tag, op.comm->context);
    r->synchronous = mode == SendMode::Synchronous;
    r->buffered = mode == SendMode::Buffered;
    *request = request_handle(r);
    return MPI_SUCCESS;
}

// An inactive persistent request of the calling rank, or MPI_ERR_REQUEST.
int startable(CallScope& s, MPI_Request handle, const char* where, Request** out) {
    Request* r = resolve_request(handle);
    *out = r;
    if (!r || r->owner != &s.rank) return s.fail(nullptr, MPI_ERR_REQUEST, std::string("invalid request handle") + where);
    if (!r->persistent) return s.fail(r->comm, MPI_ERR_REQUEST, std::string("not a persistent request") + where);
    if (r->active) return s.fail(r->comm, MPI_ERR_REQUEST, std::string("the request is already active") + where);
    return MPI_SUCCESS;
}

int start_request(CallScope& s, Request* r) {
    if (r->kind == RequestKind::Collective) {  // MPIX_<Coll>_init
        static_cast<pcoll::Definition*>(r->collective)->start(s.engine, s.rank, r);
        return MPI_SUCCESS;
    }
    post::Operation op;
    op.comm = r->comm;
    op.data = p2p::Buffer{r->buf, r->count, r->type, r->bytes};
    op.peer = r->peer;
    op.tag = r->tag;
    if (r->kind == RequestKind::Recv) {
        post::start_recv(s, op, r);
        return MPI_SUCCESS;
    }
    const SendMode mode = r->buffered ? SendMode::Buffered : r->synchronous ? SendMode::Synchronous : SendMode::Standard;
    Request* started = nullptr;
    return post::start_send(s, op, mode, &started, r);
}

}  // namespace

extern "C" {

XSIM_MPI_ALIAS(Send_init)
int PMPI_Send_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* req) {
    return send_init("MPI_Send_init", buf, count, type, dest, tag, comm, SendMode::Standard, req);
}
XSIM_MPI_ALIAS(Ssend_init)
int PMPI_Ssend_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* req) {
    return send_init("MPI_Ssend_init", buf, count, type, dest, tag, comm, SendMode::Synchronous, req);
}
XSIM_MPI_ALIAS(Rsend_init)
int PMPI_Rsend_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* req) {
    return send_init("MPI_Rsend_init", buf, count, type, dest, tag, comm, SendMode::Ready, req);
}
XSIM_MPI_ALIAS(Bsend_init)
int PMPI_Bsend_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* req) {
    return send_init("MPI_Bsend_init", buf, count, type, dest, tag, comm, SendMode::Buffered, req);
}

XSIM_MPI_ALIAS(Recv_init)
int PMPI_Recv_init(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Request* request) {
    XSIM_BEGIN_INITIALIZED("MPI_Recv_init");
    if (int e = checks::pointer(scope, nullptr, request, "request")) return e;
    post::Operation op;
    if (int e = post::check_recv(scope, buf, count, type, source, tag, comm, &op)) return e;
    *request = request_handle(p2p::persistent_request(scope.engine, scope.rank, RequestKind::Recv, op.data, *op.comm,
                                                      op.peer, op.tag, op.comm->context));
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Start)
int PMPI_Start(MPI_Request* request) {
    XSIM_BEGIN_INITIALIZED("MPI_Start");
    if (int e = checks::pointer(scope, nullptr, request, "request")) return e;
    Request* r = nullptr;
    if (int e = startable(scope, *request, "", &r)) return e;
    return start_request(scope, r);
}

XSIM_MPI_ALIAS(Startall)
int PMPI_Startall(int count, MPI_Request requests[]) {
    XSIM_BEGIN_INITIALIZED("MPI_Startall");
    if (count < 0) return scope.fail(nullptr, MPI_ERR_COUNT, "negative request count " + std::to_string(count));
    if (count > 0 && !requests) return scope.fail(nullptr, MPI_ERR_REQUEST, "null array of requests");
    // Every handle is checked before any request starts.
    for (int i = 0; i < count; ++i) {
        Request* r = nullptr;
        if (int e = startable(scope, requests[i], (" at index " + std::to_string(i)).c_str(), &r)) return e;
    }
    for (int i = 0; i < count; ++i) {
        Request* r = resolve_request(requests[i]);
        if (r->active)
            return scope.fail(r->comm, MPI_ERR_REQUEST, "request at index " + std::to_string(i) + " listed twice");
        if (int e = start_request(scope, r)) return e;
    }
    return MPI_SUCCESS;
}

}  // extern "C"
