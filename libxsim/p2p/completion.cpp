#include "libxsim/p2p/completion.hpp"

#include <algorithm>


namespace xsim::completion {

void decided(Engine& engine, Request* r) {
    if (r->parent_call) {  // a message of a nonblocking collective: its round may be over
        r->parent_call->child_decided(engine, r);
        return;
    }
    Rank& owner = *r->owner;
    if (r->freed) {  // MPI_Request_free'd earlier: nobody will wait for it
        engine.free_request(r);
        return;
    }
    if (!r->in_wait || owner.state != RankState::Blocked) return;
    WaitSet& w = owner.wait;
    if (w.mode == WaitMode::All) {
        w.best = std::max(w.best, r->done_time);
        if (--w.unknown == 0) engine.schedule_run(owner, w.best);
    } else if (w.mode == WaitMode::Any) {
        engine.schedule_run(owner, r->done_time);
    }
}

namespace {

void begin_wait(Rank& me, WaitMode mode, Request* const* reqs, int n) {
    me.wait = WaitSet{};
    me.wait.mode = mode;
    me.blocked = BlockedIn{me.current_call, MPI_PROC_NULL, 0, 0};
    for (int i = 0; i < n; ++i) {
        Request* r = reqs[i];
        if (!r) continue;
        r->in_wait = true;
        if (!r->known) {
            ++me.wait.unknown;
            // Only this rank can complete it: the certain cause of a deadlock, named first.
            if (r->kind == RequestKind::Generalized) me.blocked.generalized = true;
            // The first undecided request names the peer in a deadlock report.
            if (me.blocked.peer == MPI_PROC_NULL && !me.blocked.nonblocking_collective) {
                me.blocked.peer = r->peer;
                me.blocked.tag = r->tag;
                me.blocked.context = r->context;
                // A blocking collective (driven like a nonblocking one) is reported as the
                // call itself, by its context.
                me.blocked.nonblocking_collective = r->nonblocking_collective;
            }
        }
    }
}

// The rank's clock moved on from `before`: it takes the critical path of the request that
// set the new clock (the first one completing then); a jump no request explains is other.
// When the clock did not move, the rank's own path stands (ties go to the rank).
void take_path(Rank& me, SimTime before, Request* const* reqs, int n) {
    if (me.clock <= before) return;
    for (int i = 0; i < n; ++i) {
        if (reqs[i] && reqs[i]->known && reqs[i]->done_time == me.clock) {
            me.path = reqs[i]->path;
            break;
        }
    }
    me.path.settle(me.clock);
}

void end_wait(Rank& me, Request* const* reqs, int n) {
    for (int i = 0; i < n; ++i)
        if (reqs[i]) reqs[i]->in_wait = false;
    me.wait.mode = WaitMode::None;
}

}  // namespace

void wait_all(Engine& engine, Rank& me, Request* const* reqs, int n) {
    const SimTime before = me.clock;
    SimTime latest = me.clock;
    bool undecided = false;
    for (int i = 0; i < n; ++i) {
        if (!reqs[i]) continue;
        if (!reqs[i]->known) undecided = true;
        else latest = std::max(latest, reqs[i]->done_time);
    }
    if (undecided) {
        begin_wait(me, WaitMode::All, reqs, n);
        me.wait.best = latest;
        const SimTime blocked_at = me.clock;
        engine.block(me);
        end_wait(me, reqs, n);
        for (int i = 0; i < n; ++i)
            if (reqs[i]) me.clock = std::max(me.clock, reqs[i]->done_time);
        split_waited(me.split, blocked_at, me.clock);
        record_wait_states(engine, me, reqs, n, me.clock - blocked_at);
    }
    me.clock = std::max(me.clock, latest);
    for (int i = 0; i < n; ++i)
        if (reqs[i]) me.clock = std::max(me.clock, reqs[i]->done_time);
    take_path(me, before, reqs, n);
}

int wait_any(Engine& engine, Rank& me, Request* const* reqs, int n) {
    engine.catch_up(me);  // every request decided at or before our clock is known now
    auto lowest_complete = [&]() {
        for (int i = 0; i < n; ++i)
            if (reqs[i] && complete(me, reqs[i])) return i;
        return -1;
    };
    bool any = false;
    SimTime earliest = kNever;
    for (int i = 0; i < n; ++i) {
        if (!reqs[i]) continue;
        any = true;
        if (reqs[i]->known) earliest = std::min(earliest, reqs[i]->done_time);
    }
    if (!any) return -1;
    int index = lowest_complete();
    if (index >= 0) return index;
    const SimTime before = me.clock;
    begin_wait(me, WaitMode::Any, reqs, n);
    if (earliest != kNever) engine.schedule_run(me, earliest);
    const SimTime blocked_at = me.clock;
    engine.block(me);
    split_waited(me.split, blocked_at, me.clock);
    end_wait(me, reqs, n);
    index = lowest_complete();
    if (index >= 0) record_wait_states(engine, me, &reqs[index], 1, me.clock - blocked_at);
    take_path(me, before, reqs, n);
    return index;
}

const Message* wait_probe(Engine& engine, Rank& me, int source, int tag, std::uint32_t context) {
    engine.catch_up(me);
    auto find = [&]() {
        return me.unexpected.find_first(
            [&](const Message& m) { return envelope_matches(m, source, tag, context); });
    };
    const Message* found = find();
    const SimTime before = me.clock;
    while (!found) {
        me.wait = WaitSet{};
        me.wait.mode = WaitMode::Probe;
        me.wait.probe_source = source;
        me.wait.probe_tag = tag;
        me.wait.probe_context = context;
        me.blocked = BlockedIn{me.current_call, source, tag, context};
        const SimTime blocked_at = me.clock;
        engine.block(me);
        split_waited(me.split, blocked_at, me.clock);
        me.wait.mode = WaitMode::None;
        found = find();
        if (found && found->signature == 0)
            record_probe_wait(engine, me, found->stamp_time, found->stamp_rank, me.clock - blocked_at);
    }
    if (me.clock > before) {  // woken by the message's arrival: its path up to then
        if (found->time == me.clock) {
            me.path = found->path;
            me.path.add_latency(found->transfer.latency);
        }
        me.path.settle(me.clock);
    }
    return found;
}

}  // namespace xsim::completion
