// Nonblocking collectives (MPI_Ibcast, ...): the same algorithm steps as the blocking
// call, driven by request completions instead of a waiting fiber.
//  - start() creates a RequestKind::Collective request that owns a Nonblocking (context,
//    steps, a copy of the arguments and whatever they point into), and runs the steps to
//    the end of their first round on the caller's fiber.
//  - Every message of a round points to that request (Request::parent). When the last one
//    is decided, child_decided() ends the round and resumes the steps, in whatever context
//    decided it (usually the scheduler processing a message event), at the round's
//    completion time: the collective progresses in virtual time independently of its
//    owner, as if offloaded to the NIC.
//  - When the steps end (or a round check fails), the request is decided with done_time =
//    the last round's completion and status_error; the coroutine frames are freed then.
//    The Nonblocking itself goes with the request (MPI_Wait/Test*, MPI_Request_free).
#pragma once
#include <string>
#include <utility>

#include "libxsim/colls/collectives.hpp"

namespace xsim::colls {

class Nonblocking {
public:
    Nonblocking(const Nonblocking&) = delete;
    Nonblocking& operator=(const Nonblocking&) = delete;
    virtual ~Nonblocking() = default;

    // What the ranks disagreed about, when the request failed.
    const std::string& error() const { return ctx_.error; }

    static void* operator new(std::size_t bytes) { return frame_allocate(bytes); }
    static void operator delete(void* block, std::size_t bytes) { frame_release(block, bytes); }

protected:
    Nonblocking(Engine& engine, Rank& me, const Comm& comm, CollKind kind, int root);
    // Runs the steps until a round waits for undecided messages, or to the end.
    void advance();

    Context ctx_;
    Steps steps_;
    Request* request_;

private:
    friend void child_decided(Engine& engine, Request* child);
    void finish(int error_class);

    bool posting_ = false;   // the steps are posting a round: decisions are counted after
    bool more_ = true;       // the steps have not ended
    int undecided_ = 0;      // messages of the current round whose completion is unknown
    SimTime round_done_ = 0; // latest known completion in the current round
};

template <class Args, class Keep>
class NonblockingCall final : public Nonblocking {
public:
    NonblockingCall(const Collective<Args>& table, Engine& engine, Rank& me, const Comm& comm, int root,
                    const Args& args, Keep&& keep)
        : Nonblocking(engine, me, comm, table.kind, root), args_(args), keep_(std::move(keep)) {
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

// Starts one rank's part of a nonblocking collective; returns its request (already
// complete when the rank's part needs no message).
template <class Args, class Keep = NothingKept>
Request* start(const Collective<Args>& table, Engine& engine, Rank& me, const Comm& comm, int root, const Args& args,
               Keep&& keep = {}) {
    auto* call = new NonblockingCall<Args, Keep>(table, engine, me, comm, root, args, std::move(keep));
    return call->begin();
}

// A request of a nonblocking collective that moves no data (zero counts): complete now.
Request* start_empty(Engine& engine, Rank& me, const Comm& comm, CollKind kind);

// completion::decided() for a message of a nonblocking collective.
void child_decided(Engine& engine, Request* child);

}  // namespace xsim::colls
