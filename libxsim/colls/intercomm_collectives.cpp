#include "libxsim/colls/intercomm_collectives.hpp"

#include <climits>
#include <string>
#include <vector>

#include "libxsim/colls/algorithms.hpp"
#include "libxsim/colls/schedule.hpp"

namespace xsim::colls {
namespace {

// One round of messages between the groups: receive `in` from `from` and send `out` to `to`
// (either may be absent: a peer < 0).
Steps exchange(Context& c, int from, Block in, int to, Block out) {
    if (from >= 0) c.recv(from, in);
    if (to >= 0) c.send(to, out);
    co_await c.round();
}
// Gather (receive block i from remote rank i) or Scatter at the root, in one round.
Steps with_every_remote(Context& c, int remote_size, const Blocks& blocks, bool receive) {
    for (int i = 0; i < remote_size; ++i) {
        if (receive) c.recv(i, blocks.block(i));
        else c.send(i, blocks.block(i));
    }
    co_await c.round();
}
Steps to_every_remote(Context& c, int remote_size, const AllgatherArgs& a) {
    for (int i = 0; i < remote_size; ++i) c.recv(i, a.recv.block(i));
    for (int i = 0; i < remote_size; ++i) c.send(i, a.mine);
    co_await c.round();
}
Steps all_to_all(Context& c, int remote_size, const AlltoallArgs& a) {
    for (int i = 0; i < remote_size; ++i) c.recv(i, a.recv.block(i));
    for (int i = 0; i < remote_size; ++i) c.send(i, a.send.block(i));
    co_await c.round();
}

int run_steps(CallScope& scope, Context& ctx, Steps steps, const Comm& inter) {
    const int e = run_blocking(ctx, std::move(steps));
    return e == MPI_SUCCESS ? e : scope.fail(&inter, e, ctx.error);
}

// A collective of the caller's own group (inter.local), selected as on any communicator.
template <class Args>
int in_group(CallScope& scope, const Comm& inter, const Collective<Args>& table, const Args& a) {
    std::string why;
    const int rc = run(table, scope.engine, scope.rank, *inter.local, 0, a, &why);
    return rc == MPI_SUCCESS ? rc : scope.fail(&inter, rc, why);
}

// The messages of this call between the groups (the call's number on the
// intercommunicator is taken here, by every member).
struct Across {
    Across(CallScope& scope, const Comm& inter, CollKind kind) : ctx(scope.engine, scope.rank, inter, kind, 0) {}
    Context ctx;
};

// Reduces the group's sendbufs into `result` at its leader (local rank 0).
int reduce_to_leader(CallScope& scope, const Comm& inter, const ReduceArgs& a, void* result) {
    ReduceArgs local = a;
    local.recvbuf = result;
    local.root = 0;
    local.in_place = false;
    return in_group(scope, inter, reduce_table(), local);
}

Block whole(void* buf, int count, MPI_Datatype type, std::uint64_t bytes) { return Block{buf, count, type, bytes}; }

}  // namespace

int intercomm_barrier(CallScope& scope, const Comm& inter, CollKind kind) {
    BarrierArgs none;
    if (int e = in_group(scope, inter, barrier_table(), none)) return e;
    Across across(scope, inter, kind);
    if (inter.my_rank == 0)
        if (int e = run_steps(scope, across.ctx, exchange(across.ctx, 0, Block{}, 0, Block{}), inter)) return e;
    return in_group(scope, inter, barrier_table(), none);
}

int intercomm_bcast(CallScope& scope, const Comm& inter, const BcastArgs& a) {
    Across across(scope, inter, CollKind::Bcast);
    if (a.root == MPI_PROC_NULL) return MPI_SUCCESS;
    if (a.root == MPI_ROOT) return run_steps(scope, across.ctx, exchange(across.ctx, -1, {}, 0, a.data), inter);
    if (inter.my_rank == 0)
        if (int e = run_steps(scope, across.ctx, exchange(across.ctx, a.root, a.data, -1, {}), inter)) return e;
    BcastArgs local = a;
    local.root = 0;
    return in_group(scope, inter, bcast_table(), local);
}

int intercomm_reduce(CallScope& scope, const Comm& inter, const ReduceArgs& a) {
    Across across(scope, inter, CollKind::Reduce);
    if (a.root == MPI_PROC_NULL) return MPI_SUCCESS;
    const Block result_at_root = whole(a.recvbuf, a.count, a.type, a.bytes);
    if (a.root == MPI_ROOT) return run_steps(scope, across.ctx, exchange(across.ctx, 0, result_at_root, -1, {}), inter);
    const bool leader = inter.my_rank == 0;
    TypedScratch result(across.ctx.payload && leader, a.count, a.type);
    if (int e = reduce_to_leader(scope, inter, a, result.data())) return e;
    if (!leader) return MPI_SUCCESS;
    const Block out = whole(result.data(), a.count, a.type, a.bytes);
    return run_steps(scope, across.ctx, exchange(across.ctx, -1, {}, a.root, out), inter);
}

int intercomm_allreduce(CallScope& scope, const Comm& inter, const ReduceArgs& a) {
    Across across(scope, inter, CollKind::Allreduce);
    const bool leader = inter.my_rank == 0;
    TypedScratch mine(across.ctx.payload && leader, a.count, a.type);
    if (int e = reduce_to_leader(scope, inter, a, mine.data())) return e;
    const Block result = whole(a.recvbuf, a.count, a.type, a.bytes);
    if (leader) {
        const Block out = whole(mine.data(), a.count, a.type, a.bytes);
        if (int e = run_steps(scope, across.ctx, exchange(across.ctx, 0, result, 0, out), inter)) return e;
    }
    return in_group(scope, inter, bcast_table(), BcastArgs{result, 0});
}

int intercomm_rooted(CallScope& scope, const Comm& inter, const RootedArgs& a, bool gather) {
    // (Gather and Gatherv, Scatter and Scatterv run alike: the signature need only tell them
    // from the other collectives.)
    Across across(scope, inter, gather ? CollKind::Gather : CollKind::Scatter);
    if (a.root == MPI_PROC_NULL) return MPI_SUCCESS;
    if (a.root == MPI_ROOT)
        return run_steps(scope, across.ctx, with_every_remote(across.ctx, inter.peer_size(), a.blocks, gather), inter);
    Steps steps = gather ? exchange(across.ctx, -1, {}, a.root, a.mine) : exchange(across.ctx, a.root, a.mine, -1, {});
    return run_steps(scope, across.ctx, std::move(steps), inter);
}

int intercomm_allgather(CallScope& scope, const Comm& inter, const AllgatherArgs& a) {
    Across across(scope, inter, a.recv.uniform() ? CollKind::Allgather : CollKind::Allgatherv);
    // Allgatherv: the blocks differ in size, and only their receivers know the sizes: each
    // member sends its block to every remote rank (O(remote size) messages per rank).
    if (!a.recv.uniform()) return run_steps(scope, across.ctx, to_every_remote(across.ctx, inter.peer_size(), a), inter);
    const bool leader = inter.my_rank == 0;
    const std::int64_t total = static_cast<std::int64_t>(a.mine.count) * inter.size;
    if (total > INT_MAX) return scope.fail(&inter, MPI_ERR_COUNT, "the group's blocks exceed INT_MAX elements");
    // The group's blocks, gathered at its leader in rank order (its own send type: the
    // members' types may differ, their signatures may not).
    TypedScratch group(across.ctx.payload && leader, static_cast<int>(total), a.mine.type);
    RootedArgs g;
    g.root = 0;
    g.mine = a.mine;
    if (leader) g.blocks = uniform_blocks(group.data(), a.mine.count, a.mine.type);
    if (int e = in_group(scope, inter, gather_table(), g)) return e;
    const Block theirs = a.recv.run(0, inter.peer_size());
    if (leader) {
        const Block out = whole(group.data(), static_cast<int>(total), a.mine.type, a.mine.bytes * inter.size);
        if (int e = run_steps(scope, across.ctx, exchange(across.ctx, 0, theirs, 0, out), inter)) return e;
    }
    return in_group(scope, inter, bcast_table(), BcastArgs{theirs, 0});
}

int intercomm_reduce_scatter(CallScope& scope, const Comm& inter, const ReduceScatterArgs& a) {
    Across across(scope, inter, a.counts ? CollKind::ReduceScatter : CollKind::ReduceScatterBlock);
    const bool leader = inter.my_rank == 0;
    const int total = static_cast<int>(a.total);  // at most INT_MAX (checked by the binding)
    TypedScratch mine(across.ctx.payload && leader, total, a.type), theirs(across.ctx.payload && leader, total, a.type);
    ReduceArgs r;
    r.sendbuf = a.sendbuf;
    r.count = total;
    r.type = a.type;
    r.op = a.op;
    r.commutative = a.commutative;
    r.bytes = a.bytes;
    if (int e = reduce_to_leader(scope, inter, r, mine.data())) return e;
    if (leader) {
        const Block in = whole(theirs.data(), total, a.type, a.bytes), out = whole(mine.data(), total, a.type, a.bytes);
        if (int e = run_steps(scope, across.ctx, exchange(across.ctx, 0, in, 0, out), inter)) return e;
    }
    // The leader scatters the other group's result in its own group.
    std::vector<int> displs;
    RootedArgs g;
    g.root = 0;
    g.mine = whole(a.recvbuf, a.count_of(inter.my_rank), a.type, 0);
    g.mine.bytes = make_block(nullptr, g.mine.count, a.type).bytes;
    if (!a.counts) {
        if (leader) g.blocks = uniform_blocks(theirs.data(), a.block, a.type);
        return in_group(scope, inter, scatter_table(), g);
    }
    if (leader) {
        for (int i = 0; i < inter.size; ++i) displs.push_back(static_cast<int>(a.offset_of(i)));
        g.blocks = varying_blocks(theirs.data(), a.counts, displs.data(), a.type);
    }
    return in_group(scope, inter, scatterv_table(), g);
}

int intercomm_alltoall(CallScope& scope, const Comm& inter, const AlltoallArgs& a) {
    Across across(scope, inter, CollKind::Alltoall);  // Alltoallv and w alike
    return run_steps(scope, across.ctx, all_to_all(across.ctx, inter.peer_size(), a), inter);
}

}  // namespace xsim::colls
