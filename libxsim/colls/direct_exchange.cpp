#include "libxsim/colls/direct_exchange.hpp"

#include <cstring>
#include <map>
#include <tuple>
#include <vector>

#include "libxsim/engine/layer_state.hpp"
#include "libxsim/engine/rank_buffer.hpp"
#include "libxsim/mpi/datatype.hpp"
#include "libxsim/mpi/real_mpi.hpp"

namespace xsim::colls {
namespace {

// One call's ranks that have arrived: their contexts and arguments, by communicator rank.
struct Meeting {
    CollKind kind{};
    int arrived = 0;
    std::vector<Context*> ctx;
    std::vector<const void*> args;
};

// A call is its communicator (collective context, and the world rank of its rank 0, which
// tells apart disjoint communicators that share a context) and its number there.
using CallKey = std::tuple<std::uint32_t, int, int>;

struct Meetings final : LayerState {
    static constexpr LayerSlot kSlot = LayerSlot::CollectiveMeetings;
    std::map<CallKey, Meeting> open;
};

// `b` as its owner sees it (its copy of a privatized global).
void* owned(Context& owner, void* buf, int count, MPI_Datatype type) {
    return runtime::rank_buffer(owner.engine, owner.me, buf, count, type);
}

void fail(Context& c, int error_class, const std::string& what) {
    if (c.error_class != MPI_SUCCESS) return;
    c.error_class = error_class;
    c.error = std::string(call_name(c.kind, c.nonblocking)) + " on rank " + std::to_string(c.rank) + ": " + what;
}

// Moves block `from` of rank `src` into block `to` of rank `dst`, as a message between
// them would (its length checked the same way).
void move_block(Context& src, const Block& from, Context& dst, const Block& to) {
    if (from.bytes != to.bytes) {
        const std::string text = "expected " + std::to_string(to.bytes) + " bytes from rank " +
                                 std::to_string(src.rank) + " but it sent " + std::to_string(from.bytes) +
                                 ": the ranks passed mismatched counts or datatypes";
        fail(dst, from.bytes > to.bytes ? MPI_ERR_TRUNCATE : MPI_ERR_OTHER, text);
        if (from.bytes > to.bytes) return;  // nothing is written past the receive buffer
    }
    if (from.bytes == 0 || !dst.carries(from.bytes)) return;
    copy_data(owned(src, from.buf, from.count, from.type), from.count, from.type, from.bytes,
              owned(dst, to.buf, to.count, to.type), to.count, to.type);
}

template <class Args>
const Args& args_of(const Meeting& m, int rank) {
    return *static_cast<const Args*>(m.args[static_cast<std::size_t>(rank)]);
}

// Allgather (uniform blocks of one size on every rank): every rank's block is packed once
// and each rank unpacks the whole result with one call, instead of p^2 block copies.
bool deliver_uniform_allgather(Meeting& m) {
    const int p = static_cast<int>(m.ctx.size());
    const auto from = [&](int s) {
        const AllgatherArgs& a = args_of<AllgatherArgs>(m, s);
        return a.in_place ? a.recv.block(s) : a.mine;
    };
    const std::uint64_t block = from(0).bytes;
    for (int r = 0; r < p; ++r) {
        const AllgatherArgs& a = args_of<AllgatherArgs>(m, r);
        if (!a.recv.uniform() || a.recv.bytes_of(0) != block || from(r).bytes != block) return false;
    }
    if (block == 0 || !m.ctx[0]->carries(block)) return true;
    std::vector<char> packed(block * static_cast<std::uint64_t>(p));
    for (int s = 0; s < p; ++s) {
        const Block b = from(s);
        pack_data(owned(*m.ctx[s], b.buf, b.count, b.type), b.count, b.type, packed.data() + block * s, block);
    }
    for (int d = 0; d < p; ++d) {
        const Block all = args_of<AllgatherArgs>(m, d).recv.run(0, p);
        unpack_data(packed.data(), packed.size(), owned(*m.ctx[d], all.buf, all.count, all.type), all.count,
                    all.type);
    }
    return true;
}

void deliver_allgather(Meeting& m) {
    if (deliver_uniform_allgather(m)) return;
    // Varying blocks, or sizes that disagree (reported block by block).
    const int p = static_cast<int>(m.ctx.size());
    for (int s = 0; s < p; ++s) {
        Context& src = *m.ctx[s];
        const AllgatherArgs& as = args_of<AllgatherArgs>(m, s);
        const Block from = as.in_place ? as.recv.block(s) : as.mine;
        for (int d = 0; d < p; ++d) {
            const AllgatherArgs& ad = args_of<AllgatherArgs>(m, d);
            if (d == s && ad.in_place) continue;
            move_block(src, from, *m.ctx[d], ad.recv.block(s));
        }
    }
}

void deliver_alltoall(Meeting& m) {
    const int p = static_cast<int>(m.ctx.size());
    for (int d = 0; d < p; ++d) {
        const AlltoallArgs& ad = args_of<AlltoallArgs>(m, d);
        for (int s = 0; s < p; ++s) move_block(*m.ctx[s], args_of<AlltoallArgs>(m, s).send.block(d), *m.ctx[d],
                                               ad.recv.block(s));
    }
}

std::uint64_t type_size(MPI_Datatype type) {
    int size = 0;
    real_mpi.Type_size(type, &size);
    return static_cast<std::uint64_t>(size);
}

// x_0 op x_1 op ... op x_{p-1}, in rank order whatever the op (as the linear reduce):
// into `acc`, laid out as `count` elements of `type`.
void reduce_in_rank_order(Meeting& m, const void* (*input)(const Meeting&, int), int count, MPI_Datatype type,
                          MPI_Op op, void* acc) {
    const int p = static_cast<int>(m.ctx.size());
    copy_data(owned(*m.ctx[p - 1], const_cast<void*>(input(m, p - 1)), count, type), count, type,
              static_cast<std::uint64_t>(count) * type_size(type), acc, count, type);
    for (int i = p - 2; i >= 0; --i)
        real_mpi.Reduce_local(owned(*m.ctx[i], const_cast<void*>(input(m, i)), count, type), acc, count, type, op);
}

// Every rank must pass the same count and datatype (size); otherwise the reduction would
// read past a buffer. (The op cannot be compared: each rank creates its own user ops.)
bool same_reduction(Meeting& m, std::int64_t (*count)(const Meeting&, int), MPI_Datatype (*type)(const Meeting&, int)) {
    const int p = static_cast<int>(m.ctx.size());
    const std::uint64_t bytes = static_cast<std::uint64_t>(count(m, 0)) * type_size(type(m, 0));
    bool same = true;
    for (int i = 1; i < p && same; ++i)
        same = static_cast<std::uint64_t>(count(m, i)) * type_size(type(m, i)) == bytes;
    if (!same)
        for (int i = 0; i < p; ++i)
            fail(*m.ctx[i], MPI_ERR_OTHER, "the ranks passed different counts or datatypes");
    return same;
}

void deliver_allreduce(Meeting& m) {
    const ReduceArgs& a0 = args_of<ReduceArgs>(m, 0);
    const bool same = same_reduction(
        m, [](const Meeting& mm, int i) { return std::int64_t{args_of<ReduceArgs>(mm, i).count}; },
        [](const Meeting& mm, int i) { return args_of<ReduceArgs>(mm, i).type; });
    if (!same || a0.count == 0 || !m.ctx[0]->carries(a0.bytes)) return;
    TypedScratch acc(true, a0.count, a0.type);
    reduce_in_rank_order(
        m, [](const Meeting& mm, int i) { return args_of<ReduceArgs>(mm, i).sendbuf; }, a0.count, a0.type, a0.op,
        acc.data());
    for (std::size_t d = 0; d < m.ctx.size(); ++d) {
        const ReduceArgs& ad = args_of<ReduceArgs>(m, static_cast<int>(d));
        copy_data(acc.data(), a0.count, a0.type, a0.bytes, owned(*m.ctx[d], ad.recvbuf, ad.count, ad.type), ad.count,
                  ad.type);
    }
}

void deliver_reduce_scatter(Meeting& m) {
    const ReduceScatterArgs& a0 = args_of<ReduceScatterArgs>(m, 0);
    const bool same = same_reduction(
        m, [](const Meeting& mm, int i) { return args_of<ReduceScatterArgs>(mm, i).total; },
        [](const Meeting& mm, int i) { return args_of<ReduceScatterArgs>(mm, i).type; });
    if (!same || a0.total == 0 || !m.ctx[0]->carries(a0.bytes)) return;
    const int total = static_cast<int>(a0.total);
    TypedScratch acc(true, total, a0.type);
    reduce_in_rank_order(
        m, [](const Meeting& mm, int i) { return args_of<ReduceScatterArgs>(mm, i).sendbuf; }, total, a0.type, a0.op,
        acc.data());
    for (std::size_t d = 0; d < m.ctx.size(); ++d) {
        const int rank = static_cast<int>(d);
        const ReduceScatterArgs& ad = args_of<ReduceScatterArgs>(m, rank);
        const int n = ad.count_of(rank);
        if (n == 0) continue;
        copy_data(acc.element(ad.offset_of(rank)), n, ad.type, static_cast<std::uint64_t>(n) * type_size(ad.type),
                  owned(*m.ctx[d], ad.recvbuf, n, ad.type), n, ad.type);
    }
}

void meet(Context& c, const void* args, void (*deliver)(Meeting&)) {
    if (c.size == 1) {  // nobody else: the call's own copy (MPI_COMM_SELF and the like)
        Meeting alone{c.kind, 1, {&c}, {args}};
        deliver(alone);
        return;
    }
    auto& open = layer_state<Meetings>(c.engine).open;
    const CallKey key{c.comm.collective_context(), c.tag, c.comm.world_rank(0, c.me)};
    Meeting& m = open[key];
    if (m.arrived == 0) {
        m.kind = c.kind;
        m.ctx.assign(static_cast<std::size_t>(c.size), nullptr);
        m.args.assign(static_cast<std::size_t>(c.size), nullptr);
    }
    if (m.kind != c.kind) {
        // The skeleton's messages report the mismatch to the other ranks.
        fail(c, MPI_ERR_OTHER, std::string("another rank called ") + names(m.kind).mpi +
                                   ": the ranks called different collectives");
        return;
    }
    m.ctx[static_cast<std::size_t>(c.rank)] = &c;
    m.args[static_cast<std::size_t>(c.rank)] = args;
    if (++m.arrived < c.size) return;
    deliver(m);
    open.erase(key);
}

}  // namespace

bool all_ranks_local(const Context& c) {
    const Engine& e = c.engine;
    if (e.placement().processes == 1 || c.size == 1) return true;
    if (c.size > e.local_count()) return false;
    for (int i = 0; i < c.size; ++i)
        if (!e.is_local(c.comm.world_rank(i, c.me))) return false;
    return true;
}

bool moves_data_directly(const Context& c) {
    switch (c.kind) {
        case CollKind::Barrier: return true;  // no data
        case CollKind::Allreduce:
        case CollKind::Allgather:
        case CollKind::Allgatherv:
        case CollKind::Alltoall:
        case CollKind::Alltoallv:
        case CollKind::Alltoallw:
        case CollKind::ReduceScatter:
        case CollKind::ReduceScatterBlock: return all_ranks_local(c);
        default: return false;
    }
}

void arrive(Context& c, const ReduceArgs& a) { meet(c, &a, deliver_allreduce); }
void arrive(Context& c, const AllgatherArgs& a) { meet(c, &a, deliver_allgather); }
void arrive(Context& c, const AlltoallArgs& a) { meet(c, &a, deliver_alltoall); }
void arrive(Context& c, const ReduceScatterArgs& a) { meet(c, &a, deliver_reduce_scatter); }

}  // namespace xsim::colls
