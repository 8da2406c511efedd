#include "libxsim/colls/intercomm_collectives.hpp"

#include <utility>
#include <vector>

#include "libxsim/colls/schedule.hpp"

namespace xsim::colls {
namespace {

// c.rank and c.size are the caller's rank and size in its own group; c.send / c.recv name
// ranks of the remote group, c.send_local / c.recv_local ranks of the caller's group.

Block nothing() { return Block{nullptr, 0, MPI_BYTE, 0}; }
int remote_size(const Context& c) { return c.comm.peer_size(); }

// Binomial broadcast of `data` from local rank 0 within the group.
Steps group_bcast(Context& c, Block data) {
    int mask = 1;
    for (; mask < c.size; mask <<= 1) {
        if (c.rank & mask) {
            c.recv_local(c.rank - mask, data);
            co_await c.round();
            break;
        }
    }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (c.rank + mask < c.size) c.send_local(c.rank + mask, data);
    co_await c.round();
}

// Binomial reduction of the group's a.sendbuf (a.count elements) into `result` at local
// rank 0, lower ranks' data on the left (any op).
Steps group_reduce(Context& c, ReduceArgs a, void* result) {
    const BlocksOfShape whole(a.count, a.type);
    TypedScratch scratch(c.payload, 2 * a.count, a.type);
    void* acc = scratch.data();
    void* tmp = scratch.element(a.count);
    copy_block(c.payload, whole(a.sendbuf), whole(acc));
    for (int mask = 1; mask < c.size; mask <<= 1) {
        if (c.rank & mask) {
            c.send_local(c.rank - mask, whole(acc));
            co_await c.round();
            break;
        }
        if (c.rank + mask < c.size) {
            c.recv_local(c.rank + mask, whole(tmp));
            co_await c.round();
            combine(c.payload, acc, tmp, a.count, a.type, a.op);  // tmp = acc op tmp
            std::swap(acc, tmp);
        }
    }
    if (c.rank == 0) copy_block(c.payload, whole(acc), whole(result));
}

// Every member's `mine` gathered at local rank 0 into `blocks` (in rank order), in one round.
Steps group_gather(Context& c, Block mine, Blocks blocks) {
    if (c.rank != 0) {
        c.send_local(0, mine);
        co_await c.round();
        co_return;
    }
    copy_block(c.payload, mine, blocks.block(0));
    for (int r = 1; r < c.size; ++r) c.recv_local(r, blocks.block(r));
    co_await c.round();
}

// No member leaves before every member of both groups has entered: each group gathers at
// its leader, the leaders swap, each leader releases its group.
Steps barrier(Context& c, const BarrierArgs&) {
    if (c.rank != 0) {
        c.send_local(0, nothing());
        co_await c.round();
        c.recv_local(0, nothing());
        co_await c.round();
        co_return;
    }
    for (int r = 1; r < c.size; ++r) c.recv_local(r, nothing());
    co_await c.round();
    c.recv(0, nothing());
    c.send(0, nothing());
    co_await c.round();
    for (int r = 1; r < c.size; ++r) c.send_local(r, nothing());
    co_await c.round();
}

// The root sends to the other group's leader, which broadcasts in its group.
Steps bcast(Context& c, const BcastArgs& a) {
    if (a.root == MPI_PROC_NULL) co_return;
    if (a.root == MPI_ROOT) {
        c.send(0, a.data);
        co_await c.round();
        co_return;
    }
    if (c.rank == 0) {
        c.recv(a.root, a.data);
        co_await c.round();
    }
    XSIM_CO_RUN(c, group_bcast(c, a.data));
}

// The sending group reduces at its leader, which sends the result to the root.
Steps reduce(Context& c, const ReduceArgs& a) {
    if (a.root == MPI_PROC_NULL) co_return;
    const BlocksOfShape whole(a.count, a.type);
    if (a.root == MPI_ROOT) {
        c.recv(0, whole(a.recvbuf));
        co_await c.round();
        co_return;
    }
    TypedScratch sum(c.payload && c.rank == 0, a.count, a.type);
    XSIM_CO_RUN(c, group_reduce(c, a, sum.data()));
    if (c.rank == 0) {
        c.send(a.root, whole(sum.data()));
        co_await c.round();
    }
}

// Each group reduces at its leader, the leaders swap, each broadcasts what it got.
Steps allreduce(Context& c, const ReduceArgs& a) {
    const BlocksOfShape whole(a.count, a.type);
    TypedScratch sum(c.payload && c.rank == 0, a.count, a.type);
    XSIM_CO_RUN(c, group_reduce(c, a, sum.data()));
    if (c.rank == 0) {
        c.recv(0, whole(a.recvbuf));
        c.send(0, whole(sum.data()));
        co_await c.round();
    }
    XSIM_CO_RUN(c, group_bcast(c, whole(a.recvbuf)));
}

// Gather(v) and Scatter(v): directly between the root and the other group, one round.
Steps gather(Context& c, const RootedArgs& a) {
    if (a.root == MPI_PROC_NULL) co_return;
    if (a.root == MPI_ROOT) {
        for (int i = 0; i < remote_size(c); ++i) c.recv(i, a.blocks.block(i));
    } else {
        c.send(a.root, a.mine);
    }
    co_await c.round();
}
Steps scatter(Context& c, const RootedArgs& a) {
    if (a.root == MPI_PROC_NULL) co_return;
    if (a.root == MPI_ROOT) {
        for (int i = 0; i < remote_size(c); ++i) c.send(i, a.blocks.block(i));
    } else {
        c.recv(a.root, a.mine);
    }
    co_await c.round();
}

// Allgather: each group gathers at its leader (in its own send type: the members' types may
// differ, their signatures may not), the leaders swap, each broadcasts. Allgatherv: the
// blocks differ in size and only their receivers know the sizes, so every member sends
// its block to every remote rank.
Steps allgather(Context& c, const AllgatherArgs& a) {
    if (!a.recv.uniform()) {
        for (int i = 0; i < remote_size(c); ++i) c.recv(i, a.recv.block(i));
        for (int i = 0; i < remote_size(c); ++i) c.send(i, a.mine);
        co_await c.round();
        co_return;
    }
    const bool leader = c.rank == 0;
    TypedScratch group(c.payload && leader, a.mine.count * c.size, a.mine.type);
    XSIM_CO_RUN(c, group_gather(c, a.mine, uniform_blocks(group.data(), a.mine.count, a.mine.type)));
    const Block theirs = a.recv.run(0, remote_size(c));
    if (leader) {
        c.recv(0, theirs);
        c.send(0, Block{group.data(), a.mine.count * c.size, a.mine.type, a.mine.bytes * static_cast<std::uint64_t>(c.size)});
        co_await c.round();
    }
    XSIM_CO_RUN(c, group_bcast(c, theirs));
}

// Alltoall(v, w): block i to and from remote rank i, one round.
Steps alltoall(Context& c, const AlltoallArgs& a) {
    for (int i = 0; i < remote_size(c); ++i) c.recv(i, a.recv.block(i));
    for (int i = 0; i < remote_size(c); ++i) c.send(i, a.send.block(i));
    co_await c.round();
}

// Reduce_scatter(_block): each group reduces its a.total elements at its leader, the leaders
// swap, each leader hands its members their parts (a.counts / a.block describe its group).
Steps reduce_scatter(Context& c, const ReduceScatterArgs& a) {
    const bool leader = c.rank == 0;
    const int total = static_cast<int>(a.total);  // at most INT_MAX (checked by the binding)
    TypedScratch mine(c.payload && leader, total, a.type), theirs(c.payload && leader, total, a.type);
    ReduceArgs r;
    r.sendbuf = a.sendbuf;
    r.count = total;
    r.type = a.type;
    r.op = a.op;
    r.commutative = a.commutative;
    r.bytes = a.bytes;
    XSIM_CO_RUN(c, group_reduce(c, r, mine.data()));
    const std::uint64_t type_size = a.total > 0 ? a.bytes / static_cast<std::uint64_t>(a.total) : 0;
    // Member i's part of the result at `base` (its elements from offset_of(i)).
    auto part = [&](void* base, int i) {
        return Block{element(base, a.type, a.offset_of(i)), a.count_of(i), a.type,
                     type_size * static_cast<std::uint64_t>(a.count_of(i))};
    };
    const Block my_part{a.recvbuf, a.count_of(c.rank), a.type, type_size * static_cast<std::uint64_t>(a.count_of(c.rank))};
    if (leader) {
        c.recv(0, Block{theirs.data(), total, a.type, a.bytes});
        c.send(0, Block{mine.data(), total, a.type, a.bytes});
        co_await c.round();
        copy_block(c.payload, part(theirs.data(), 0), my_part);
        for (int i = 1; i < c.size; ++i) c.send_local(i, part(theirs.data(), i));
    } else {
        c.recv_local(0, my_part);
    }
    co_await c.round();
}

}  // namespace

template <>
const Algorithm<BarrierArgs>* intercomm_algorithm(CollKind) {
    static const Algorithm<BarrierArgs> a{{"intercommunicator", "gather at each leader, leaders swap, release"}, barrier,
                                          nullptr, nullptr};
    return &a;
}
template <>
const Algorithm<BcastArgs>* intercomm_algorithm(CollKind) {
    static const Algorithm<BcastArgs> a{{"intercommunicator", "root to the other leader, binomial in its group"}, bcast,
                                        nullptr, nullptr};
    return &a;
}
template <>
const Algorithm<ReduceArgs>* intercomm_algorithm(CollKind kind) {
    static const Algorithm<ReduceArgs> r{{"intercommunicator", "binomial in the sending group, its leader to the root"},
                                         reduce, nullptr, nullptr};
    static const Algorithm<ReduceArgs> ar{{"intercommunicator", "reduce at each leader, leaders swap, broadcast"},
                                          allreduce, nullptr, nullptr};
    return kind == CollKind::Reduce ? &r : kind == CollKind::Allreduce ? &ar : nullptr;  // no Scan, Exscan
}
template <>
const Algorithm<RootedArgs>* intercomm_algorithm(CollKind kind) {
    static const Algorithm<RootedArgs> g{{"intercommunicator", "the other group to the root, one round"}, gather,
                                         nullptr, nullptr};
    static const Algorithm<RootedArgs> s{{"intercommunicator", "the root to the other group, one round"}, scatter,
                                         nullptr, nullptr};
    return kind == CollKind::Gather || kind == CollKind::Gatherv ? &g : &s;
}
template <>
const Algorithm<AllgatherArgs>* intercomm_algorithm(CollKind) {
    static const Algorithm<AllgatherArgs> a{{"intercommunicator", "gather at each leader, leaders swap, broadcast"},
                                            allgather, nullptr, nullptr};
    return &a;
}
template <>
const Algorithm<AlltoallArgs>* intercomm_algorithm(CollKind) {
    static const Algorithm<AlltoallArgs> a{{"intercommunicator", "every pair of ranks across, one round"}, alltoall,
                                           nullptr, nullptr};
    return &a;
}
template <>
const Algorithm<ReduceScatterArgs>* intercomm_algorithm(CollKind) {
    static const Algorithm<ReduceScatterArgs> a{{"intercommunicator", "reduce at each leader, leaders swap, scatter"},
                                                reduce_scatter, nullptr, nullptr};
    return &a;
}
template <>
const Algorithm<NeighborArgs>* intercomm_algorithm(CollKind) {
    return nullptr;  // topologies are on intracommunicators only
}

}  // namespace xsim::colls
