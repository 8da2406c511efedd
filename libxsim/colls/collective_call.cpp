#include "libxsim/colls/collective_call.hpp"

#include <algorithm>
#include <utility>

#include "libxsim/p2p/completion.hpp"

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
    r->nonblocking_collective = signature_nonblocking(signature);
    r->context = comm.collective_context();
    return r;
}

// A persistent request started again: active and undecided, posted now. Its owner, its
// communicator (the application's, whose collective context names it in a deadlock
// report) and its target (the definition) stay.
Request* restarted(Rank& me, Request* r, std::uint32_t signature) {
    r->active = true;
    r->known = false;
    r->in_wait = false;
    r->status_error = MPI_SUCCESS;
    r->done_time = 0;
    r->posted_at = me.clock;
    r->wait_kind = WaitKind::None;
    r->cause_rank = -1;
    r->cause_time = 0;
    r->tag = static_cast<int>(signature);
    r->nonblocking_collective = signature_nonblocking(signature);
    return r;
}

}  // namespace

CollectiveCall::CollectiveCall(Engine& engine, Rank& me, const Comm& comm, CollKind kind, int root, CallForm form,
                               Request* again)
    : ctx_(engine, me, comm, kind, root, form) {
    request_ = again ? restarted(me, again, ctx_.signature) : collective_request(engine, me, comm, ctx_.signature);
    if (!again) request_->collective = this;
    ctx_.told_of_completions = true;  // child_decided()
    path_ = me.path;
    path_.settle(ctx_.now);
    ctx_.from = &path_;  // what the steps post leaves from the call's progress, not the rank's clock
    if (EventObserver* observer = engine.observer()) [[unlikely]]
        observer->on_collective_begin(me, this, *request_, comm, static_cast<int>(kind), names(kind).rooted ? root : -1,
                                      form == CallForm::Nonblocking, ctx_.now);
}

void CollectiveCall::observe_round(EventObserver& observer) const {
    std::uint64_t sent = 0, received = 0;
    for (const Transfer& t : const_cast<Context&>(ctx_).pending()) (t.receive ? received : sent) += t.bytes;
    observer.on_collective_round(this, sent, received);
}

bool CollectiveCall::close_round(SimTime done, const CriticalPath& done_path) {
    if (done > ctx_.now) path_ = done_path;  // ties: the call's own progress; before end_round frees its request
    const bool ok = end_round(ctx_, done);
    path_.settle(ctx_.now);                 // with the round's delay
    return ok;
}

CollectiveCall::~CollectiveCall() {
    steps_ = Steps{};
    release_spare_receive();
}

void CollectiveCall::release_spare_receive() {
    if (Request* spare = std::exchange(ctx_.spare_receive, nullptr)) ctx_.engine.free_request(spare);
}

void CollectiveCall::advance() {
    ArenaScope in_arena(arena_);
    // User reduction operations called by these steps run on this rank's globals.
    runtime::Privatization::ForRank owner(ctx_.engine.privatization(),
                                          ctx_.engine.local_index(ctx_.me),
                                          ctx_.engine.current() != nullptr);
    for (;;) {
        posting_ = true;
        more_ = steps_.resume();
        posting_ = false;
        if (EventObserver* observer = ctx_.engine.observer()) [[unlikely]]
            observe_round(*observer);
        // Messages decided while they were posted (eager sends, receives of messages that
        // had arrived) count now; the others report through child_decided().
        SimTime done = ctx_.now;
        round_path_ = &path_;  // the path of `done`
        int undecided = 0;
        auto& pending = ctx_.pending();
        std::size_t kept = 0;
        for (const Transfer& t : pending) {
            if (t.request->known) {
                if (t.request->done_time > done) round_path_ = &t.request->path;
                done = std::max(done, t.request->done_time);
                // A decided send (eager) is done with: free it while it is in cache rather
                // than at the end of the round, when it would have to be fetched again
                // (unless its path is the round's so far: end_round frees it then).
                if (!t.receive && round_path_ != &t.request->path) {
                    ctx_.engine.free_request(t.request);
                    continue;
                }
            } else {
                t.request->parent_call = this;
                ++undecided;
            }
            pending[kept++] = t;
        }
        pending.resize(kept);
        if (undecided > 0) {
            undecided_ = undecided;
            round_done_ = done;
            return;
        }
        const bool ok = close_round(done, *round_path_);
        if (!ok) return finish(ctx_.error_class);
        if (!more_) return finish(MPI_SUCCESS);
    }
}

void CollectiveCall::finish(int error_class) {
    steps_ = Steps{};  // the frames (and the scratch they hold) go now
    release_spare_receive();
    Request* r = request_;
    r->status_error = error_class;
    r->known = true;
    r->done_time = ctx_.now;
    r->path = path_;
    r->wait_kind = ctx_.wait_kind;  // wait states: the latest entry this rank depended on
    r->cause_time = ctx_.stamp.time;
    r->cause_rank = ctx_.stamp.rank;
    if (EventObserver* observer = ctx_.engine.observer()) [[unlikely]]
        observer->on_collective_end(ctx_.me, this, ctx_.now);
    completion::decided(ctx_.engine, r);  // may release r, and this with it
}

void CollectiveCall::child_decided(Engine&, Request* child) {
    if (posting_) return;
    // No ArenaScope here: ending a round allocates nothing, and advance() names the arena
    // for the steps it resumes (two calls per message saved).
    if (child->done_time > round_done_) round_path_ = &child->path;
    round_done_ = std::max(round_done_, child->done_time);
    if (--undecided_ > 0) return;
    if (!close_round(round_done_, *round_path_)) return finish(ctx_.error_class);
    if (!more_) return finish(MPI_SUCCESS);
    advance();
}

Request* start_empty(Engine& engine, Rank& me, const Comm& comm, CollKind kind) {
    Request* r = collective_request(engine, me, comm, collective_signature(kind, 0, true));
    r->known = true;
    r->done_time = me.clock;
    r->path = me.path;
    r->path.settle(me.clock);
    return r;
}

void start_empty_again(Rank& me, Request* r) {
    restarted(me, r, static_cast<std::uint32_t>(r->tag));
    r->known = true;
    r->done_time = me.clock;
    r->path = me.path;
    r->path.settle(me.clock);
}

}  // namespace xsim::colls
