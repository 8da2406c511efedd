#include "libxsim/colls/make_intercomm.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "libxsim/colls/collective_call.hpp"
#include "libxsim/colls/schedule.hpp"
#include "libxsim/colls/make_comm.hpp"
#include "libxsim/colls/make_comm_split.hpp"
#include "libxsim/mpi/attributes.hpp"
#include "libxsim/mpi/group.hpp"

namespace xsim {
namespace {

constexpr std::uint64_t kInter = 0x696e74, kLocal = 0x6c6f63, kMerge = 0x6d7267, kInterDup = 0x696475,
                        kInterSplit = 0x697370, kInterCreate = 0x696372;

// [size, first, stride, explicit?, members...]: O(1) for regular groups.
std::vector<std::int32_t> encode_group(const Group& g) {
    std::vector<std::int32_t> out{g.size, g.first, g.stride, g.regular() ? 0 : 1};
    if (!g.regular()) out.insert(out.end(), g.members.begin(), g.members.end());
    return out;
}

Group* decode_group(const std::int32_t* in) {
    if (in[3] == 0) return make_range_group(in[1], in[2], in[0]);
    return make_group(std::vector<int>(in + 4, in + 4 + in[0]));
}

// Messages of unknown length go as their length, then their data.
void send_sized(colls::Context& c, int peer, std::vector<std::int32_t>& data, std::int64_t& length) {
    length = static_cast<std::int64_t>(data.size());
    c.send_bytes(peer, &length, sizeof length);
    c.send_bytes(peer, data.data(), 4ull * data.size());
}

// Leaders: swap encoded groups (plus a header word) over the peer communicator.
colls::Steps swap_with_remote_leader(colls::Context& c, int remote, std::vector<std::int32_t>& mine,
                                     std::vector<std::int32_t>& theirs) {
    std::int64_t my_length = 0, their_length = 0;
    c.recv_bytes(remote, &their_length, sizeof their_length);
    c.send_bytes(remote, &(my_length = static_cast<std::int64_t>(mine.size())), sizeof my_length);
    co_await c.round();
    theirs.resize(static_cast<std::size_t>(their_length));
    c.recv_bytes(remote, theirs.data(), 4ull * theirs.size());
    c.send_bytes(remote, mine.data(), 4ull * mine.size());
    co_await c.round();
}

// Binomial broadcast of a vector of unknown length from `root` of c's communicator.
colls::Steps broadcast_sized(colls::Context& c, int root, std::vector<std::int32_t>& data) {
    const int rel = (c.rank - root + c.size) % c.size;
    int mask = 1;
    while (mask < c.size && !(rel & mask)) mask <<= 1;
    if (rel != 0) {
        const int parent = ((rel & ~mask) + root) % c.size;
        std::int64_t length = 0;
        c.recv_bytes(parent, &length, sizeof length);
        co_await c.round();
        data.resize(static_cast<std::size_t>(length));
        c.recv_bytes(parent, data.data(), 4ull * data.size());
        co_await c.round();
    }
    std::int64_t length = 0;
    for (mask >>= 1; mask >= 1; mask >>= 1)
        if (rel + mask < c.size) send_sized(c, (rel + mask + root) % c.size, data, length);
    co_await c.round();
}

// Linear gather of one pair of int32s per rank to rank 0 of c's communicator, in rank order.
colls::Steps gather_pairs(colls::Context& c, const std::int32_t* mine, std::vector<std::int32_t>& all) {
    if (c.rank != 0) {
        c.send_bytes(0, mine, 8);
        co_await c.round();
        co_return;
    }
    all.assign(2 * static_cast<std::size_t>(c.size), 0);
    all[0] = mine[0];
    all[1] = mine[1];
    for (int r = 1; r < c.size; ++r) c.recv_bytes(r, &all[2 * static_cast<std::size_t>(r)], 8);
    co_await c.round();
}

int run(CallScope& scope, colls::Context& ctx, colls::Steps steps, const Comm& comm) {
    ctx.carries_data = true;
    const int e = colls::run_blocking(ctx, std::move(steps));
    return e == MPI_SUCCESS ? e : scope.fail(&comm, e, ctx.error);
}

}  // namespace

int create_intercomm(CallScope& scope, const Comm& local, int local_leader, const Comm* peer, int remote_leader,
                     int tag, Comm** out) {
    *out = nullptr;
    Rank& me = scope.rank;
    Group* local_group = comm_group(local, me);
    // What the leader broadcasts: [context, remote leader's world rank, remote group...].
    std::vector<std::int32_t> shared;
    if (local.rank_of(me) == local_leader) {
        std::vector<std::int32_t> mine = encode_group(*local_group), theirs;
        mine.insert(mine.begin(), me.world);
        // Only the leaders talk on the peer communicator: not a call of all its members.
        colls::Context ctx(scope.engine, me, *peer, colls::CollKind::CommCreate, 0, colls::CallForm::Leaders);
        if (int e = run(scope, ctx, swap_with_remote_leader(ctx, remote_leader, mine, theirs), *peer)) {
            unref(local_group);
            return e;
        }
        // Both leaders derive the same context: from the peer communicator, the tag, the
        // two leaders and how often these two made an intercommunicator before (counted
        // until the leader's peer communicator is gone, context_ids.hpp).
        const int other = theirs[0];
        const std::uint64_t pair = static_cast<std::uint64_t>(std::min(me.world, other)) << 32 |
                                   static_cast<std::uint32_t>(std::max(me.world, other));
        const std::uint32_t repeat = next_repeat(peer->context, me.world, tag, pair ^ kInter);
        const ContextId id = derive_context(peer->context, pair ^ kInter,
                                            static_cast<std::uint64_t>(static_cast<std::uint32_t>(tag)) << 32 | repeat);
        shared.push_back(static_cast<std::int32_t>(id.context));
        shared.insert(shared.end(), theirs.begin(), theirs.end());
    }
    colls::Context bcast(scope.engine, me, local, colls::CollKind::CommCreate, local_leader);
    if (int e = run(scope, bcast, broadcast_sized(bcast, local_leader, shared), local)) {
        unref(local_group);
        return e;
    }
    const auto context = static_cast<std::uint32_t>(shared[0]);
    Group* remote = decode_group(shared.data() + 2);
    // Rebuild the full derivation so collisions are still detected per process.
    const ContextId id{context, (static_cast<std::uint64_t>(context) << 32) ^ kInter};
    Comm* c = new_derived_comm(me, local, local_group, local.rank_of(me), id);
    c->remote_group = remote;
    const ContextId local_id = derive_context(context, kLocal, 0);
    c->local = new_derived_comm(me, local, ref(local_group), c->my_rank, local_id);
    *out = c;
    return MPI_SUCCESS;
}

namespace {

// The caller's copy of `inter` under a new context, without agreement.
int copy_intercomm(CallScope& scope, const Comm& inter, Comm** out) {
    Comm* c = private_copy(scope.rank, inter, kInterDup);
    if (int e = copy_comm_attributes(scope, inter, c)) return e;
    *out = c;
    return MPI_SUCCESS;
}

}  // namespace

Comm* private_copy(Rank& me, const Comm& comm, std::uint64_t derivation) {
    // Every member (of both groups, for an intercommunicator) counts the communicators made
    // from `comm` alike.
    const ContextId id = derive_context(comm.context, creation_counter(me, comm)++, derivation);
    if (!comm.is_inter()) {
        Comm* c = new_derived_comm(me, comm, comm_group(comm, me), comm.rank_of(me), id);
        c->topology = comm.topology;
        return c;
    }
    Comm* c = new_derived_comm(me, comm, ref(comm.group), comm.my_rank, id);
    c->remote_group = ref(comm.remote_group);
    c->local = new_derived_comm(me, comm, ref(comm.group), comm.my_rank, derive_context(id.context, kLocal, 0));
    return c;
}

int dup_intercomm(CallScope& scope, const Comm& inter, Comm** out) {
    *out = nullptr;
    std::string why;
    const int rc = colls::run(dup_agreement(), scope.engine, scope.rank, inter, 0, colls::BarrierArgs{}, &why);
    if (rc != MPI_SUCCESS) return scope.fail(&inter, rc, why);
    return copy_intercomm(scope, inter, out);
}

int idup_intercomm(CallScope& scope, const Comm& inter, Comm** out, Request** request) {
    *out = nullptr;
    if (int e = copy_intercomm(scope, inter, out)) return e;
    *request = colls::start(dup_agreement(), scope.engine, scope.rank, inter, 0, colls::BarrierArgs{});
    return MPI_SUCCESS;
}

namespace {

// What the intercommunicator constructors share: local rank 0 of each group sends `mine`
// (built by that leader) to the other group's leader, which broadcasts it in its group.
// Returns the other group's `mine` at every member.
int exchange_between_groups(CallScope& scope, const Comm& inter, colls::CollKind kind, std::vector<std::int32_t> mine,
                            std::vector<std::int32_t>& theirs) {
    if (inter.my_rank == 0) {
        colls::Context ctx(scope.engine, scope.rank, inter, kind, 0, colls::CallForm::Leaders);
        if (int e = run(scope, ctx, swap_with_remote_leader(ctx, 0, mine, theirs), inter)) return e;
    }
    colls::Context bcast(scope.engine, scope.rank, *inter.local, kind, 0);
    return run(scope, bcast, broadcast_sized(bcast, 0, theirs), inter);
}

// The caller's intercommunicator between `local` (its own group's new intracommunicator,
// taken over) and `remote`, under a context both groups derive alike.
Comm* new_intercomm(Rank& me, const Comm& parent, Comm* local, Group* remote, const ContextId& id) {
    Comm* c = new_derived_comm(me, parent, ref(local->group), local->my_rank, id);
    c->remote_group = remote;
    c->local = local;
    return c;
}

}  // namespace

int split_intercomm(CallScope& scope, const Comm& inter, int color, int key, Comm** out) {
    *out = nullptr;
    Rank& me = scope.rank;
    // Each group splits on its own; then the leaders swap their groups' (color, key) lists.
    Comm* local = nullptr;
    if (int e = split_comm(scope, *inter.local, color, key, &local)) return e;
    const std::int32_t mine[2] = {color, key};
    std::vector<std::int32_t> pairs, theirs;
    colls::Context gather(scope.engine, me, *inter.local, colls::CollKind::CommSplit, 0);
    int e = run(scope, gather, gather_pairs(gather, mine, pairs), inter);
    if (e == MPI_SUCCESS) e = exchange_between_groups(scope, inter, colls::CollKind::CommSplit, pairs, theirs);
    // Every member counts the call, also those that get MPI_COMM_NULL.
    const std::uint32_t made = creation_counter(me, inter)++;
    if (e != MPI_SUCCESS || !local) {
        unref(local);
        return e;
    }
    // The remote members of my color, ordered by key, then by their rank (as a split orders).
    std::vector<std::pair<std::int64_t, int>> members;
    for (int r = 0; 2 * static_cast<std::size_t>(r) + 1 < theirs.size(); ++r)
        if (theirs[2 * static_cast<std::size_t>(r)] == color)
            members.emplace_back(static_cast<std::int64_t>(theirs[2 * static_cast<std::size_t>(r) + 1]) << 32 | r, r);
    if (members.empty()) {  // no remote member of this color: MPI_COMM_NULL
        unref(local);
        return MPI_SUCCESS;
    }
    std::sort(members.begin(), members.end());
    std::vector<int> worlds;
    worlds.reserve(members.size());
    for (const auto& m : members) worlds.push_back(inter.remote_group->world_of(m.second));
    const ContextId id = derive_context(inter.context, made, kInterSplit << 32 | static_cast<std::uint32_t>(color));
    *out = new_intercomm(me, inter, local, make_group(std::move(worlds)), id);
    return MPI_SUCCESS;
}

int create_intercomm_from(CallScope& scope, const Comm& inter, Group& group, Comm** out) {
    *out = nullptr;
    Rank& me = scope.rank;
    for (int i = 0; i < group.size; ++i)
        if (inter.group->rank_of_world(group.world_of(i)) == MPI_UNDEFINED)
            return scope.fail(&inter, MPI_ERR_GROUP, "the group has members outside the local group");
    std::vector<std::int32_t> theirs;
    if (int e = exchange_between_groups(scope, inter, colls::CollKind::CommCreate, encode_group(group), theirs))
        return e;
    const ContextId id = derive_context(inter.context, creation_counter(me, inter)++, kInterCreate);
    const int my_rank = group.rank_of_world(me.world);
    Group* remote = decode_group(theirs.data());
    if (my_rank == MPI_UNDEFINED || remote->size == 0) {  // MPI_COMM_NULL
        unref(remote);
        return MPI_SUCCESS;
    }
    Comm* local = new_derived_comm(me, inter, ref(&group), my_rank, derive_context(id.context, kLocal, 0));
    *out = new_intercomm(me, inter, local, remote, id);
    return MPI_SUCCESS;
}

int merge_intercomm(CallScope& scope, const Comm& inter, bool high, Comm** out) {
    *out = nullptr;
    Rank& me = scope.rank;
    // Local rank 0 of each side swaps (high, world rank of local rank 0) with the other
    // side's rank 0 over the intercommunicator, then broadcasts in its group.
    std::vector<std::int32_t> info;
    if (inter.my_rank == 0) {
        std::vector<std::int32_t> mine{high ? 1 : 0, me.world}, theirs;
        colls::Context ctx(scope.engine, me, inter, colls::CollKind::CommCreate, 0, colls::CallForm::Leaders);
        if (int e = run(scope, ctx, swap_with_remote_leader(ctx, 0, mine, theirs), inter)) return e;
        info = theirs;
    }
    colls::Context bcast(scope.engine, me, *inter.local, colls::CollKind::CommCreate, 0);
    if (int e = run(scope, bcast, broadcast_sized(bcast, 0, info), inter)) return e;
    const bool remote_high = info[0] != 0;
    const int my_first = inter.group->world_of(0), their_first = info[1];
    const bool local_first = high != remote_high ? !high : my_first < their_first;
    const Group& a = local_first ? *inter.group : *inter.remote_group;
    const Group& b = local_first ? *inter.remote_group : *inter.group;
    const ContextId id = derive_context(inter.context, creation_counter(me, inter)++, kMerge);
    // One merged group per process: every member would otherwise list both groups.
    const std::uint64_t key = static_cast<std::uint64_t>(id.context) << 32 | static_cast<std::uint32_t>(a.world_of(0));
    Group* merged = find_shared_group(key);
    if (!merged) {
        std::vector<int> worlds;
        worlds.reserve(static_cast<std::size_t>(a.size + b.size));
        for (int i = 0; i < a.size; ++i) worlds.push_back(a.world_of(i));
        for (int i = 0; i < b.size; ++i) worlds.push_back(b.world_of(i));
        merged = make_group(std::move(worlds));
        share_group(key, merged);
    }
    const int my_rank = (local_first ? 0 : a.size) + inter.my_rank;
    Comm* c = new_derived_comm(me, inter, merged, my_rank, id);
    if (int e = agree_on_new_comm(scope, *c, colls::CollKind::CommCreate)) {
        unref(c);
        return e;
    }
    *out = c;
    return MPI_SUCCESS;
}

}  // namespace xsim
