#include "libxsim/colls/nonblocking.hpp"

#include <algorithm>

#include "libxsim/completion.hpp"

namespace xsim::colls {
namespace {

Request* collective_request(Engine& engine, Rank& me, const Comm& comm, std::uint32_t signature) {
    Request* r = engine.new_request();
    r->kind = RequestKind::Collective;
    r->owner = &me;
    engine.attach_comm(r, comm);  // MPI_Comm_free may come before completion
    r->posted_at = me.clock;
    // What a deadlock report shows for a rank waiting on it (see BlockedIn).
    r->peer = MPI_PROC_NULL;
    r->tag = static_cast<int>(signature);
    r->context = comm.collective_context();
    return r;
}

}  // namespace

Nonblocking::Nonblocking(Engine& engine, Rank& me, const Comm& comm, CollKind kind, int root)
    : ctx_(engine, me, comm, kind, root, CallForm::Nonblocking),
      request_(collective_request(engine, me, comm, ctx_.signature)) {
    request_->collective = this;
}

void Nonblocking::advance() {
    for (;;) {
        posting_ = true;
        more_ = steps_.resume();
        posting_ = false;
        // Messages decided while they were posted (eager sends, receives of messages that
        // had arrived) count now; the others report through child_decided().
        SimTime done = ctx_.now;
        int undecided = 0;
        for (const Transfer& t : ctx_.pending()) {
            t.request->parent = request_;
            if (t.request->known) done = std::max(done, t.request->done_time);
            else ++undecided;
        }
        if (undecided > 0) {
            undecided_ = undecided;
            round_done_ = done;
            return;
        }
        const bool ok = end_round(ctx_, done);
        if (!ok) return finish(ctx_.error_class);
        if (!more_) return finish(MPI_SUCCESS);
    }
}

void Nonblocking::finish(int error_class) {
    steps_ = Steps{};  // the frames (and the scratch they hold) go now
    Request* r = request_;
    r->status_error = error_class;
    r->known = true;
    r->done_time = ctx_.now;
    completion::decided(ctx_.engine, r);  // may release r, and this with it
}

void child_decided(Engine&, Request* child) {
    Nonblocking& nb = *child->parent->collective;
    if (nb.posting_) return;
    nb.round_done_ = std::max(nb.round_done_, child->done_time);
    if (--nb.undecided_ > 0) return;
    if (!end_round(nb.ctx_, nb.round_done_)) return nb.finish(nb.ctx_.error_class);
    if (!nb.more_) return nb.finish(MPI_SUCCESS);
    nb.advance();
}

Request* start_empty(Engine& engine, Rank& me, const Comm& comm, CollKind kind) {
    Request* r = collective_request(engine, me, comm, collective_signature(kind, 0, true));
    r->known = true;
    r->done_time = me.clock;
    return r;
}

}  // namespace xsim::colls
