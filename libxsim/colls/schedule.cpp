#include "libxsim/colls/schedule.hpp"

#include <algorithm>

#include "libxsim/p2p/completion.hpp"
#include "libxsim/p2p/p2p.hpp"

namespace xsim::colls {
namespace {

// Which waiting a rank of this collective may suffer: Bcast and Scatter(v) wait for the
// root (late root), the root of Reduce and Gather(v) for the others (N x 1); everything
// else depends on every rank it exchanges with (N x N).
WaitKind wait_kind_of(CollKind kind, int rank, int root) {
    switch (kind) {
        case CollKind::Bcast:
        case CollKind::Scatter:
        case CollKind::Scatterv: return rank == root ? WaitKind::None : WaitKind::LateRoot;
        case CollKind::Reduce:
        case CollKind::Gather:
        case CollKind::Gatherv: return rank == root ? WaitKind::WaitNx1 : WaitKind::None;
        default: return WaitKind::WaitNxN;
    }
}

// Whether this rank's entry is one the others wait for: the root's in 1 x N, the
// non-roots' in N x 1, everyone's in N x N.
bool entry_counts(CollKind kind, int rank, int root) {
    switch (kind) {
        case CollKind::Bcast:
        case CollKind::Scatter:
        case CollKind::Scatterv: return rank == root;
        case CollKind::Reduce:
        case CollKind::Gather:
        case CollKind::Gatherv: return rank != root;
        default: return true;
    }
}

}  // namespace

Context::Context(Engine& e, Rank& m, const Comm& c, CollKind k, int root, CallForm form)
    : engine(e), me(m), comm(c), rank(c.rank_of(m)), size(c.size), carry_below(e.options().payload.carry_below),
      now(m.clock), from(&m.path),
      signature(collective_signature(k, root, form == CallForm::Nonblocking)),
      tag(form == CallForm::Leaders ? kLeadersTag : sequence_tag(collective_sequence(m, c)++)), kind(k),
      nonblocking(form == CallForm::Nonblocking), payload(e.options().payload.any()),
      wait_kind(wait_kind_of(k, rank, root)) {
    if (entry_counts(k, rank, root)) stamp.merge(m.clock, m.world);
}

void Context::post(Request* request, int peer, std::uint64_t bytes, bool receive, std::uint32_t signature) {
    // Two: a driven call's eager sends make no transfer, so most rounds post one receive
    // (and a blocking one a send and a receive); more grow the list.
    if (pending_.capacity() == 0) pending_.reserve(2);
    pending_.emplace_back(request, peer, bytes, receive, signature);
}

void Context::send_on(const Comm& lane, std::uint32_t lane_context, int peer, const Block& data,
                      std::uint32_t message_signature) {
    const p2p::Carry carry = carries_data || carries(data.bytes) ? p2p::Carry::Always : p2p::Carry::Never;
    const p2p::Buffer b{data.buf, data.count, data.type, data.bytes, carry};
    last_send_buffer_ = data.buf;
    const int peer_world = lane.world_rank(peer, me);
    Request* r = told_of_completions
                     ? p2p::start_send_unless_eager(engine, me, b, lane, peer, peer_world, tag, lane_context, now,
                                                    *from, message_signature, &stamp)
                     : p2p::start_send(engine, me, b, lane, peer, peer_world, tag, lane_context, false, now, *from,
                                       nullptr, message_signature, &stamp);
    ++engine.stats().internal_messages;
    if (r) post(r, peer, data.bytes, false, message_signature);
    else sent_untracked_ = true;  // complete at `now`: nothing for the round to wait for
}

void Context::recv_on(const Comm& lane, std::uint32_t lane_context, int peer, const Block& data,
                      std::uint32_t message_signature) {
    const p2p::Buffer b{data.buf, data.count, data.type, data.bytes};  // whether data comes is the sender's
    // This call's tag from this peer; the signature is checked on completion (collective_kind.hpp).
    Request* r = told_of_completions ? p2p::start_driven_recv(engine, me, b, lane, peer, tag, lane_context, now, *from,
                                                              std::exchange(spare_receive, nullptr))
                                     : p2p::start_recv(engine, me, b, lane, peer, tag, lane_context, now, *from);
    post(r, peer, data.bytes, true, message_signature);
}

// Packed bytes travel as MPI_BYTE; contiguous types never use the element count, so
// clamping it keeps messages above 2 GiB working.
void Context::send_bytes(int peer, const void* buf, std::uint64_t bytes) {
    send(peer, Block{const_cast<void*>(buf), static_cast<int>(std::min<std::uint64_t>(bytes, 0x7fffffff)),
                     MPI_BYTE, bytes});
}

void Context::recv_bytes(int peer, void* buf, std::uint64_t bytes) {
    recv(peer, Block{buf, static_cast<int>(std::min<std::uint64_t>(bytes, 0x7fffffff)), MPI_BYTE, bytes});
}

bool Context::check_round() {
    for (const Transfer& t : pending_)
        if (t.receive && !arrived_as_expected(t)) return refuse_round(t);
    return true;
}

// Out of line and cold: building the message needs strings, whose registers and frame the
// check of every round (a few compares) should not pay for.
bool Context::refuse_round(const Transfer& t) {
    const Request& r = *t.request;
    const std::string where = call_name(kind, nonblocking) + " on rank " + std::to_string(rank) + ": ";
    if (r.status_signature != t.signature) {
        error_class = MPI_ERR_OTHER;
        error = where + "expected a message of " + describe_signature(t.signature) + " from rank " +
                std::to_string(t.peer) + " but received one of " + describe_signature(r.status_signature) +
                (names(kind).keyed ? ": the ranks called different collectives or their neighbor lists disagree"
                                   : ": the ranks called different collectives or passed different roots") +
                (signature_nonblocking(t.signature) != signature_nonblocking(r.status_signature)
                     ? " (a nonblocking collective never matches a blocking one)"
                     : "");
        return false;
    }
    error_class = r.status_error != MPI_SUCCESS ? r.status_error : MPI_ERR_OTHER;
    error = where + "expected " + std::to_string(t.bytes) + " bytes from rank " + std::to_string(t.peer) +
            " but it sent " + (r.status_error == MPI_ERR_TRUNCATE ? "more" : std::to_string(r.status_bytes)) +
            ": the ranks passed mismatched counts or datatypes";
    return false;
}

bool end_round(Context& ctx, SimTime done) {
    auto& pending = ctx.pending();
    // An error may also come from outside the round (direct_exchange.cpp found the ranks'
    // arguments disagree).
    const bool ok = (pending.empty() || ctx.check_round()) && ctx.error_class == MPI_SUCCESS;
    for (const Transfer& t : pending) {
        if (t.receive) {
            ctx.stamp.merge(t.request->cause_time, t.request->cause_rank);  // wait states
            // A driven call's receive (it holds no communicator) serves the next round's.
            if (!t.request->holds_comm && !ctx.spare_receive) {
                ctx.spare_receive = t.request;
                continue;
            }
        }
        ctx.engine.free_request(t.request);
    }
    pending.clear();
    ctx.forget_untracked_sends();
    ctx.now = std::max(ctx.now, done) + ctx.take_delay();
    return ok;
}

int run_blocking(Context& ctx, Steps steps) {
    std::vector<Request*> requests;
    const SimTime entry = ctx.now;  // the rank's clock when the call began (no round ran yet)
    const SimTime waited_before = ctx.me.split.call_wait;
    for (;;) {
        ctx.now = ctx.me.clock;
        const bool more = steps.resume();
        auto& pending = ctx.pending();
        if (!pending.empty()) {
            requests.clear();
            for (const Transfer& t : pending) requests.push_back(t.request);
            completion::wait_all(ctx.engine, ctx.me, requests.data(), static_cast<int>(requests.size()));
        }
        const bool ok = end_round(ctx, ctx.me.clock);
        ctx.me.clock = ctx.now;
        if (!ok) return ctx.error_class;
        if (!more) {
            // Its rounds' waits are the call's: classified as a whole by the latest entry.
            const SimTime waited = ctx.me.split.call_wait - waited_before;
            record_wait_state(ctx.engine, ctx.me, ctx.wait_kind,
                              wait_state_amount(ctx.stamp.time, entry, entry, waited), ctx.stamp.rank);
            return MPI_SUCCESS;
        }
    }
}

}  // namespace xsim::colls
