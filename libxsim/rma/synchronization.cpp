#include "libxsim/rma/synchronization.hpp"

#include <algorithm>
#include <string>

#include "libxsim/colls/entry.hpp"
#include "libxsim/mpi/group.hpp"
#include "libxsim/p2p/completion.hpp"
#include "libxsim/p2p/p2p.hpp"
#include "libxsim/rma/operations.hpp"

namespace xsim::rma {
namespace {

using Lock = EventObserver::RmaLock;
using GroupSync = EventObserver::RmaGroupSync;

void observe_lock(Engine& engine, const Rank& me, const Window& w, Lock what, int target, bool exclusive) {
    if (EventObserver* observer = engine.observer()) [[unlikely]]
        observer->on_rma_lock(me, *w.comm, what, target, exclusive, me.clock);
}

void observe_group_sync(Engine& engine, const Rank& me, const Window& w, GroupSync what, const std::vector<int>& group) {
    if (EventObserver* observer = engine.observer()) [[unlikely]]
        observer->on_rma_group_sync(me, *w.comm, what, group, me.clock);
}

// Tags of general active target's notices on the window's own communicator (no user traffic).
constexpr int kPostTag = 1;
constexpr int kCompleteTag = 2;

// Waits for `requests` and frees them; `operations`: they are the window's requests of
// one-sided operations, whose completion a trace records before they are freed.
void wait_and_free(Engine& engine, Rank& me, std::vector<Request*>& requests, bool operations = false) {
    if (requests.empty()) return;
    completion::wait_all(engine, me, requests.data(), static_cast<int>(requests.size()));
    if (EventObserver* observer = engine.observer(); observer && operations) [[unlikely]]
        for (const Request* r : requests) observer->on_rma_completed(me, *r);
    for (Request* r : requests) engine.free_request(r);
    requests.clear();
}

int comm_rank_of_world(const Window& w, int world) { return w.comm->group->rank_of_world(world); }

// A zero-byte notice to `world` on the window's communicator.
void notify(Engine& engine, Rank& me, Window& w, int world, int tag) {
    p2p::Buffer none;
    none.carry = p2p::Carry::Never;
    Request* r = p2p::start_send(engine, me, none, *w.comm, comm_rank_of_world(w, world), world, tag,
                                 w.comm->context, false, me.clock, me.path);
    std::vector<Request*> one{r};
    wait_and_free(engine, me, one);  // eager: complete at once
}

Request* expect(Engine& engine, Rank& me, Window& w, int world, int tag) {
    p2p::Buffer none;
    none.carry = p2p::Carry::Never;
    return p2p::start_recv(engine, me, none, *w.comm, comm_rank_of_world(w, world), tag, w.comm->context, me.clock,
                           me.path);
}

}  // namespace

void complete_operations(Engine& engine, Rank& me, Window& w, int target) {
    std::vector<Request*> done;
    auto keep = std::remove_if(w.pending.begin(), w.pending.end(), [&](const Pending& p) {
        if (target >= 0 && p.target != target) return false;
        done.push_back(p.request);
        return true;
    });
    w.pending.erase(keep, w.pending.end());
    wait_and_free(engine, me, done, true);
}

void observe_collective_begin(Engine& engine, const Rank& me) {
    if (EventObserver* observer = engine.observer()) [[unlikely]]
        observer->on_rma_collective_begin(me, me.clock);
}

void observe_collective_end(Engine& engine, const Rank& me, const Window& w, EventObserver::RmaCollective kind) {
    if (EventObserver* observer = engine.observer()) [[unlikely]]
        observer->on_rma_collective_end(me, *w.comm, kind, me.clock);
}

int window_barrier(Engine& engine, Rank& me, Window& w, std::string* why) {
    return colls::run(colls::barrier_table(), engine, me, *w.comm, 0, colls::BarrierArgs{}, why);
}

void lock(Engine& engine, Rank& me, Window& w, int target, bool exclusive, bool announce) {
    if (announce) {
        observe_lock(engine, me, w, Lock::Request, target, exclusive);
        std::vector<Request*> grant{request_lock(engine, me, w, target, exclusive)};
        wait_and_free(engine, me, grant);
    }
    observe_lock(engine, me, w, Lock::Acquire, target, exclusive);
    w.locks[target] = HeldLock{exclusive, announce};
}

void unlock(Engine& engine, Rank& me, Window& w, int target) {
    complete_operations(engine, me, w, target);
    const HeldLock held = w.locks[target];
    w.locks.erase(target);
    if (held.announced) release_lock(engine, me, w, target, held.exclusive);
    observe_lock(engine, me, w, Lock::Release, target, held.exclusive);
}

void lock_all(Engine& engine, Rank& me, Window& w, bool announce) {
    if (announce) {
        observe_lock(engine, me, w, Lock::Request, -1, false);
        std::vector<Request*> grants;
        for (int t = 0; t < w.comm->size; ++t) grants.push_back(request_lock(engine, me, w, t, false));
        wait_and_free(engine, me, grants);
    }
    observe_lock(engine, me, w, Lock::Acquire, -1, false);
    w.locked_all = true;
    w.lock_all_announced = announce;
}

void unlock_all(Engine& engine, Rank& me, Window& w) {
    complete_operations(engine, me, w, -1);
    if (w.lock_all_announced)
        for (int t = 0; t < w.comm->size; ++t) release_lock(engine, me, w, t, false);
    observe_lock(engine, me, w, Lock::Release, -1, false);
    w.locked_all = false;
}

void post(Engine& engine, Rank& me, Window& w, std::vector<int> origins, bool notify_origins) {
    // The completions are expected from now on, so that test can look without blocking.
    for (int origin : origins) w.completions.push_back(expect(engine, me, w, origin, kCompleteTag));
    if (notify_origins)
        for (int origin : origins) notify(engine, me, w, origin, kPostTag);
    observe_group_sync(engine, me, w, GroupSync::Post, origins);
    w.exposure_group = std::move(origins);
    w.exposure_epoch_started = true;
}

void start(Engine& engine, Rank& me, Window& w, std::vector<int> targets, bool wait_for_posts) {
    if (wait_for_posts) {
        std::vector<Request*> posts;
        for (int target : targets) posts.push_back(expect(engine, me, w, target, kPostTag));
        wait_and_free(engine, me, posts);
    }
    observe_group_sync(engine, me, w, GroupSync::Start, targets);
    w.access_group = std::move(targets);
    w.access_epoch_started = true;
}

void complete(Engine& engine, Rank& me, Window& w) {
    complete_operations(engine, me, w, -1);
    for (int target : w.access_group) notify(engine, me, w, target, kCompleteTag);
    observe_group_sync(engine, me, w, GroupSync::Complete, w.access_group);
    w.access_group.clear();
    w.access_epoch_started = false;
}

void wait(Engine& engine, Rank& me, Window& w) {
    wait_and_free(engine, me, w.completions);
    observe_group_sync(engine, me, w, GroupSync::Wait, w.exposure_group);
    w.exposure_group.clear();
    w.exposure_epoch_started = false;
}

bool test(Engine& engine, Rank& me, Window& w) {
    engine.catch_up(me);
    for (const Request* r : w.completions)
        if (!completion::complete(me, r)) return false;
    wait(engine, me, w);
    return true;
}

}  // namespace xsim::rma
