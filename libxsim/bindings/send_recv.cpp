// MPI point-to-point bindings: blocking, synchronous, ready, buffered and nonblocking sends and
// receives, and the combined send-receive calls.
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "libxsim/bindings/checks.hpp"
#include "libxsim/bindings/post.hpp"
#include "libxsim/bindings/profiling_alias.hpp"
#include "libxsim/bindings/requests.hpp"
#include "libxsim/mpi/datatype.hpp"
#include "libxsim/p2p/completion.hpp"

using namespace xsim;
using post::SendMode;

namespace {

int blocking_send(const char* call, const void* buf, int count, MPI_Datatype type, int dest, int tag,
                  MPI_Comm comm, SendMode mode) {
    XSIM_BEGIN_INITIALIZED(call);
    Request* r = nullptr;
    if (int e = post::send(scope, buf, count, type, dest, tag, comm, mode, &r)) return e;
    return post::finish(scope, r, MPI_STATUS_IGNORE);
}

int nonblocking_send(const char* call, const void* buf, int count, MPI_Datatype type, int dest, int tag,
                     MPI_Comm comm, SendMode mode, MPI_Request* request) {
    XSIM_BEGIN_INITIALIZED(call);
    if (int e = checks::pointer(scope, nullptr, request, "request")) return e;
    Request* r = nullptr;
    if (int e = post::send(scope, buf, count, type, dest, tag, comm, mode, &r)) return e;
    *request = request_handle(r);
    return MPI_SUCCESS;
}

}  // namespace

extern "C" {

XSIM_MPI_ALIAS(Send)
int PMPI_Send(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
    return blocking_send("MPI_Send", buf, count, type, dest, tag, comm, SendMode::Standard);
}
XSIM_MPI_ALIAS(Ssend)
int PMPI_Ssend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
    return blocking_send("MPI_Ssend", buf, count, type, dest, tag, comm, SendMode::Synchronous);
}
XSIM_MPI_ALIAS(Rsend)
int PMPI_Rsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
    return blocking_send("MPI_Rsend", buf, count, type, dest, tag, comm, SendMode::Ready);
}
XSIM_MPI_ALIAS(Bsend)
int PMPI_Bsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
    return blocking_send("MPI_Bsend", buf, count, type, dest, tag, comm, SendMode::Buffered);
}
XSIM_MPI_ALIAS(Isend)
int PMPI_Isend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* req) {
    return nonblocking_send("MPI_Isend", buf, count, type, dest, tag, comm, SendMode::Standard, req);
}
XSIM_MPI_ALIAS(Issend)
int PMPI_Issend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* req) {
    return nonblocking_send("MPI_Issend", buf, count, type, dest, tag, comm, SendMode::Synchronous, req);
}
XSIM_MPI_ALIAS(Irsend)
int PMPI_Irsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* req) {
    return nonblocking_send("MPI_Irsend", buf, count, type, dest, tag, comm, SendMode::Ready, req);
}
XSIM_MPI_ALIAS(Ibsend)
int PMPI_Ibsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* req) {
    return nonblocking_send("MPI_Ibsend", buf, count, type, dest, tag, comm, SendMode::Buffered, req);
}

XSIM_MPI_ALIAS(Recv)
int PMPI_Recv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Status* status) {
    XSIM_BEGIN_INITIALIZED("MPI_Recv");
    Request* r = nullptr;
    if (int e = post::recv(scope, buf, count, type, source, tag, comm, &r)) return e;
    return post::finish(scope, r, status);
}

XSIM_MPI_ALIAS(Irecv)
int PMPI_Irecv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Request* request) {
    XSIM_BEGIN_INITIALIZED("MPI_Irecv");
    if (int e = checks::pointer(scope, nullptr, request, "request")) return e;
    Request* r = nullptr;
    if (int e = post::recv(scope, buf, count, type, source, tag, comm, &r)) return e;
    *request = request_handle(r);
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Sendrecv)
int PMPI_Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void* recvbuf,
                  int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status* status) {
    XSIM_BEGIN_INITIALIZED("MPI_Sendrecv");
    // Both halves are checked before either is posted: a bad send must not leave a receive behind.
    post::Operation recv, send;
    if (int e = post::check_recv(scope, recvbuf, recvcount, recvtype, source, recvtag, comm, &recv)) return e;
    if (int e = post::check_send(scope, sendbuf, sendcount, sendtype, dest, sendtag, comm, &send)) return e;
    Request* reqs[2] = {post::start_recv(scope, recv), nullptr};
    post::start_send(scope, send, SendMode::Standard, &reqs[1]);  // a standard send always starts
    completion::wait_all(scope.engine, scope.rank, reqs, 2);
    scope.engine.free_request(reqs[1]);
    return post::finish(scope, reqs[0], status);
}

XSIM_MPI_ALIAS(Sendrecv_replace)
int PMPI_Sendrecv_replace(void* buf, int count, MPI_Datatype type, int dest, int sendtag, int source, int recvtag,
                          MPI_Comm comm, MPI_Status* status) {
    XSIM_BEGIN_INITIALIZED("MPI_Sendrecv_replace");
    // Both halves are checked before either is posted: a bad receive must not let the send go.
    post::Operation recv, send;
    if (int e = post::check_recv(scope, buf, count, type, source, recvtag, comm, &recv)) return e;
    if (int e = post::check_send(scope, buf, count, type, dest, sendtag, comm, &send)) return e;
    // The outgoing data is packed aside first, so the receive may overwrite the buffer; it
    // travels as bytes (contiguous: the element count is never used, so it may be clamped).
    const std::uint64_t bytes = send.data.bytes;
    std::vector<char> outgoing(scope.engine.options().payload.carries(bytes) ? bytes : 0);
    if (!outgoing.empty()) pack_data(buf, count, type, outgoing.data(), bytes);
    send.data = p2p::Buffer{outgoing.data(), static_cast<int>(std::min<std::uint64_t>(bytes, 0x7fffffff)), MPI_BYTE,
                            bytes};
    Request* reqs[2] = {nullptr, nullptr};
    post::start_send(scope, send, SendMode::Standard, &reqs[1]);  // a standard send always starts
    reqs[0] = post::start_recv(scope, recv);
    completion::wait_all(scope.engine, scope.rank, reqs, 2);
    scope.engine.free_request(reqs[1]);
    return post::finish(scope, reqs[0], status);
}

}  // extern "C"
