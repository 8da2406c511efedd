#include "libxsim/colls/schedule.hpp"

#include <algorithm>

#include "libxsim/completion.hpp"
#include "libxsim/p2p.hpp"

namespace xsim::colls {
namespace {

std::string describe(int tag) {
    const int kind = tag_kind(tag);
    if (!known_kind(kind)) return "a message with unknown tag " + std::to_string(tag);
    const CollNames& n = names(static_cast<CollKind>(kind));
    std::string s = n.mpi;
    if (n.rooted) s += " (root " + std::to_string(tag_root(tag)) + ")";
    if (n.keyed) s += " (block key " + std::to_string(tag_root(tag)) + ")";
    return s;
}

}  // namespace

Context::Context(Engine& e, Rank& m, const Comm& c, CollKind k, int root)
    : engine(e), me(m), comm(c), rank(c.rank_of(m)), size(c.size), payload(e.options().payload), kind(k),
      tag(collective_tag(k, root)) {}

void Context::post(Transfer t) { pending_.push_back(t); }

void Context::send(int peer, const Block& data, int message_tag) {
    const p2p::Buffer b{data.buf, data.count, data.type, data.bytes, carries_data};
    Request* r = p2p::start_send(engine, me, b, comm, peer, comm.world_rank(peer, me), message_tag,
                                 comm.collective_context(), false);
    ++engine.stats().internal_messages;
    post({r, peer, data.bytes, false, message_tag});
}

void Context::recv(int peer, const Block& data, int message_tag) {
    const p2p::Buffer b{data.buf, data.count, data.type, data.bytes, carries_data};
    // Any tag from this peer: the tag is checked on completion (see collective_kind.hpp).
    Request* r = p2p::start_recv(engine, me, b, comm, peer, MPI_ANY_TAG, comm.collective_context());
    post({r, peer, data.bytes, true, message_tag});
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
    for (const Transfer& t : pending_) {
        if (!t.receive) continue;
        const Request& r = *t.request;
        if (r.status_tag == t.tag && r.status_error == MPI_SUCCESS && r.status_bytes == t.bytes) continue;
        const std::string where = std::string(names(kind).mpi) + " on rank " + std::to_string(rank) + ": ";
        if (r.status_tag != t.tag) {
            error_class = MPI_ERR_OTHER;
            error = where + "expected a message of " + describe(t.tag) + " from rank " + std::to_string(t.peer) +
                    " but received one of " + describe(r.status_tag) +
                    (names(kind).keyed ? ": the ranks called different collectives or their neighbor lists disagree"
                                       : ": the ranks called different collectives or passed different roots");
            return false;
        }
        error_class = r.status_error != MPI_SUCCESS ? r.status_error : MPI_ERR_OTHER;
        error = where + "expected " + std::to_string(t.bytes) + " bytes from rank " + std::to_string(t.peer) +
                " but it sent " + (r.status_error == MPI_ERR_TRUNCATE ? "more" : std::to_string(r.status_bytes)) +
                ": the ranks passed mismatched counts or datatypes";
        return false;
    }
    return true;
}

int run_blocking(Context& ctx, Steps steps) {
    std::vector<Request*> requests;
    for (;;) {
        const bool more = steps.resume();
        auto& pending = ctx.pending();
        if (!pending.empty()) {
            requests.clear();
            for (const Transfer& t : pending) requests.push_back(t.request);
            completion::wait_all(ctx.engine, ctx.me, requests.data(), static_cast<int>(requests.size()));
            const bool ok = ctx.check_round();
            for (Request* r : requests) ctx.engine.free_request(r);
            pending.clear();
            if (!ok) return ctx.error_class;
        }
        ctx.me.clock += ctx.take_delay();
        if (!more) return MPI_SUCCESS;
    }
}

}  // namespace xsim::colls
