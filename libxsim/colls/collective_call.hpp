// One rank's part in one collective call, driven by its messages: the algorithm's steps
// advance from whatever context decides a round's last message (usually the scheduler
// processing a message event), not from a waiting fiber.
//  - Nonblocking calls (MPI_Ibcast, ...): start() creates a RequestKind::Collective request
//    that owns a CollectiveCall (context, steps, a copy of the arguments and whatever they
//    point into) and runs the steps to the end of their first round on the caller's fiber.
//    The call progresses in virtual time independently of its owner, as if offloaded to
//    the NIC; it goes with the request (MPI_Wait/Test*, MPI_Request_free).
//  - Persistent collectives (MPIX_<Coll>_init, bindings/persistent_collective.hpp): each
//    MPI_Start makes a new call that drives the persistent request again (start_again()),
//    which its definition owns; the request then belongs to the definition, not the call.
//  - Blocking calls (colls::run) are driven the same way while the rank waits once for the
//    whole call: one fiber switch per call instead of one per round, and the same virtual
//    times (a round starts when the previous one completed, as on a waiting fiber).
//  - Every undecided message of a round points to the call (Request::parent_call, a
//    CompletionTarget). When the last one is decided, child_decided() ends the round (at its completion time) and
//    resumes the steps. Sends decided while posting (eager) are freed at once.
//  - When the steps end (or a round check fails), the request is decided with done_time =
//    the last round's completion and status_error; the coroutine frames are freed then.
//  - The call's coroutine frames, scratch and transfer list come from an arena inside it
//    (frame_pool.hpp), so a round touches a few adjacent cache lines, which the engine
//    prefetches before the round's message is processed.
#pragma once
#include <string>
#include <utility>

#include "libxsim/colls/call_payload.hpp"
#include "libxsim/colls/entry.hpp"

namespace xsim::colls {

class CollectiveCall : public CompletionTarget {
    // First, on the line of the vtable pointer: what every decided message of a round
    // reads and writes (child_decided), so that it does not wait on a later line.
    bool posting_ = false;   // the steps are posting a round: decisions are counted after
    bool more_ = true;       // the steps have not ended
    int undecided_ = 0;      // messages of the current round whose completion is unknown
    SimTime round_done_ = 0; // latest known completion in the current round
    // The critical path of round_done_ (engine/critical_path.hpp): path_, or that of the round's
    // request that completes last, which stays in the round until it ends. A pointer, not a
    // copy: the path is copied once, into path_, when the round ends (close_round).
    const CriticalPath* round_path_ = nullptr;

protected:
    Request* request_ = nullptr;  // here, where the line would otherwise pad the arena's alignment

public:
    CollectiveCall(const CollectiveCall&) = delete;
    CollectiveCall& operator=(const CollectiveCall&) = delete;
    ~CollectiveCall() override;

    // What the ranks disagreed about, when the request failed.
    const std::string& error() const override { return ctx_.error; }

    // A local buffer the steps are likely to touch when they resume (what the last round
    // sent from, usually what the next step combines into), for the engine to prefetch.
    const void* resume_hint() const override { return ctx_.last_send_buffer(); }

    // A message of the current round was decided: when it is the round's last, the round
    // ends (at its completion time) and the steps resume.
    void child_decided(Engine& engine, Request* child) override;

    static void* operator new(std::size_t bytes) { return frame_allocate(bytes, false); }
    static void operator delete(void* block, std::size_t bytes) { frame_release(block, bytes); }

protected:
    // `again`: an inactive persistent request to drive (start_again), else a new one.
    CollectiveCall(Engine& engine, Rank& me, const Comm& comm, CollKind kind, int root, CallForm form,
                   Request* again = nullptr);
    // Runs the steps until a round waits for undecided messages, or to the end.
    void advance();

    // Where the call's coroutine frames, scratch and transfer list go first (frame_pool.hpp).
    // Sized for a recursive-doubling allreduce (frame 192, scratch 32, two transfers 80,
    // each with its 16-byte header): every byte of it is then touched at each round, and
    // the call is 11 cache lines. Larger algorithms' blocks spill to the pool.
    alignas(16) char arena_storage_[320];
    CallArena arena_{arena_storage_, sizeof arena_storage_};
    Context ctx_;
    Steps steps_;

private:
    void finish(int error_class);
    // Frees the receive request the rounds reused (Context::spare_receive), once no round comes.
    void release_spare_receive();
    // -xsim-trace: the bytes the round just posted sends and receives (out of line: cold).
    [[gnu::noinline, gnu::cold]] void observe_round(EventObserver& observer) const;

    CriticalPath path_;  // the critical path of ctx_.now
    // Ends the round at `done` (whose path is `done_path`, which the round's end may free); false
    // on an error.
    bool close_round(SimTime done, const CriticalPath& done_path);
};

template <class Args, class Keep>
class CollectiveCallOf final : public CollectiveCall {
public:
    CollectiveCallOf(const Collective<Args>& table, Engine& engine, Rank& me, const Comm& comm, int root,
                    const Args& args, Keep&& keep, CallForm form = CallForm::Nonblocking, Request* again = nullptr)
        : CollectiveCall(engine, me, comm, table.kind, root, form, again), args_(args), keep_(std::move(keep)) {
        ArenaScope in_arena(arena_);
        const CallPayload decided = ctx_.comm.is_inter() ? intercomm_payload(ctx_) : call_payload(ctx_, args_);
        ctx_.payload = decided.any;
        ctx_.carry_below = decided.carry_below;
        steps_ = choose_algorithm(table, engine, ctx_, args_)->run(ctx_, args_);
    }
    Request* begin() {
        advance();
        return request_;
    }

private:
    const Args args_;   // the steps refer to it
    Keep keep_;         // storage args_ points into (moving a vector keeps its data)
};

struct NothingKept {};

// A round's message prefetches its call (Engine::prefetch_ahead); the common calls must fit.
static_assert(sizeof(CollectiveCallOf<ReduceArgs, NothingKept>) <= kCompletionTargetPrefetchBytes,
              "a reduction's call grew past what the engine prefetches: raise kCompletionTargetPrefetchBytes");

// Starts one rank's part of a nonblocking collective; returns its request (already
// complete when the rank's part needs no message).
template <class Args, class Keep = NothingKept>
Request* start(const Collective<Args>& table, Engine& engine, Rank& me, const Comm& comm, int root, const Args& args,
               Keep&& keep = {}) {
    auto* call = new CollectiveCallOf<Args, Keep>(table, engine, me, comm, root, args, std::move(keep));
    return call->begin();
}

// A request of a nonblocking collective that moves no data (zero counts): complete now.
Request* start_empty(Engine& engine, Rank& me, const Comm& comm, CollKind kind);

// Starts one rank's part of a persistent collective again into `request` (inactive,
// RequestKind::Collective, owned by the persistent definition, which owns the returned
// call too and deletes it before the next start or with the request). `args` must stay
// valid until the call is deleted (the definition keeps them). The messages go on
// `comm`, the definition's own communicator, whose call numbers count the starts.
template <class Args>
CollectiveCall* start_again(const Collective<Args>& table, Engine& engine, Rank& me, const Comm& comm, int root,
                            const Args& args, Request* request) {
    auto* call = new CollectiveCallOf<Args, NothingKept>(table, engine, me, comm, root, args, NothingKept{},
                                                         CallForm::Nonblocking, request);
    call->begin();
    return call;
}

// The persistent form of start_empty: `request` is complete now.
void start_empty_again(Rank& me, Request* request);

}  // namespace xsim::colls
