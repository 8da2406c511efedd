// What a trace sees of a run (report/trace/ implements it): the engine holds one observer
// pointer, null unless -xsim-trace was given, and every hook sits behind
// `if (observer) [[unlikely]]`, so an untraced run pays one predictable branch per hook.
// Hooks report, they never change what the simulation does or when (traced and untraced
// runs give identical virtual times).
#pragma once
#include <cstdint>
#include <vector>

#include "pdes/sim_time.hpp"

namespace xsim {

struct Comm;
struct Message;
struct Rank;
struct Request;

class EventObserver {
public:
    virtual ~EventObserver() = default;

    // Engine::enter, after the compute before the call was charged: `rank` entered `call`
    // at rank.clock (rank.split.depth is 1 for an outermost call).
    virtual void on_enter(const Rank& rank, const char* call) = 0;
    // Engine::leave, before the call's accounting closes: the innermost open call ends at rank.clock.
    virtual void on_leave(const Rank& rank) = 0;

    // p2p::start_send: message `m` (user: m.signature == 0; else a collective's) of send
    // request `send` leaves `sender` at send.posted_at, to communicator rank send.peer.
    virtual void on_send(const Rank& sender, const Request& send, const Message& m) = 0;
    // p2p::start_recv: `receiver` posted receive `recv` at recv.posted_at.
    virtual void on_receive_posted(const Rank& receiver, const Request& recv) = 0;
    // p2p match: receive `recv` of `receiver` was matched with message `m` (its envelope).
    virtual void on_match(const Rank& receiver, const Request& recv, const Message& m) = 0;
    // The owner learned that `r` (send or receive) completed: the end of a blocking send or
    // receive, or a wait or test that returned it; at the owner's clock.
    virtual void on_complete(const Rank& owner, const Request& r) = 0;

    // colls::CollectiveCall: one rank's part of a collective (`call` identifies it until it
    // ends) starts at `t` on `comm` (kind: colls::CollKind; root: a communicator rank or -1).
    // `request` is the call's own request: what the user waits on for a nonblocking one
    // (on_complete reports it when the owner learns it completed).
    virtual void on_collective_begin(const Rank& rank, const void* call, const Request& request, const Comm& comm,
                                     int kind, int root, bool nonblocking, SimTime t) = 0;
    // A round of that part posted sends of `sent` and receives of `received` bytes.
    virtual void on_collective_round(const void* call, std::uint64_t sent, std::uint64_t received) = 0;
    // The part completed at `t`.
    virtual void on_collective_end(const Rank& rank, const void* call, SimTime t) = 0;

    // One-sided communication (rma/). A window is known by its communicator (the duplicate
    // of the creating one that the window holds); targets are ranks of it.
    enum class RmaCollective : std::uint8_t { Create, CreateAllocate, Free, FreeDeallocate, Fence };
    enum class RmaLock : std::uint8_t { Request, Acquire, Release };
    enum class RmaGroupSync : std::uint8_t { Post, Start, Complete, Wait };
    // A window's collective (creation, MPI_Win_fence, MPI_Win_free) starts at `t` on `rank`;
    // it ends at `t` (a created window exists from then on, a freed one no more).
    virtual void on_rma_collective_begin(const Rank& rank, SimTime t) = 0;
    virtual void on_rma_collective_end(const Rank& rank, const Comm& window, RmaCollective kind, SimTime t) = 0;
    // An operation (kind: rma::OperationKind; fetch_and_op: a get-accumulate of one element)
    // leaves `origin` at its clock as event `m` to `target`, sending `sent` and fetching
    // `received` bytes; `r` is the window's request, `user` the program's (MPI_Rput...) or null.
    virtual void on_rma_operation(const Rank& origin, const Comm& window, const Request& r, const Request* user,
                                  const Message& m, int kind, int target, std::uint64_t sent,
                                  std::uint64_t received) = 0;
    // At the target's process: operation `m` changed or read rank `target`'s memory at `t`.
    virtual void on_rma_applied(const Rank& target, const Message& m, int kind, SimTime t) = 0;
    // The origin learned at its clock that the window's request `r` completed (a flush,
    // unlock, fence, MPI_Win_complete or MPI_Win_free waited for it), before it is freed.
    virtual void on_rma_completed(const Rank& origin, const Request& r) = 0;
    // A lock on `target` (-1: MPI_Win_lock_all's, on every member) requested, acquired or
    // released by `origin` at `t`.
    virtual void on_rma_lock(const Rank& origin, const Comm& window, RmaLock what, int target, bool exclusive,
                             SimTime t) = 0;
    // General active target: MPI_Win_post / start (with the group, world ranks) done, or
    // MPI_Win_complete / wait (their post's / start's group) done, at `t`.
    virtual void on_rma_group_sync(const Rank& rank, const Comm& window, RmaGroupSync what,
                                   const std::vector<int>& group, SimTime t) = 0;
    // MPI_Win_set_name: the window's name in the trace from then on.
    virtual void on_window_named(const Rank& rank, const Comm& window, const char* name) = 0;
};

}  // namespace xsim
