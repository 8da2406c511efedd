// MPI-4.0's nonblocking send-receive (section 3.10.1): MPI_Isendrecv and
// MPI_Isendrecv_replace, which Open MPI 4.1 lacks (declared in xsim.h). The request the
// application holds completes when both halves have, at the later of their completion
// times, with the receive's status: posted in the same order as MPI_Sendrecv (receive,
// then send), so Isendrecv + MPI_Wait takes the same virtual time. Both halves are
// validated before either is posted, so a bad argument leaves nothing behind. MPI_Cancel
// does not cancel one (the standard lets a cancel fail): it completes normally.
#include <mpi.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "libxsim/bindings/checks.hpp"
#include "libxsim/bindings/post.hpp"
#include "libxsim/bindings/profiling_alias.hpp"
#include "libxsim/engine/completion_target.hpp"
#include "libxsim/mpi/datatype.hpp"
#include "libxsim/p2p/completion.hpp"
#include "xsim.h"

using namespace xsim;
using post::SendMode;

namespace {

// One MPI_Isendrecv: owns the request the application holds (a receive request, so the
// completion calls report the receive's status) and is told when each half is decided.
class SendRecvPair final : public CompletionTarget {
public:
    // Posts both checked halves; `outgoing` holds _replace's packed data (the send reads it).
    static Request* start(CallScope& s, const post::Operation& recv, post::Operation send,
                          std::vector<char> outgoing) {
        auto* pair = new SendRecvPair(std::move(outgoing));
        Request* r = s.engine.new_request();
        r->kind = RequestKind::Recv;
        r->owner = &s.rank;
        s.engine.attach_comm(r, *recv.comm);
        r->posted_at = s.rank.clock;
        // What a deadlock report shows for a rank waiting on it.
        r->peer = recv.peer;
        r->tag = recv.tag;
        r->context = recv.comm->context;
        r->collective = pair;
        pair->request_ = r;
        pair->done_ = s.rank.clock;
        if (!pair->outgoing_.empty()) send.data.buf = pair->outgoing_.data();
        Request* halves[2] = {post::start_recv(s, recv), nullptr};
        post::start_send(s, send, SendMode::Standard, &halves[1]);  // a standard send always starts
        for (Request* half : halves) {
            if (half->known) {  // decided while posting: eager, PROC_NULL, an arrived message
                pair->take(s.engine, half);
            } else {
                half->parent_call = pair;
                ++pair->undecided_;
            }
        }
        if (pair->undecided_ == 0) pair->finish(s.engine);
        return r;
    }

    void child_decided(Engine& engine, Request* child) override {
        take(engine, child);
        if (--undecided_ == 0) finish(engine);
    }
    const void* resume_hint() const override { return nullptr; }
    const std::string& error() const override { return error_; }

private:
    explicit SendRecvPair(std::vector<char> outgoing) : outgoing_(std::move(outgoing)) {}

    // A decided half: its time (and the receive's status) count, and it is released.
    void take(Engine& engine, Request* half) {
        done_ = std::max(done_, half->done_time);
        if (half->kind == RequestKind::Recv) {
            request_->status_source = half->status_source;
            request_->status_tag = half->status_tag;
            request_->status_bytes = half->status_bytes;
            request_->status_error = half->status_error;
            if (half->status_error == MPI_ERR_TRUNCATE) error_ = "message longer than the receive buffer (truncated)";
        }
        engine.free_request(half);
    }

    void finish(Engine& engine) {
        request_->known = true;
        request_->done_time = done_;
        completion::decided(engine, request_);  // may release the request, and this with it
    }

    std::vector<char> outgoing_;   // _replace: the packed outgoing data
    Request* request_ = nullptr;
    SimTime done_ = 0;             // latest completion of the decided halves
    int undecided_ = 0;
    std::string error_;
};

}  // namespace

extern "C" {

XSIM_MPI_ALIAS(Isendrecv)
int PMPI_Isendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void* recvbuf,
                   int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
                   MPI_Request* request) {
    XSIM_BEGIN_INITIALIZED("MPI_Isendrecv");
    post::Operation recv, send;
    if (int e = post::check_recv(scope, recvbuf, recvcount, recvtype, source, recvtag, comm, &recv)) return e;
    if (int e = post::check_send(scope, sendbuf, sendcount, sendtype, dest, sendtag, comm, &send)) return e;
    if (int e = checks::pointer(scope, recv.comm, request, "request")) return e;
    *request = request_handle(SendRecvPair::start(scope, recv, send, {}));
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Isendrecv_replace)
int PMPI_Isendrecv_replace(void* buf, int count, MPI_Datatype type, int dest, int sendtag, int source, int recvtag,
                           MPI_Comm comm, MPI_Request* request) {
    XSIM_BEGIN_INITIALIZED("MPI_Isendrecv_replace");
    post::Operation recv, send;
    if (int e = post::check_recv(scope, buf, count, type, source, recvtag, comm, &recv)) return e;
    if (int e = post::check_send(scope, buf, count, type, dest, sendtag, comm, &send)) return e;
    if (int e = checks::pointer(scope, recv.comm, request, "request")) return e;
    // The outgoing data is packed aside first, so the receive may overwrite the buffer; it
    // travels as bytes (contiguous: the element count is never used, so it may be clamped).
    const std::uint64_t bytes = send.data.bytes;
    std::vector<char> outgoing;
    if (dest != MPI_PROC_NULL && scope.engine.options().payload.carries(bytes)) {
        outgoing.resize(bytes);
        pack_data(buf, count, type, outgoing.data(), bytes);
    }
    send.data = p2p::Buffer{nullptr, static_cast<int>(std::min<std::uint64_t>(bytes, 0x7fffffff)), MPI_BYTE, bytes};
    *request = request_handle(SendRecvPair::start(scope, recv, send, std::move(outgoing)));
    return MPI_SUCCESS;
}

}  // extern "C"
