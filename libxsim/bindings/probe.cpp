// MPI probe bindings (also the matched probes: MPI_Mprobe, MPI_Improbe, MPI_Mrecv,
// MPI_Imrecv) and status queries. A probe sees the messages that have arrived by the
// caller's virtual time, in arrival order.
#include <mpi.h>

#include <climits>
#include <cstdint>
#include <string>

#include "libxsim/bindings/checks.hpp"
#include "libxsim/bindings/post.hpp"
#include "libxsim/bindings/profiling_alias.hpp"
#include "libxsim/mpi/real_mpi.hpp"
#include "libxsim/p2p/completion.hpp"
#include "libxsim/p2p/p2p.hpp"

using namespace xsim;

namespace {

// (The MPI_ERROR field is left alone: requests.hpp, fill_status.)
void status_of_message(MPI_Status* status, const Message& m) {
    if (status == MPI_STATUS_IGNORE) return;
    status->MPI_SOURCE = m.src_comm_rank;
    status->MPI_TAG = m.tag;
    status->_cancelled = 0;
    status->_ucount = m.bytes;
}

void proc_null_status(MPI_Status* status) {
    if (status == MPI_STATUS_IGNORE) return;
    status->MPI_SOURCE = MPI_PROC_NULL;
    status->MPI_TAG = MPI_ANY_TAG;
    status->_cancelled = 0;
    status->_ucount = 0;
}

int check_probe(CallScope& s, int source, int tag, MPI_Comm comm, const Comm** c) {
    if (int e = checks::comm(s, comm, c)) return e;
    if (int e = checks::peer(s, *c, source, true)) return e;
    return checks::tag(s, *c, tag, true);
}

// What a nonblocking probe sees: the first matching message that has arrived by the rank's
// time, or null (an unsuccessful poll, which costs processor.poll_cost).
const Message* poll_for(CallScope& s, const Comm& c, int source, int tag) {
    s.engine.catch_up(s.rank);
    const Message* m =
        s.rank.unexpected.find_first([&](const Message& q) { return envelope_matches(q, source, tag, c.context); });
    if (!m) charge_poll(s);
    return m;
}

// What an MPI_Message handle of a matched probe points to: the message, out of the
// unexpected queue, until MPI_Mrecv or MPI_Imrecv of the rank that probed receives it.
struct MatchedMessage {
    static constexpr std::uint32_t kMagic = 0x786d7367;  // "xmsg"
    std::uint32_t magic = kMagic;
    int owner_world = -1;
    Message* message = nullptr;
    const Comm* comm = nullptr;  // held: MPI_Comm_free may come before the receive
};

MPI_Message message_handle(CallScope& s, const Comm& c, Message* m) {
    ref(c);
    return reinterpret_cast<MPI_Message>(new MatchedMessage{MatchedMessage::kMagic, s.rank.world, m, &c});
}

// MPI_Mprobe / MPI_Improbe: takes the first matching message that has arrived by now.
void take(CallScope& s, const Comm& c, int source, int tag, MPI_Message* message, MPI_Status* status) {
    Message* m = p2p::take_unexpected(s.rank, source, tag, c.context);
    status_of_message(status, *m);
    *message = message_handle(s, c, m);
}

// MPI_Mrecv / MPI_Imrecv: the receive of a matched message (the handle becomes
// MPI_MESSAGE_NULL); MPI_MESSAGE_NO_PROC receives nothing, from MPI_PROC_NULL.
int receive_matched(CallScope& s, void* buf, int count, MPI_Datatype type, MPI_Message* message, Request** out) {
    *out = nullptr;
    if (int e = checks::pointer(s, nullptr, message, "message")) return e;
    if (*message == MPI_MESSAGE_NO_PROC) {
        *out = p2p::null_peer_request(s.engine, s.rank, RequestKind::Recv);
        *message = MPI_MESSAGE_NULL;
        return MPI_SUCCESS;
    }
    auto* matched = reinterpret_cast<MatchedMessage*>(*message);
    if (*message == MPI_MESSAGE_NULL || matched->magic != MatchedMessage::kMagic)
        return s.fail(nullptr, MPI_ERR_REQUEST, "invalid message handle (not from MPI_Mprobe or MPI_Improbe)");
    if (matched->owner_world != s.rank.world)
        return s.fail(matched->comm, MPI_ERR_REQUEST,
                      "the message was matched by simulated rank " + std::to_string(matched->owner_world) +
                          ", not by this one");
    p2p::Buffer data;
    if (int e = checks::buffer(s, matched->comm, buf, count, type, &data)) return e;
    *out = p2p::start_recv_of(s.engine, s.rank, data, *matched->comm, matched->message, s.rank.clock);
    unref(matched->comm);
    matched->magic = 0;
    delete matched;
    *message = MPI_MESSAGE_NULL;
    return MPI_SUCCESS;
}

}  // namespace

extern "C" {

XSIM_MPI_ALIAS(Probe)
int PMPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status* status) {
    XSIM_BEGIN_INITIALIZED("MPI_Probe");
    const Comm* c = nullptr;
    if (int e = check_probe(scope, source, tag, comm, &c)) return e;
    if (source == MPI_PROC_NULL) {
        proc_null_status(status);
        return MPI_SUCCESS;
    }
    const Message* m = completion::wait_probe(scope.engine, scope.rank, source, tag, c->context);
    status_of_message(status, *m);
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Iprobe)
int PMPI_Iprobe(int source, int tag, MPI_Comm comm, int* flag, MPI_Status* status) {
    XSIM_BEGIN_INITIALIZED("MPI_Iprobe");
    const Comm* c = nullptr;
    if (int e = check_probe(scope, source, tag, comm, &c)) return e;
    if (int e = checks::pointer(scope, c, flag, "flag")) return e;
    if (source == MPI_PROC_NULL) {
        *flag = 1;
        proc_null_status(status);
        return MPI_SUCCESS;
    }
    const Message* m = poll_for(scope, *c, source, tag);
    *flag = m ? 1 : 0;
    if (m) status_of_message(status, *m);
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Mprobe)
int PMPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message* message, MPI_Status* status) {
    XSIM_BEGIN_INITIALIZED("MPI_Mprobe");
    const Comm* c = nullptr;
    if (int e = check_probe(scope, source, tag, comm, &c)) return e;
    if (int e = checks::pointer(scope, c, message, "message")) return e;
    if (source == MPI_PROC_NULL) {
        *message = MPI_MESSAGE_NO_PROC;
        proc_null_status(status);
        return MPI_SUCCESS;
    }
    completion::wait_probe(scope.engine, scope.rank, source, tag, c->context);  // it has arrived now
    take(scope, *c, source, tag, message, status);
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Improbe)
int PMPI_Improbe(int source, int tag, MPI_Comm comm, int* flag, MPI_Message* message, MPI_Status* status) {
    XSIM_BEGIN_INITIALIZED("MPI_Improbe");
    const Comm* c = nullptr;
    if (int e = check_probe(scope, source, tag, comm, &c)) return e;
    if (int e = checks::pointer(scope, c, flag, "flag")) return e;
    if (int e = checks::pointer(scope, c, message, "message")) return e;
    if (source == MPI_PROC_NULL) {
        *flag = 1;
        *message = MPI_MESSAGE_NO_PROC;
        proc_null_status(status);
        return MPI_SUCCESS;
    }
    *flag = poll_for(scope, *c, source, tag) ? 1 : 0;
    if (*flag) take(scope, *c, source, tag, message, status);
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Mrecv)
int PMPI_Mrecv(void* buf, int count, MPI_Datatype type, MPI_Message* message, MPI_Status* status) {
    XSIM_BEGIN_INITIALIZED("MPI_Mrecv");
    Request* r = nullptr;
    if (int e = receive_matched(scope, buf, count, type, message, &r)) return e;
    return post::finish(scope, r, status);
}

XSIM_MPI_ALIAS(Imrecv)
int PMPI_Imrecv(void* buf, int count, MPI_Datatype type, MPI_Message* message, MPI_Request* request) {
    XSIM_BEGIN_INITIALIZED("MPI_Imrecv");
    if (int e = checks::pointer(scope, nullptr, request, "request")) return e;
    Request* r = nullptr;
    if (int e = receive_matched(scope, buf, count, type, message, &r)) return e;
    *request = request_handle(r);
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Get_count)
int PMPI_Get_count(const MPI_Status* status, MPI_Datatype type, int* count) {
    XSIM_BEGIN_INITIALIZED("MPI_Get_count");
    if (int e = checks::pointer(scope, nullptr, status, "status")) return e;
    if (int e = checks::pointer(scope, nullptr, count, "count")) return e;
    MPI_Count size = 0;  // _x: a type of 2 GiB or more has no int size
    if (type == MPI_DATATYPE_NULL || real_mpi.Type_size_x(type, &size) != MPI_SUCCESS)
        return scope.fail(nullptr, MPI_ERR_TYPE, "invalid datatype");
    const auto bytes = static_cast<long long>(status->_ucount);
    const long long whole = size == 0 ? 0 : bytes / size;
    if (size == 0) *count = bytes == 0 ? 0 : MPI_UNDEFINED;
    else *count = bytes % size == 0 && whole <= INT_MAX ? static_cast<int>(whole) : MPI_UNDEFINED;
    return MPI_SUCCESS;
}

}  // extern "C"
